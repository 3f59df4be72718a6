import {Buffer} from 'node:buffer';
import {closeSync, fstatSync, openSync, readSync} from 'node:fs';
import {isBinaryCapture, RECORD_HEAD_BYTES, RECORD_TYPE} from '../core/capture/binary-codec.js';
import {decodeBase64Bytes, decodeRecordBytes, isBase64Alphabet} from '../core/capture/record-codec.js';
import type {SessionEvent, StreamName} from '../core/types.js';

/**
 * Read a stream's bytes back from a capture file by stream offset (docs/performance.md#replay: a frame larger than a
 * limit is not held whole in memory for display; its offset and length are kept and its bytes are read
 * back from the file when they are shown). Both capture formats: format 2 (binary records,
 * core/capture/binary-codec.ts; only the record heads and the wanted payload bytes are read) and
 * format 1 (NDJSON records with base64 bytes; the chunk lines of the stream are decoded, except that of a
 * big chunk record, as `encodeEvent` writes one, only the base64 of the bytes wanted is read and decoded,
 * once its whole base64 has been checked).
 *
 * Use: while the file is read (captures/attach.ts `readRecordFile`, whose `onEvent` gives each record's
 * file offset), feed every event to a {@link CaptureIndex}; later open a {@link CaptureBytesReader} on
 * the same file with that index and call `read(stream, offset, length)` (e.g. a frame's `offset` and
 * `byteLength`). Without an index the reader scans from the first record (fine for a few reads of a
 * small file, slow for many reads of a big one).
 *
 * Here, not in core: it does file I/O (core stays pure).
 */

/** File bytes between two checkpoints of a {@link CaptureIndex} (at most; a record is never split). */
export const CHECKPOINT_BYTES = 256 * 1024;

const STREAMS: readonly StreamName[] = ['stdin', 'stdout', 'stderr'];
const STREAM_CODE: Readonly<Record<StreamName, number>> = {stdin: 0, stdout: 1, stderr: 2};

/**
 * A sparse index of a capture file: every {@link CHECKPOINT_BYTES} of file, the file offset of a record
 * and, per stream, the stream offset from which every byte is recorded at or after it. Memory: four
 * numbers per checkpoint (~1,100 for a 280 MB capture), whatever the number of frames.
 */
export class CaptureIndex {
	private readonly files: number[] = [];
	private readonly next: Record<StreamName, number[]> = {stdin: [], stdout: [], stderr: []};
	private readonly seen: Record<StreamName, number> = {stdin: 0, stdout: 0, stderr: 0};
	private lastCheckpoint = -Infinity;

	/**
	 * Note one record, in file order: the event decoded from it and the file offset of the record (what
	 * `RecordHandlers.onEvent` passes). Only chunks and gap marks move the stream offsets.
	 */
	note(event: SessionEvent, recordOffset: number): void {
		if (event.type === 'chunk') {
			if (recordOffset - this.lastCheckpoint >= CHECKPOINT_BYTES) {
				this.lastCheckpoint = recordOffset;
				this.files.push(recordOffset);
				for (const stream of STREAMS) this.next[stream].push(this.seen[stream]);
			}

			const {stream, offset, bytes} = event.chunk;
			this.seen[stream] = Math.max(this.seen[stream], offset + bytes.length);
		} else if (event.type === 'mark' && event.mark.type === 'gap') {
			this.seen[event.mark.stream] = Math.max(this.seen[event.mark.stream], event.mark.offset + event.mark.length);
		}
	}

	/** Number of checkpoints. */
	get size(): number {
		return this.files.length;
	}

	/**
	 * The file offset of a record at or before the one holding byte `offset` of `stream`: the last
	 * checkpoint before which no byte at or after `offset` was recorded; undefined when there is none
	 * (scan from the first record).
	 */
	startFor(stream: StreamName, offset: number): number | undefined {
		const next = this.next[stream];
		let lo = 0;
		let hi = next.length - 1;
		let found = -1;
		while (lo <= hi) {
			const mid = (lo + hi) >> 1;
			if (next[mid]! <= offset) {
				found = mid;
				lo = mid + 1;
			} else {
				hi = mid - 1;
			}
		}

		return found === -1 ? undefined : this.files[found];
	}
}

/** How `encodeEvent` writes a record's stream member (a record written otherwise is decoded to tell). */
const ANY_STREAM = Buffer.from('"stream":"');

/** Bytes read from the file at a time while scanning records (a multiple of 4: base64 is checked in such blocks). */
const READ_BYTES = 1024 * 1024;

