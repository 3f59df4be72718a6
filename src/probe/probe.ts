import {Buffer} from 'node:buffer';
import {createFramer} from '../core/framing/create-framer.js';
import {heldContentLengthFrame} from '../core/framing/held-reply.js';
import type {FramerOutput} from '../core/framing/framer.js';
import {classifyMessage} from '../core/jsonrpc/classify.js';
import type {SdkSchemas} from '../core/jsonrpc/sdk-checks.js';
import type {Session} from '../core/session/session.js';
import {explainStall, isWaitingForInputOnly, summarizeEvidence} from '../core/findings/support/evidence.js';
import {noResponseDraft} from '../core/findings/rules/no-response.js';
import {
	USER_STOP_PHASE,
	type ExitInfo,
	type Frame,
	type FrameKind,
	type ProcessEvidence,
	type StreamName,
	type Summary,
} from '../core/types.js';
import type {Clock} from '../process/clock.js';
import type {ProcessWatch} from '../process/proc-evidence.js';
import {readProcInfo, type ProcInfo} from '../process/proc-info.js';
import {
	DEFAULT_INITIALIZE_TIMEOUT_MS,
	DEFAULT_PROTOCOL_VERSION,
	DEFAULT_TIMEOUT_MS,
	initializeRequest,
	loadSdkSchemas,
	releaseGroup,
	startProbeServer,
	type ProbeServer,
} from './probe-start.js';
import {
	loadProcessStarter,
	nodeStarter,
	type ProcessStarter,
	type SpawnError,
	type SpawnedServer,
} from '../process/spawn.js';

export {
	DEFAULT_INITIALIZE_TIMEOUT_MS,
	DEFAULT_PROTOCOL_VERSION,
	DEFAULT_TIMEOUT_MS,
	loadSdkSchemas,
	startProbeServer,
	type ProbeServer,
} from './probe-start.js';

/** How many bytes of a Content-Length re-probe's reply are kept in the finding (`detail.replyHead`). */
export const REPLY_HEAD_BYTES = 96;
/** The revision of the stateless "modern era" (R19). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
/**
 * When the probe looks at the server's processes while a request is outstanding (ms after it was sent):
 * the stall marks. After the last one, every {@link STALL_EVERY_MS} until the reply or the timeout.
 * Two looks in a row that both find the tree blocked reading stdin (or a helper holding and reading it,
 * `stdin-inherited`) end the wait early: nothing the probe can wait for will change that.
 */
export const STALL_MARKS_MS = [1_000, 2_000, 3_000, 5_000] as const;
/** Interval of the later stall looks (ms). */
export const STALL_EVERY_MS = 5_000;
/** Two looks count as two "final" observations (the probe stops early) only this far apart, in ms. */
export const FINAL_LOOK_SPACING_MS = 500;
/**
 * How long stdout must stay quiet after a reply framed with Content-Length (header block and a whole JSON
 * body, no line end after it) before the probe stops waiting (ms). The framer holds such a frame until the
 * next byte or EOF (an LF right after the body belongs to it), and an LSP-framed server writes nothing
 * more until the next request: without this the wait runs to its limit (30 s for initialize) and the
 * frame shows at EOF. The verdict is the one the full wait gives: the same frame, at EOF after the
 * shutdown, with its `content-length-framing` finding. A server that sends the body's line end later
 * than this is taken as one that does not send it.
 */
export const CONTENT_LENGTH_SETTLE_MS = 500;
/** The Content-Length re-probe waits at most this long (ms), or the probe timeout if shorter. */
export const REPROBE_TIMEOUT_MS = 5_000;
/**
 * Shutdown grace periods (ms), as the TS SDK ≥ 1.24 `StdioClientTransport.close()` and the Python SDK do
 * (R14): close stdin, wait `afterStdinClose`, SIGTERM, wait `afterSigterm`, SIGKILL, wait `afterSigkill`.
 * After the exit, the probe keeps reading stdout/stderr up to `drainAfterExit` for the last bytes and EOF
 * (a grandchild can hold a pipe open; the probe then stops reading). When the server closed its stdout
 * before the probe began the shutdown, the probe first waits up to `exitAfterStdoutEof` for it to exit
 * on its own (an early exit, not a reaction to stdin closing).
 */
export const SHUTDOWN_MS = {
	afterStdinClose: 2_000,
	afterSigterm: 2_000,
	afterSigkill: 2_000,
	drainAfterExit: 2_000,
	exitAfterStdoutEof: 500,
} as const;

/**
 * Phase marks the probe records (`{type: 'phase', name}`), in the order they can occur:
 * `modern-era` (initialize was rejected naming 2026-07-28; the session then does not blame the rejection,
 * R19), `stopped-early` (a wait ended before its limit: the server was seen blocked reading stdin, or a
 * helper reading it, twice in a row), `content-length-reply` (a wait ended before its limit: the reply
 * came framed with Content-Length, see {@link CONTENT_LENGTH_SETTLE_MS}), `shutdown` (the R14 sequence starts), `reprobe-content-length`
 * (first mark of a re-probe session), and `stopped-by-user` ({@link USER_STOP_PHASE}: the signal aborted
 * the probe before its exchange was over).
 */
export const PROBE_PHASES = [
	'modern-era',
	'stopped-early',
	'content-length-reply',
	'shutdown',
	'reprobe-content-length',
	USER_STOP_PHASE,
] as const;

/** What {@link ProbeOptions.createSession} learns before the session starts. */
export interface SessionInit {
	/** The server's pid; absent when the command could not start. */
	readonly pid?: number;
	/** ISO wall clock at tMs = 0 of this session. */
	readonly startedAt: string;
	/** `probe`: the main session; `reprobe-content-length`: the fresh process probed with Content-Length framing. */
	readonly purpose: 'probe' | 'reprobe-content-length';
	/** The TS SDK's schema checks, loaded: inject them into the session (`SessionOptions.schemas`). */
	readonly schemas: SdkSchemas;
}

