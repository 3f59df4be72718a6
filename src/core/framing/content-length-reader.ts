import {Buffer} from 'node:buffer';
import {byteFacts, jsonParseError} from './byte-facts.js';
import {parseContentLengthValue} from './content-length.js';
import {makeFrame, type FrameSink} from './frame-sink.js';
import {countLineFeeds, isOpenBracket, newJsonScanState, scanJsonValueEnd, type JsonScanState} from './json-scan.js';
import type {HeldLine, Part} from './line.js';
import type {LineSplitter} from './line-splitter.js';

const LF = 0x0a;
const CR = 0x0d;
const LF_BYTES = Buffer.from([LF]);
const CRLF_BYTES = Buffer.from([CR, LF]);
const CR_BYTES = Buffer.from([CR]);

/** Scanning the body for the end of one JSON value. */
const IN_BODY = 0;
/** Body complete; waiting for the next byte to see whether an LF / CR LF belongs to the frame (L1). */
const AFTER_BODY = 1;
/** Body complete and a CR followed; waiting for the LF. */
const AFTER_BODY_CR = 2;

type BodyEnd = 'json' | 'declared' | 'missing' | 'eof';

/** Where a Content-Length frame ends ({@link ContentLengthReader}). */
interface BodyCut {
	/** Body bytes taken from the splitter's tail. */
	readonly bodyLength: number;
	/** Terminator bytes after the body: 0, 1 (LF) or 2 (CR LF). */
	readonly trailing: number;
	readonly bodyEnd: BodyEnd;
	/** `seq` and `tMs` of the frame's last chunk; -1: the chunk of the last body byte. */
	readonly lastSeq: number;
	readonly tMs: number;
	/** The stream ended inside the body. */
	readonly isEof: boolean;
}

/** What {@link ContentLengthReader.feed} did with the bytes it was given. */
export interface BodyStep {
	/** Where the bytes go on (line mode, or the reader again while it is not done). */
	readonly pos: number;
	/** Bytes to read again before anything else (after a fallback to the declared length). */
	readonly again?: Part[] | undefined;
}

/**
 * An LSP Content-Length header block (L1–L6) whose body is being read, from the splitter's tail bytes.
 * The body is found by scanning for the end of one JSON value, not by trusting the declared length; an
 * LF / CR LF right after the body belongs to the frame, so the frame is emitted when the next byte (or the
 * end of the stream) arrives. Past its scan limit it falls back to the declared length. Once it has
 * emitted its frame (with a `content-length` fact) `done` is true.
 */
export class ContentLengthReader {
	/** The frame was emitted: line mode goes on. */
	done = false;
	private readonly offset: number;
	private readonly headerLength: number;
	/** Stream offset of the first header name byte (after a BOM / ESC prefix, F14). */
	private readonly nameOffset: number;
	private readonly declaredLength: number | null;
	private readonly hasContentType: boolean;
	private readonly headerNames: readonly string[];
	private readonly lineEndings: 'crlf' | 'lf';
	private readonly clientError: string | undefined;
	private readonly scan: JsonScanState = newJsonScanState();
	private readonly scanLimit: number;
	private state = IN_BODY;
	private scanned = 0;
	private endSeq: number;
	private endTMs: number;
	private crSeq = 0;
	private crTMs = 0;

	/**
	 * @param lines the header lines and the empty line that ends them (the first holds a `Content-Length`)
	 * @param headerLength their total length in bytes
	 * @param splitter whose tail collects the body bytes
	 */
	constructor(
		private readonly sink: FrameSink,
		private readonly lines: readonly HeldLine[],
		headerLength: number,
		private readonly splitter: LineSplitter,
	) {
		const headers = lines.slice(0, -1).map((line) => line.header!);
		const contentLengthHeader = headers.find((header) => header.name.toLowerCase() === 'content-length')!;
		const declaredLength = parseContentLengthValue(contentLengthHeader.value);
		const firstLine = lines[0]!;
		const lastLine = lines.at(-1)!;
		const limits = sink.limits;
		this.offset = firstLine.offset;
		this.headerLength = headerLength;
		this.nameOffset = headers[0]!.nameStart;
		this.declaredLength = declaredLength;
		this.hasContentType = headers.some((header) => header.name.toLowerCase() === 'content-type');
		this.headerNames = headers.map((header) => header.name);
		this.lineEndings = lines.every((line) => line.isCrlf) ? 'crlf' : 'lf';
		this.clientError = jsonParseError(firstLine.buf.toString('utf8', 0, firstLine.contentEnd));
		this.scanLimit =
			declaredLength === null
				? limits.bodyScanNoLengthBytes
				: Math.max(3 * declaredLength + limits.bodyScanSlackBytes, limits.bodyScanMinBytes);
		this.endSeq = lastLine.lastSeq;
		this.endTMs = lastLine.tMs;
	}