/** How every chunk record written by `encodeEvent` starts. */
const CHUNK_START = Buffer.from('{"type":"chunk",');
/** The member the base64 of a chunk record starts after. */
const BASE64_MEMBER = Buffer.from(',"base64":"');
/** The record head (everything before the base64) is looked for in this many bytes. */
const HEAD_BYTES = 1024;
/** Chunk records of at least this many bytes of data are read back in part (see `CaptureBytesReader.bigChunkAt`). */
const BIG_CHUNK_BYTES = 64 * 1024;
/** Big chunk records whose base64 was checked whole, by file position of the record (the last few). */
const CHECKED_KEPT = 16;

/**
 * A format-1 chunk record as `encodeEvent` writes a chunk longer than its text preview: the head, then
 * the base64, then `"}` and the line end; where its base64 starts and where the next record starts.
 */
interface BigChunkRecord {
	readonly stream: StreamName;
	readonly offset: number;
	readonly length: number;
	/** File position of the first base64 character. */
	readonly base64At: number;
	/** File position of the next record (past the LF; the file's size for a last line without one). */
	readonly next: number;
}

/**
 * Reads stream bytes back from one capture file (kept open until {@link close}). Synchronous: a read
 * takes the time of the file reads it needs (a 5 MB frame of a format-2 capture: one read of 5 MB).
 */
export class CaptureBytesReader {
	/** The capture's format (1 NDJSON, 2 binary). */
	readonly format: 1 | 2;
	private readonly fd: number;
	private readonly size: number;
	private firstRecord: number | undefined;
	/** Big chunk records whose base64 was checked whole: position → valid (see {@link CHECKED_KEPT}). */
	private readonly checked = new Map<number, boolean>();
	/** The block format-1 reads go through (allocated on first use). */
	private block: Buffer | undefined;

	/**
	 * Open `file` for reading back.
	 * @param file a capture file (format 1 or 2)
	 * @param index the file's {@link CaptureIndex}, built while it was read (optional)
	 * @throws Error (an `ErrnoException`) when the file cannot be opened or read
	 */
	constructor(
		file: string,
		private readonly index?: CaptureIndex,
	) {
		this.fd = openSync(file, 'r');
		try {
			this.size = fstatSync(this.fd).size;
			const start = Buffer.alloc(Math.min(this.size, 32));
			readSync(this.fd, start, 0, start.length, 0);
			this.format = isBinaryCapture(start) === true ? 2 : 1;
		} catch (error) {
			closeSync(this.fd);
			throw error;
		}
	}

	/**
	 * Bytes `[offset, offset + length)` of `stream` as recorded in the capture. Shorter when the range
	 * runs past the recorded bytes or into a gap (the bytes before it); empty when `offset` itself is not
	 * recorded. Damaged records are skipped as the readers skip them.
	 * @param stream the stream
	 * @param offset byte offset in the stream (a frame's `offset`)
	 * @param length bytes wanted (a frame's `byteLength`)
	 * @throws Error when the file cannot be read
	 */
	read(stream: StreamName, offset: number, length: number): Uint8Array {
		const out = new Uint8Array(Math.max(0, length));
		if (out.length === 0) return out;
		const from = this.index?.startFor(stream, offset) ?? this.recordsStart();
		if (from === undefined) return out.subarray(0, 0);
		const filled =
			this.format === 2 ? this.readBinary(from, stream, offset, out) : this.readLines(from, stream, offset, out);
		return out.subarray(0, filled);
	}

	/** Close the file. */
	close(): void {
		closeSync(this.fd);
	}

	/** The file offset of the first record (after the magic line and header in format 2; 0 in format 1). */
	private recordsStart(): number | undefined {
		if (this.firstRecord !== undefined) return this.firstRecord;
		if (this.format === 1) {
			this.firstRecord = 0;
			return 0;
		}

		// Format 2: the magic line, then the header line.
		let lines = 0;
		let at = 0;
		const block = Buffer.alloc(64 * 1024);
		while (at < this.size) {
			const n = readSync(this.fd, block, 0, block.length, at);
			if (n <= 0) break;
			for (let i = 0; i < n; i++) {
				if (block[i] === 0x0a && ++lines === 2) {
					this.firstRecord = at + i + 1;
					return this.firstRecord;
				}
			}

			at += n;
		}

		return undefined;
	}