/** Inputs of {@link runProbe}. */
export interface ProbeOptions {
	/** Program and arguments, run without a shell. */
	readonly command: readonly string[];
	/** The server's whole environment (from `buildEnv`). */
	readonly env: Readonly<Record<string, string>>;
	readonly cwd?: string;
	/**
	 * Per-request wait (ms, `--timeout`). Unset: requests wait {@link DEFAULT_TIMEOUT_MS} and `initialize`
	 * waits {@link DEFAULT_INITIALIZE_TIMEOUT_MS}. Set: every request waits this long, `initialize` too, so
	 * a shorter value is mcp-wire's own limit (a give-up then says so: `no-response` with `ownLimit`).
	 */
	readonly timeoutMs?: number;
	/**
	 * Told every second while a request is outstanding (for a progress line, `waiting for initialize
	 * 12 s / 30 s`, and the TUI's status): the method, how long it has waited and will wait (ms), and what
	 * the server was last seen doing (one line, when observed); a last call with `done` when the wait ends.
	 */
	readonly onWait?: (wait: ProbeWait) => void;
	/** Offered in `initialize`, default `2025-11-25` (`--protocol-version`). */
	readonly protocolVersion?: string;
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
	 * The main server, already started with {@link startProbeServer} from the same `command`, `env` and
	 * `cwd` (the CLI starts it before it loads the rest of the probe, docs/performance.md#probe-start-up). Default: `runProbe`
	 * starts it. A Content-Length re-probe always starts a fresh process itself.
	 */
	readonly spawned?: ProbeServer;
	/** How the server is started (default: {@link loadProcessStarter}'s for this platform). */
	readonly starter?: ProcessStarter;
	/** `clientInfo.version` in `initialize` (default: the session's `meta.tool.version`, which waits for the session). */
	readonly clientVersion?: string;
}

/** What {@link ProbeOptions.onWait} is told while a request is outstanding. `done` once the wait ended. */
export interface ProbeWait {
	readonly method: string;
	readonly id: number;
	readonly elapsedMs: number;
	readonly limitMs: number;
	/** The last process evidence, in one line (`pid 42 (python3 s.py) sleeping on a timer`). */
	readonly seen?: string;
	/** Set on the last call: how the wait ended. */
	readonly done?: 'reply' | 'timeout' | 'eof' | 'stopped-early';
}

/** What {@link runProbe} found. Everything else is in the sessions. */
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

type JsonObject = Record<string, unknown>;

/**
 * Play an MCP client against a stdio server and record every byte.
 *
 * The exchange: `initialize` (id 0, newline-delimited), and after its result `notifications/initialized`,
 * then `tools/list`, `prompts/list`, `resources/list` (next ids, each only when the result's capabilities
 * advertise it), then `ping` (R8–R11, R16). The probe declares no client capabilities, and answers the
 * server's own requests as the TS SDK client does: `ping` with `{}`, anything else with -32601.
 * `initialize` waits up to {@link DEFAULT_INITIALIZE_TIMEOUT_MS} (30 s, Claude Code's startup limit) and
 * every other request {@link DEFAULT_TIMEOUT_MS}, unless `timeoutMs` is given: then every request,
 * `initialize` too, waits that long. On a timeout the probe records a `timeout` mark and shuts down. A
 * server that rejects `initialize` naming 2026-07-28 is probed with `server/discover` (and `tools/list` if
 * advertised) with per-request `_meta` (R19). Then the R14 shutdown, timed and marked: close stdin, 2 s,
 * SIGTERM, 2 s, SIGKILL. stdout and stderr are drained the whole time (O6), so bytes released at EOF or
 * exit are captured.
 *
 * Process evidence (docs/json-records.md#mark, Linux `/proc`; elsewhere marked "not observed"): while a request is
 * outstanding, at {@link STALL_MARKS_MS} and every {@link STALL_EVERY_MS} after, and at its timeout; before
 * the shutdown; after the exit. Each is an `evidence` mark the rules judge on (`unflushed-output`,
 * `stdin-inherited`, `orphaned-process`, `slow-response`). When two looks in a row find the tree blocked
 * reading stdin (everything sent was read, nothing is running) or a helper reading it, waiting longer
 * cannot help: the wait ends early (`stopped-early` phase mark, then the `timeout` mark with the time
 * actually waited).
 *
 * The server runs in a process group of its own; after its exit the probe ends every process of its tree
 * still alive (SIGTERM, then SIGKILL) and records `reaped` marks: the probe never leaks a process.
 *
 * Probe-only findings (origin `probe`), on the main session's stdout at its byte count, length 0:
 * - `spawn-failed` (detail `{file, errno, reason, command, cwd?}`): the command could not start.
 * - `no-response` (detail `{timeoutMs, clientLimitMs, ownLimit?, stoppedEarly?, stderrTail, evidence?,
 *   procInfo?, blockedOn?}`): no reply to `initialize` within the wait and nothing at all on stdout
 *   through exit. `ownLimit` (severity warning): the wait was the user's `--timeout`, shorter than 30 s.
 * - `content-length-framing` (detail `{reprobe: true, replyBytes, replyFraming, replyHead}`, replyHead = the
 *   reply's first bytes as base64): instead of
 *   `no-response` when the server was silent to newline-delimited input but a fresh process answered a
 *   `Content-Length` framed `initialize` (waits `min(timeoutMs, 5000)`).
 *
 * Time: a never-answering server costs the initialize wait + up to 4 s of shutdown, plus the re-probe
 * (`min(timeoutMs, 5000)` + its shutdown); one blocked reading stdin about 2 s after it started reading.
 *
 * @returns the finished session(s) and the outcome; never throws for anything the server does
 *   (spawn errors become `spawn-failed`); rethrows only errors thrown by `createSession` or listeners.
 */
export async function runProbe(options: ProbeOptions): Promise<ProbeResult> {
	const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	const initializeTimeoutMs = options.timeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS;
	const protocolVersion = options.protocolVersion ?? DEFAULT_PROTOCOL_VERSION;
	const log = options.onLog ?? ((): void => undefined);

	// Load zod by import() and spawn at once: the exchange runs while the schemas load, and the session,
	// built once they are there, is fed every event in order (docs/performance.md#probe-start-up).
	const schemasLoading = options.schemas ?? loadSdkSchemas();
	const starter = options.starter ?? (process.platform === 'win32' ? await loadProcessStarter() : nodeStarter);
	const spawned = options.spawned ?? startProbeServer(options, starter);
	const main = start(options, 'probe', spawned, schemasLoading);
	const {clock, server} = main;
	const started = await server.started;
	if (!started.ok) {
		const error = started.error;
		log(error.message);
		const tMs = clock.now();
		const session = await main.ready;
		// An observed mark, recorded in the capture and --json dump: the spawn-failed rule derives the finding.
		session.mark({
			type: 'observed',
			what: 'spawn-failed',
			offset: 0,
			tMs,
			detail: {
				file: error.file,
				errno: error.code,
				reason: error.reason ?? error.message,
				command: [...options.command],
				...(error.cwd === undefined ? {} : {cwd: error.cwd}),
			},
		});
		main.detach();
		return {session, summary: session.finish(tMs), era: 'unknown', spawnError: error, answersContentLength: false};
	}

	// The user quitting (or re-running) before the scripted exchange is over is no fault of the server.
	let isExchangeDone = false;
	options.signal?.addEventListener(
		'abort',
		() => {
			if (isExchangeDone) return;
			const tMs = clock.now();
			main.feed((session) => session.mark({type: 'phase', name: USER_STOP_PHASE, tMs}));
		},
		{once: true},
	);
	// Written already when the caller started the server (as a real client, right after the spawn).
	const written = spawned.initialize;
	const init = written
		? await main.request(written.message, initializeTimeoutMs, {written})
		: await main.request(
				initializeRequest(protocolVersion, options.clientVersion ?? (await main.ready).meta.tool.version),
				initializeTimeoutMs,
			);
	let era: ProbeResult['era'] = 'unknown';
	let procInfo: ProcInfo | undefined;
	let initTimeout:
		| {tMs: number; stdoutBytes: number; waitedMs: number; evidence?: ProcessEvidence; stoppedEarly?: boolean}
		| undefined;

	if (init.type === 'frame') {
		const message = init.frame.message as {result?: unknown; error?: unknown};
		if (init.frame.kind === 'error' && isModernEraError(message.error)) {
			era = 'modern';
			const tMs = clock.now();
			main.feed((session) => session.mark({type: 'phase', name: 'modern-era', tMs}));
			log('initialize rejected naming 2026-07-28: probing as a modern-era server (server/discover)');
			await modernExchange(main, timeoutMs);
		} else if (init.frame.kind === 'response') {
			era = 'legacy';
			await legacyExchange(main, asObject(message.result), timeoutMs);
		} else {
			era = 'legacy';
			log('initialize was rejected with an error');
		}
	} else if (init.type === 'timeout') {
		initTimeout = {
			tMs: init.tMs,
			stdoutBytes: main.stdoutBytes(),
			waitedMs: init.waitedMs,
			...(init.evidence ? {evidence: init.evidence} : {}),
			...(init.stoppedEarly ? {stoppedEarly: true} : {}),
		};
		procInfo = readProcInfo(started.pid);
		log(
			`no reply to initialize in ${init.waitedMs} ms${init.stoppedEarly ? ' (stopped early: the server is blocked reading stdin, waiting longer cannot help)' : ''}${init.contentLengthReply ? ' (stopped early: the reply came framed with Content-Length; no MCP client reads it)' : ''}${init.evidence ? `; ${summarizeEvidence(init.evidence)}` : procInfo ? `; ${procInfo.summary}` : ''}`,
		);
	}

	// Hold the server up for the user only once it has answered: a silent server goes straight on to the
	// shutdown and the Content-Length re-probe, so the verdict appears while the TUI is still open.
	if (options.interactive && init.type === 'frame' && !options.signal?.aborted && !server.exitInfo) {
		isExchangeDone = true;
		// The live view shows now what the plain log shows at the end (stderr-merged and other end-of-session checks).
		const settleTMs = clock.now();
		main.feed((session) => session.settle(settleTMs));
		let nextId = 100;
		options.interactive.onReady?.((method, params) => {
			const message: JsonObject & {id: number; method: string} = {jsonrpc: '2.0', id: nextId++, method};
			if (params !== undefined) message['params'] = params as never;
			// request() writes before its first await, so `onWritten` has run when it returns its promise.
			let isWritten = false;
			void main.request(message, timeoutMs, {
				onWritten: (written) => {
					isWritten = written;
				},
			});
			return isWritten;
		});
		await Promise.race([
			options.interactive.hold,
			new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve(), {once: true})),
		]);
	}

	const exit = await main.shutdown();
	const endTMs = clock.now();
	const session = await main.ready;

	let reprobeSession: Session | undefined;
	let reply: Reply | undefined;
	const stdoutSilent = initTimeout !== undefined && initTimeout.stdoutBytes === 0 && !hasServerMessage(session);
	if (stdoutSilent && options.contentLengthReprobe !== false && !options.signal?.aborted) {
		log('the server was silent to newline-delimited JSON; re-probing a fresh process with Content-Length framing');
		const result = await contentLengthReprobe(
			options,
			protocolVersion,
			Math.min(timeoutMs, REPROBE_TIMEOUT_MS),
			await schemasLoading,
			starter,
		);
		reprobeSession = result.session;
		reply = result.reply;
	}

	if (initTimeout && reply) {
		session.mark({
			type: 'observed',
			what: 'reprobe-answered',
			offset: initTimeout.stdoutBytes,
			tMs: initTimeout.tMs,
			detail: {
				reprobe: true,
				replyBytes: reply.byteLength,
				replyFraming: reply.framing,
				// The evidence lives in another process's stdout: keep its first bytes with the finding, so a
				// report or a replay can show them (base64, at most REPLY_HEAD_BYTES).
				replyHead: Buffer.from(
					reprobeSession!.getSnapshot().bytes('stdout', reply.offset, Math.min(reply.byteLength, REPLY_HEAD_BYTES)),
				).toString('base64'),
			},
		});
	} else if (initTimeout && session.streamLength('stdout') === 0) {
		const draft = noResponseDraft({
			at: initTimeout,
			timeoutMs: initTimeout.stoppedEarly ? initTimeout.waitedMs : initializeTimeoutMs,
			...(initTimeout.stoppedEarly ? {stoppedEarly: true} : {}),
			stderrTail: session.stderrTail(10),
			...(initTimeout.evidence ? {evidence: initTimeout.evidence} : {}),
			...(procInfo ? {procInfo} : {}),
		});
		session.mark({
			type: 'observed',
			what: 'no-reply',
			offset: draft.offset,
			tMs: draft.tMs,
			detail: draft.detail ?? {},
		});
	}
	const summary = session.finish(endTMs);
	return {
		session,
		summary,
		...(reprobeSession ? {reprobe: reprobeSession} : {}),
		era,
		pid: started.pid,
		...(exit ? {exit} : {}),
		answersContentLength: reply !== undefined,
		...(procInfo ? {procInfo} : {}),
		...(main.reaped.length > 0 ? {reaped: [...main.reaped]} : {}),
	};
}