	/** Consumes bytes from `buf[pos]` (of chunk `seq` at `tMs`). */
	feed(buf: Buffer, pos: number, seq: number, tMs: number): BodyStep {
		if (this.state === IN_BODY) return this.feedBody(buf, pos, seq, tMs);
		const b = buf[pos];
		if (this.state === AFTER_BODY) {
			if (b === LF) {
				this.emit({bodyLength: this.scanned, trailing: 1, bodyEnd: 'json', lastSeq: seq, tMs, isEof: false});
				return {pos: pos + 1};
			}

			if (b === CR) {
				this.crSeq = seq;
				this.crTMs = tMs;
				this.state = AFTER_BODY_CR;
				return {pos: pos + 1};
			}

			this.emitJsonBody();
			return {pos};
		}

		// AFTER_BODY_CR
		if (b === LF) {
			this.emit({bodyLength: this.scanned, trailing: 2, bodyEnd: 'json', lastSeq: seq, tMs, isEof: false});
			return {pos: pos + 1};
		}

		this.emitJsonBody();
		this.splitter.append(CR_BYTES, this.crSeq, this.crTMs);
		return {pos};
	}

	/**
	 * The stream ended at `tMs`: emits the frame as far as it came. Returns the bytes after a body that
	 * falls back to its declared length, to be read again (they may start another header block).
	 */
	end(tMs: number): Part[] | undefined {
		if (this.state === AFTER_BODY) {
			this.emitJsonBody();
		} else if (this.state === AFTER_BODY_CR) {
			this.emitJsonBody();
			this.splitter.append(CR_BYTES, this.crSeq, this.crTMs);
		} else {
			if (this.declaredLength !== null && this.scanned >= this.declaredLength) return this.fallBackToDeclaredLength();
			const lastSeq = this.splitter.lastSeq() ?? this.lines.at(-1)!.lastSeq;
			this.emit({bodyLength: this.scanned, trailing: 0, bodyEnd: 'eof', lastSeq, tMs, isEof: true});
		}

		return undefined;
	}

	private feedBody(buf: Buffer, pos: number, seq: number, tMs: number): BodyStep {
		const n = buf.length;
		if (this.scanned === 0 && !isOpenBracket(buf[pos])) {
			// The body does not start a JSON value: frame the header block alone.
			this.emit({bodyLength: 0, trailing: 0, bodyEnd: 'missing', lastSeq: this.endSeq, tMs: this.endTMs, isEof: false});
			return {pos};
		}

		const stop = Math.min(n, pos + this.scanLimit - this.scanned);
		const bodyEnd = scanJsonValueEnd(buf, pos, stop, this.scan);
		const end = bodyEnd === -1 ? stop : bodyEnd;
		this.splitter.append(buf.subarray(pos, end), seq, tMs);
		this.scanned += end - pos;
		this.endSeq = seq;
		this.endTMs = tMs;
		if (bodyEnd !== -1) {
			this.state = AFTER_BODY;
			return {pos: end};
		}

		if (this.scanned >= this.scanLimit) {
			// Re-read the bytes after the fallback body, then the rest of this chunk, before anything queued.
			const again = this.fallBackToDeclaredLength();
			if (end < n) again.push({buf: buf.subarray(end), seq, tMs});
			return {pos: n, again};
		}

		return {pos: end};
	}

	/** The body ended at the end of one JSON value, with no LF / CR LF after it. */
	private emitJsonBody(): void {
		this.emit({
			bodyLength: this.scanned,
			trailing: 0,
			bodyEnd: 'json',
			lastSeq: this.endSeq,
			tMs: this.endTMs,
			isEof: false,
		});
	}

