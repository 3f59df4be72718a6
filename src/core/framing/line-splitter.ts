import {Buffer} from 'node:buffer';
import {isValidUtf8} from '../bytes/utf8.js';
import {toLine, type Line, type Part} from './line.js';

const LF = 0x0a;

/**
 * Cuts one stream's chunks into lines at LF (R1). Bytes after the last LF wait in the tail until their LF
 * comes (a line that spans chunks is concatenated once, then); a Content-Length body reader collects its
 * bytes in the same tail. `cursor` is the stream offset of the first tail byte: the start of the next line.
 */
export class LineSplitter {
	/** Stream offset of the first tail byte (the start of the next line). */
	cursor: number;
	private tail: Part[] = [];
	private tailLength = 0;

	/** @param startOffset stream offset of the first byte */
	constructor(startOffset: number) {
		this.cursor = startOffset;
	}

	/** Keeps `buf` (of chunk `seq` at `tMs`) in the tail; an empty one is dropped. */
	append(buf: Buffer, seq: number, tMs: number): void {
		if (buf.length > 0) {
			this.tail.push({buf, seq, tMs});
			this.tailLength += buf.length;
		}
	}

	/** Empties the tail and returns what it held. */
	takeTail(): Part[] {
		const tail = this.tail;
		this.tail = [];
		this.tailLength = 0;
		return tail;
	}

	/** `seq` of the chunk of the last tail byte, or undefined when the tail is empty. */
	lastSeq(): number | undefined {
		return this.tail.at(-1)?.seq;
	}

	/**
	 * Hands the complete lines of `buf[pos…]` (chunk `seq` at `tMs`) to `onLine`, one at a time and in
	 * order, while `inLines()` stays true; keeps the bytes after the last LF in the tail.
	 * @returns where the bytes go on: `buf.length` when all were taken, else where `inLines()` turned false
	 */
	split(
		buf: Buffer,
		pos: number,
		seq: number,
		tMs: number,
		onLine: (line: Line) => void,
		inLines: () => boolean,
	): number {
		const n = buf.length;
		while (pos < n && inLines()) {
			let lf = buf.indexOf(LF, pos);
			if (lf === -1) {
				this.append(pos === 0 ? buf : buf.subarray(pos), seq, tMs);
				return n;
			}

			if (this.tailLength > 0) {
				// A line that started in an earlier chunk: concatenate once, now that its LF is here.
				const first = this.tail[0]!;
				const length = this.tailLength + lf + 1 - pos;
				this.tail.push({buf: buf.subarray(pos, lf + 1), seq, tMs});
				const bytes = Buffer.concat(
					this.takeTail().map((part) => part.buf),
					length,
				);
				const offset = this.cursor;
				this.cursor += length;
				onLine(
					toLine(bytes, 0, length, true, undefined, {
						offset,
						firstSeq: first.seq,
						firstTMs: first.tMs,
						lastSeq: seq,
						tMs,
					}),
				);
				pos = lf + 1;
				continue;
			}

			// Lines wholly inside this chunk: one UTF-8 validation for all of them (a valid sequence cut at
			// LF bytes gives valid lines; only on failure is each line validated alone).
			const last = buf.lastIndexOf(LF);
			const isUtf8 = isValidUtf8(buf, pos, last + 1) ? true : undefined;
			for (;;) {
				const offset = this.cursor;
				this.cursor += lf + 1 - pos;
				onLine(toLine(buf, pos, lf + 1, true, isUtf8, {offset, firstSeq: seq, firstTMs: tMs, lastSeq: seq, tMs}));
				pos = lf + 1;
				if (pos > last || !inLines()) break;
				lf = buf.indexOf(LF, pos);
			}
		}

		return pos;
	}

	/** The stream ended at `tMs`: the bytes left in the tail as one line without LF, or undefined. */
	flush(tMs: number): Line | undefined {
		if (this.tailLength === 0) return undefined;
		const first = this.tail[0]!;
		const last = this.tail.at(-1)!;
		const length = this.tailLength;
		const parts = this.takeTail();
		const bytes =
			parts.length === 1
				? first.buf
				: Buffer.concat(
						parts.map((part) => part.buf),
						length,
					);
		const offset = this.cursor;
		this.cursor += length;
		return toLine(bytes, 0, length, false, undefined, {
			offset,
			firstSeq: first.seq,
			firstTMs: first.tMs,
			lastSeq: last.seq,
			tMs,
		});
	}
}
