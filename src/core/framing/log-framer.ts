import {Buffer} from 'node:buffer';
import type {Chunk, StreamName} from '../types.js';
import type {Framer, FramerEmit, RawFrame} from './framer.js';
import {checkNextChunk} from './check-chunk.js';

const LF = 0x0a;
const CR = 0x0d;

interface Part {
	readonly buf: Buffer;
	readonly seq: number;
	readonly tMs: number;
}

/**
 * The log-mode framer (stderr, R7): splits on LF only, keeps CR LF as terminator `crlf`, decodes each
 * line as UTF-8 with U+FFFD into `text` (BOM and escape sequences kept as they are), and reports no
 * facts. Blank lines are frames with `isBlank` and no `text`.
 */
export class LogFramer implements Framer {
	readonly stream: StreamName;
	private received = 0;
	private emittedEnd = 0;
	private isEnded = false;
	private tail: Part[] = [];
	private tailLength = 0;

	/** @param startOffset the stream offset of the first byte pushed (see `FramerOptions.startOffset`). */
	constructor(stream: StreamName, startOffset = 0) {
		this.stream = stream;
		this.received = startOffset;
		this.emittedEnd = startOffset;
	}

	get pendingBytes(): number {
		return this.received - this.emittedEnd;
	}

	get pendingOffset(): number {
		return this.emittedEnd;
	}

	push(chunk: Chunk, emit: FramerEmit): void {
		checkNextChunk(this.stream, this.received, this.isEnded, chunk);

		const bytes = chunk.bytes;
		const n = bytes.byteLength;
		if (n === 0) {
			return;
		}

		this.received += n;
		const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, n);
		let pos = 0;
		while (pos < n) {
			const lf = buf.indexOf(LF, pos);
			if (lf === -1) {
				this.tail.push({buf: pos === 0 ? buf : buf.subarray(pos), seq: chunk.seq, tMs: chunk.tMs});
				this.tailLength += n - pos;
				return;
			}

			if (this.tailLength > 0) {
				const first = this.tail[0]!;
				this.tail.push({buf: buf.subarray(pos, lf + 1), seq: chunk.seq, tMs: chunk.tMs});
				const line = Buffer.concat(
					this.tail.map((part) => part.buf),
					this.tailLength + lf + 1 - pos,
				);
				this.tail = [];
				this.tailLength = 0;
				this.emitLine(line, 0, line.length, true, first.seq, first.tMs, chunk.seq, chunk.tMs, emit);
			} else {
				this.emitLine(buf, pos, lf + 1, true, chunk.seq, chunk.tMs, chunk.seq, chunk.tMs, emit);
			}

			pos = lf + 1;
		}
	}

	end(tMs: number, emit: FramerEmit): void {
		if (this.isEnded) {
			throw new Error(`framer for ${this.stream} already ended`);
		}

		this.isEnded = true;
		if (this.tailLength > 0) {
			const first = this.tail[0]!;
			const last = this.tail.at(-1)!;
			const line = Buffer.concat(
				this.tail.map((part) => part.buf),
				this.tailLength,
			);
			this.tail = [];
			this.tailLength = 0;
			this.emitLine(line, 0, line.length, false, first.seq, first.tMs, last.seq, tMs, emit);
		}
	}

	private emitLine(
		buf: Buffer,
		s: number,
		e: number,
		hasLF: boolean,
		firstSeq: number,
		firstTMs: number,
		lastSeq: number,
		tMs: number,
		emit: FramerEmit,
	): void {
		let contentEnd = e;
		let isCrlf = false;
		if (hasLF) {
			contentEnd = e - 1;
			if (contentEnd > s && buf[contentEnd - 1] === CR) {
				contentEnd--;
				isCrlf = true;
			}
		}

		const offset = this.emittedEnd;
		const byteLength = e - s;
		const base = {
			stream: this.stream,
			framing: 'newline' as const,
			offset,
			byteLength,
			bodyOffset: offset,
			bodyLength: contentEnd - s,
			terminator: hasLF ? (isCrlf ? ('crlf' as const) : ('lf' as const)) : ('none' as const),
			lineCount: 1,
			tMs,
			firstTMs,
			firstSeq,
			lastSeq,
			isJson: false,
		};
		const frame: RawFrame =
			contentEnd === s
				? {...base, isBlank: true}
				: {...base, isBlank: false, text: buf.toString('utf8', s, contentEnd)};
		this.emittedEnd = offset + byteLength;
		emit({frame});
	}
}
