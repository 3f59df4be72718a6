import {Buffer} from 'node:buffer';
import {heldContentLengthFrame} from '../core/framing/held-reply.js';
import {classifyMessage} from '../core/jsonrpc/classify.js';
import {summarizeEvidence} from '../core/findings/support/evidence.js';
import type {ProcessEvidence} from '../core/types.js';
import {CONTENT_LENGTH_SETTLE_MS} from './limits.js';
import type {RequestId} from './opening.js';
import type {ProbeWait} from './probe-types.js';
import {isMessageKind, type Reply} from './reply-watcher.js';
import type {ServerLink} from './server-link.js';
import {scheduleStallLooks} from './stall-looks.js';

type JsonObject = Record<string, unknown>;

/** A request the probe sends and waits for. */
export type ProbeRequest = JsonObject & {id: RequestId; method: string};

/**
 * `frame`: the awaited reply; `timeout`: none in time (marked; `evidence`: what the server's processes
 * were doing then; `stoppedEarly`: the wait ended before the limit because the tree was blocked reading
 * stdin twice in a row; `contentLengthReply`: it ended because the reply came framed with Content-Length
 * and no line end followed it, {@link CONTENT_LENGTH_SETTLE_MS}); `eof`: stdout reached EOF first (no
 * reply can come); `closed`: could not write.
 */
export type WaitOutcome =
	| {readonly type: 'frame'; readonly frame: Reply}
	| {
			readonly type: 'timeout';
			readonly tMs: number;
			readonly waitedMs: number;
			readonly evidence?: ProcessEvidence;
			readonly stoppedEarly?: boolean;
			readonly contentLengthReply?: boolean;
			/** Stopped early with the whole reply read but for its line end (the server idle). */
			readonly replyWithoutNewline?: boolean;
	  }
	| {readonly type: 'eof'}
	| {readonly type: 'closed'};

/** How {@link sendRequest} sends and what it waits for. */
export interface RequestOptions {
	/** How the request is framed (default newline-delimited). */
	readonly framing?: 'newline' | 'content-length';
	/** Any JSON frame on stdout is the reply (the Content-Length re-probe), not only the response with its id. */
	readonly anyJson?: boolean;
	/** Called synchronously, before the first await, with whether the bytes were written. */
	readonly onWritten?: (written: boolean) => void;
	/** The request was written already (at the spawn, recorded by the link): only wait, the limit counted from then. */
	readonly written?: {readonly tMs: number};
}

/** Why a wait ended before its limit. */
type StopReason = 'stalled' | 'content-length';

/**
 * Send a request and wait for its reply: the stdout response with its id (or, with `anyJson`, any JSON
 * frame), at most `timeoutMs`. While it waits: stall looks at the server's processes (two final looks end
 * the wait, `stopped-early`), a held Content-Length reply ends it after {@link CONTENT_LENGTH_SETTLE_MS}
 * of quiet stdout (`content-length-reply`), and `onWait` is told every second. A wait that ends without
 * the reply records its phase mark and a `timeout` mark (with the time actually waited when stopped early).
 * @returns the outcome; never throws
 */
export async function sendRequest(
	link: ServerLink,
	message: ProbeRequest,
	timeoutMs: number,
	options: RequestOptions = {},
): Promise<WaitOutcome> {
	const {clock} = link;
	const isReply = (f: Pick<Reply, 'kind' | 'id'>): boolean =>
		options.anyJson === true ? isMessageKind(f) : (f.kind === 'response' || f.kind === 'error') && f.id === message.id;
	const watch = link.replies.watch(isReply);
	const timers: NodeJS.Timeout[] = [];
	let stopReason: StopReason | undefined;
	let resolveEarly!: () => void;
	const early = new Promise<void>((resolve) => {
		resolveEarly = resolve;
	});
	// A held Content-Length reply names the stop even when a stall look ended the wait first.
	const stopEarly = (reason: StopReason): void => {
		if (reason === 'content-length' || stopReason === undefined) stopReason = reason;
		resolveEarly();
	};
	let unwatchHeld = (): void => undefined;
	try {
		const requestTMs = options.written?.tMs ?? clock.now();
		const isWritten = options.written !== undefined || link.send(message, options.framing);
		options.onWritten?.(isWritten);
		if (!isWritten) return {type: 'closed'};
		// A request written before this call (at the spawn) has waited that long already.
		const sinceMs = clock.now() - requestTMs;
		unwatchHeld = watchHeldReply(
			link,
			isReply,
			() => watch.get() !== undefined,
			() => stopEarly('content-length'),
		);
		let lastEvidence: ProcessEvidence | undefined;
		timers.push(
			...scheduleStallLooks(link, {
				timeoutMs,
				sinceMs,
				requestTMs,
				isAnswered: () => watch.get() !== undefined,
				isReplyPending: () => isReplyPending(link, isReply),
				onEvidence: (evidence) => (lastEvidence = evidence),
				onFinal: () => stopEarly('stalled'),
			}),
		);
		const tell = waitTeller(link, message, requestTMs, timeoutMs);
		if (link.onWait) {
			const tick = (): void => {
				if (watch.get() === undefined) tell(undefined, lastEvidence);
			};
			timers.push(setInterval(tick, 1000));
		}
		const outcome = await link.changes.waitUntil(
			watch.get,
			Math.max(0, timeoutMs - sinceMs),
			() => link.server.ended.stdout,
			early,
		);
		for (const timer of timers) clearTimeout(timer);
		if (outcome === 'timeout' || outcome === 'stopped') {
			// The deadline timer may have run before the read of bytes the server wrote in time (this
			// process starved of CPU): read what is there before calling it a timeout.
			await new Promise<void>((resolve) => setImmediate(resolve));
			const late = watch.get();
			if (late !== undefined) {
				tell('reply');
				return {type: 'frame', frame: late};
			}
			const gaveUp = recordGiveUp(link, message, timeoutMs, requestTMs, outcome === 'stopped' ? stopReason : undefined);
			if (gaveUp.stoppedEarly === true && isReplyPending(link, isReply)) {
				tell('stopped-early');
				return {...gaveUp, replyWithoutNewline: true};
			}
			tell(gaveUp.contentLengthReply === true || gaveUp.stoppedEarly === true ? 'stopped-early' : 'timeout');
			return gaveUp;
		}
		if (outcome === 'eof') {
			tell('eof');
			link.log(`the server closed stdout while ${message.method} (id ${message.id}) was pending`);
			return {type: 'eof'};
		}
		tell('reply');
		return {type: 'frame', frame: outcome.value};
	} finally {
		for (const timer of timers) clearTimeout(timer);
		unwatchHeld();
		watch.stop();
	}
}