/** After a successful initialize: initialized, the lists the capabilities advertise, ping (R9, R16). */
async function legacyExchange(run: Started, result: JsonObject, timeoutMs: number): Promise<void> {
	if (!run.send({jsonrpc: '2.0', method: 'notifications/initialized'})) return;
	const capabilities = asObject(result['capabilities']);
	let id = 1;
	for (const [capability, method] of [
		['tools', 'tools/list'],
		['prompts', 'prompts/list'],
		['resources', 'resources/list'],
	] as const) {
		if (capabilities[capability] === undefined || capabilities[capability] === null) continue;
		const outcome = await run.request({jsonrpc: '2.0', id: id++, method}, timeoutMs);
		if (outcome.type !== 'frame') return;
	}
	await run.request({jsonrpc: '2.0', id: id++, method: 'ping'}, timeoutMs);
}

/** A 2026-07-28 server: `server/discover`, then `tools/list` if advertised, each with per-request `_meta` (R19). */
async function modernExchange(run: Started, timeoutMs: number): Promise<void> {
	const meta = {
		'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
		'io.modelcontextprotocol/clientCapabilities': {},
	};
	const discover = await run.request(
		{jsonrpc: '2.0', id: 1, method: 'server/discover', params: {_meta: meta}},
		timeoutMs,
	);
	if (discover.type !== 'frame' || discover.frame.kind !== 'response') return;
	const result = asObject((discover.frame.message as {result?: unknown}).result);
	const capabilities = asObject(result['capabilities']);
	if (capabilities['tools'] === undefined || capabilities['tools'] === null) return;
	await run.request({jsonrpc: '2.0', id: 2, method: 'tools/list', params: {_meta: meta}}, timeoutMs);
}

