import type {SdkSchemas} from '../core/jsonrpc/sdk-checks.js';
import type {Session} from '../core/session/session.js';
import {summarizeEvidence} from '../core/findings/support/evidence.js';
import {USER_STOP_PHASE} from '../core/types.js';
import {readProcInfo, type ProcInfo} from '../process/proc-info.js';
import {loadProcessStarter, nodeStarter, type ProcessStarter, type SpawnError} from '../process/spawn.js';
import {asObject, isModernEraError, playSteps} from './exchange.js';
import {advertisesLogging, preInitializedCheck} from './pre-initialized.js';
import {sendRequest, type WaitOutcome} from './exchange-request.js';
import {INTERACTIVE_FIRST_ID, REPROBE_TIMEOUT_MS} from './limits.js';
import {asksAnything} from './handler-requests.js';
import {defaultOpening, openingInitialize, withStepsAfterLists, type Opening} from './opening.js';
import {
	DEFAULT_INITIALIZE_TIMEOUT_MS,
	DEFAULT_PROTOCOL_VERSION,
	DEFAULT_TIMEOUT_MS,
	loadSdkSchemas,
	startProbeServer,
	type ProbeServer,
} from './probe-start.js';
import type {ProbeOptions, ProbeResult} from './probe-types.js';
import {contentLengthReprobe, findServerMessage, type ReprobeResult} from './reprobe.js';
import {linkServer, type ServerLink} from './server-link.js';
import {shutdownServer} from './shutdown.js';
import {markSilence, type InitializeGiveUp} from './silence-marks.js';

export {
	DEFAULT_INITIALIZE_TIMEOUT_MS,
	DEFAULT_PROTOCOL_VERSION,
	DEFAULT_TIMEOUT_MS,
	loadSdkSchemas,
	startProbeServer,
	type ProbeServer,
} from './probe-start.js';
export {
	CONTENT_LENGTH_SETTLE_MS,
	FINAL_LOOK_SPACING_MS,
	PROBE_PHASES,
	REPLY_HEAD_BYTES,
	REPROBE_TIMEOUT_MS,
	SHUTDOWN_MS,
	STALL_EVERY_MS,
	STALL_MARKS_MS,
} from './limits.js';
export {
	MODERN_PROTOCOL_VERSION,
	defaultOpening,
	withStepsAfterLists,
	type Opening,
	type OpeningStep,
	type RequestId,
} from './opening.js';
export {isModernEraError} from './exchange.js';
export {
	asksAnything,
	isReadOnlyTool,
	NO_HANDLERS,
	planHandlerRequests,
	type HandlerPlan,
	type NamedRequest,
} from './handler-requests.js';
export type {ProbeOptions, ProbeResult, ProbeWait, SessionInit} from './probe-types.js';

