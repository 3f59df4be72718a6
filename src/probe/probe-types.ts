import type {HandlerPlan} from './handler-requests.js';
import type {SdkSchemas} from '../core/jsonrpc/sdk-checks.js';
import type {Session} from '../core/session/session.js';
import type {ExitInfo, Summary} from '../core/types.js';
import type {ProcInfo} from '../process/proc-info.js';
import type {ProcessStarter, SpawnError} from '../process/spawn.js';
import type {Opening, RequestId} from './opening.js';
import type {ProbeServer} from './probe-start.js';

// The probe's public types: what runProbe takes, tells while it waits, and returns.

/** What {@link ProbeOptions.createSession} learns before the session starts. */
export interface SessionInit {
	/** The server's pid; absent when the command could not start. */
	readonly pid?: number;
	/** ISO wall clock at tMs = 0 of this session. */
	readonly startedAt: string;
	/**
	 * `probe`: the main session; `reprobe-content-length`: the fresh process probed with Content-Length framing;
	 * `pre-initialized-check`: the fresh process sent `logging/setLevel` before `initialized` (F47).
	 */
	readonly purpose: 'probe' | 'reprobe-content-length' | 'pre-initialized-check';
	/** The TS SDK's schema checks, loaded: inject them into the session (`SessionOptions.schemas`). */
	readonly schemas: SdkSchemas;
}

/** Inputs of `runProbe`. */
export interface ProbeOptions {
	/** Program and arguments, run without a shell. */
	readonly command: readonly string[];
	/** The server's whole environment (from `buildEnv`). */
	readonly env: Readonly<Record<string, string>>;
	readonly cwd?: string;
	/**
	 * Per-request wait (ms, `--timeout`). Unset: requests wait `DEFAULT_TIMEOUT_MS` and `initialize`
	 * waits `DEFAULT_INITIALIZE_TIMEOUT_MS`. Set: every request waits this long, `initialize` too, so
	 * a shorter value is mcp-wire's own limit (a give-up then says so: `no-response` with `ownLimit`).
	 */
	readonly timeoutMs?: number;
	/**
	 * Told every second while a request is outstanding (for a progress line, `waiting for initialize
	 * 12 s / 30 s`, and the TUI's status): the method, how long it has waited and will wait (ms), and what
	 * the server was last seen doing (one line, when observed); a last call with `done` when the wait ends.
	 */
	readonly onWait?: (wait: ProbeWait) => void;
	/** Offered in `initialize`, default `2025-11-25` (`--protocol-version`); ignored when `opening` is given. */
	readonly protocolVersion?: string;
	/**
	 * What the probe sends, in what order, with which ids (default: `defaultOpening(protocolVersion)`, the
	 * TS SDK client's). A server started with `spawned` had its `initialize` written already.
	 */
	readonly opening?: Opening;
	/**
	 * Builds the session once the pid is known (SessionMeta is fixed at construction, so the caller puts
	 * `pid` and `startedAt` into its meta here). Called once for the main session and once more for a
	 * Content-Length re-probe. The caller may subscribe renderers inside it: no event has been fed yet.
	 */
	readonly createSession: (init: SessionInit) => Session;
	/**
	 * Diagnostics for stderr (never stdout: stdout may be the `--json` stream): one line each, without a
	 * `mcp-wire:` prefix, only for what is not routine (spawn errors, timeouts, signals, era, re-probe).
	 */
	readonly onLog?: (line: string) => void;
	/**
	 * Interactive mode (the TUI): after the exchange, keep the server running until `hold` resolves, and
	 * hand `onReady` a function that sends a request (ids from 100 on) and records it like any other.
	 */
	readonly interactive?: {
		readonly hold: Promise<void>;
		/** `send` returns false when nothing was written (the server exited or its stdin is closed). */
		readonly onReady?: (send: (method: string, params?: unknown) => boolean) => void;
	};
	/** Abort: stop waiting, close stdin and end the server now (SIGKILL after 1 s); no re-probe. */
	readonly signal?: AbortSignal;
	/** Re-probe a silent server with Content-Length framing (default true). */
	readonly contentLengthReprobe?: boolean;
	/**
	 * The TS SDK's schema checks, loaded or loading. When absent, `runProbe` loads them by `import()` while
	 * the server process starts, and builds the session once they are there (the server's first bytes wait,
	 * buffered, so nothing is lost or reordered); a promise is waited for the same way (a caller that also
	 * loads its own session modules meanwhile resolves it once those are there too). When given as a value
	 * (and on POSIX), the session is built before `runProbe` first yields, which the TUI relies on.
	 */
	readonly schemas?: SdkSchemas | Promise<SdkSchemas>;
	/**
	 * The main server, already started with `startProbeServer` from the same `command`, `env` and
	 * `cwd` (the CLI starts it before it loads the rest of the probe, docs/performance.md#probe-start-up). Default: `runProbe`
	 * starts it. A Content-Length re-probe always starts a fresh process itself.
	 */
	readonly spawned?: ProbeServer;
	/** How the server is started (default: `loadProcessStarter`'s for this platform). */
	readonly starter?: ProcessStarter;
	/**
	 * Handler requests to make after the lists and before `ping` (`--call`, `--call-read-only`, `--read`,
	 * `--get-prompt`; docs/protocol.md R23–R25). Default: none; nothing is called unless asked.
	 */
	readonly handlers?: HandlerPlan;
	/**
	 * Told, before each handler request is sent, what it is and where its arguments came from (one line:
	 * `tools/call get_weather, arguments generated from its inputSchema: {"city":""}`). Default: `onLog`.
	 */
	readonly onHandlerRequest?: (line: string) => void;
	/**
	 * Our own output's backlog (stdout a pipe read slower than the server writes): a promise that settles
	 * once it drained, or undefined when it can take more. While one is pending the probe reads nothing of
	 * the server (the server then blocks on its own write), so memory stays bounded; the time is marked
	 * (`output-stalled`, `output-resumed` phase marks) and left out of the waits (docs/json-records.md#mark).
	 */
	readonly outputBacklog?: () => Promise<void> | undefined;
	/** `clientInfo.version` in `initialize` (default: the session's `meta.tool.version`, which waits for the session). */
	readonly clientVersion?: string;
}

