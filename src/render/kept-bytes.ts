import type {Chunk, Finding, Frame, StreamName} from '../core/types.js';

/**
 * The bytes a streaming presenter (`view --json`/`--no-tui`, `report` on a session that keeps nothing,
 * docs/performance.md#replay) still needs, in bounded memory: per stream, the chunks of the frame being assembled plus
 * {@link BEFORE_BYTES} before it (the live window), and small copies ("pieces") of the bytes around the
 * findings a presenter decided to show. A piece is copied from the window when it is kept and filled
 * from later chunks when its range reaches past what has arrived. Bytes outside the window and every
 * piece read as absent (empty), never as zeros. Pure: no I/O.
 *
 * The bytes of the last {@link REQUESTS_KEPT} requests still awaiting their answer are kept too (as
 * pieces): the findings about a request (`unanswered-request`) come at the end of the session.
 *
 * Memory: the window holds the frame in progress (a 5 MB frame is held while it arrives, as the framer
 * holds it) and is cut back at the next chunk after the frame completes; each piece is at most
 * {@link PIECE_BEFORE} + {@link PIECE_EVIDENCE} + {@link PIECE_AFTER} bytes, whatever the frame's size.
 */
export interface KeptBytes {
	/** Call for every `chunk` event, in order. */
	chunk(chunk: Chunk): void;
	/** Call for every `frame` event, in order (the window is cut back behind it at the stream's next chunk). */
	frame(frame: Frame): void;
	/**
	 * Keep the bytes around a finding (from a row before its offset to {@link PIECE_EVIDENCE} evidence bytes
	 * and a few rows after). Returns a handle to {@link release} when the finding is no longer shown.
	 */
	keep(finding: Pick<Finding, 'stream' | 'offset' | 'byteLength'>): object;
	/** Forget a piece kept by {@link keep}. */
	release(handle: object): void;
	/**
	 * Bytes `[offset, offset + length)` of a stream from one kept piece or the live window, starting
	 * exactly at `offset` (shorter when the range runs past what is kept; empty when `offset` is not kept).
	 */
	bytes(stream: StreamName, offset: number, length: number): Uint8Array;
}

/** Bytes kept before the frame in progress (hex context rows before a finding at its start). */
export const BEFORE_BYTES = 64;
/** Bytes a piece keeps before a finding's offset (two 16-byte rows, from the row's start). */
export const PIECE_BEFORE = 32;
/** Evidence bytes a piece keeps from a finding's offset (the report quotes up to 1,024). */
export const PIECE_EVIDENCE = 1024;
/** Bytes a piece keeps after the kept evidence (hex excerpt rows after it). */
export const PIECE_AFTER = 128;
/** Requests awaiting their answer whose bytes are kept (the most recent). */
export const REQUESTS_KEPT = 256;
/** The most a piece holds: a row's alignment, then the bytes before, the evidence and the bytes after. */
const PIECE_BYTES = 15 + PIECE_BEFORE + PIECE_EVIDENCE + PIECE_AFTER;

interface Piece {
	readonly stream: StreamName;
	readonly offset: number;
	/** `PIECE_BYTES` long (pooled); the piece's own length is {@link Piece.length}. */
	readonly data: Uint8Array;
	readonly length: number;
	/** Bytes of `data` filled so far: `[offset, offset + filled)` is known. */
	filled: number;
}

