import {Buffer} from 'node:buffer';
import {createFramer} from '../core/framing/create-framer.js';
import type {FramerOutput} from '../core/framing/framer.js';
import {classifyMessage} from '../core/jsonrpc/classify.js';
import type {Frame, FrameKind} from '../core/types.js';

/**
 * A stdout frame as the probe's own reply watcher sees it: the core framer's frame (the same bytes give the
 * session the same frame) with its JSON-RPC kind and id.
 */
export type Reply = Pick<Frame, 'stream' | 'offset' | 'byteLength' | 'framing' | 'kind' | 'id' | 'message'>;

/** True for a frame that is a JSON-RPC message or other JSON (not a text line, not a blank one). */
export const isMessageKind = (frame: {readonly kind: FrameKind}): boolean =>
	frame.kind !== 'text' && frame.kind !== 'blank';

/** The server's stdout as the probe reads it for replies (see {@link createReplyWatcher}). */
export interface ReplyWatcher {
	/** A chunk of stdout (in order; `tMs` on the session clock). */
	push(tMs: number, bytes: Uint8Array): void;
	/** stdout reached EOF: the framer releases what it held. */
	end(tMs: number): void;
	/** Bytes of stdout read so far. */
	readonly bytesRead: number;
	/** Bytes read that no frame has taken yet (a line without its LF, a held Content-Length frame). */
	readonly pendingBytes: number;
	/** Those bytes, from the first pending one. */
	pending(): Uint8Array;
	/** When the first JSON-RPC message began on stdout (ms), once one did. */
	readonly firstReplyTMs: number | undefined;
	/** Call `listener` with every frame from now on; returns the function that removes it. */
	onReply(listener: (reply: Reply) => void): () => void;
	/** Call `listener` after every stdout chunk; returns the function that removes it. */
	onData(listener: () => void): () => void;
	/**
	 * Find the first frame `match` accepts: among those read before the first watch (a reply to a request
	 * written at the spawn may come before the exchange asks for it), then as they come.
	 */
	watch(match: (reply: Reply) => boolean): {get: () => Reply | undefined; stop: () => void};
	/** Remove every listener. */
	clear(): void;
}

/**
 * The probe's reply watcher: stdout through its own core framer (protocol mode), each frame classified as
 * the session classifies it. The exchange finds its replies here without waiting for the session.
 */
export function createReplyWatcher(): ReplyWatcher {
	const framer = createFramer('stdout', {mode: 'protocol'});
	const replyListeners = new Set<(reply: Reply) => void>();
	const dataListeners = new Set<() => void>();
	let backlog: Reply[] | undefined = [];
	let seq = 0;
	let offset = 0;
	let firstReplyTMs: number | undefined;
	/** stdout chunks from the framer's first pending byte on (what no frame has taken yet). */
	let unframed: {offset: number; bytes: Uint8Array}[] = [];
	const onFrame = (output: FramerOutput): void => {
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
	return {
		push(tMs, bytes) {
			framer.push({seq: seq++, stream: 'stdout', tMs, offset, bytes}, onFrame);
			if (framer.pendingBytes === 0) unframed = [];
			else unframed.push({offset, bytes});
			offset += bytes.byteLength;
			for (const listener of [...dataListeners]) listener();
		},
		end(tMs) {
			framer.end(tMs, onFrame);
		},
		get bytesRead() {
			return offset;
		},
		get pendingBytes() {
			return framer.pendingBytes;
		},
		pending() {
			const from = framer.pendingOffset;
			unframed = unframed.filter((chunk) => chunk.offset + chunk.bytes.byteLength > from);
			const parts = unframed.map((chunk) =>
				chunk.offset < from ? chunk.bytes.subarray(from - chunk.offset) : chunk.bytes,
			);
			return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
		},
		get firstReplyTMs() {
			return firstReplyTMs;
		},
		onReply(listener) {
			replyListeners.add(listener);
			return () => replyListeners.delete(listener);
		},
		onData(listener) {
			dataListeners.add(listener);
			return () => dataListeners.delete(listener);
		},
		watch(match) {
			let found = backlog?.find(match);
			backlog = undefined;
			const listener = (reply: Reply): void => {
				if (found === undefined && match(reply)) found = reply;
			};
			replyListeners.add(listener);
			return {get: () => found, stop: () => replyListeners.delete(listener)};
		},
		clear() {
			replyListeners.clear();
			dataListeners.clear();
		},
	};
}
