import {Buffer} from 'node:buffer';
import {createFramer} from '../core/framing/create-framer.js';
import type {FramerOutput} from '../core/framing/framer.js';
import {classifyMessage} from '../core/jsonrpc/classify.js';
import type {SdkSchemas} from '../core/jsonrpc/sdk-checks.js';
import type {Session} from '../core/session/session.js';
import {USER_STOP_PHASE, type ExitInfo, type FindingDraft, type Frame, type FrameKind, type Summary} from '../core/types.js';
import {createClock, type Clock} from './clock.js';
import {readProcInfo, type ProcInfo} from './proc-info.js';
import {loadProcessStarter, nodeStarter, spawnServer, type ProcessStarter, type SpawnError, type SpawnedServer} from './spawn.js';

/** The protocol version the probe offers unless told otherwise (the latest legacy revision, R11). */
export const DEFAULT_PROTOCOL_VERSION = '2025-11-25';
/** How many bytes of a Content-Length re-probe's reply are kept in the finding (`detail.replyHead`). */
export const REPLY_HEAD_BYTES = 96;
/** The revision of the stateless "modern era" (R19). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
/** How long each request may take before the probe gives up on it (ms). */
export const DEFAULT_TIMEOUT_MS = 10_000;
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
export const SHUTDOWN_MS = {afterStdinClose: 2_000, afterSigterm: 2_000, afterSigkill: 2_000, drainAfterExit: 2_000, exitAfterStdoutEof: 500} as const;

/**
 * Phase marks the probe records (`{type: 'phase', name}`), in the order they can occur:
 * `modern-era` (initialize was rejected naming 2026-07-28; the session then does not blame the rejection,
 * R19), `shutdown` (the R14 sequence starts), `reprobe-content-length` (first mark of a re-probe session),
 * and `stopped-by-user` ({@link USER_STOP_PHASE}: the signal aborted the probe before its exchange was over).
 */
export const PROBE_PHASES = ['modern-era', 'shutdown', 'reprobe-content-length', USER_STOP_PHASE] as const;

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
	/** Per-request wait (ms), default 10 000 (`--timeout`). */
	readonly timeoutMs?: number;
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
	 * The TS SDK's schema checks, already loaded. When absent, `runProbe` loads them by `import()` while the
	 * server process starts, and builds the session once they are there (the server's first bytes wait,
	 * buffered, so nothing is lost or reordered). When given (and on POSIX), the session is built before
	 * `runProbe` first yields, which the TUI relies on.
	 */
	readonly schemas?: SdkSchemas;
	/** How the server is started (default: {@link loadProcessStarter}'s for this platform). */
	readonly starter?: ProcessStarter;
	/** `clientInfo.version` in `initialize` (default: the session's `meta.tool.version`, which waits for the session). */
	readonly clientVersion?: string;
}

/** Load the TS SDK's schema checks (zod) by `import()`: off the start-up path of a command. */
export async function loadSdkSchemas(): Promise<SdkSchemas> {
	return (await import('../core/jsonrpc/sdk-schemas.js')).SDK_SCHEMAS;
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
}

type JsonObject = Record<string, unknown>;