/** `onWait` for one request: a tick (`done` undefined) or the last call. No-op without `onWait`. */
function waitTeller(
	link: ServerLink,
	message: ProbeRequest,
	requestTMs: number,
	limitMs: number,
): (done: ProbeWait['done'], evidence?: ProcessEvidence) => void {
	return (done, evidence) =>
		link.onWait?.({
			method: message.method,
			id: message.id,
			elapsedMs: link.clock.now() - requestTMs,
			limitMs,
			...(evidence ? {seen: summarizeEvidence(evidence)} : {}),
			...(done ? {done} : {}),
		});
}

/**
 * The reply held by the framer in a Content-Length frame (see {@link CONTENT_LENGTH_SETTLE_MS}): once
 * stdout has been quiet that long with a whole reply held, nothing the probe waits for will come.
 * @returns the function that stops watching
 */
function watchHeldReply(
	link: ServerLink,
	isReply: (f: Pick<Reply, 'kind' | 'id'>) => boolean,
	isAnswered: () => boolean,
	onHeld: () => void,
): () => void {
	const {replies} = link;
	let timer: NodeJS.Timeout | undefined;
	const check = (): void => {
		if (isAnswered() || replies.pendingBytes === 0) return;
		const held = heldContentLengthFrame(replies.pending());
		if (held === undefined) return;
		const cls = classifyMessage(held.message, {direction: 'server-to-client'});
		if (isReply({kind: cls.kind, ...(cls.hasId ? {id: cls.id ?? null} : {})})) onHeld();
	};
	const onStdout = (): void => {
		clearTimeout(timer);
		if (replies.pendingBytes > 0) timer = setTimeout(check, CONTENT_LENGTH_SETTLE_MS);
	};
	const unsubscribe = replies.onData(onStdout);
	onStdout();
	return () => {
		clearTimeout(timer);
		unsubscribe();
	};
}

/**
 * True when the bytes read but not framed are one whole JSON reply to this request without its line end:
 * the framer holds them until a LF or EOF, and a server that wrote them and went idle sends neither.
 */
function isReplyPending(link: ServerLink, isReply: (f: Pick<Reply, 'kind' | 'id'>) => boolean): boolean {
	const {replies} = link;
	if (replies.pendingBytes === 0) return false;
	let message: unknown;
	try {
		message = JSON.parse(Buffer.from(replies.pending()).toString('utf8'));
	} catch {
		return false;
	}
	const cls = classifyMessage(message, {direction: 'server-to-client'});
	return isReply({kind: cls.kind, ...(cls.hasId ? {id: cls.id ?? null} : {})});
}

/**
 * A wait that ended without the reply: look at the server once more (`timeout` evidence, unless it
 * exited), record the phase mark of an early stop and the `timeout` mark (its `timeoutMs` is the time
 * actually waited when stopped early).
 */
function recordGiveUp(
	link: ServerLink,
	message: ProbeRequest,
	timeoutMs: number,
	requestTMs: number,
	stopReason: StopReason | undefined,
): Extract<WaitOutcome, {type: 'timeout'}> {
	const evidence = link.server.exitInfo ? undefined : link.observe('timeout');
	link.gaveUpOn.set(message.id, message.method);
	const tMs = link.clock.now();
	const waitedMs = Math.round(tMs - requestTMs);
	const isHeld = stopReason === 'content-length';
	if (stopReason !== undefined)
		link.feed((s) => s.mark({type: 'phase', name: isHeld ? 'content-length-reply' : 'stopped-early', tMs}));
	link.feed((s) =>
		s.mark({
			type: 'timeout',
			id: message.id,
			method: message.method,
			timeoutMs: stopReason !== undefined ? waitedMs : timeoutMs,
			tMs,
		}),
	);
	const how = isHeld ? {contentLengthReply: true} : stopReason !== undefined ? {stoppedEarly: true} : {};
	return {type: 'timeout', tMs, waitedMs, ...(evidence ? {evidence} : {}), ...how};
}
