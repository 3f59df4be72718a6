import type {Chunk} from '../../types.js';

// Byte ranges of a stream read from its chunks (sorted by offset, as a Session records them): what the
// retain-all and streaming-window stores answer `bytes` and `chunksOf` from.

/** Index of the last chunk whose offset is ≤ `offset` (chunks sorted by offset); -1 when there is none. */
export function chunkIndexAt(chunks: readonly Chunk[], offset: number): number {
	let lo = 0;
	let hi = chunks.length - 1;
	let found = -1;
	while (lo <= hi) {
		const mid = (lo + hi) >> 1;
		if (chunks[mid]!.offset <= offset) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return found;
}

/** The chunks that hold any byte of `[start, end)`, in order. */
export function chunksInRange(chunks: readonly Chunk[], start: number, end: number): Chunk[] {
	const out: Chunk[] = [];
	let i = Math.max(0, chunkIndexAt(chunks, start));
	for (; i < chunks.length; i++) {
		const c = chunks[i]!;
		if (c.offset >= end) break;
		if (c.offset + c.bytes.length > start) out.push(c);
	}
	return out;
}

/** A copy of the bytes `[offset, offset + length)` (shorter where the chunks do not hold them). */
export function sliceChunks(chunks: readonly Chunk[], offset: number, length: number): Uint8Array {
	// Most ranges lie in one chunk (the hot path: an answer's body print, docs/performance.md#replay).
	const one = chunks[Math.max(0, chunkIndexAt(chunks, offset))];
	if (one !== undefined && one.offset <= offset && offset + length <= one.offset + one.bytes.length) {
		const out = new Uint8Array(Math.max(0, length));
		out.set(one.bytes.subarray(offset - one.offset, offset - one.offset + out.length));
		return out;
	}
	const parts = chunksInRange(chunks, offset, offset + length);
	const out = new Uint8Array(
		Math.max(
			0,
			Math.min(
				length,
				parts.reduce((n, c) => n + c.bytes.length, 0),
			),
		),
	);
	let written = 0;
	for (const c of parts) {
		const from = Math.max(0, offset - c.offset);
		const to = Math.min(c.bytes.length, offset + length - c.offset);
		const piece = c.bytes.subarray(from, to);
		if (written + piece.length > out.length) break;
		out.set(piece, written);
		written += piece.length;
	}
	return out.subarray(0, written);
}

/** Drop the chunks of a stream window that end at or before `offset` (their frames are complete). */
export function dropBefore(chunks: Chunk[], offset: number): void {
	let n = 0;
	while (n < chunks.length && chunks[n]!.offset + chunks[n]!.bytes.length <= offset) n++;
	if (n > 0) chunks.splice(0, n);
}