/**
 * Play an MCP client against a stdio server and record every byte (issue 2 item 5).
 *
 * The exchange: `initialize` (id 0, newline-delimited), and after its result `notifications/initialized`,
 * then `tools/list`, `prompts/list`, `resources/list` (next ids, each only when the result's capabilities
 * advertise it), then `ping` (R8–R11, R16). The probe declares no client capabilities, and answers the
 * server's own requests as the TS SDK client does: `ping` with `{}`, anything else with -32601. Each request waits up to `timeoutMs`; on a timeout the probe
 * records a `timeout` mark and shuts down. A server that rejects `initialize` naming 2026-07-28 is probed
 * with `server/discover` (and `tools/list` if advertised) with per-request `_meta` (R19). Then the R14
 * shutdown, timed and marked: close stdin, 2 s, SIGTERM, 2 s, SIGKILL. stdout and stderr are drained
 * the whole time (O6), so bytes released at EOF or exit are captured (the session derives
 * `unflushed-output`, `early-exit`, `shutdown-timeout` from the chunks and marks).
 *
 * Probe-only findings (origin `probe`), on the main session's stdout at its byte count, length 0:
 * - `spawn-failed` (detail `{file, errno, reason, command, cwd?}`): the command could not start.
 * - `no-response` (detail `{timeoutMs, stderrTail, procInfo?, blockedOn?}`): no reply to `initialize`
 *   within the timeout and nothing at all on stdout through exit. `procInfo` is read from Linux /proc
 *   BEFORE stdin is closed.
 * - `content-length-framing` (detail `{reprobe: true, replyBytes, replyFraming, replyHead}`, replyHead = the
 *   reply's first bytes as base64): instead of
 *   `no-response` when the server was silent to newline-delimited input but a fresh process answered a
 *   `Content-Length` framed `initialize` (waits `min(timeoutMs, 5000)`).
 *
 * Time: a never-answering server costs `timeoutMs` + up to 4 s of shutdown, plus the re-probe
 * (`min(timeoutMs, 5000)` + its shutdown).
 *
 * @returns the finished session(s) and the outcome; never throws for anything the server does
 *   (spawn errors become `spawn-failed`); rethrows only errors thrown by `createSession` or listeners.
 */
export async function runProbe(options: ProbeOptions): Promise<ProbeResult> {
	const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	const protocolVersion = options.protocolVersion ?? DEFAULT_PROTOCOL_VERSION;
	const log = options.onLog ?? ((): void => undefined);

	// Load zod by import() and spawn at once: the exchange runs while the schemas load, and the session,
	// built once they are there, is fed every event in order (issue 12).
	const schemasLoading = options.schemas ?? loadSdkSchemas();
	const starter = options.starter ?? (process.platform === 'win32' ? await loadProcessStarter() : nodeStarter);
	const main = start(options, 'probe', spawnOnly(options, starter), schemasLoading);
	const {clock, server} = main;
	const started = await server.started;
	if (!started.ok) {
		const error = started.error;
		log(error.message);
		const tMs = clock.now();
		const session = await main.ready;
		session.addFinding({
			code: 'spawn-failed',
			stream: 'stdout',
			offset: 0,
			byteLength: 0,
			tMs,
			origin: 'probe',
			detail: {file: error.file, errno: error.code, reason: error.reason ?? error.message, command: [...options.command], ...(error.cwd === undefined ? {} : {cwd: error.cwd})},
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
	const version = options.clientVersion ?? (await main.ready).meta.tool.version;
	const init = await main.request(
		{jsonrpc: '2.0', id: 0, method: 'initialize', params: {protocolVersion, capabilities: {}, clientInfo: {name: 'mcp-wire', version}}},
		timeoutMs,
	);
	let era: ProbeResult['era'] = 'unknown';
	let procInfo: ProcInfo | undefined;
	let initTimeout: {tMs: number; stdoutBytes: number} | undefined;

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
		initTimeout = {tMs: init.tMs, stdoutBytes: main.stdoutBytes()};
		procInfo = readProcInfo(started.pid);
		log(`no reply to initialize in ${timeoutMs} ms${procInfo ? `; ${procInfo.summary}` : ''}`);
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
		await Promise.race([options.interactive.hold, new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve(), {once: true}))]);
	}

	const exit = await main.shutdown();
	const endTMs = clock.now();
	const session = await main.ready;

	let reprobeSession: Session | undefined;
	let reply: Reply | undefined;
	const stdoutSilent = initTimeout !== undefined && initTimeout.stdoutBytes === 0 && !hasServerMessage(session);
	if (stdoutSilent && options.contentLengthReprobe !== false && !options.signal?.aborted) {
		log('the server was silent to newline-delimited JSON; re-probing a fresh process with Content-Length framing');
		const result = await contentLengthReprobe(options, protocolVersion, Math.min(timeoutMs, REPROBE_TIMEOUT_MS), await schemasLoading, starter);
		reprobeSession = result.session;
		reply = result.reply;
	}

	if (initTimeout && reply) {
		session.addFinding({
			code: 'content-length-framing',
			stream: 'stdout',
			offset: initTimeout.stdoutBytes,
			byteLength: 0,
			tMs: initTimeout.tMs,
			origin: 'probe',
			detail: {
				reprobe: true,
				replyBytes: reply.byteLength,
				replyFraming: reply.framing,
				// The evidence lives in another process's stdout: keep its first bytes with the finding, so a
				// report or a replay can show them (base64, at most REPLY_HEAD_BYTES).
				replyHead: Buffer.from(reprobeSession!.getSnapshot().bytes('stdout', reply.offset, Math.min(reply.byteLength, REPLY_HEAD_BYTES))).toString('base64'),
			},
		});
	} else if (initTimeout && session.streamLength('stdout') === 0) {
		session.addFinding(noResponse(session, initTimeout, timeoutMs, procInfo));
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
	};
}