/**
 * Play an MCP client against a stdio server and record every byte.
 *
 * The exchange is `options.opening` (default `defaultOpening`, the TS SDK client's): `initialize` (id 0,
 * newline-delimited), and after its result `notifications/initialized`, then `tools/list`, `prompts/list`,
 * `resources/list` (next ids, each only when the result's capabilities advertise it), then `ping`
 * (R8–R11, R16). The probe declares no client capabilities, and answers the
 * server's own requests as the TS SDK client does: `ping` with `{}`, anything else with -32601.
 * `initialize` waits up to `DEFAULT_INITIALIZE_TIMEOUT_MS` (30 s, Claude Code's startup limit) and
 * every other request `DEFAULT_TIMEOUT_MS`, unless `timeoutMs` is given: then every request,
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
	const base = options.opening ?? defaultOpening(options.protocolVersion ?? DEFAULT_PROTOCOL_VERSION);
	const opening =
		options.handlers !== undefined && asksAnything(options.handlers)
			? withStepsAfterLists(base, [{send: 'handlers', method: 'handlers', plan: options.handlers}])
			: base;
	// Load zod by import() and spawn at once: the exchange runs while the schemas load, and the session,
	// built once they are there, is fed every event in order (docs/performance.md#probe-start-up).
	const schemasLoading = options.schemas ?? loadSdkSchemas();
	const starter = options.starter ?? (process.platform === 'win32' ? await loadProcessStarter() : nodeStarter);
	const spawned = options.spawned ?? startProbeServer(options, starter);
	const main = linkServer(options, 'probe', spawned, schemasLoading);
	const started = await main.server.started;
	if (!started.ok) return spawnFailed(main, options, started.error);

	const exchange = {isDone: false};
	markUserStop(main, options.signal, exchange);
	const init = await sendInitialize(main, spawned, opening, options, initializeTimeoutMs);
	const {era, gaveUp, procInfo} = await afterInitialize(
		main,
		init,
		opening,
		timeoutMs,
		started.pid,
		options.onHandlerRequest ?? main.log,
	);
	// Hold the server up for the user only once it has answered: a silent server goes straight on to the
	// shutdown and the Content-Length re-probe, so the verdict appears while the TUI is still open.
	if (options.interactive && init.type === 'frame' && !options.signal?.aborted && !main.server.exitInfo) {
		exchange.isDone = true;
		await holdInteractive(main, options.interactive, options.signal, timeoutMs);
	}

	const exit = await shutdownServer(main);
	const endTMs = main.clock.now();
	const session = await main.ready;
	const reprobe = await reprobeIfSilent(options, main, session, gaveUp, timeoutMs, schemasLoading, starter);
	if (gaveUp) markSilence(session, gaveUp, initializeTimeoutMs, reprobe, procInfo);
	if (options.opening === undefined && era === 'legacy' && init.type === 'frame' && !options.signal?.aborted) {
		const capabilities = asObject(asObject((init.frame.message as {result?: unknown}).result)['capabilities']);
		if (init.frame.kind === 'response' && advertisesLogging(capabilities))
			await checkPreInitialized(
				options,
				session,
				endTMs,
				{opening, timeoutMs, initializeTimeoutMs, starter},
				await schemasLoading,
			);
	}
	const summary = session.finish(endTMs);
	return {
		session,
		summary,
		...(reprobe ? {reprobe: reprobe.session} : {}),
		era,
		pid: started.pid,
		...(exit ? {exit} : {}),
		answersContentLength: reprobe?.reply !== undefined,
		...(procInfo ? {procInfo} : {}),
		...(main.reaped.length > 0 ? {reaped: [...main.reaped]} : {}),
	};
}

/** The command could not start: an `observed` mark (the spawn-failed rule derives the finding), the session finished. */
async function spawnFailed(main: ServerLink, options: ProbeOptions, error: SpawnError): Promise<ProbeResult> {
	main.log(error.message);
	const tMs = main.clock.now();
	const session = await main.ready;
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

/** The user quitting (or re-running) before the scripted exchange is over is no fault of the server: a phase mark. */
function markUserStop(main: ServerLink, signal: AbortSignal | undefined, exchange: {readonly isDone: boolean}): void {
	const mark = (): void => {
		if (exchange.isDone) return;
		const tMs = main.clock.now();
		main.feed((session) => session.mark({type: 'phase', name: USER_STOP_PHASE, tMs}));
	};
	// A Ctrl-C while the probe was still loading aborted the signal before this listener existed.
	if (signal?.aborted === true) mark();
	else signal?.addEventListener('abort', mark, {once: true});
}

/** Send the opening's `initialize` (or, written already at the spawn, wait for its reply). */
async function sendInitialize(
	main: ServerLink,
	spawned: ProbeServer,
	opening: Opening,
	options: ProbeOptions,
	timeoutMs: number,
): Promise<WaitOutcome> {
	const written = spawned.initialize;
	if (written) return sendRequest(main, written.message, timeoutMs, {written});
	const clientVersion = options.clientVersion ?? (await main.ready).meta.tool.version;
	return sendRequest(main, openingInitialize(opening, clientVersion), timeoutMs);
}

/** What the answer to `initialize` led to. */
interface InitializeEnd {
	readonly era: ProbeResult['era'];
	/** No reply to `initialize`: the wait that gave up. */
	readonly gaveUp?: InitializeGiveUp;
	/** What the silent server was blocked on (Linux), read when the wait gave up. */
	readonly procInfo?: ProcInfo;
}

/**
 * After `initialize`'s outcome: the legacy exchange (its result), the modern one (rejected naming
 * 2026-07-28, R19, marked `modern-era`), nothing more (another error), or the give-up of a silent server.
 */
async function afterInitialize(
	main: ServerLink,
	init: WaitOutcome,
	opening: Opening,
	timeoutMs: number,
	pid: number,
	tell: (line: string) => void,
): Promise<InitializeEnd> {
	if (init.type === 'frame') {
		const message = init.frame.message as {result?: unknown; error?: unknown};
		if (init.frame.kind === 'error' && isModernEraError(message.error)) {
			const tMs = main.clock.now();
			main.feed((session) => session.mark({type: 'phase', name: 'modern-era', tMs}));
			main.log('initialize rejected naming 2026-07-28: probing as a modern-era server (server/discover)');
			await playSteps(main, opening, opening.modern, {}, timeoutMs);
			return {era: 'modern'};
		}
		if (init.frame.kind === 'response') {
			const capabilities = asObject(asObject(message.result)['capabilities']);
			await playSteps(main, opening, opening.afterInitialize, capabilities, timeoutMs, tell);
		} else main.log('initialize was rejected with an error');
		return {era: 'legacy'};
	}
	if (init.type !== 'timeout') return {era: 'unknown'};
	const gaveUp: InitializeGiveUp = {
		tMs: init.tMs,
		stdoutBytes: main.replies.bytesRead,
		waitedMs: init.waitedMs,
		...(init.evidence ? {evidence: init.evidence} : {}),
		...(init.stoppedEarly ? {stoppedEarly: true} : {}),
	};
	const procInfo = readProcInfo(pid);
	const why = init.replyWithoutNewline
		? ' (stopped early: the reply came without its line end and the server waits for input; no MCP client reads it)'
		: init.stoppedEarly
			? ' (stopped early: the server is blocked reading stdin, waiting longer cannot help)'
			: init.contentLengthReply
				? ' (stopped early: the reply came framed with Content-Length; no MCP client reads it)'
				: '';
	const seen = init.evidence ? `; ${summarizeEvidence(init.evidence)}` : procInfo ? `; ${procInfo.summary}` : '';
	main.log(`no reply to initialize in ${init.waitedMs} ms${why}${seen}`);
	return {era: 'unknown', gaveUp, ...(procInfo ? {procInfo} : {})};
}

/**
 * Interactive mode (the TUI): settle the session (the live view shows what the plain log shows at the end),
 * hand `onReady` a sender (ids from {@link INTERACTIVE_FIRST_ID}), and keep the server up until `hold`
 * resolves or the signal aborts.
 */
async function holdInteractive(
	main: ServerLink,
	interactive: NonNullable<ProbeOptions['interactive']>,
	signal: AbortSignal | undefined,
	timeoutMs: number,
): Promise<void> {
	const settleTMs = main.clock.now();
	main.feed((session) => session.settle(settleTMs));
	let nextId = INTERACTIVE_FIRST_ID;
	interactive.onReady?.((method, params) => {
		const message: Record<string, unknown> & {id: number; method: string} = {jsonrpc: '2.0', id: nextId++, method};
		if (params !== undefined) message['params'] = params as never;
		// sendRequest writes before its first await, so `onWritten` has run when it returns its promise.
		let isWritten = false;
		void sendRequest(main, message, timeoutMs, {
			onWritten: (written) => {
				isWritten = written;
			},
		});
		return isWritten;
	});
	await Promise.race([
		interactive.hold,
		new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), {once: true})),
	]);
}