	/** Format 2: walk record heads from `at`, copying the wanted payload bytes. Returns bytes filled. */
	private readBinary(at: number, stream: StreamName, offset: number, out: Uint8Array): number {
		const head = Buffer.alloc(RECORD_HEAD_BYTES);
		const code = STREAM_CODE[stream];
		let filled = 0;
		while (filled < out.length && at + RECORD_HEAD_BYTES <= this.size) {
			if (readSync(this.fd, head, 0, RECORD_HEAD_BYTES, at) < RECORD_HEAD_BYTES) break;
			const type = head[0]!;
			const length = head.readUInt32LE(4);
			const recordOffset = head.readUInt32LE(16) + head.readUInt32LE(20) * 0x1_0000_0000;
			const payload = at + RECORD_HEAD_BYTES;
			if (type === RECORD_TYPE.end || payload + length > this.size) break;
			// Gap records need no care: the stream's next chunk then starts past the byte wanted.
			if (head[1] === code && type === RECORD_TYPE.chunk) {
				const want = offset + filled;
				// The next recorded byte is past the one wanted: a hole (a gap, or the range is done).
				if (recordOffset > want) break;
				if (recordOffset + length > want) {
					const skip = want - recordOffset;
					const n = Math.min(length - skip, out.length - filled);
					readFully(this.fd, out, filled, n, payload + skip);
					filled += n;
				}
			}

			at = payload + length;
		}

		return filled;
	}

	/** Format 1: read NDJSON lines from `at`, decoding the chunk records of `stream`. Returns bytes filled. */
	private readLines(at: number, stream: StreamName, offset: number, out: Uint8Array): number {
		const marker = Buffer.from(`"stream":"${stream}"`);
		const decoder = new TextDecoder('utf-8');
		let filled = 0;
		let pending: Buffer[] = [];
		// One block per reader, used again by every read (the TUI reads back on every redraw).
		const block = (this.block ??= Buffer.alloc(READ_BYTES));
		let position = at;
		// Returns false when reading should stop. `parts`: the line's bytes in the blocks they were read in.
		const onLine = (parts: Buffer[]): boolean => {
			// Cheap filter before decoding: a record of another stream is skipped undecoded (the marker
			// cannot appear unescaped inside a string value). Gap marks need no care: the stream's next chunk
			// then starts past the byte wanted.
			// A line read in one block is searched as it is; a longer one (a big chunk record) has its stream
			// member in its first part as encodeEvent writes it, and is joined only when it does not.
			const whole =
				parts[0]!.indexOf(marker) !== -1 ? undefined : parts.length === 1 ? parts[0]! : Buffer.concat(parts);
			if (whole !== undefined && whole.indexOf(marker) === -1 && whole.indexOf(ANY_STREAM) !== -1) return true;
			// Decoded from its parts: a big chunk record's base64 straight from the bytes (no 7 MB string per read of a 5 MB frame).
			const decoded = decodeRecordBytes(parts, decoder);
			if (decoded.kind !== 'event') return true;
			const event = decoded.event;
			const want = offset + filled;
			if (event.type !== 'chunk' || event.chunk.stream !== stream) return true;
			const {offset: chunkOffset, bytes} = event.chunk;
			if (chunkOffset > want) return false;
			if (chunkOffset + bytes.length > want) {
				const part = bytes.subarray(
					want - chunkOffset,
					Math.min(bytes.length, want - chunkOffset + out.length - filled),
				);
				out.set(part, filled);
				filled += part.length;
			}

			return filled < out.length;
		};

		for (;;) {
			const n = readSync(this.fd, block, 0, block.length, position);
			if (n <= 0) break;
			position += n;
			const data = block.subarray(0, n);
			let start = 0;
			let newline: number;
			while ((newline = data.indexOf(0x0a, start)) !== -1) {
				const piece = data.subarray(start, newline);
				const line = [...pending, piece];
				pending = [];
				start = newline + 1;
				if (!onLine(line)) return filled;
			}

			if (start < n) {
				// A line that goes on past this block: a big chunk record is read in part from the file, not whole.
				const big = pending.length === 0 ? this.bigChunkAt(position - n + start) : undefined;
				if (big === undefined) {
					pending.push(Buffer.from(data.subarray(start)));
				} else {
					const now = this.fromBigChunk(big, stream, offset, out, filled, block);
					if (now === undefined) return filled;
					filled = now;
					if (filled >= out.length) return filled;
					position = big.next;
				}
			}
		}

		if (pending.length > 0) onLine(pending);
		return filled;
	}

