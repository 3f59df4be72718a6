import {Buffer} from 'node:buffer';
import type {IdMapKey} from '../core/jsonrpc/id-key.js';
import type {SdkSchemas} from '../core/jsonrpc/sdk-checks.js';
import type {Session} from '../core/session/session.js';
import type {ProcessEvidence} from '../core/types.js';
import type {Clock} from '../process/clock.js';
import type {ProcessWatch} from '../process/proc-evidence.js';
import type {SpawnEvent, SpawnedServer} from '../process/spawn.js';
import {createChangeSignal, type ChangeSignal, type OutputHold} from './change-signal.js';
import {ABORT_KILL_MS} from './limits.js';
import type {ProbeServer} from './probe-start.js';
import type {ProbeOptions, SessionInit} from './probe-types.js';
import {createReplyWatcher, type ReplyWatcher} from './reply-watcher.js';
import {createExitHold, createSessionFeed, type ExitHold, type SessionOp} from './session-feed.js';

type JsonObject = Record<string, unknown>;

/** One spawned server wired to one session: what the exchange, the waits and the shutdown work on. */
export interface ServerLink {
	readonly clock: Clock;
	readonly server: SpawnedServer;
	/** The watch on the server's process tree; absent when the command could not start. */
	readonly tree?: ProcessWatch;
	/** The probe's own reading of stdout: the replies. */
	readonly replies: ReplyWatcher;
	/** Notified on every event of the server (bytes, EOF, exit): the waits look again. */
	readonly changes: ChangeSignal;
	/** Diagnostics for stderr (`ProbeOptions.onLog`), one line each. */
	readonly log: (line: string) => void;
	/** `ProbeOptions.onWait`. */
	readonly onWait?: ProbeOptions['onWait'];
	/** Pids of the server's tree the probe ended after the exit (filled by the shutdown). */
	readonly reaped: number[];
	/**
	 * The requests the probe stopped waiting for (its own limit or an early stop): their method by id
	 * ({@link IdMapKey}: `1` and `"1"` apart). A reply to one of them during the shutdown is the server
	 * finishing work, not ignoring EOF.
	 */
	readonly gaveUpOn: Map<IdMapKey, string>;
	/** False once detached: nothing more is fed or observed. */
	readonly attached: boolean;
	/** Whether the server's output is held unread while our own output drains ({@link ProbeOptions.outputBacklog}). */
	readonly hold: OutputHold;
	/** Set by the exit observation when it found no process of the tree alive and none holding a pipe. */
	isTreeGone: boolean;
	/**
	 * Resolves with the session once it is built (the schemas loaded) and fed every event so far; rejects
	 * when `createSession` threw. Reading it asks for the session now.
	 */
	readonly ready: Promise<Session>;
	/** Apply `op` to the session now, or, before it is built, in order once it is. */
	feed(op: SessionOp): void;
	/**
	 * Write one message and record its bytes on stdin; false when stdin is gone. Messages sent in one
	 * synchronous run go out as one write (and one stdin chunk) when it ends.
	 */
	send(message: JsonObject, framing?: 'newline' | 'content-length'): boolean;
	/** Close the server's stdin (once), recorded as a `stdin-closed` mark. */
	closeStdin(): void;
	/** Give the session an exit held for stderr's EOF now. */
	releaseExit(): void;
	/** Look at the server's processes now and record what they do as an `evidence` mark. */
	observe(
		reason: ProcessEvidence['reason'],
		options?: Parameters<ProcessWatch['observe']>[1],
	): ProcessEvidence | undefined;
	/**
	 * A look taken while a reply is awaited, judged only once what the server wrote before it has been
	 * read. Timers that fell due while this process had no CPU (a loaded machine) run back to back before
	 * the next read of the server's pipes: a server that already replied and went back to `read(0)` looks
	 * "blocked reading stdin" though its reply sits unread in our pipe. So the look is sampled now, the
	 * poll phase runs (it reads every byte already written), and the look is kept (recorded as an
	 * `evidence` mark, passed to `then`) only when no byte of the server's arrived meanwhile; otherwise it
	 * is dropped as stale (otherwise a healthy server starved of CPU reads as docs/findings.md#unflushed-output).
	 * A look taken while the output was held is dropped too: a server blocked writing then waits for us.
	 */
	observeSettled(reason: ProcessEvidence['reason'], then: (evidence: ProcessEvidence, tMs: number) => void): void;
	/** Stop feeding the session (pipes destroyed). */
	detach(): void;
}