/**
 * The default probe, for a server that advertises `logging`: VS Code's order checked on a second process
 * (`preInitializedCheck`, F47), its outcome an `observed` mark at the main session's stdout byte count.
 */
async function checkPreInitialized(
	options: ProbeOptions,
	session: Session,
	tMs: number,
	how: {opening: Opening; timeoutMs: number; initializeTimeoutMs: number; starter: ProcessStarter},
	schemas: SdkSchemas,
): Promise<void> {
	(options.onLog ?? ((): void => undefined))(
		'the server advertises logging: checking logging/setLevel before notifications/initialized (as VS Code sends it) on a fresh process',
	);
	const seen = await preInitializedCheck(
		options,
		how.opening,
		how.timeoutMs,
		how.initializeTimeoutMs,
		schemas,
		how.starter,
	);
	if (seen === undefined) return;
	session.mark({
		type: 'observed',
		what: 'pre-initialized-request',
		offset: session.streamLength('stdout'),
		tMs,
		detail: {method: 'logging/setLevel', ...seen},
	});
}

/**
 * A server silent to newline-delimited JSON (no reply to `initialize`, no byte and no message on stdout)
 * is re-probed on a fresh process with Content-Length framing, unless turned off or aborted. A message
 * that came only at the shutdown (a reply held until stdin EOF) is not silence: the link's own reply
 * watcher saw it even when the session keeps no frames (`probe --json`).
 */
async function reprobeIfSilent(
	options: ProbeOptions,
	main: ServerLink,
	session: Session,
	gaveUp: InitializeGiveUp | undefined,
	timeoutMs: number,
	schemas: SdkSchemas | Promise<SdkSchemas>,
	starter: ProcessStarter,
): Promise<ReprobeResult | undefined> {
	const isSilent =
		gaveUp !== undefined &&
		gaveUp.stdoutBytes === 0 &&
		main.replies.firstReplyTMs === undefined &&
		findServerMessage(session) === undefined;
	if (!isSilent || options.contentLengthReprobe === false || options.signal?.aborted === true) return undefined;
	const log = options.onLog ?? ((): void => undefined);
	log('the server was silent to newline-delimited JSON; re-probing a fresh process with Content-Length framing');
	return contentLengthReprobe(options, Math.min(timeoutMs, REPROBE_TIMEOUT_MS), await schemas, starter);
}