/**
 * True when an `initialize` error names the 2026-07-28 revision: its message or data contains
 * `2026-07-28`, or it is `-32022` (UnsupportedProtocolVersionError) with `data.supported` (R19).
 */
export function isModernEraError(error: unknown): boolean {
	const e = asObject(error);
	if (typeof e['message'] === 'string' && e['message'].includes(MODERN_PROTOCOL_VERSION)) return true;
	if (e['data'] !== undefined && JSON.stringify(e['data']).includes(MODERN_PROTOCOL_VERSION)) return true;
	return e['code'] === -32022 && Array.isArray(asObject(e['data'])['supported']);
}

/** A fresh process, `initialize` framed with `Content-Length` headers (L1–L6); the reply is the first JSON frame on stdout. */
async function contentLengthReprobe(
	options: ProbeOptions,
	protocolVersion: string,
	timeoutMs: number,
	schemas: SdkSchemas,
	starter: ProcessStarter,
): Promise<{run?: Started; session?: Session; reply?: Reply}> {
	const run = start(options, 'reprobe-content-length', startProbeServer(options, starter), schemas);
	const session = await run.ready;
	const started = await run.server.started;
	if (!started.ok) {
		run.detach();
		session.finish(run.clock.now());
		return {run, session};
	}
	session.mark({type: 'phase', name: 'reprobe-content-length', tMs: run.clock.now()});
	const outcome = await run.request(
		initializeRequest(protocolVersion, options.clientVersion ?? session.meta.tool.version),
		timeoutMs,
		{framing: 'content-length', anyJson: true},
	);
	await run.shutdown();
	session.finish(run.clock.now());
	const answered = outcome.type === 'frame' ? outcome.frame : findServerMessage(session);
	return answered ? {run, session, reply: answered} : {run, session};
}

const isMessageKind = (frame: {readonly kind: FrameKind}): boolean => frame.kind !== 'text' && frame.kind !== 'blank';
const findServerMessage = (session: Session): Frame | undefined =>
	session.getSnapshot().frames.find((f) => f.stream === 'stdout' && isMessageKind(f));
const hasServerMessage = (session: Session): boolean => findServerMessage(session) !== undefined;

function asObject(value: unknown): JsonObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};
}

/**
 * A stdout frame as the probe's own reply watcher sees it: the core framer's frame (the same bytes give the
 * session the same frame) with its JSON-RPC kind and id.
 */
type Reply = Pick<Frame, 'stream' | 'offset' | 'byteLength' | 'framing' | 'kind' | 'id' | 'message'>;

/**
 * `frame`: the awaited reply; `timeout`: none in time (marked; `evidence`: what the server's processes
 * were doing then; `stoppedEarly`: the wait ended before the limit because the tree was blocked reading
 * stdin twice in a row; `contentLengthReply`: it ended because the reply came framed with Content-Length
 * and no line end followed it, {@link CONTENT_LENGTH_SETTLE_MS}); `eof`: stdout reached EOF first (no reply can come); `closed`: could not write.
 */
type WaitOutcome =
	| {readonly type: 'frame'; readonly frame: Reply}
	| {
			readonly type: 'timeout';
			readonly tMs: number;
			readonly waitedMs: number;
			readonly evidence?: ProcessEvidence;
			readonly stoppedEarly?: boolean;
			readonly contentLengthReply?: boolean;
	  }
	| {readonly type: 'eof'}
	| {readonly type: 'closed'};