	/**
	 * Format 1: the big chunk record starting at file position `at`, when it is one as `encodeEvent`
	 * writes it (the head parses as a chunk record's, at least {@link BIG_CHUNK_BYTES} of data, and `"}`
	 * and a line end stand right after its base64): then its data is read back in part (docs/performance.md#tui-on-big-captures:
	 * the hex pane shows a few hundred bytes of a 5 MB frame, and reading the whole 7 MB line and decoding
	 * it for them cost 12 MB per frame while a big capture loads). Undefined for any other line, which
	 * is then read whole and decoded as before.
	 */
	private bigChunkAt(at: number): BigChunkRecord | undefined {
		const head = Buffer.alloc(Math.min(HEAD_BYTES, Math.max(0, this.size - at)));
		const got = readSync(this.fd, head, 0, head.length, at);
		if (got < CHUNK_START.length || head.compare(CHUNK_START, 0, CHUNK_START.length, 0, CHUNK_START.length) !== 0)
			return undefined;
		const member = head.subarray(0, got).indexOf(BASE64_MEMBER);
		if (member === -1) return undefined;
		const base64Start = member + BASE64_MEMBER.length;
		const text = head.toString('utf8', 0, base64Start);
		// A second `base64` member (an odd hand-made line) is left to the whole-line decoder.
		if (text.indexOf('"base64"') !== text.lastIndexOf('"base64"')) return undefined;
		let value: Record<string, unknown>;
		try {
			value = JSON.parse(`${text}"}`) as Record<string, unknown>;
		} catch {
			return undefined;
		}

		const {type, seq, stream, tMs, offset, length} = value;
		if (type !== 'chunk') return undefined;
		const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
		if (!isCount(seq) || !isCount(offset) || !isCount(length) || typeof tMs !== 'number' || !Number.isFinite(tMs))
			return undefined;
		if (typeof stream !== 'string' || !(STREAMS as readonly string[]).includes(stream) || length < BIG_CHUNK_BYTES)
			return undefined;
		const base64At = at + base64Start;
		const end = base64At + Math.ceil(length / 3) * 4;
		const tail = Buffer.alloc(4);
		const tailBytes = readSync(this.fd, tail, 0, 4, end);
		let next: number;
		if (tailBytes >= 3 && tail[0] === 0x22 && tail[1] === 0x7d && tail[2] === 0x0a) next = end + 3;
		else if (tailBytes === 4 && tail[0] === 0x22 && tail[1] === 0x7d && tail[2] === 0x0d && tail[3] === 0x0a)
			next = end + 4;
		else if (tailBytes === 2 && tail[0] === 0x22 && tail[1] === 0x7d) next = end + 2;
		else return undefined;
		return {stream: stream as StreamName, offset, length, base64At, next};
	}

	/**
	 * Copy the bytes of `big` wanted for `out` (from `out[filled]`: stream byte `offset + filled` on),
	 * decoding only the base64 quads that hold them. Returns the bytes of `out` filled now, or undefined
	 * when reading should stop (the record starts past the byte wanted: a hole). A record whose base64
	 * does not decode (checked whole once) is skipped, as the whole-line decoder skips it.
	 */
	private fromBigChunk(
		big: BigChunkRecord,
		stream: StreamName,
		offset: number,
		out: Uint8Array,
		filled: number,
		block: Buffer,
	): number | undefined {
		if (big.stream !== stream) return filled;
		const want = offset + filled;
		if (big.offset > want) return undefined;
		if (big.offset + big.length <= want || !this.isValidBase64(big, block)) return filled;
		const from = want - big.offset;
		const count = Math.min(big.length - from, out.length - filled);
		const firstQuad = Math.floor(from / 3);
		const endQuad = Math.ceil((from + count) / 3);
		const chars = Buffer.alloc((endQuad - firstQuad) * 4);
		readFully(this.fd, chars, 0, chars.length, big.base64At + firstQuad * 4);
		const bytes = decodeBase64Bytes(chars);
		if (bytes === undefined) return filled;
		const skip = from - firstQuad * 3;
		out.set(bytes.subarray(skip, skip + count), filled);
		return filled + count;
	}

	/**
	 * Whether the whole base64 of `big` is standard padded base64 of exactly `length` bytes (read in
	 * blocks into `block`, nothing kept); remembered for the last {@link CHECKED_KEPT} records.
	 */
	private isValidBase64(big: BigChunkRecord, block: Buffer): boolean {
		const known = this.checked.get(big.base64At);
		if (known !== undefined) return known;
		const chars = Math.ceil(big.length / 3) * 4;
		const pad = (3 - (big.length % 3)) % 3;
		let isValid = true;
		for (let at = 0; at < chars && isValid; at += block.length) {
			const n = Math.min(block.length, chars - at);
			readFully(this.fd, block, 0, n, big.base64At + at);
			const isLast = at + n === chars;
			isValid = isBase64Alphabet(block.subarray(0, isLast ? n - pad : n));
			for (let i = n - pad; isLast && i < n; i++) if (block[i] !== 0x3d) isValid = false;
		}

		if (this.checked.size >= CHECKED_KEPT) this.checked.delete(this.checked.keys().next().value!);
		this.checked.set(big.base64At, isValid);
		return isValid;
	}
}

/** `readSync` until `length` bytes are in `out` at `at` (a regular file returns them in one read; be safe). */
function readFully(fd: number, out: Uint8Array, at: number, length: number, position: number): void {
	let done = 0;
	while (done < length) {
		const n = readSync(fd, out, at + done, length - done, position + done);
		if (n <= 0) throw new Error(`capture file ended at byte ${position + done} while reading ${length} bytes back`);
		done += n;
	}
}