/** What {@link ProbeOptions.onWait} is told while a request is outstanding. `done` once the wait ended. */
export interface ProbeWait {
	readonly method: string;
	readonly id: RequestId;
	readonly elapsedMs: number;
	readonly limitMs: number;
	/** The last process evidence, in one line (`pid 42 (python3 s.py) sleeping on a timer`). */
	readonly seen?: string;
	/** Set on the last call: how the wait ended. */
	readonly done?: 'reply' | 'timeout' | 'eof' | 'stopped-early';
}

/** What `runProbe` found. Everything else is in the sessions. */
export interface ProbeResult {
	/** The main session, finished. */
	readonly session: Session;
	/** The main session's summary (the return value of `session.finish`). */
	readonly summary: Summary;
	/** The Content-Length re-probe session (finished), when one ran. */
	readonly reprobe?: Session;
	/** `legacy`: answered `initialize`; `modern`: rejected it naming 2026-07-28 (R19); `unknown`: no answer. */
	readonly era: 'legacy' | 'modern' | 'unknown';
	/** The server's pid, when it started. */
	readonly pid?: number;
	/** Why the command could not start (the session then holds one `spawn-failed` finding). */
	readonly spawnError?: SpawnError;
	/** How the main process ended (absent if it never started, or did not die even after SIGKILL). */
	readonly exit?: ExitInfo;
	/** True when the server stayed silent to newline-delimited JSON but answered Content-Length framing. */
	readonly answersContentLength: boolean;
	/** What the silent server was blocked on before stdin was closed (Linux), when it was read. */
	readonly procInfo?: ProcInfo;
	/** Pids of the server's tree that outlived it and that the probe ended (also `reaped` marks). */
	readonly reaped?: readonly number[];
}