/** One spawned process wired to one session. */
interface Started {
	/**
	 * Resolves with the session once it is built (the schemas loaded) and fed every event so far; rejects
	 * when `createSession` threw. Reading it asks for the session now (no longer deferred to the end of the exchange).
	 */
	readonly ready: Promise<Session>;
	readonly clock: Clock;
	readonly server: SpawnedServer;
	/** Apply `op` to the session now, or, before it is built, in order once it is. */
	feed(op: (session: Session) => void): void;
	/** Bytes read from the server's stdout so far. */
	stdoutBytes(): number;
	/** Pids of the server's tree the probe ended after the exit (filled by `shutdown`). */
	readonly reaped: number[];
	/** Write one message and record its bytes on stdin; false when stdin is gone. */
	send(message: JsonObject, framing?: 'newline' | 'content-length'): boolean;
	/** Send a request and wait for the stdout response with its id (or, with `anyJson`, any JSON frame). */
	/** `onWritten` is called synchronously, before the first await, with whether the bytes were written. */
	/** `written`: the request was written already (at the spawn, recorded by `start`): only wait for its reply, `timeoutMs` counted from then. */
	request(
		message: JsonObject & {id: number; method: string},
		timeoutMs: number,
		options?: {
			framing?: 'newline' | 'content-length';
			anyJson?: boolean;
			onWritten?: (written: boolean) => void;
			written?: {readonly tMs: number};
		},
	): Promise<WaitOutcome>;
	/**
	 * R14 shutdown (skipped steps once the process is gone), then drain to EOF, then end what is left of
	 * the tree (recorded as an `evidence` mark after the exit and `reaped` marks). Resolves with the exit.
	 */
	shutdown(): Promise<ExitInfo | undefined>;
	/** Stop feeding the session (pipes destroyed). */
	detach(): void;
}

/** How long the probe lets the rest of the tree go after SIGTERM before SIGKILL (ms). */
const REAP_GRACE_MS = 1_000;
/** After the output pipes reached EOF, how long children that hold no pipe may take to exit (ms). */
const EXIT_SETTLE_MS = 500;
/** How long the session's copy of an exit waits for stderr's EOF (the traceback read after the exit), in ms. */
const EXIT_HOLD_MS = 500;
/**
 * How long after the spawn the session (given as loading schemas) waits for the exchange to end before it
 * is built anyway (ms): a slow server's frames still show live, a fast one's exchange is not held up by it.
 */
const SESSION_DEFER_MS = 1_000;

/**
 * Wire a spawned server's events into a new session. The exchange does not wait for the session: the
 * probe's own framer on stdout (the core framer, so the same frames) finds the replies, while the session
 * is built once `schemas` is loaded and then fed every event so far, in order. With `schemas` given as a
 * value the session is built at once (a throwing `createSession` then throws here).
 */