/**
 * Wire a spawned server's events into a new session (built later, see `createSessionFeed`), the reply
 * watcher and the waits; answer the server's own requests as the TS SDK client does; act on an abort
 * (close stdin, SIGKILL after {@link ABORT_KILL_MS}). With `schemas` given as a value the session is built
 * at once (a throwing `createSession` then throws here, after the server was killed).
 */
export function linkServer(
	options: ProbeOptions,
	purpose: SessionInit['purpose'],
	spawned: ProbeServer,
	schemas: SdkSchemas | Promise<SdkSchemas>,
): ServerLink {
	const {clock, server, tree} = spawned;
	const sessions = createSessionFeed(
		(loaded) =>
			options.createSession({
				...(server.pid === undefined ? {} : {pid: server.pid}),
				startedAt: clock.startedAt,
				purpose,
				schemas: loaded,
			}),
		schemas,
		() => {
			server.kill('SIGKILL');
			server.dispose();
		},
	);
	const {feed} = sessions;
	// An initialize written at the spawn comes first on the session's record, before anything the server wrote.
	const {initialize: written} = spawned;
	if (written) feed((s) => s.pushChunk('stdin', written.tMs, written.bytes));
	const held = createHeldOutput(options, server, clock, feed, () => attached);
	const changes = createChangeSignal(held);
	held.onResume(() => changes.notify());
	const replies = createReplyWatcher();
	const exitHold = createExitHold(feed, () => changes.notify());
	let attached = true;
	let stdinClosed = false;
	/** Bytes read from the server's stdout and stderr so far (a look is stale when it grew meanwhile). */
	let serverBytes = 0;
	/**
	 * Messages sent in one synchronous run (`initialized` and the request after it), written as one write when
	 * it ends: they reach the server in one read, as back-to-back writes of a real client often do (TS SDK,
	 * Codex), so a server that parses each read as one message fails here every time, not by chance (R1).
	 */
	let pending: Buffer[] = [];
	let pendingTMs = 0;
	const flush = (): void => {
		if (pending.length === 0) return;
		const bytes = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
		pending = [];
		if (stdinClosed || !server.write(bytes)) return;
		const tMs = pendingTMs;
		feed((s) => s.pushChunk('stdin', tMs, bytes));
	};

	const link: ServerLink = {
		clock,
		server,
		...(tree ? {tree} : {}),
		replies,
		changes,
		log: options.onLog ?? ((): void => undefined),
		...(options.onWait ? {onWait: options.onWait} : {}),
		reaped: [],
		gaveUpOn: new Map(),
		hold: held,
		get attached() {
			return attached;
		},
		isTreeGone: false,
		get ready() {
			return sessions.session();
		},
		feed,
		send(message, framing = 'newline') {
			if (stdinClosed || server.exitInfo) return false;
			const body = JSON.stringify(message);
			const bytes =
				framing === 'newline'
					? Buffer.from(`${body}\n`, 'utf8')
					: Buffer.from(`Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`, 'utf8');
			if (pending.length === 0) {
				pendingTMs = clock.now();
				void Promise.resolve().then(flush);
			}
			pending.push(bytes);
			return true;
		},
		closeStdin() {
			flush();
			if (stdinClosed) return;
			stdinClosed = true;
			const tMs = clock.now();
			feed((s) => s.mark({type: 'stdin-closed', tMs}));
			server.closeStdin();
			sessions.release();
		},
		releaseExit: () => exitHold.release(),
		observe(reason, observeOptions) {
			if (!tree || !attached) return undefined;
			const evidence = tree.observe(reason, observeOptions);
			const tMs = clock.now();
			feed((s) => s.mark({type: 'evidence', evidence, tMs}));
			return evidence;
		},
		observeSettled(reason, then) {
			if (!tree || !attached || held.isHeld()) return;
			const bytesBefore = serverBytes;
			const heldBefore = held.heldMs();
			const evidence = tree.observe(reason);
			const tMs = clock.now();
			setImmediate(() => {
				if (serverBytes !== bytesBefore || !attached || held.isHeld() || held.heldMs() !== heldBefore) return;
				feed((s) => s.mark({type: 'evidence', evidence, tMs}));
				then(evidence, tMs);
			});
		},
		detach() {
			sessions.release();
			exitHold.release();
			attached = false;
			changes.clear();
			replies.clear();
			server.dispose();
		},
	};

	watchAbort(options.signal, link);
	// Whether stderr had ended by the event at hand. Not `server.ended`: the events of a server spawned
	// before the probe listened come buffered, and by their replay stderr may have ended after the exit.
	const inOrder = {stderrEnded: false};
	server.listen((event) => {
		if (!attached) return;
		if (event.type === 'data') serverBytes += event.bytes.byteLength;
		onServerEvent(event, link, exitHold, inOrder);
		if (event.type === 'data') held.check();
		changes.notify();
	});
	answerServerRequests(link);
	return link;
}