	/**
	 * The body scan found no end within its limit (or the stream ended): frame the header block plus the
	 * declared number of body bytes (as many as were read). Returns the bytes after it, to be read again.
	 */
	private fallBackToDeclaredLength(): Part[] {
		const bodyLength = this.declaredLength === null ? 0 : Math.min(this.declaredLength, this.scanned);
		const bodyEnd = bodyLength > 0 ? 'declared' : 'missing';
		return this.emit({bodyLength, trailing: 0, bodyEnd, lastSeq: -1, tMs: -1, isEof: false});
	}

	/**
	 * Emits the frame: the header block, the first `bodyLength` tail bytes and `trailing` terminator bytes.
	 * Returns the tail bytes after the body (to read again).
	 */
	private emit(cut: BodyCut): Part[] {
		const {bodyLength, trailing, bodyEnd} = cut;
		const {body, rest} = splitParts(this.splitter.takeTail(), bodyLength);
		this.done = true;
		const firstLine = this.lines[0]!;
		const lastHeader = this.lines.at(-1)!;
		const lastBody = body.at(-1);
		const endSeq = cut.lastSeq !== -1 ? cut.lastSeq : (lastBody?.seq ?? lastHeader.lastSeq);
		const endTMs = cut.tMs !== -1 ? cut.tMs : (lastBody?.tMs ?? lastHeader.tMs);
		const pieces = [...this.lines.map((line) => line.buf), ...body.map((part) => part.buf)];
		if (trailing > 0) pieces.push(trailing === 1 ? LF_BYTES : CRLF_BYTES);
		const whole = Buffer.concat(pieces);
		const bodyStart = this.headerLength;
		const bodyStop = bodyStart + bodyLength;
		let message: unknown;
		let isJson = false;
		if (bodyLength > 0) {
			try {
				message = JSON.parse(whole.toString('utf8', bodyStart, bodyStop));
				isJson = true;
			} catch {
				isJson = false;
			}
		}

		if (isJson) this.sink.seenJson = true;
		const span = {
			offset: this.offset,
			firstSeq: firstLine.firstSeq,
			firstTMs: firstLine.firstTMs,
			lastSeq: endSeq,
			tMs: endTMs,
		};
		const frame = makeFrame(this.sink.stream, span, {
			framing: 'content-length',
			byteLength: whole.length,
			bodyOffset: this.offset + bodyStart,
			bodyLength,
			terminator: cut.isEof ? 'none' : 'length',
			lineCount: this.lines.length + countLineFeeds(whole, bodyStart, bodyStop) + (trailing > 0 ? 1 : 0),
			isJson,
			message,
			text: isJson ? undefined : whole.toString('utf8', 0, whole.length - trailing),
		});
		const hasBom = firstLine.header?.hasBom === true;
		const declared = this.declaredLength;
		this.sink.emit(frame, {
			limits: this.sink.limits,
			content: {
				kind: 'content-length',
				at: this.nameOffset,
				length: this.headerLength - (this.nameOffset - this.offset),
				declaredLength: declared,
				bodyLength,
				bodyEnd,
				missingBytes:
					bodyEnd === 'eof' && declared !== null && declared > bodyLength ? declared - bodyLength : undefined,
				hasContentType: this.hasContentType,
				lineEndings: this.lineEndings,
				headers: this.headerNames,
				clientError: this.clientError,
			},
			...byteFacts({
				buf: whole,
				start: 0,
				end: whole.length,
				offset: this.offset,
				bodyStart,
				bomIndex: hasBom ? 0 : -1,
				checkEscape: true,
				bomClientError: hasBom ? this.clientError : undefined,
			}),
		});
		this.splitter.cursor = this.offset + whole.length;
		return rest;
	}
}

/** `parts` cut after their first `length` bytes: the body, and the parts after it. */
function splitParts(parts: readonly Part[], length: number): {body: Part[]; rest: Part[]} {
	const body: Part[] = [];
	const rest: Part[] = [];
	let remaining = length;
	for (const part of parts) {
		if (remaining >= part.buf.length) {
			body.push(part);
			remaining -= part.buf.length;
		} else if (remaining > 0) {
			body.push({buf: part.buf.subarray(0, remaining), seq: part.seq, tMs: part.tMs});
			rest.push({buf: part.buf.subarray(remaining), seq: part.seq, tMs: part.tMs});
			remaining = 0;
		} else {
			rest.push(part);
		}
	}

	return {body, rest};
}