function start(
	options: ProbeOptions,
	purpose: SessionInit['purpose'],
	spawned: ProbeServer,
	schemas: SdkSchemas | Promise<SdkSchemas>,
): Started {
	const log = options.onLog ?? ((): void => undefined);
	const {clock, server, tree} = spawned;
	const reaped: number[] = [];
	let firstReplyTMs: number | undefined;
	let session: Session | undefined;
	const pending: ((session: Session) => void)[] = [];
	const feed = (op: (session: Session) => void): void => {
		if (session) op(session);
		else pending.push(op);
	};
	const build = (loaded: SdkSchemas): Session => {
		let built: Session;
		try {
			built = options.createSession({
				...(server.pid === undefined ? {} : {pid: server.pid}),
				startedAt: clock.startedAt,
				purpose,
				schemas: loaded,
			});
		} catch (error) {
			server.kill('SIGKILL');
			server.dispose();
			throw error;
		}
		session = built;
		for (const op of pending.splice(0)) op(built);
		return built;
	};
	// Built once the schemas are loaded and the exchange is over (or SESSION_DEFER_MS have passed, or someone
	// awaits `ready`): what it does with the events so far (framing, detectors, the SDK's checks, the
	// renderers) then runs while the server shuts down, not between its replies and our next request.
	let releaseBuild!: () => void;
	const exchangeOver = new Promise<void>((resolve) => {
		releaseBuild = resolve;
	});
	const deferTimer = setTimeout(() => releaseBuild(), SESSION_DEFER_MS);
	deferTimer.unref();
	const release = (): void => {
		clearTimeout(deferTimer);
		releaseBuild();
	};
	const ready =
		schemas instanceof Promise
			? Promise.all([schemas, exchangeOver]).then(([loaded]) => build(loaded))
			: Promise.resolve(build(schemas));
	ready.catch(() => undefined);
	// An initialize written at the spawn comes first on the session's record, before anything the server wrote.
	const {initialize: written} = spawned;
	if (written) feed((s) => s.pushChunk('stdin', written.tMs, written.bytes));

	let attached = true;
	let stdinClosed = false;
	/** Set by the exit observation when it found no process of the tree alive and none holding a pipe. */
	let isTreeGone = false;
	const closeStdin = (): void => {
		if (stdinClosed) return;
		stdinClosed = true;
		const tMs = clock.now();
		feed((s) => s.mark({type: 'stdin-closed', tMs}));
		server.closeStdin();
		release();
	};
	const onAbort = (): void => {
		if (!attached || server.exitInfo) return;
		closeStdin();
		setTimeout(() => {
			if (!server.exitInfo) server.kill('SIGKILL');
			tree?.endAll('SIGKILL', {includeRoot: true, group: process.platform !== 'win32'});
		}, 1000).unref();
	};
	// A signal aborted before this process started (a doctor run whose --total-timeout passed while a loaded
	// machine was still starting it) never fires 'abort' again: act on it now.
	if (options.signal?.aborted === true) queueMicrotask(onAbort);
	else options.signal?.addEventListener('abort', onAbort, {once: true});
	const changed = new Set<() => void>();
	const notify = (): void => {
		for (const f of [...changed]) f();
	};

	// The reply watcher: stdout through its own core framer, each frame classified like the session does.
	const replyFramer = createFramer('stdout', {mode: 'protocol'});
	const replyListeners = new Set<(reply: Reply) => void>();
	/** Replies read before the first request waited (its reply may come before the probe's exchange started: a request written at the spawn). */
	let backlog: Reply[] | undefined = [];
	let stdoutSeq = 0;
	let stdoutOffset = 0;
	/** Bytes read from the server's stdout and stderr so far (a look is stale when it grew meanwhile). */
	let serverBytes = 0;
	/** stdout chunks from the reply framer's first pending byte on (what no frame has taken yet). */
	let unframed: {offset: number; bytes: Uint8Array}[] = [];
	const stdoutWatchers = new Set<() => void>();
	const pendingStdout = (): Uint8Array => {
		const from = replyFramer.pendingOffset;
		unframed = unframed.filter((chunk) => chunk.offset + chunk.bytes.byteLength > from);
		const parts = unframed.map((chunk) =>
			chunk.offset < from ? chunk.bytes.subarray(from - chunk.offset) : chunk.bytes,
		);
		return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
	};
	const onReply = (output: FramerOutput): void => {
		const raw = output.frame;
		const base = {
			stream: raw.stream,
			offset: raw.offset,
			byteLength: raw.byteLength,
			framing: raw.framing,
			...(raw.isJson ? {message: raw.message} : {}),
		};
		let reply: Reply;
		if (raw.isJson) {
			const cls = classifyMessage(raw.message, {direction: 'server-to-client'});
			reply = {...base, kind: cls.kind, ...(cls.hasId ? {id: cls.id ?? null} : {})};
			if (cls.kind !== 'json') firstReplyTMs ??= raw.firstTMs;
		} else {
			reply = {...base, kind: raw.isBlank ? 'blank' : 'text'};
		}
		backlog?.push(reply);
		for (const listener of [...replyListeners]) listener(reply);
	};

	/**
	 * The exit, held from the session until stderr's EOF (at most {@link EXIT_HOLD_MS}): a process's exit
	 * and its pipes' EOF are separate events, and on a loaded machine the exit often comes first, before
	 * the traceback that says why (`early-exit` quotes the stderr tail it sees). While it is held, what the
	 * session gets from stdout comes after the exit, in arrival order; stderr goes on at once.
	 */
	let heldExit: {exit: ExitInfo; after: Array<(s: Session) => void>; timer: NodeJS.Timeout} | undefined;
	const releaseExit = (): void => {
		if (!heldExit) return;
		const {exit, after, timer} = heldExit;
		heldExit = undefined;
		clearTimeout(timer);
		feed((s) => s.exit(exit));
		for (const op of after) feed(op);
	};
	/** `feed`, after the held exit for what is not stderr. */
	const feedInOrder = (stream: StreamName | undefined, op: (s: Session) => void): void => {
		if (heldExit && stream !== 'stderr') heldExit.after.push(op);
		else feed(op);
	};

	server.listen((event) => {
		if (!attached) return;
		switch (event.type) {
			case 'data':
				serverBytes += event.bytes.byteLength;
				feedInOrder(event.stream, (s) => s.pushChunk(event.stream, event.tMs, event.bytes));
				if (event.stream === 'stdout') {
					replyFramer.push(
						{seq: stdoutSeq++, stream: 'stdout', tMs: event.tMs, offset: stdoutOffset, bytes: event.bytes},
						onReply,
					);
					if (replyFramer.pendingBytes === 0) unframed = [];
					else unframed.push({offset: stdoutOffset, bytes: event.bytes});
					stdoutOffset += event.bytes.byteLength;
					for (const watcher of [...stdoutWatchers]) watcher();
				}
				break;
			case 'end':
				feedInOrder(event.stream, (s) => s.endStream(event.stream, event.tMs));
				if (event.stream === 'stdout') replyFramer.end(event.tMs, onReply);
				if (event.stream === 'stderr') releaseExit();
				break;
			case 'exit':
				if (server.ended.stderr) feed((s) => s.exit(event.exit));
				else heldExit = {exit: event.exit, after: [], timer: setTimeout(() => (releaseExit(), notify()), EXIT_HOLD_MS)};
				break;
			case 'spawn-error':
				break;
		}
		notify();
	});

	// Answer the server's requests as the TS SDK client does: `ping` with an empty result (R16), anything
	// else with -32601 (a client without the capability has no handler). Sent after the reply watcher's
	// frame was handled, so no framer or session is re-entered.
	replyListeners.add((reply) => {
		if (reply.kind !== 'request' || reply.id === undefined || reply.id === null) return;
		const {id} = reply;
		const method = (reply.message as {method?: unknown}).method;
		queueMicrotask(() => {
			if (attached)
				run.send(
					method === 'ping'
						? {jsonrpc: '2.0', id, result: {}}
						: {jsonrpc: '2.0', id, error: {code: -32601, message: 'Method not found'}},
				);
		});
	});

	/** Look at the server's processes now and record what they do as an `evidence` mark. */
	const observe = (
		reason: ProcessEvidence['reason'],
		observeOptions?: Parameters<ProcessWatch['observe']>[1],
	): ProcessEvidence | undefined => {
		if (!tree || !attached) return undefined;
		const evidence = tree.observe(reason, observeOptions);
		const tMs = clock.now();
		feed((s) => s.mark({type: 'evidence', evidence, tMs}));
		return evidence;
	};

	/**
	 * A look taken while a reply is awaited, judged only once what the server wrote before it has been
	 * read. Timers that fell due while this process had no CPU (a loaded machine) run back to back before
	 * the next read of the server's pipes: a server that already replied and went back to `read(0)` looks
	 * "blocked reading stdin" though its reply sits unread in our pipe. So the look is sampled now, the
	 * poll phase runs (it reads every byte already written), and the look is kept (recorded as an
	 * `evidence` mark, passed to `then`) only when no byte of the server's arrived meanwhile; otherwise it
	 * is dropped as stale (otherwise a healthy server starved of CPU reads as docs/findings.md#unflushed-output).
	 */
	const observeSettled = (
		reason: ProcessEvidence['reason'],
		then: (evidence: ProcessEvidence, tMs: number) => void,
	): void => {
		if (!tree || !attached) return;
		const bytesBefore = serverBytes;
		const evidence = tree.observe(reason);
		const tMs = clock.now();
		setImmediate(() => {
			if (serverBytes !== bytesBefore || !attached) return;
			feed((s) => s.mark({type: 'evidence', evidence, tMs}));
			then(evidence, tMs);
		});
	};

	/** Wait until `check` returns a value, stdout reaches EOF (with `stopOnEof`), `stop` resolves, or `ms` pass. */
	const waitUntil = <T>(
		check: () => T | undefined,
		ms: number,
		stopOnEof: boolean,
		stop?: Promise<void>,
	): Promise<{value: T} | 'timeout' | 'eof' | 'stopped'> =>
		new Promise((resolve) => {
			let isDone = false;
			const test = (): boolean => {
				const value = check();
				if (value !== undefined) {
					done({value});
					return true;
				}
				if (stopOnEof && server.ended.stdout) {
					done('eof');
					return true;
				}
				return false;
			};
			const timer = setTimeout(() => done('timeout'), ms);
			const done = (outcome: {value: T} | 'timeout' | 'eof' | 'stopped'): void => {
				if (isDone) return;
				isDone = true;
				clearTimeout(timer);
				changed.delete(onChange);
				resolve(outcome);
			};
			const onChange = (): void => {
				test();
			};
			if (!test()) {
				changed.add(onChange);
				void stop?.then(() => done('stopped'));
			}
		});

	const frameWatch = (match: (reply: Reply) => boolean): {get: () => Reply | undefined; stop: () => void} => {
		let found = backlog?.find(match);
		backlog = undefined;
		const listener = (reply: Reply): void => {
			if (found === undefined && match(reply)) found = reply;
		};
		replyListeners.add(listener);
		return {get: () => found, stop: () => replyListeners.delete(listener)};
	};

	const run: Started = {
		get ready() {
			release();
			return ready;
		},
		clock,
		server,
		feed,
		stdoutBytes: () => stdoutOffset,
		reaped,
		send(message, framing = 'newline') {
			if (stdinClosed || server.exitInfo) return false;
			const body = JSON.stringify(message);
			const bytes =
				framing === 'newline'
					? Buffer.from(`${body}\n`, 'utf8')
					: Buffer.from(`Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`, 'utf8');
			const tMs = clock.now();
			if (!server.write(bytes)) return false;
			feed((s) => s.pushChunk('stdin', tMs, bytes));
			return true;
		},
		async request(message, timeoutMs, requestOptions = {}) {
			const isReply = (f: Pick<Reply, 'kind' | 'id'>): boolean =>
				requestOptions.anyJson
					? isMessageKind(f)
					: (f.kind === 'response' || f.kind === 'error') && f.id === message.id;
			const watch = frameWatch(isReply);
			const timers: NodeJS.Timeout[] = [];
			let stopEarly!: () => void;
			let stopReason = 'stalled' as 'stalled' | 'content-length';
			const early = new Promise<void>((resolve) => {
				stopEarly = resolve;
			});
			// The reply held by the framer in a Content-Length frame (see CONTENT_LENGTH_SETTLE_MS): once stdout
			// has been quiet that long, nothing the probe waits for will come.
			let heldTimer: NodeJS.Timeout | undefined;
			const checkHeld = (): void => {
				if (watch.get() !== undefined || replyFramer.pendingBytes === 0) return;
				const held = heldContentLengthFrame(pendingStdout());
				if (held === undefined) return;
				const cls = classifyMessage(held.message, {direction: 'server-to-client'});
				if (!isReply({kind: cls.kind, ...(cls.hasId ? {id: cls.id ?? null} : {})})) return;
				stopReason = 'content-length';
				stopEarly();
			};
			const onStdout = (): void => {
				clearTimeout(heldTimer);
				if (replyFramer.pendingBytes > 0) heldTimer = setTimeout(checkHeld, CONTENT_LENGTH_SETTLE_MS);
			};
			let lastEvidence: ProcessEvidence | undefined;
			try {
				const {written: sent} = requestOptions;
				const requestTMs = sent?.tMs ?? clock.now();
				const isWritten = sent !== undefined || run.send(message, requestOptions.framing);
				requestOptions.onWritten?.(isWritten);
				if (!isWritten) return {type: 'closed'};
				// A request written before this call (at the spawn) has waited that long already.
				const sinceMs = clock.now() - requestTMs;
				stdoutWatchers.add(onStdout);
				onStdout();
				// Stall looks: at each mark, then every STALL_EVERY_MS, while the reply is outstanding.
				let finalLooks = 0;
				let lastFinalTMs = -Infinity;
				const look = (): void => {
					if (watch.get() !== undefined || server.exitInfo || !attached) return;
					observeSettled('stall', (evidence, tMs) => {
						if (watch.get() !== undefined || server.exitInfo) return;
						lastEvidence = evidence;
						const when = {requestTMs, firstReplyTMs};
						const isFinal =
							isWaitingForInputOnly(evidence, when) || explainStall(evidence, when).state === 'stdin-inherited';
						// Two final looks must be apart in time: looks that fell due together saw one instant.
						if (!isFinal) finalLooks = 0;
						else if (tMs - lastFinalTMs >= FINAL_LOOK_SPACING_MS) {
							finalLooks += 1;
							lastFinalTMs = tMs;
						}
						if (finalLooks >= 2) stopEarly();
					});
				};
				const marks: number[] = [...STALL_MARKS_MS];
				for (let at = STALL_MARKS_MS[STALL_MARKS_MS.length - 1]! + STALL_EVERY_MS; at < timeoutMs; at += STALL_EVERY_MS)
					marks.push(at);
				for (const at of marks) if (at < timeoutMs) timers.push(setTimeout(look, Math.max(0, at - sinceMs)));
				const onWait = options.onWait;
				if (onWait) {
					const tick = (): void => {
						if (watch.get() !== undefined) return;
						onWait({
							method: message.method,
							id: message.id,
							elapsedMs: clock.now() - requestTMs,
							limitMs: timeoutMs,
							...(lastEvidence ? {seen: summarizeEvidence(lastEvidence)} : {}),
						});
					};
					timers.push(setInterval(tick, 1000));
				}
				const outcome = await waitUntil(watch.get, Math.max(0, timeoutMs - sinceMs), true, early);
				for (const timer of timers) clearTimeout(timer);
				const ended = (done: NonNullable<ProbeWait['done']>): void =>
					onWait?.({
						method: message.method,
						id: message.id,
						elapsedMs: clock.now() - requestTMs,
						limitMs: timeoutMs,
						done,
					});
				if (outcome === 'timeout' || outcome === 'stopped') {
					// The deadline timer may have run before the read of bytes the server wrote in time (this
					// process starved of CPU): read what is there before calling it a timeout.
					await new Promise<void>((resolve) => setImmediate(resolve));
					const late = watch.get();
					if (late !== undefined) {
						ended('reply');
						return {type: 'frame', frame: late};
					}
					const evidence = server.exitInfo ? undefined : observe('timeout');
					const tMs = clock.now();
					const waitedMs = Math.round(tMs - requestTMs);
					const isHeld = outcome === 'stopped' && stopReason === 'content-length';
					if (outcome === 'stopped')
						feed((s) => s.mark({type: 'phase', name: isHeld ? 'content-length-reply' : 'stopped-early', tMs}));
					feed((s) =>
						s.mark({
							type: 'timeout',
							id: message.id,
							method: message.method,
							timeoutMs: outcome === 'stopped' ? waitedMs : timeoutMs,
							tMs,
						}),
					);
					ended(outcome === 'stopped' ? 'stopped-early' : 'timeout');
					const how = isHeld ? {contentLengthReply: true} : outcome === 'stopped' ? {stoppedEarly: true} : {};
					return {type: 'timeout', tMs, waitedMs, ...(evidence ? {evidence} : {}), ...how};
				}
				if (outcome === 'eof') {
					ended('eof');
					log(`the server closed stdout while ${message.method} (id ${message.id}) was pending`);
					return {type: 'eof'};
				}
				ended('reply');
				return {type: 'frame', frame: outcome.value};
			} finally {
				for (const timer of timers) clearTimeout(timer);
				clearTimeout(heldTimer);
				stdoutWatchers.delete(onStdout);
				watch.stop();
			}
		},
		async shutdown() {
			const exited = (): true | undefined => (server.exitInfo ? true : undefined);
			// A server that closed stdout is usually exiting: let the exit land first, so that an early exit
			// is not mistaken for a reaction to our closing stdin.
			if (server.ended.stdout && !server.exitInfo) await waitUntil(exited, SHUTDOWN_MS.exitAfterStdoutEof, false);
			if (!server.exitInfo) {
				// What the tree looks like at the end of the exchange (and every descendant is remembered).
				observe('shutdown');
				const tMs = clock.now();
				feed((s) => s.mark({type: 'phase', name: 'shutdown', tMs}));
				closeStdin();
				let outcome = await waitUntil(exited, SHUTDOWN_MS.afterStdinClose, false);
				for (const [signal, wait] of [
					['SIGTERM', SHUTDOWN_MS.afterSigterm],
					['SIGKILL', SHUTDOWN_MS.afterSigkill],
				] as const) {
					if (outcome !== 'timeout') break;
					log(`pid ${server.pid} still running ${Math.round(clock.now())} ms in; sending ${signal}`);
					const sentAt = clock.now();
					feed((s) => s.mark({type: 'signal-sent', signal, tMs: sentAt}));
					server.kill(signal);
					outcome = await waitUntil(exited, wait, false);
				}
				if (outcome === 'timeout') log(`pid ${server.pid} did not exit even after SIGKILL; giving up`);
			}
			if (server.exitInfo) {
				const eofs = await waitUntil(
					() => (server.ended.stdout && server.ended.stderr ? true : undefined),
					SHUTDOWN_MS.drainAfterExit,
					false,
				);
				if (eofs === 'timeout') log('the server exited but its stdout/stderr stayed open (a child process holds them)');
				else if (tree && tree.alive().some((pid) => pid !== server.pid)) {
					await waitUntil(
						() => (tree.alive().some((pid) => pid !== server.pid) ? undefined : true),
						EXIT_SETTLE_MS,
						false,
					);
				}
				releaseExit();
				const openPipes = (['stdout', 'stderr'] as const).filter((name) => !server.ended[name]);
				const after = observe('exit', {rootAlive: false, openPipes});
				// Nothing of the tree left a moment ago: the reap need not scan /proc again.
				if (after?.observed === true && after.processes.length === 0) isTreeGone = true;
			}
			await reap();
			run.detach();
			return server.exitInfo;
		},
		detach() {
			release();
			releaseExit();
			attached = false;
			changed.clear();
			replyListeners.clear();
			server.dispose();
		},
	};

	/**
	 * End whatever is left of the tree (the probe never leaks a process): its process group, every
	 * descendant seen, every holder of the session's pipes; SIGTERM, then SIGKILL after
	 * {@link REAP_GRACE_MS} for those still alive. Each round is marked `reaped` with the pids signalled.
	 */
	async function reap(): Promise<void> {
		if (!tree || server.pid === undefined) return;
		const endOptions = {includeRoot: !server.exitInfo, group: process.platform !== 'win32', scan: !isTreeGone};
		const record = (pids: number[], signal: 'SIGTERM' | 'SIGKILL'): void => {
			for (const pid of pids) if (!reaped.includes(pid)) reaped.push(pid);
			const tMs = clock.now();
			feed((s) => s.mark({type: 'reaped', pids, signal, tMs}));
			log(
				`ended ${pids.length} leftover process${pids.length === 1 ? '' : 'es'} of the server's tree with ${signal}: pid ${pids.join(', ')}`,
			);
		};
		const first = tree.endAll('SIGTERM', endOptions);
		if (first.length > 0) {
			record(first, 'SIGTERM');
			await waitUntil(() => (tree.alive().some((pid) => first.includes(pid)) ? undefined : true), REAP_GRACE_MS, false);
			if (tree.alive().some((pid) => first.includes(pid))) {
				const second = tree.endAll('SIGKILL', endOptions);
				if (second.length > 0) record(second, 'SIGKILL');
			}
		}
		if (server.exitInfo) releaseGroup(server.pid);
	}

	return run;
}