/** {@link OutputHold} with what the link does with it. */
interface HeldOutput extends OutputHold {
	/** After a read: hold the server's output when our own output is backed up. */
	check(): void;
	/** Run `then` at each resume (after the hold's time was counted). */
	onResume(then: () => void): void;
}

/**
 * Output backpressure (`ProbeOptions.outputBacklog`): after each read of the server, when our own output
 * is backed up, stop reading the server (`pauseOutput`: the server then blocks on its own write) until
 * it drained. Each hold is recorded as `output-stalled` and `output-resumed` phase marks, and its time
 * is counted so that the waits and the latencies leave it out (docs/json-records.md#mark).
 */
function createHeldOutput(
	options: ProbeOptions,
	server: SpawnedServer,
	clock: Clock,
	feed: (op: SessionOp) => void,
	isLive: () => boolean,
): HeldOutput {
	let since: number | undefined;
	let totalMs = 0;
	const resumed: (() => void)[] = [];
	const resume = (): void => {
		if (since === undefined) return;
		const tMs = clock.now();
		totalMs += tMs - since;
		since = undefined;
		if (!isLive()) return;
		feed((s) => s.mark({type: 'phase', name: 'output-resumed', tMs}));
		server.resumeOutput();
		for (const then of resumed) then();
	};
	return {
		isHeld: () => since !== undefined,
		heldMs: () => totalMs + (since === undefined ? 0 : clock.now() - since),
		now: () => clock.now(),
		onResume: (then) => void resumed.push(then),
		check() {
			if (since !== undefined || options.outputBacklog === undefined || !isLive()) return;
			const drained = options.outputBacklog();
			if (drained === undefined) return;
			const tMs = clock.now();
			since = tMs;
			server.pauseOutput();
			feed((s) => s.mark({type: 'phase', name: 'output-stalled', tMs}));
			void drained.then(resume, resume);
		},
	};
}

/** Route one event of the server: to the session (in order, see `createExitHold`) and, for stdout, the reply watcher. */
function onServerEvent(event: SpawnEvent, link: ServerLink, exitHold: ExitHold, inOrder: {stderrEnded: boolean}): void {
	switch (event.type) {
		case 'data':
			exitHold.feedInOrder(event.stream, (s) => s.pushChunk(event.stream, event.tMs, event.bytes));
			if (event.stream === 'stdout') link.replies.push(event.tMs, event.bytes);
			break;
		case 'end':
			exitHold.feedInOrder(event.stream, (s) => s.endStream(event.stream, event.tMs));
			if (event.stream === 'stdout') link.replies.end(event.tMs);
			if (event.stream === 'stderr') {
				inOrder.stderrEnded = true;
				exitHold.release();
			}
			break;
		case 'exit':
			exitHold.exited(event.exit, inOrder.stderrEnded);
			break;
		case 'spawn-error':
			break;
	}
}

/**
 * An abort (the user quit): close stdin, and SIGKILL the server and its tree after {@link ABORT_KILL_MS}. A
 * signal aborted before this process started (a doctor run whose --total-timeout passed while a loaded
 * machine was still starting it) never fires 'abort' again: act on it now.
 */
function watchAbort(signal: AbortSignal | undefined, link: ServerLink): void {
	const onAbort = (): void => {
		const {server, tree} = link;
		if (!link.attached || server.exitInfo) return;
		link.closeStdin();
		setTimeout(() => {
			if (!server.exitInfo) server.kill('SIGKILL');
			tree?.endAll('SIGKILL', {includeRoot: true, group: process.platform !== 'win32'});
		}, ABORT_KILL_MS).unref();
	};
	if (signal?.aborted === true) queueMicrotask(onAbort);
	else signal?.addEventListener('abort', onAbort, {once: true});
}

/**
 * Answer the server's requests as the TS SDK client does: `ping` with an empty result (R16), anything else
 * with -32601 (a client without the capability has no handler). Sent after the reply watcher's frame was
 * handled, so no framer or session is re-entered.
 */
function answerServerRequests(link: ServerLink): void {
	link.replies.onReply((reply) => {
		if (reply.kind !== 'request' || reply.id === undefined || reply.id === null) return;
		const {id} = reply;
		const method = (reply.message as {method?: unknown}).method;
		queueMicrotask(() => {
			if (link.attached)
				link.send(
					method === 'ping'
						? {jsonrpc: '2.0', id, result: {}}
						: {jsonrpc: '2.0', id, error: {code: -32601, message: 'Method not found'}},
				);
		});
	});
}