function noResponse(session: Session, at: {tMs: number; stdoutBytes: number}, timeoutMs: number, procInfo: ProcInfo | undefined): FindingDraft {
	return {
		code: 'no-response',
		stream: 'stdout',
		offset: at.stdoutBytes,
		byteLength: 0,
		tMs: at.tMs,
		origin: 'probe',
		detail: {
			timeoutMs,
			stderrTail: session.stderrTail(10),
			...(procInfo ? {procInfo: {processes: procInfo.processes}, blockedOn: procInfo.summary} : {}),
		},
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
	const meta = {'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION, 'io.modelcontextprotocol/clientCapabilities': {}};
	const discover = await run.request({jsonrpc: '2.0', id: 1, method: 'server/discover', params: {_meta: meta}}, timeoutMs);
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
	const run = start(options, 'reprobe-content-length', spawnOnly(options, starter), schemas);
	const session = await run.ready;
	const started = await run.server.started;
	if (!started.ok) {
		run.detach();
		session.finish(run.clock.now());
		return {run, session};
	}
	session.mark({type: 'phase', name: 'reprobe-content-length', tMs: run.clock.now()});
	const version = options.clientVersion ?? session.meta.tool.version;
	const outcome = await run.request(
		{jsonrpc: '2.0', id: 0, method: 'initialize', params: {protocolVersion, capabilities: {}, clientInfo: {name: 'mcp-wire', version}}},
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

/** `frame`: the awaited reply; `timeout`: none in time (marked); `eof`: stdout reached EOF first (no reply can come); `closed`: could not write. */
type WaitOutcome = {readonly type: 'frame'; readonly frame: Reply} | {readonly type: 'timeout'; readonly tMs: number} | {readonly type: 'eof'} | {readonly type: 'closed'};

/** One spawned process wired to one session. */
interface Started {
	/** Resolves with the session once it is built (the schemas loaded) and fed every event so far; rejects when `createSession` threw. */
	readonly ready: Promise<Session>;
	readonly clock: Clock;
	readonly server: SpawnedServer;
	/** Apply `op` to the session now, or, before it is built, in order once it is. */
	feed(op: (session: Session) => void): void;
	/** Bytes read from the server's stdout so far. */
	stdoutBytes(): number;
	/** Write one message and record its bytes on stdin; false when stdin is gone. */
	send(message: JsonObject, framing?: 'newline' | 'content-length'): boolean;
	/** Send a request and wait for the stdout response with its id (or, with `anyJson`, any JSON frame). */
	/** `onWritten` is called synchronously, before the first await, with whether the bytes were written. */
	request(message: JsonObject & {id: number; method: string}, timeoutMs: number, options?: {framing?: 'newline' | 'content-length'; anyJson?: boolean; onWritten?: (written: boolean) => void}): Promise<WaitOutcome>;
	/** R14 shutdown (skipped steps once the process is gone), then drain to EOF. Resolves with the exit. */
	shutdown(): Promise<ExitInfo | undefined>;
	/** Stop feeding the session (pipes destroyed). */
	detach(): void;
}

/** Spawn the server with a fresh session clock; its events wait (buffered) until {@link start} listens. */
function spawnOnly(options: ProbeOptions, starter: ProcessStarter): {clock: Clock; server: SpawnedServer} {
	const clock = createClock();
	const server = spawnServer(options.command, {env: options.env, ...(options.cwd === undefined ? {} : {cwd: options.cwd}), clock, starter});
	return {clock, server};
}

/**
 * Wire a spawned server's events into a new session. The exchange does not wait for the session: the
 * probe's own framer on stdout (the core framer, so the same frames) finds the replies, while the session
 * is built once `schemas` is loaded and then fed every event so far, in order. With `schemas` given as a
 * value the session is built at once (a throwing `createSession` then throws here).
 */
function start(options: ProbeOptions, purpose: SessionInit['purpose'], spawned: {clock: Clock; server: SpawnedServer}, schemas: SdkSchemas | Promise<SdkSchemas>): Started {
	const log = options.onLog ?? ((): void => undefined);
	const {clock, server} = spawned;
	let session: Session | undefined;
	const pending: ((session: Session) => void)[] = [];
	const feed = (op: (session: Session) => void): void => {
		if (session) op(session);
		else pending.push(op);
	};
	const build = (loaded: SdkSchemas): Session => {
		let built: Session;
		try {
			built = options.createSession({...(server.pid === undefined ? {} : {pid: server.pid}), startedAt: clock.startedAt, purpose, schemas: loaded});
		} catch (error) {
			server.kill('SIGKILL');
			server.dispose();
			throw error;
		}
		session = built;
		for (const op of pending.splice(0)) op(built);
		return built;
	};
	const ready = schemas instanceof Promise ? schemas.then(build) : Promise.resolve(build(schemas));
	ready.catch(() => undefined);

	let attached = true;
	let stdinClosed = false;
	const closeStdin = (): void => {
		if (stdinClosed) return;
		stdinClosed = true;
		const tMs = clock.now();
		feed((s) => s.mark({type: 'stdin-closed', tMs}));
		server.closeStdin();
	};
	const onAbort = (): void => {
		if (!attached || server.exitInfo) return;
		closeStdin();
		setTimeout(() => {
			if (!server.exitInfo) server.kill('SIGKILL');
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
	let stdoutSeq = 0;
	let stdoutOffset = 0;
	const onReply = (output: FramerOutput): void => {
		const raw = output.frame;
		const base = {stream: raw.stream, offset: raw.offset, byteLength: raw.byteLength, framing: raw.framing, ...(raw.isJson ? {message: raw.message} : {})};
		let reply: Reply;
		if (raw.isJson) {
			const cls = classifyMessage(raw.message, {direction: 'server-to-client'});
			reply = {...base, kind: cls.kind, ...(cls.hasId ? {id: cls.id ?? null} : {})};
		} else {
			reply = {...base, kind: raw.isBlank ? 'blank' : 'text'};
		}
		for (const listener of [...replyListeners]) listener(reply);
	};

	server.listen((event) => {
		if (!attached) return;
		switch (event.type) {
			case 'data':
				feed((s) => s.pushChunk(event.stream, event.tMs, event.bytes));
				if (event.stream === 'stdout') {
					replyFramer.push({seq: stdoutSeq++, stream: 'stdout', tMs: event.tMs, offset: stdoutOffset, bytes: event.bytes}, onReply);
					stdoutOffset += event.bytes.byteLength;
				}
				break;
			case 'end':
				feed((s) => s.endStream(event.stream, event.tMs));
				if (event.stream === 'stdout') replyFramer.end(event.tMs, onReply);
				break;
			case 'exit':
				feed((s) => s.exit(event.exit));
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
			if (attached) run.send(method === 'ping' ? {jsonrpc: '2.0', id, result: {}} : {jsonrpc: '2.0', id, error: {code: -32601, message: 'Method not found'}});
		});
	});

	/** Wait until `check` returns a value, stdout reaches EOF (with `stopOnEof`), or `ms` pass. */
	const waitUntil = <T>(check: () => T | undefined, ms: number, stopOnEof: boolean): Promise<{value: T} | 'timeout' | 'eof'> =>
		new Promise((resolve) => {
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
			const done = (outcome: {value: T} | 'timeout' | 'eof'): void => {
				clearTimeout(timer);
				changed.delete(onChange);
				resolve(outcome);
			};
			const onChange = (): void => {
				test();
			};
			if (!test()) changed.add(onChange);
		});

	const frameWatch = (match: (reply: Reply) => boolean): {get: () => Reply | undefined; stop: () => void} => {
		let found: Reply | undefined;
		const listener = (reply: Reply): void => {
			if (found === undefined && match(reply)) found = reply;
		};
		replyListeners.add(listener);
		return {get: () => found, stop: () => replyListeners.delete(listener)};
	};

	const run: Started = {
		ready,
		clock,
		server,
		feed,
		stdoutBytes: () => stdoutOffset,
		send(message, framing = 'newline') {
			if (stdinClosed || server.exitInfo) return false;
			const body = JSON.stringify(message);
			const bytes = framing === 'newline' ? Buffer.from(`${body}\n`, 'utf8') : Buffer.from(`Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`, 'utf8');
			const tMs = clock.now();
			if (!server.write(bytes)) return false;
			feed((s) => s.pushChunk('stdin', tMs, bytes));
			return true;
		},
		async request(message, timeoutMs, requestOptions = {}) {
			const watch = frameWatch((f) =>
				requestOptions.anyJson ? isMessageKind(f) : (f.kind === 'response' || f.kind === 'error') && f.id === message.id,
			);
			try {
				const isWritten = run.send(message, requestOptions.framing);
				requestOptions.onWritten?.(isWritten);
				if (!isWritten) return {type: 'closed'};
				const outcome = await waitUntil(watch.get, timeoutMs, true);
				if (outcome === 'timeout') {
					const tMs = clock.now();
					feed((s) => s.mark({type: 'timeout', id: message.id, method: message.method, timeoutMs, tMs}));
					return {type: 'timeout', tMs};
				}
				if (outcome === 'eof') {
					log(`the server closed stdout while ${message.method} (id ${message.id}) was pending`);
					return {type: 'eof'};
				}
				return {type: 'frame', frame: outcome.value};
			} finally {
				watch.stop();
			}
		},
		async shutdown() {
			const exited = (): true | undefined => (server.exitInfo ? true : undefined);
			// A server that closed stdout is usually exiting: let the exit land first, so that an early exit
			// is not mistaken for a reaction to our closing stdin.
			if (server.ended.stdout && !server.exitInfo) await waitUntil(exited, SHUTDOWN_MS.exitAfterStdoutEof, false);
			if (!server.exitInfo) {
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
				const eofs = await waitUntil(() => (server.ended.stdout && server.ended.stderr ? true : undefined), SHUTDOWN_MS.drainAfterExit, false);
				if (eofs === 'timeout') log('the server exited but its stdout/stderr stayed open (a child process holds them); stopped reading');
			}
			run.detach();
			return server.exitInfo;
		},
		detach() {
			attached = false;
			changed.clear();
			replyListeners.clear();
			server.dispose();
		},
	};
	return run;
}
