import type {Buffer} from 'node:buffer';
import type {Terminator} from '../types.js';
import type {HeaderLine} from './content-length.js';

const CR = 0x0d;

/** Bytes of one chunk that no line or body has taken yet, with the chunk they came in. */
export interface Part {
	readonly buf: Buffer;
	readonly seq: number;
	readonly tMs: number;
}

/** Where a frame or a line lies in its stream and which chunks brought it (ms since session start). */
export interface Span {
	/** Stream byte offset of the first byte. */
	readonly offset: number;
	/** `seq` and `tMs` of the chunk of the first byte. */
	readonly firstSeq: number;
	readonly firstTMs: number;
	/** `seq` and `tMs` of the chunk of the last byte (the frame's completion time). */
	readonly lastSeq: number;
	readonly tMs: number;
}

/**
 * One complete line (up to and with its LF), or the unterminated bytes left at the end of the stream:
 * `buf[start, end)`, of which `buf[start, contentEnd)` is the content without its LF / CR LF (R1, R2).
 * `offset` is the stream offset of `buf[start]`.
 */
export interface Line extends Span {
	readonly buf: Buffer;
	readonly start: number;
	readonly end: number;
	readonly contentEnd: number;
	/** The line ends in LF (false only for the bytes left at the end of the stream). */
	readonly hasLF: boolean;
	/** The LF comes after a CR (then `buf[contentEnd]` is that CR). */
	readonly isCrlf: boolean;
	/** True when the bytes are known to be valid UTF-8 (R3); undefined when not checked yet. */
	readonly isUtf8: boolean | undefined;
}

/** A line held back while it may be part of a multi-line value or a header block: its own bytes, from 0. */
export interface HeldLine extends Line {
	/** The header it parses as (offsets are stream offsets), for a Content-Length header candidate. */
	readonly header?: HeaderLine | undefined;
}

/**
 * The line `buf[start, end)` at `span`: finds its content end (before LF or CR LF).
 * @param hasLF the line ends in LF (`buf[end - 1]`)
 * @param isUtf8 true when `buf[start, end)` is known to be valid UTF-8
 */
export function toLine(
	buf: Buffer,
	start: number,
	end: number,
	hasLF: boolean,
	isUtf8: boolean | undefined,
	span: Span,
): Line {
	let contentEnd = end;
	let isCrlf = false;
	if (hasLF) {
		contentEnd = end - 1;
		if (contentEnd > start && buf[contentEnd - 1] === CR) {
			contentEnd--;
			isCrlf = true;
		}
	}

	return {
		buf,
		start,
		end,
		contentEnd,
		hasLF,
		isCrlf,
		isUtf8,
		offset: span.offset,
		firstSeq: span.firstSeq,
		firstTMs: span.firstTMs,
		lastSeq: span.lastSeq,
		tMs: span.tMs,
	};
}

/**
 * `line` as a line held back: a view of its own bytes starting at 0, so that the chunk it came in is not
 * needed. `header` (parsed from `line.buf` indices) gets stream offsets.
 */
export function holdLine(line: Line, header: HeaderLine | undefined): HeldLine {
	const {start} = line;
	return {
		...line,
		buf: line.buf.subarray(start, line.end),
		start: 0,
		end: line.end - start,
		contentEnd: line.contentEnd - start,
		header:
			header === undefined
				? undefined
				: {
						...header,
						nameStart: line.offset + header.nameStart - start,
						firstEsc: header.firstEsc === -1 ? -1 : line.offset + header.firstEsc - start,
					},
	};
}

/** How a line ends: `lf`, `crlf`, or `none` for the bytes left at the end of the stream. */
export function terminatorOf(line: Line): Terminator {
	return line.hasLF ? (line.isCrlf ? 'crlf' : 'lf') : 'none';
}