/** Create an empty {@link KeptBytes}. */
export function createKeptBytes(): KeptBytes {
	const window: Record<StreamName, Chunk[]> = {stdin: [], stdout: [], stderr: []};
	const frameEnd: Record<StreamName, number> = {stdin: 0, stdout: 0, stderr: 0};
	const pieces = new Set<Piece>();
	const open = new Set<Piece>();
	/** Pieces of requests awaiting their answer, by frame index (oldest first). */
	const requests = new Map<number, Piece>();
	// Released pieces' buffers, reused (a fault-heavy capture keeps and releases a piece per finding).
	const pool: Uint8Array[] = [];
	const pieceOf = (stream: StreamName, offset: number, byteLength: number): Piece => {
		const start = Math.max(0, Math.floor(offset / 16) * 16 - PIECE_BEFORE);
		const end = offset + Math.min(byteLength, PIECE_EVIDENCE) + PIECE_AFTER;
		return {stream, offset: start, data: pool.pop() ?? new Uint8Array(PIECE_BYTES), length: end - start, filled: 0};
	};
	const drop = (piece: Piece | undefined): void => {
		if (piece !== undefined && pool.length < 64) pool.push(piece.data);
	};

	const fill = (piece: Piece, chunks: readonly Chunk[]): void => {
		for (const chunk of chunks) {
			const want = piece.offset + piece.filled;
			const end = chunk.offset + chunk.bytes.length;
			if (end <= want) continue;
			if (chunk.offset > want) {
				// A gap: the rest of the piece went by before it was kept.
				open.delete(piece);
				return;
			}
			const part = chunk.bytes.subarray(
				want - chunk.offset,
				Math.min(chunk.bytes.length, want - chunk.offset + piece.length - piece.filled),
			);
			piece.data.set(part, piece.filled);
			piece.filled += part.length;
			if (piece.filled === piece.length) {
				open.delete(piece);
				return;
			}
		}
	};

	const fromChunks = (chunks: readonly Chunk[], offset: number, length: number): Uint8Array => {
		const out = new Uint8Array(length);
		let at = 0;
		for (const chunk of chunks) {
			const want = offset + at;
			const end = chunk.offset + chunk.bytes.length;
			if (end <= want) continue;
			if (chunk.offset > want || at >= length) break;
			const part = chunk.bytes.subarray(
				want - chunk.offset,
				Math.min(chunk.bytes.length, want - chunk.offset + length - at),
			);
			out.set(part, at);
			at += part.length;
		}
		return out.subarray(0, at);
	};

	return {
		chunk(chunk) {
			const chunks = window[chunk.stream];
			// Cut back behind the last complete frame (keeping BEFORE_BYTES of it for context).
			const keepFrom = frameEnd[chunk.stream] - BEFORE_BYTES;
			let n = 0;
			while (n < chunks.length && chunks[n]!.offset + chunks[n]!.bytes.length <= keepFrom) n++;
			if (n > 0) chunks.splice(0, n);
			chunks.push(chunk);
			for (const piece of open) if (piece.stream === chunk.stream) fill(piece, [chunk]);
		},
		frame(frame) {
			frameEnd[frame.stream] = Math.max(frameEnd[frame.stream], frame.offset + frame.byteLength);
			if (frame.answers) {
				drop(requests.get(frame.answers.requestIndex));
				requests.delete(frame.answers.requestIndex);
			}
			if (frame.kind === 'request' && frame.id !== undefined && frame.id !== null) {
				const piece = pieceOf(frame.stream, frame.offset, frame.byteLength);
				fill(piece, window[frame.stream]);
				open.delete(piece);
				requests.set(frame.index, piece);
				if (requests.size > REQUESTS_KEPT) {
					const oldest = requests.keys().next().value!;
					drop(requests.get(oldest));
					requests.delete(oldest);
				}
			}
		},
		keep(finding) {
			const piece = pieceOf(finding.stream, finding.offset, finding.byteLength);
			fill(piece, window[finding.stream]);
			if (piece.filled === 0) {
				// Gone from the window: a request's bytes may still be kept.
				for (const request of requests.values()) {
					if (request.stream !== piece.stream || request.offset !== piece.offset) continue;
					const part = request.data.subarray(0, Math.min(request.filled, piece.length));
					piece.data.set(part);
					piece.filled = part.length;
					break;
				}
			}
			pieces.add(piece);
			if (piece.filled < piece.length) open.add(piece);
			return piece;
		},
		release(handle) {
			if (pieces.delete(handle as Piece)) drop(handle as Piece);
			open.delete(handle as Piece);
		},
		bytes(stream, offset, length) {
			let best: Uint8Array = new Uint8Array(0);
			for (const piece of pieces) {
				if (piece.stream !== stream || offset < piece.offset || offset >= piece.offset + piece.filled) continue;
				const from = offset - piece.offset;
				const got = piece.data.subarray(from, Math.min(piece.filled, from + Math.max(0, length)));
				if (got.length > best.length) best = got;
			}
			const live = fromChunks(window[stream], offset, Math.max(0, length));
			return live.length > best.length ? live : best;
		},
	};
}
