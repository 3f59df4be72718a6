import {nonCanonicalRawId} from './raw-id.js';
import {mayBeNonPortable, nonPortableTokens} from './portability.js';
import {Buffer, isAscii} from 'node:buffer';
import type {Chunk, StreamName, Terminator} from '../types.js';
import {isValidUtf8} from '../bytes/utf8.js';
import {parseContentLengthValue, parseHeaderLine, type HeaderLine} from './content-length.js';
import {byteFacts, errorMessage, jsonParseError} from './findings.js';
import type {ContentFact, FrameFacts} from './facts.js';
import type {Framer, FramerEmit, RawFrame} from './framer.js';
import {
	countLineFeeds,
	isOpenBracket,
	newJsonScanState,
	scanJsonValueEnd,
	skipJsonWhitespace,
	type JsonScanState,
} from './json-scan.js';
import {FRAMING_LIMITS, type FramingLimits} from './limits.js';
import {classifyStrayLine, launcherOf, loggerOf, stderrOnlyLine} from './stray-kind.js';
import {checkNextChunk} from './check-chunk.js';

const LF = 0x0a;
const CR = 0x0d;
const OPEN_BRACE = 0x7b;

/** Line mode: split on LF. */
const MODE_LINE = 0;
/** Content-Length body: scanning for the end of one JSON value. */
const MODE_BODY = 1;
/** Body complete; waiting for the next byte to see whether an LF / CR LF belongs to the frame. */
const MODE_AFTER_BODY = 2;
/** Body complete and a CR followed; waiting for the LF. */
const MODE_AFTER_BODY_CR = 3;

const HELD_NONE = 0;
/** Header-shaped lines held until the empty line that would end a Content-Length header block. */
const HELD_HEADERS = 1;
/** Lines held while one pretty-printed JSON value is open (R1). */
const HELD_MULTILINE = 2;

const LF_BYTES = Buffer.from([LF]);
const CRLF_BYTES = Buffer.from([CR, LF]);
const CR_BYTES = Buffer.from([CR]);
const BLANK_CLIENT_ERROR = jsonParseError('') ?? 'Unexpected end of JSON input';
/** How much of the text after a complete message (F43) `concatenated-json` quotes, in bytes. */
const TRAILING_TEXT_BYTES = 240;

/** A JSON-RPC message's object (it has a `jsonrpc` member): what F43's trailing text is glued to. */
function isMessageObject(value: unknown): boolean {
	return value !== null && typeof value === 'object' && !Array.isArray(value) && 'jsonrpc' in value;
}

/** Bytes not yet part of a complete line (or a Content-Length body), with the chunk they came in. */
interface Part {
	readonly buf: Buffer;
	readonly seq: number;
	readonly tMs: number;
}

/** A complete line held back (multi-line JSON or header candidate). */
interface HeldLine {
	/** The line bytes including its terminator. */
	readonly buf: Buffer;
	readonly offset: number;
	readonly hasLF: boolean;
	readonly firstSeq: number;
	readonly firstTMs: number;
	readonly lastSeq: number;
	readonly tMs: number;
	/** Parsed header for header candidates. */
	readonly header?: HeaderLine | undefined;
	readonly isCrlf: boolean;
}

/** A Content-Length header block whose body is being read. */
interface ContentLengthState {
	readonly lines: readonly HeldLine[];
	readonly offset: number;
	readonly headerLength: number;
	/** Stream offset of the first header name byte (after a BOM / ESC prefix, F14). */
	readonly nameOffset: number;
	readonly declaredLength: number | null;
	readonly hasContentType: boolean;
	readonly headerNames: readonly string[];
	readonly lineEndings: 'crlf' | 'lf';
	readonly clientError: string | undefined;
	readonly scan: JsonScanState;
	readonly scanLimit: number;
	scanned: number;
	endSeq: number;
	endTMs: number;
	crSeq: number;
	crTMs: number;
}

type BodyEnd = 'json' | 'declared' | 'missing' | 'eof';

