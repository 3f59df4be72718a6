import {ByteLog, EVERY, EVERY_BITS, f64, type Column} from './compact-log.js';

/** A chunk as the index holds it (its bytes are read back). */
export interface ChunkEntry {
	offset: number;
	byteLength: number;
	tMs: number;
	seq: number;
}

/** Chunk record flags. */
const C_CONTIGUOUS = 1;
const C_SEQ_NEXT = 2;

/** How many of a stream's last chunks are kept at hand to tell a frame's times from (see `CompactFrameIndex.addFrame`). */
const RECENT_CHUNKS = 64;

/**
 * Per stream: the chunks in stream order (for `chunksOf`: how many reads carried a frame, and when),
 * as records of a {@link ByteLog}: the byte length, the offset only when it does not follow the
 * previous chunk (a gap), the `seq` step only when it is not 1, and the time (8 bytes). About 11
 * bytes per chunk. A checkpoint every 32 chunks holds the offset and `seq` of its first chunk.
 */
export class ChunkTable {
	length = 0;
	/** End of the last chunk (stream offset). */
	end = 0;
	private lastSeq = -1;
	private readonly log = new ByteLog();
	private readonly checkPosition = f64();
	private readonly checkOffset = f64();
	private readonly checkSeq = f64();
	/** The last {@link RECENT_CHUNKS} chunks' seq and time, by position modulo the size. */
	private readonly recentSeq = new Float64Array(RECENT_CHUNKS).fill(-1);
	private readonly recentTMs = new Float64Array(RECENT_CHUNKS);

	add(offset: number, byteLength: number, tMs: number, seq: number): void {
		const i = this.length++;
		const position = this.log.begin();
		if ((i & (EVERY - 1)) === 0) {
			const c = i >>> EVERY_BITS;
			this.checkPosition.set(c, position);
			this.checkOffset.set(c, offset);
			this.checkSeq.set(c, seq);
			// Decoding starts at a checkpoint from its own offset and seq.
			this.end = offset;
			this.lastSeq = seq - 1;
		}

		const isContiguous = offset === this.end;
		const isSeqNext = seq === this.lastSeq + 1;
		this.log.byte((isContiguous ? C_CONTIGUOUS : 0) | (isSeqNext ? C_SEQ_NEXT : 0));
		this.log.uint(byteLength);
		if (!isContiguous) this.log.uint(offset);
		if (!isSeqNext) this.log.int(seq - this.lastSeq);
		this.log.float(tMs);
		this.end = offset + byteLength;
		this.lastSeq = seq;
		this.recentSeq[i % RECENT_CHUNKS] = seq;
		this.recentTMs[i % RECENT_CHUNKS] = tMs;
	}

	/** The time of the chunk `seq` when it is one of the last {@link RECENT_CHUNKS} added (else undefined). */
	recentTime(seq: number): number | undefined {
		for (let k = 1; k <= Math.min(RECENT_CHUNKS, this.length); k++) {
			const slot = (this.length - k) % RECENT_CHUNKS;
			const at = this.recentSeq[slot]!;
			if (at === seq) return this.recentTMs[slot];
			if (at < seq) return undefined;
		}

		return undefined;
	}

	/** Calls `visit` with the chunks from checkpoint `c` on, in order, until it returns false. */
	scan(c: number, visit: (chunk: ChunkEntry, i: number) => boolean): void {
		const reader = this.log.reader(this.checkPosition.get(c));
		let end = this.checkOffset.get(c);
		let lastSeq = this.checkSeq.get(c) - 1;
		const chunk: ChunkEntry = {offset: 0, byteLength: 0, tMs: 0, seq: 0};
		for (let i = c << EVERY_BITS; i < this.length; i++) {
			if ((i & (EVERY - 1)) === 0) {
				const k = i >>> EVERY_BITS;
				end = this.checkOffset.get(k);
				lastSeq = this.checkSeq.get(k) - 1;
			}

			reader.begin();
			const flags = reader.byte();
			chunk.byteLength = reader.uint();
			chunk.offset = flags & C_CONTIGUOUS ? end : reader.uint();
			chunk.seq = flags & C_SEQ_NEXT ? lastSeq + 1 : lastSeq + reader.int();
			chunk.tMs = reader.float();
			end = chunk.offset + chunk.byteLength;
			lastSeq = chunk.seq;
			if (!visit(chunk, i)) return;
		}
	}

	/** The last checkpoint whose first chunk has `key` (offset or seq) at or before `value` (0 when none). */
	private checkpointFor(column: Column, value: number): number {
		let low = 0;
		let high = ((this.length - 1) >>> EVERY_BITS) + 1;
		while (low < high) {
			const mid = (low + high) >>> 1;
			if (column.get(mid) <= value) low = mid + 1;
			else high = mid;
		}

		return Math.max(0, low - 1);
	}

	/** The time of the chunk `seq` of this stream, or undefined when no chunk has it. */
	timeOf(seq: number): number | undefined {
		if (this.length === 0) return undefined;
		const recent = this.recentTime(seq);
		if (recent !== undefined) return recent;
		let found: number | undefined;
		this.scan(this.checkpointFor(this.checkSeq, seq), (chunk) => {
			if (chunk.seq === seq) found = chunk.tMs;
			return chunk.seq < seq;
		});
		return found;
	}

	/**
	 * Calls `visit` with the chunks from a checkpoint whose first chunk starts at or before `offset` (or
	 * the first chunk) on, in order, until it returns false. Chunks of a stream do not overlap: those
	 * before the last one starting at or before `offset` end at or before `offset`.
	 */
	from(offset: number, visit: (chunk: ChunkEntry) => boolean): void {
		if (this.length === 0) return;
		this.scan(this.checkpointFor(this.checkOffset, offset), visit);
	}
}