function toBuffer(bytes: Uint8Array): Buffer {
	return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function noop(): void {}

/**
 * A JSON line at least this long (bytes) and all ASCII is decoded as Latin-1, which gives the same text:
 * Node makes a Latin-1 decode over ~1 MB (its EXTERN_APEX, 0xFBEE9 bytes) an external string, whose
 * bytes live outside the JS heap and can go at a minor GC once the string is dropped, where a UTF-8
 * decode that long is a heap string in the large-object space until a major GC (docs/performance.md#replay: `view --json`
 * of a capture of 5 MB frames peaked ~10 MiB lower this way).
 */
const EXTERNAL_TEXT_BYTES = 1_100_000;

/**
 * The protocol-mode framer (stdin, stdout): newline-delimited JSON (R1, R2) with every byte and framing
 * check (R3–R5, J9, C1, O4), reassembly of pretty-printed JSON (R1) and recognition of LSP
 * Content-Length framing at any frame boundary (L1–L6). See {@link createFramer} for the contract.
 */
export class ProtocolFramer implements Framer {
	readonly stream: StreamName;

	private received = 0;
	private emittedEnd = 0;
	private isEnded = false;
	private out: FramerEmit = noop;
	private readonly queue: Part[] = [];

	// Bytes after the last complete line (line mode) or the body read so far (body mode).
	private tail: Part[] = [];
	private tailLength = 0;
	/** Stream offset of the first tail byte (= start of the next line in line mode). */
	private cursor = 0;
	private mode = MODE_LINE;

	// Position and chunk facts of the line being handled.
	private lineOffset = 0;
	private lineFirstSeq = 0;
	private lineFirstTMs = 0;
	private lineLastSeq = 0;
	private lineTMs = 0;

	private held: HeldLine[] = [];
	private heldKind = HELD_NONE;
	private heldBytes = 0;
	private multilineScan: JsonScanState = newJsonScanState();

	private contentLength: ContentLengthState | undefined;
	private seenJson = false;

	private readonly limits: FramingLimits;
	/** The facts of a clean frame (one JSON value on its own line): shared, never changed. */
	private readonly cleanFacts: FrameFacts;

	private readonly awaitedMethod: ((idToken: string) => string | undefined) | undefined;

	/**
	 * @param limits byte/line limits; tests pass small ones to reach the bounds quickly.
	 * @param awaitedMethod see `FramerOptions.awaitedMethod` (which outstanding request an id token answers).
	 * @param startOffset see `FramerOptions.startOffset` (the stream offset of the first byte pushed).
	 */
	constructor(
		stream: StreamName,
		limits: FramingLimits = FRAMING_LIMITS,
		awaitedMethod?: (idToken: string) => string | undefined,
		startOffset = 0,
	) {
		this.stream = stream;
		this.limits = limits;
		this.cleanFacts = Object.freeze({limits});
		this.awaitedMethod = awaitedMethod;
		this.received = startOffset;
		this.emittedEnd = startOffset;
		this.cursor = startOffset;
		this.lineOffset = startOffset;
	}

	get pendingBytes(): number {
		return this.received - this.emittedEnd;
	}

	get pendingOffset(): number {
		return this.emittedEnd;
	}

	push(chunk: Chunk, emit: FramerEmit): void {
		checkNextChunk(this.stream, this.received, this.isEnded, chunk);

		const length = chunk.bytes.byteLength;
		if (length === 0) {
			return;
		}

		this.received += length;
		this.out = emit;
		try {
			this.feed(toBuffer(chunk.bytes), chunk.seq, chunk.tMs);
			this.drainQueue();
		} finally {
			this.out = noop;
		}
	}

	end(tMs: number, emit: FramerEmit): void {
		if (this.isEnded) {
			throw new Error(`framer for ${this.stream} already ended`);
		}

		this.isEnded = true;
		this.out = emit;
		try {
			this.finish(tMs);
		} finally {
			this.out = noop;
		}
	}

	// ---------------------------------------------------------------------------------------------
	// Chunk intake

	private drainQueue(): void {
		while (this.queue.length > 0) {
			const part = this.queue.shift()!;
			this.feed(part.buf, part.seq, part.tMs);
		}
	}

	private appendTail(buf: Buffer, seq: number, tMs: number): void {
		if (buf.length > 0) {
			this.tail.push({buf, seq, tMs});
			this.tailLength += buf.length;
		}
	}

	private feed(buf: Buffer, seq: number, tMs: number): void {
		const n = buf.length;
		let pos = 0;
		while (pos < n) {
			if (this.mode !== MODE_LINE) {
				pos = this.feedBody(buf, pos, seq, tMs);
				continue;
			}

			let lf = buf.indexOf(LF, pos);
			if (lf === -1) {
				this.appendTail(pos === 0 ? buf : buf.subarray(pos), seq, tMs);
				return;
			}

			if (this.tailLength > 0) {
				// A line that started in an earlier chunk: concatenate once, now that its LF is here.
				const first = this.tail[0]!;
				this.tail.push({buf: buf.subarray(pos, lf + 1), seq, tMs});
				const line = Buffer.concat(
					this.tail.map((part) => part.buf),
					this.tailLength + lf + 1 - pos,
				);
				this.tail = [];
				this.tailLength = 0;
				this.setLine(this.cursor, first.seq, first.tMs, seq, tMs);
				this.line(line, 0, line.length, true, undefined);
				this.cursor += line.length;
				pos = lf + 1;
				continue;
			}

			// Lines wholly inside this chunk: one UTF-8 validation for all of them (a valid sequence cut at
			// LF bytes gives valid lines; only on failure is each line validated alone).
			const last = buf.lastIndexOf(LF);
			const allValid = isValidUtf8(buf, pos, last + 1);
			for (;;) {
				this.setLine(this.cursor, seq, tMs, seq, tMs);
				this.line(buf, pos, lf + 1, true, allValid ? true : undefined);
				this.cursor += lf + 1 - pos;
				pos = lf + 1;
				if (pos > last || this.mode !== MODE_LINE) {
					break;
				}

				lf = buf.indexOf(LF, pos);
			}
		}
	}

	private setLine(offset: number, firstSeq: number, firstTMs: number, lastSeq: number, tMs: number): void {
		this.lineOffset = offset;
		this.lineFirstSeq = firstSeq;
		this.lineFirstTMs = firstTMs;
		this.lineLastSeq = lastSeq;
		this.lineTMs = tMs;
	}

	private line(buf: Buffer, s: number, e: number, hasLF: boolean, isUtf8: boolean | undefined): void {
		if (this.heldKind === HELD_NONE) {
			this.boundaryLine(buf, s, e, hasLF, isUtf8, true);
		} else if (this.heldKind === HELD_MULTILINE) {
			this.multilineLine(buf, s, e, hasLF, isUtf8);
		} else {
			this.headerLine(buf, s, e, hasLF, isUtf8);
		}
	}

	// ---------------------------------------------------------------------------------------------
	// One line at a frame boundary

	/**
	 * Frames one line that starts at a frame boundary. `allowHold` is false for lines released from a
	 * failed multi-line / header hold: they are framed alone.
	 */
	private boundaryLine(
		buf: Buffer,
		s: number,
		e: number,
		hasLF: boolean,
		isUtf8: boolean | undefined,
		allowHold: boolean,
	): void {
		let contentEnd = e;
		let crIndex = -1;
		if (hasLF) {
			contentEnd = e - 1;
			if (contentEnd > s && buf[contentEnd - 1] === CR) {
				contentEnd--;
				crIndex = contentEnd;
			}
		}

		if (contentEnd === s) {
			this.blankFrame(s, e, crIndex);
			return;
		}

		if (buf[s] === OPEN_BRACE) {
			// Hot path: a one-line JSON object. A long line of ASCII only is decoded as Latin-1 (the same text):
			// see EXTERNAL_TEXT_BYTES.
			let text: string | undefined =
				contentEnd - s >= EXTERNAL_TEXT_BYTES && isAscii(buf.subarray(s, contentEnd))
					? buf.toString('latin1', s, contentEnd)
					: buf.toString('utf8', s, contentEnd);
			let message: unknown;
			try {
				message = JSON.parse(text);
			} catch (error) {
				this.otherLine(buf, s, e, contentEnd, crIndex, hasLF, isUtf8, allowHold, text, errorMessage(error));
				return;
			}

			const valid = isUtf8 ?? isValidUtf8(buf, s, e);
			const byteLength = e - s;
			this.seenJson = true;
			if (valid && crIndex === -1 && hasLF && byteLength <= this.limits.oversizeWarnBytes) {
				const offset = this.lineOffset;
				const frame: RawFrame = {
					stream: this.stream,
					framing: 'newline',
					offset,
					byteLength,
					bodyOffset: offset,
					bodyLength: byteLength - 1,
					terminator: 'lf',
					lineCount: 1,
					tMs: this.lineTMs,
					firstTMs: this.lineFirstTMs,
					firstSeq: this.lineFirstSeq,
					lastSeq: this.lineLastSeq,
					isJson: true,
					isBlank: false,
					message,
				};
				const rawId = nonCanonicalRawId(message, text);
				if (rawId !== undefined) (frame as {rawId?: string}).rawId = rawId;
				this.emittedEnd = offset + byteLength;
				const tokens = mayBeNonPortable(text) ? nonPortableTokens(text, offset) : undefined;
				const facts =
					tokens === undefined || tokens.length === 0 ? this.cleanFacts : {limits: this.limits, nonPortable: tokens};
				this.out({frame, facts});
				return;
			}

			// The line's text goes on in a holder lineFrame empties once it is checked: a 5 MB line's text is
			// not kept while its frame is handed on (and written out) beside the parsed message (docs/performance.md#replay).
			const body = {text};
			text = undefined;
			this.lineFrame(buf, s, e, s, contentEnd, crIndex, hasLF, valid, true, message, undefined, body);
			return;
		}

		this.otherLine(buf, s, e, contentEnd, crIndex, hasLF, isUtf8, allowHold, undefined, undefined);
	}

	/** Everything but a clean one-line JSON object: BOM, headers, batches, strays, J9, start of R1. */
	private otherLine(
		buf: Buffer,
		s: number,
		e: number,
		contentEnd: number,
		crIndex: number,
		hasLF: boolean,
		isUtf8: boolean | undefined,
		allowHold: boolean,
		parsedText: string | undefined,
		parseError: string | undefined,
	): void {
		const b0 = buf[s]!;
		if (allowHold && hasLF && !isOpenBracket(b0) && e - s <= this.limits.headerMaxLineBytes) {
			const header = parseHeaderLine(buf, s, contentEnd);
			if (header !== undefined) {
				this.hold(HELD_HEADERS, buf, s, e, hasLF, crIndex !== -1, header);
				return;
			}
		}

		const hasBom = contentEnd - s >= 3 && b0 === 0xef && buf[s + 1] === 0xbb && buf[s + 2] === 0xbf;
		const bodyStart = hasBom ? s + 3 : s;
		let text = parsedText;
		let error = parseError;
		if (text === undefined || error === undefined) {
			text = buf.toString('utf8', bodyStart, contentEnd);
			let message: unknown;
			try {
				message = JSON.parse(text);
			} catch (caught) {
				error = errorMessage(caught);
			}

			if (error === undefined) {
				this.seenJson = true;
				this.lineFrame(buf, s, e, bodyStart, contentEnd, crIndex, hasLF, isUtf8, true, message, undefined, {text});
				return;
			}
		}

		const clientError = hasBom ? jsonParseError(buf.toString('utf8', s, contentEnd)) : error;
		const first = skipJsonWhitespace(buf, bodyStart, contentEnd);
		if (first < contentEnd && isOpenBracket(buf[first])) {
			const scan = newJsonScanState();
			const valueEnd = scanJsonValueEnd(buf, first, contentEnd, scan);
			if (valueEnd !== -1) {
				if (
					this.concatenatedLine(buf, s, e, bodyStart, contentEnd, crIndex, hasLF, isUtf8, first, valueEnd, clientError)
				) {
					return;
				}
			} else if (allowHold && hasLF && !scan.inString) {
				this.multilineScan = scan;
				this.hold(HELD_MULTILINE, buf, s, e, hasLF, crIndex !== -1, undefined);
				return;
			} else if (!hasLF) {
				// A JSON value cut at end of stream (F25): clients never see it as a line, so it is not a stray
				// line; `missing-newline` says what happened.
				this.lineFrame(buf, s, e, bodyStart, contentEnd, crIndex, hasLF, isUtf8, false, undefined, text, undefined, {
					kind: 'cut-json',
				});
				return;
			}
		}

		if (
			first < contentEnd &&
			buf[first] === OPEN_BRACE &&
			this.invalidJsonLine(buf, s, e, bodyStart, contentEnd, crIndex, hasLF, isUtf8, text, error)
		) {
			return;
		}

		this.strayLine(buf, s, e, bodyStart, contentEnd, crIndex, hasLF, isUtf8, text, clientError);
	}

	/**
	 * R1, J1: a line that opens like a JSON-RPC message (`{` and a `"jsonrpc"` member) or holds the id of a
	 * request the peer still awaits, but does not parse (a raw control character in a string, a bad escape,
	 * a cut). `invalid-json` at the parse error's own byte, never `stray-output`. Returns false when the
	 * line is not meant to be a message.
	 */
	private invalidJsonLine(
		buf: Buffer,
		s: number,
		e: number,
		bodyStart: number,
		contentEnd: number,
		crIndex: number,
		hasLF: boolean,
		isUtf8: boolean | undefined,
		text: string,
		parseError: string,
	): boolean {
		const shape = messageShape(text);
		const awaited = shape.idToken === undefined ? undefined : this.awaitedMethod?.(shape.idToken);
		if (!shape.hasJsonrpc && awaited === undefined) {
			return false;
		}

		// V8 names the UTF-16 position of the error; the finding points at its byte.
		const position = /at position (\d+)/.exec(parseError);
		const errorAt =
			position === null ? contentEnd - bodyStart : Buffer.byteLength(text.slice(0, Number(position[1])), 'utf8');
		const at = Math.min(bodyStart + errorAt, contentEnd);
		const byte = buf[at];
		const content: ContentFact = {
			kind: 'unparsed-message',
			at: this.lineOffset + at - s,
			length: at < contentEnd ? 1 : 0,
			looksLike: describeShape(shape, awaited),
			clientError: parseError,
			position: errorAt,
			byte: at < contentEnd ? byte : undefined,
			id: shape.idToken,
			awaitedMethod: awaited,
			method: awaited === undefined ? shape.method : undefined,
		};
		this.lineFrame(
			buf,
			s,
			e,
			bodyStart,
			contentEnd,
			crIndex,
			hasLF,
			isUtf8,
			false,
			undefined,
			text,
			undefined,
			content,
		);
		return true;
	}

	/** J9: `{…}{…}`, `{…} {…}`, `{…}\r{…}` on one line, or a message and then text (F43). Returns false when the line is not that. */
	private concatenatedLine(
		buf: Buffer,
		s: number,
		e: number,
		bodyStart: number,
		contentEnd: number,
		crIndex: number,
		hasLF: boolean,
		isUtf8: boolean | undefined,
		first: number,
		firstEnd: number,
		clientError: string | undefined,
	): boolean {
		let message: unknown;
		try {
			message = JSON.parse(buf.toString('utf8', first, firstEnd));
		} catch {
			return false;
		}

		const secondStart = skipJsonWhitespace(buf, firstEnd, contentEnd);
		let next = secondStart;
		let values = 1;
		while (next < contentEnd && isOpenBracket(buf[next])) {
			const valueEnd = scanJsonValueEnd(buf, next, contentEnd, newJsonScanState());
			if (valueEnd === -1 || jsonParseError(buf.toString('utf8', next, valueEnd)) !== undefined) {
				break;
			}

			values++;
			next = skipJsonWhitespace(buf, valueEnd, contentEnd);
		}

		// F43: a complete message, then text that is not JSON before the LF (a logger's line glued to it).
		const trailing = values < 2 && secondStart < contentEnd && isMessageObject(message);
		if (values < 2 && !trailing) {
			return false;
		}

		this.seenJson = true;
		const content: ContentFact = {
			kind: 'trailing',
			at: this.lineOffset + secondStart - s,
			length: contentEnd - secondStart,
			values,
			clientError,
			messageEnd: trailing ? this.lineOffset + firstEnd - s : undefined,
			trailing: trailing
				? buf.toString('utf8', secondStart, Math.min(contentEnd, secondStart + TRAILING_TEXT_BYTES))
				: undefined,
		};
		this.lineFrame(
			buf,
			s,
			e,
			bodyStart,
			contentEnd,
			crIndex,
			hasLF,
			isUtf8,
			true,
			message,
			undefined,
			undefined,
			content,
		);
		return true;
	}

	/** A line that is not JSON (R5): `stray-output` with its kind and the client's parse error. */
	private strayLine(
		buf: Buffer,
		s: number,
		e: number,
		bodyStart: number,
		contentEnd: number,
		crIndex: number,
		hasLF: boolean,
		isUtf8: boolean | undefined,
		text: string,
		clientError: string | undefined,
	): void {
		const bytes = buf.subarray(bodyStart, contentEnd);
		const hasLoneCr = bytes.indexOf(CR) !== -1 || bytes.indexOf(0x08) !== -1;
		const kind = classifyStrayLine(text, {hasLoneCr, seenJson: this.seenJson});
		const stderrOnly = stderrOnlyLine(text);
		const content: ContentFact = {
			kind: 'text',
			length: contentEnd - s,
			strayKind: kind,
			clientError,
			logger: kind === 'log' ? loggerOf(text) : undefined,
			launcher: kind === 'launcher' ? launcherOf(text) : undefined,
			stderrOnly,
		};
		this.lineFrame(
			buf,
			s,
			e,
			bodyStart,
			contentEnd,
			crIndex,
			hasLF,
			isUtf8,
			false,
			undefined,
			text,
			undefined,
			content,
		);
	}

	private blankFrame(s: number, e: number, crIndex: number): void {
		const offset = this.lineOffset;
		const byteLength = e - s;
		const frame: RawFrame = {
			stream: this.stream,
			framing: 'newline',
			offset,
			byteLength,
			bodyOffset: offset,
			bodyLength: 0,
			terminator: crIndex === -1 ? 'lf' : 'crlf',
			lineCount: 1,
			tMs: this.lineTMs,
			firstTMs: this.lineFirstTMs,
			firstSeq: this.lineFirstSeq,
			lastSeq: this.lineLastSeq,
			isJson: false,
			isBlank: true,
		};
		this.emit(frame, {limits: this.limits, content: {kind: 'blank', clientError: BLANK_CLIENT_ERROR}});
	}

	/** Emits a one-line frame with its content fact and its byte-level facts. */
	private lineFrame(
		buf: Buffer,
		s: number,
		e: number,
		bodyStart: number,
		contentEnd: number,
		crIndex: number,
		hasLF: boolean,
		isUtf8: boolean | undefined,
		isJson: boolean,
		message: unknown,
		text: string | undefined,
		bodyText?: {text?: string},
		content?: ContentFact,
	): void {
		const offset = this.lineOffset;
		// The body as text, decoded once (a 5 MB line is not decoded again for each check; docs/performance.md#replay).
		let body = bodyText?.text;
		const bodyString = (): string => (body ??= buf.toString('utf8', bodyStart, contentEnd));
		const terminator: Terminator = hasLF ? (crIndex === -1 ? 'lf' : 'crlf') : 'none';
		let frame = this.makeFrame(
			'newline',
			offset,
			e - s,
			offset + bodyStart - s,
			contentEnd - bodyStart,
			terminator,
			1,
			isJson,
			message,
			text,
		);
		if (
			isJson &&
			typeof message === 'object' &&
			message !== null &&
			typeof (message as {id?: unknown}).id === 'number'
		) {
			const rawId = nonCanonicalRawId(message, bodyString());
			if (rawId !== undefined) frame = {...frame, rawId};
		}
		let nonPortable: FrameFacts['nonPortable'];
		if (isJson) {
			const text = bodyString();
			if (mayBeNonPortable(text)) {
				nonPortable = nonPortableTokens(text, offset + bodyStart - s);
			}
		}
		// Checked: the text is not kept while the frame is handed on.
		body = undefined;
		if (bodyText !== undefined) bodyText.text = undefined;
		const bytes = byteFacts({
			buf,
			start: s,
			end: e,
			offset,
			bodyStart,
			bomIndex: bodyStart === s ? -1 : s,
			// Raw ESC cannot be in JSON: a frame that parsed whole is not searched for one.
			checkEscape: !isJson || content !== undefined,
			isUtf8,
			bomClientError: bodyStart === s ? undefined : jsonParseError(buf.toString('utf8', s, contentEnd)),
		});
		this.emit(frame, {limits: this.limits, content, nonPortable, ...bytes});
	}

	private makeFrame(
		framing: 'newline' | 'content-length',
		offset: number,
		byteLength: number,
		bodyOffset: number,
		bodyLength: number,
		terminator: Terminator,
		lineCount: number,
		isJson: boolean,
		message: unknown,
		text: string | undefined,
	): RawFrame {
		const base = {
			stream: this.stream,
			framing,
			offset,
			byteLength,
			bodyOffset,
			bodyLength,
			terminator,
			lineCount,
			tMs: this.lineTMs,
			firstTMs: this.lineFirstTMs,
			firstSeq: this.lineFirstSeq,
			lastSeq: this.lineLastSeq,
			isJson,
			isBlank: false,
		};
		if (isJson) {
			return {...base, message};
		}

		return text === undefined ? base : {...base, text};
	}

	private emit(frame: RawFrame, facts: FrameFacts): void {
		this.emittedEnd = frame.offset + frame.byteLength;
		this.out({frame, facts});
	}

	// ---------------------------------------------------------------------------------------------
	// Held lines: pretty-printed JSON (R1) and Content-Length header candidates (L6)

	private hold(
		kind: number,
		buf: Buffer,
		s: number,
		e: number,
		hasLF: boolean,
		isCrlf: boolean,
		header: HeaderLine | undefined,
	): void {
		if (this.heldKind === HELD_NONE) {
			this.heldKind = kind;
			this.heldBytes = 0;
		}

		this.held.push({
			buf: buf.subarray(s, e),
			offset: this.lineOffset,
			hasLF,
			firstSeq: this.lineFirstSeq,
			firstTMs: this.lineFirstTMs,
			lastSeq: this.lineLastSeq,
			tMs: this.lineTMs,
			header:
				header === undefined
					? undefined
					: {
							...header,
							nameStart: this.lineOffset + header.nameStart - s,
							firstEsc: header.firstEsc === -1 ? -1 : this.lineOffset + header.firstEsc - s,
						},
			isCrlf,
		});
		this.heldBytes += e - s;
	}

	/** Frames every held line on its own (no holding), then restores the current line's facts. */
	private releaseHeld(): void {
		const lines = this.held;
		this.held = [];
		this.heldKind = HELD_NONE;
		this.heldBytes = 0;
		const {lineOffset, lineFirstSeq, lineFirstTMs, lineLastSeq, lineTMs} = this;
		for (const line of lines) {
			this.setLine(line.offset, line.firstSeq, line.firstTMs, line.lastSeq, line.tMs);
			this.boundaryLine(line.buf, 0, line.buf.length, line.hasLF, undefined, false);
		}

		this.setLine(lineOffset, lineFirstSeq, lineFirstTMs, lineLastSeq, lineTMs);
	}

	/** A line while a pretty-printed JSON value is open. */
	private multilineLine(buf: Buffer, s: number, e: number, hasLF: boolean, isUtf8: boolean | undefined): void {
		let contentEnd = e;
		let crIndex = -1;
		if (hasLF) {
			contentEnd = e - 1;
			if (contentEnd > s && buf[contentEnd - 1] === CR) {
				contentEnd--;
				crIndex = contentEnd;
			}
		}

		// A compact JSON object at column 0 is a new message, not part of an indented value.
		const isNewMessage = buf[s] === OPEN_BRACE && jsonParseError(buf.toString('utf8', s, contentEnd)) === undefined;
		const isOverLimit =
			this.held.length + 1 > this.limits.multilineMaxLines || this.heldBytes + e - s > this.limits.multilineMaxBytes;
		if (isNewMessage || isOverLimit) {
			this.releaseHeld();
			this.boundaryLine(buf, s, e, hasLF, isUtf8, true);
			return;
		}

		const valueEnd = scanJsonValueEnd(buf, s, contentEnd, this.multilineScan);
		if (valueEnd !== -1) {
			this.hold(HELD_MULTILINE, buf, s, e, hasLF, crIndex !== -1, undefined);
			this.closeMultiline();
			return;
		}

		if (this.multilineScan.inString) {
			// A JSON string cannot hold a raw LF: this is not one value spread over lines.
			this.releaseHeld();
			this.boundaryLine(buf, s, e, hasLF, isUtf8, true);
			return;
		}

		this.hold(HELD_MULTILINE, buf, s, e, hasLF, crIndex !== -1, undefined);
		if (!hasLF) {
			this.releaseHeld();
		}
	}

	/** Depth returned to 0: the held lines form one frame if they parse as one JSON value (R1). */
	private closeMultiline(): void {
		const lines = this.held;
		const firstLine = lines[0]!;
		const lastLine = lines.at(-1)!;
		const whole = Buffer.concat(
			lines.map((line) => line.buf),
			this.heldBytes,
		);
		const hasBom = whole[0] === 0xef && whole[1] === 0xbb && whole[2] === 0xbf;
		const bodyStart = hasBom ? 3 : 0;
		const contentEnd = whole.length - (lastLine.hasLF ? (lastLine.isCrlf ? 2 : 1) : 0);
		let message: unknown;
		try {
			message = JSON.parse(whole.toString('utf8', bodyStart, contentEnd));
		} catch {
			this.releaseHeld();
			return;
		}

		this.held = [];
		this.heldKind = HELD_NONE;
		this.heldBytes = 0;
		this.seenJson = true;
		const saved = {
			lineOffset: this.lineOffset,
			lineFirstSeq: this.lineFirstSeq,
			lineFirstTMs: this.lineFirstTMs,
			lineLastSeq: this.lineLastSeq,
			lineTMs: this.lineTMs,
		};
		this.setLine(firstLine.offset, firstLine.firstSeq, firstLine.firstTMs, lastLine.lastSeq, lastLine.tMs);
		const offset = firstLine.offset;
		const terminator: Terminator = lastLine.hasLF ? (lastLine.isCrlf ? 'crlf' : 'lf') : 'none';
		const frame = this.makeFrame(
			'newline',
			offset,
			whole.length,
			offset + bodyStart,
			contentEnd - bodyStart,
			terminator,
			lines.length,
			true,
			message,
			undefined,
		);
		const firstContentEnd = firstLine.buf.length - (firstLine.isCrlf ? 2 : 1);
		const byteInput = {
			buf: whole,
			start: 0,
			end: whole.length,
			offset,
			bodyStart,
			bomIndex: hasBom ? 0 : -1,
			checkEscape: false,
			bomClientError: hasBom ? jsonParseError(firstLine.buf.toString('utf8', 0, firstContentEnd)) : undefined,
		};
		this.emit(frame, {
			limits: this.limits,
			content: {
				kind: 'multiline',
				lines: lines.length,
				clientError: jsonParseError(firstLine.buf.toString('utf8', 0, firstContentEnd)),
			},
			...byteFacts(byteInput),
		});
		this.setLine(saved.lineOffset, saved.lineFirstSeq, saved.lineFirstTMs, saved.lineLastSeq, saved.lineTMs);
	}

	/** A line while header-shaped lines are held. */
	private headerLine(buf: Buffer, s: number, e: number, hasLF: boolean, isUtf8: boolean | undefined): void {
		let contentEnd = e;
		let crIndex = -1;
		if (hasLF) {
			contentEnd = e - 1;
			if (contentEnd > s && buf[contentEnd - 1] === CR) {
				contentEnd--;
				crIndex = contentEnd;
			}
		}

		if (hasLF && contentEnd === s) {
			if (this.held.some((line) => line.header!.name.toLowerCase() === 'content-length')) {
				this.hold(HELD_HEADERS, buf, s, e, hasLF, crIndex !== -1, undefined);
				this.startBody();
				return;
			}

			this.releaseHeld();
			this.boundaryLine(buf, s, e, hasLF, isUtf8, true);
			return;
		}

		const header =
			hasLF && e - s <= this.limits.headerMaxLineBytes && this.held.length + 2 <= this.limits.headerMaxLines
				? parseHeaderLine(buf, s, contentEnd)
				: undefined;
		if (header !== undefined) {
			this.hold(HELD_HEADERS, buf, s, e, hasLF, crIndex !== -1, header);
			return;
		}

		this.releaseHeld();
		this.boundaryLine(buf, s, e, hasLF, isUtf8, true);
	}

	// ---------------------------------------------------------------------------------------------
	// Content-Length bodies (L1–L6)

	private startBody(): void {
		const lines = this.held;
		this.held = [];
		this.heldKind = HELD_NONE;
		const headers = lines.slice(0, -1).map((line) => line.header!);
		const contentLengthHeader = headers.find((header) => header.name.toLowerCase() === 'content-length')!;
		const declaredLength = parseContentLengthValue(contentLengthHeader.value);
		const firstLine = lines[0]!;
		const firstContentEnd = firstLine.buf.length - (firstLine.isCrlf ? 2 : 1);
		this.contentLength = {
			lines,
			offset: firstLine.offset,
			headerLength: this.heldBytes,
			nameOffset: headers[0]!.nameStart,
			declaredLength,
			hasContentType: headers.some((header) => header.name.toLowerCase() === 'content-type'),
			headerNames: headers.map((header) => header.name),
			lineEndings: lines.every((line) => line.isCrlf) ? 'crlf' : 'lf',
			clientError: jsonParseError(firstLine.buf.toString('utf8', 0, firstContentEnd)),
			scan: newJsonScanState(),
			scanLimit:
				declaredLength === null
					? this.limits.bodyScanNoLengthBytes
					: Math.max(3 * declaredLength + this.limits.bodyScanSlackBytes, this.limits.bodyScanMinBytes),
			scanned: 0,
			endSeq: this.lineLastSeq,
			endTMs: this.lineTMs,
			crSeq: 0,
			crTMs: 0,
		};
		this.heldBytes = 0;
		this.mode = MODE_BODY;
	}

	/** Consumes body bytes from `buf[pos]`; returns the position where line mode (or the next state) continues. */
	private feedBody(buf: Buffer, pos: number, seq: number, tMs: number): number {
		const state = this.contentLength!;
		const n = buf.length;
		if (this.mode === MODE_BODY) {
			if (state.scanned === 0 && !isOpenBracket(buf[pos])) {
				// The body does not start a JSON value: frame the header block alone.
				this.emitContentLength(0, 0, 'missing', state.endSeq, state.endTMs, false);
				return pos;
			}

			const stop = Math.min(n, pos + state.scanLimit - state.scanned);
			const bodyEnd = scanJsonValueEnd(buf, pos, stop, state.scan);
			const end = bodyEnd === -1 ? stop : bodyEnd;
			this.appendTail(buf.subarray(pos, end), seq, tMs);
			state.scanned += end - pos;
			state.endSeq = seq;
			state.endTMs = tMs;
			if (bodyEnd !== -1) {
				this.mode = MODE_AFTER_BODY;
				return end;
			}

			if (state.scanned >= state.scanLimit) {
				// Re-read the bytes after the fallback body, then the rest of this chunk, before anything queued.
				const rest = this.fallBackToDeclaredLength();
				if (end < n) {
					rest.push({buf: buf.subarray(end), seq, tMs});
				}

				this.queue.unshift(...rest);
				return n;
			}

			return end;
		}

		const b = buf[pos];
		if (this.mode === MODE_AFTER_BODY) {
			if (b === LF) {
				this.emitContentLength(state.scanned, 1, 'json', seq, tMs, false);
				return pos + 1;
			}

			if (b === CR) {
				state.crSeq = seq;
				state.crTMs = tMs;
				this.mode = MODE_AFTER_BODY_CR;
				return pos + 1;
			}

			this.emitContentLength(state.scanned, 0, 'json', state.endSeq, state.endTMs, false);
			return pos;
		}

		// MODE_AFTER_BODY_CR
		if (b === LF) {
			this.emitContentLength(state.scanned, 2, 'json', seq, tMs, false);
			return pos + 1;
		}

		this.emitContentLength(state.scanned, 0, 'json', state.endSeq, state.endTMs, false);
		this.appendTail(CR_BYTES, state.crSeq, state.crTMs);
		return pos;
	}

	/**
	 * The body scan found no end within its limit (or the stream ended): frame the header block plus the
	 * declared number of body bytes (as many as were read). Returns the bytes after it, to be read again.
	 */
	private fallBackToDeclaredLength(): Part[] {
		const state = this.contentLength!;
		const bodyLength = state.declaredLength === null ? 0 : Math.min(state.declaredLength, state.scanned);
		return this.emitContentLength(bodyLength, 0, bodyLength > 0 ? 'declared' : 'missing', -1, -1, false);
	}

	/**
	 * Emits the Content-Length frame: header block, the first `bodyLength` tail bytes, and `trailing`
	 * (0, 1 = LF, 2 = CR LF) terminator bytes. Returns the tail bytes after the body (to read again).
	 * `lastSeq`/`tMs` of -1 mean: the chunk of the last body byte.
	 */
	private emitContentLength(
		bodyLength: number,
		trailing: number,
		bodyEnd: BodyEnd,
		lastSeq: number,
		tMs: number,
		isEof: boolean,
	): Part[] {
		const state = this.contentLength!;
		const body: Part[] = [];
		const rest: Part[] = [];
		let remaining = bodyLength;
		for (const part of this.tail) {
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

		this.tail = [];
		this.tailLength = 0;
		this.contentLength = undefined;
		this.mode = MODE_LINE;

		const firstLine = state.lines[0]!;
		const lastHeader = state.lines.at(-1)!;
		const lastBody = body.at(-1);
		const endSeq = lastSeq !== -1 ? lastSeq : (lastBody?.seq ?? lastHeader.lastSeq);
		const endTMs = tMs !== -1 ? tMs : (lastBody?.tMs ?? lastHeader.tMs);
		const pieces = state.lines.map((line) => line.buf);
		for (const part of body) {
			pieces.push(part.buf);
		}

		if (trailing > 0) {
			pieces.push(trailing === 1 ? LF_BYTES : CRLF_BYTES);
		}

		const whole = Buffer.concat(pieces);
		const bodyStart = state.headerLength;
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

		if (isJson) {
			this.seenJson = true;
		}

		const saved = {
			lineOffset: this.lineOffset,
			lineFirstSeq: this.lineFirstSeq,
			lineFirstTMs: this.lineFirstTMs,
			lineLastSeq: this.lineLastSeq,
			lineTMs: this.lineTMs,
		};
		this.setLine(state.offset, firstLine.firstSeq, firstLine.firstTMs, endSeq, endTMs);
		const frame = this.makeFrame(
			'content-length',
			state.offset,
			whole.length,
			state.offset + bodyStart,
			bodyLength,
			isEof ? 'none' : 'length',
			state.lines.length + countLineFeeds(whole, bodyStart, bodyStop) + (trailing > 0 ? 1 : 0),
			isJson,
			message,
			isJson ? undefined : whole.toString('utf8', 0, whole.length - trailing),
		);
		const hasBom = firstLine.header?.hasBom === true;
		const byteInput = {
			buf: whole,
			start: 0,
			end: whole.length,
			offset: state.offset,
			bodyStart,
			bomIndex: hasBom ? 0 : -1,
			checkEscape: true,
			bomClientError: hasBom ? state.clientError : undefined,
		};
		this.emit(frame, {
			limits: this.limits,
			content: {
				kind: 'content-length',
				at: state.nameOffset,
				length: state.headerLength - (state.nameOffset - state.offset),
				declaredLength: state.declaredLength,
				bodyLength,
				bodyEnd,
				missingBytes:
					bodyEnd === 'eof' && state.declaredLength !== null && state.declaredLength > bodyLength
						? state.declaredLength - bodyLength
						: undefined,
				hasContentType: state.hasContentType,
				lineEndings: state.lineEndings,
				headers: state.headerNames,
				clientError: state.clientError,
			},
			...byteFacts(byteInput),
		});
		this.setLine(saved.lineOffset, saved.lineFirstSeq, saved.lineFirstTMs, saved.lineLastSeq, saved.lineTMs);
		this.cursor = state.offset + whole.length;
		return rest;
	}

	// ---------------------------------------------------------------------------------------------
	// End of stream

	private finish(tMs: number): void {
		for (;;) {
			const state = this.contentLength;
			if (this.mode === MODE_AFTER_BODY && state !== undefined) {
				this.emitContentLength(state.scanned, 0, 'json', state.endSeq, state.endTMs, false);
			} else if (this.mode === MODE_AFTER_BODY_CR && state !== undefined) {
				this.emitContentLength(state.scanned, 0, 'json', state.endSeq, state.endTMs, false);
				this.appendTail(CR_BYTES, state.crSeq, state.crTMs);
			} else if (this.mode === MODE_BODY && state !== undefined) {
				if (state.declaredLength !== null && state.scanned >= state.declaredLength) {
					this.queue.unshift(...this.fallBackToDeclaredLength());
					this.drainQueue();
					continue;
				}

				const lastPart = this.tail.at(-1);
				this.emitContentLength(state.scanned, 0, 'eof', lastPart?.seq ?? state.lines.at(-1)!.lastSeq, tMs, true);
			}

			break;
		}

		if (this.tailLength > 0) {
			const first = this.tail[0]!;
			const last = this.tail.at(-1)!;
			const line =
				this.tail.length === 1
					? first.buf
					: Buffer.concat(
							this.tail.map((part) => part.buf),
							this.tailLength,
						);
			this.tail = [];
			this.tailLength = 0;
			this.setLine(this.cursor, first.seq, first.tMs, last.seq, tMs);
			this.line(line, 0, line.length, false, undefined);
			this.cursor += line.length;
		}

		if (this.heldKind !== HELD_NONE) {
			this.releaseHeld();
		}
	}
}

/** What a line that does not parse says about itself, read with regular expressions (cold path only). */
interface MessageShape {
	readonly hasJsonrpc: boolean;
	readonly idToken: string | undefined;
	readonly method: string | undefined;
	readonly isResult: boolean;
	readonly isError: boolean;
}

function messageShape(text: string): MessageShape {
	const id = /"id"\s*:\s*("(?:[^"\\\u0000-\u001f]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text);
	const method = /"method"\s*:\s*"([^"\\\u0000-\u001f]*)"/.exec(text);
	return {
		hasJsonrpc: /"jsonrpc"\s*:/.test(text),
		idToken: id?.[1],
		method: method?.[1],
		isResult: /"result"\s*:/.test(text),
		isError: /"error"\s*:/.test(text),
	};
}

/** `reply to tools/list, id 1`, `request tools/call, id 3`, `notification notifications/message`, … */
function describeShape(shape: MessageShape, awaited: string | undefined): string {
	const id = shape.idToken === undefined ? '' : `, id ${shape.idToken}`;
	if (awaited !== undefined) return `${shape.isError ? 'error reply' : 'reply'} to ${awaited}${id}`;
	if (shape.method !== undefined)
		return shape.idToken === undefined ? `notification ${shape.method}` : `request ${shape.method}${id}`;
	if (shape.isError) return `error response${id}`;
	if (shape.isResult) return `response${id}`;
	return `a JSON-RPC message${id}`;
}
