import {Buffer} from 'node:buffer';
import type {Chunk, StreamName} from '../types.js';
import {checkNextChunk} from './check-chunk.js';
import {jsonParseError} from './byte-facts.js';
import {parseHeaderLine, type HeaderLine} from './content-length.js';
import {ContentLengthReader} from './content-length-reader.js';
import {FrameSink} from './frame-sink.js';
import type {Framer, FramerEmit} from './framer.js';
import {newJsonScanState, scanJsonValueEnd, type JsonScanState} from './json-scan.js';
import {FRAMING_LIMITS, type FramingLimits} from './limits.js';
import {holdLine, type HeldLine, type Line, type Part} from './line.js';
import {LineSplitter} from './line-splitter.js';
import {emitMultiline} from './multiline.js';
import {frameLine, unparsedBlock} from './newline-frames.js';

const OPEN_BRACE = 0x7b;

const HELD_NONE = 0;
/** Header-shaped lines held until the empty line that would end a Content-Length header block. */
const HELD_HEADERS = 1;
/** Lines held while one pretty-printed JSON value is open (R1). */
const HELD_MULTILINE = 2;

function toBuffer(bytes: Uint8Array): Buffer {
	return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function noop(): void {}

/**
 * The protocol-mode framer (stdin, stdout): newline-delimited JSON (R1, R2) with the facts of every
 * frame's bytes (R3–R5, J9, C1, O4), reassembly of pretty-printed JSON (R1) and recognition of LSP
 * Content-Length framing at any frame boundary (L1–L6). See {@link createFramer} for the contract.
 *
 * The pieces: `line-splitter.ts` cuts chunks into {@link Line}s, `newline-frames.ts` frames a line at a
 * frame boundary, `multiline.ts` joins the lines of one pretty-printed value, `content-length-reader.ts`
 * reads a body after a header block. This class holds lines back while they may be one of the last two.
 */
export class ProtocolFramer implements Framer {
	readonly stream: StreamName;

	private received = 0;
	private isEnded = false;
	private readonly queue: Part[] = [];
	private readonly sink: FrameSink;
	private readonly lines: LineSplitter;
	/** The Content-Length body being read, if any (then bytes go to it, not to the splitter). */
	private body: ContentLengthReader | undefined;

	private held: HeldLine[] = [];
	private heldKind = HELD_NONE;
	private heldBytes = 0;
	private multilineScan: JsonScanState = newJsonScanState();

	private readonly onLine = (line: Line): void => this.line(line);
	private readonly inLines = (): boolean => this.body === undefined;

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
		this.sink = new FrameSink(stream, limits, awaitedMethod, startOffset);
		this.lines = new LineSplitter(startOffset);
		this.received = startOffset;
	}

	get pendingBytes(): number {
		return this.received - this.sink.emittedEnd;
	}

	get pendingOffset(): number {
		return this.sink.emittedEnd;
	}

	push(chunk: Chunk, emit: FramerEmit): void {
		checkNextChunk(this.stream, this.received, this.isEnded, chunk);
		const length = chunk.bytes.byteLength;
		if (length === 0) return;
		this.received += length;
		this.sink.out = emit;
		try {
			this.feed(toBuffer(chunk.bytes), chunk.seq, chunk.tMs);
			this.drainQueue();
		} finally {
			this.sink.out = noop;
		}
	}

	end(tMs: number, emit: FramerEmit): void {
		if (this.isEnded) throw new Error(`framer for ${this.stream} already ended`);
		this.isEnded = true;
		this.sink.out = emit;
		try {
			this.finish(tMs);
		} finally {
			this.sink.out = noop;
		}
	}

	private drainQueue(): void {
		while (this.queue.length > 0) {
			const part = this.queue.shift()!;
			this.feed(part.buf, part.seq, part.tMs);
		}
	}

	private feed(buf: Buffer, seq: number, tMs: number): void {
		let pos = 0;
		while (pos < buf.length) {
			const body = this.body;
			if (body === undefined) {
				pos = this.lines.split(buf, pos, seq, tMs, this.onLine, this.inLines);
				continue;
			}

			const step = body.feed(buf, pos, seq, tMs);
			if (body.done) this.body = undefined;
			pos = step.pos;
			if (step.again !== undefined) this.queue.unshift(...step.again);
		}
	}

	/** One complete line (or the last bytes at the end of the stream), in line mode. */
	private line(line: Line): void {
		if (this.heldKind === HELD_NONE) this.boundaryLine(line);
		else if (this.heldKind === HELD_MULTILINE) this.multilineLine(line);
		else this.headerLine(line);
	}

	/** A line at a frame boundary: framed now, or held as the start of a header block or of a multi-line value. */
	private boundaryLine(line: Line): void {
		const hold = frameLine(this.sink, line, true);
		if (hold === undefined) return;
		if (hold.kind === 'multiline') {
			this.multilineScan = hold.scan;
			this.hold(HELD_MULTILINE, line, undefined);
		} else {
			this.hold(HELD_HEADERS, line, hold.header);
		}
	}

	private hold(kind: number, line: Line, header: HeaderLine | undefined): void {
		if (this.heldKind === HELD_NONE) {
			this.heldKind = kind;
			this.heldBytes = 0;
		}

		this.held.push(holdLine(line, header));
		this.heldBytes += line.end - line.start;
	}

	/** Takes the held lines (the hold ends). */
	private takeHeld(): HeldLine[] {
		const lines = this.held;
		this.held = [];
		this.heldKind = HELD_NONE;
		this.heldBytes = 0;
		return lines;
	}

	/** Frames every held line on its own (no holding). */
	private releaseHeld(): void {
		for (const line of this.takeHeld()) frameLine(this.sink, line, false);
	}

	/** A line while a pretty-printed JSON value is open. */
	private multilineLine(line: Line): void {
		const {buf, start, end, contentEnd} = line;
		const limits = this.sink.limits;
		// A compact JSON object at column 0 is a new message, not part of an indented value.
		const isNewMessage =
			buf[start] === OPEN_BRACE && jsonParseError(buf.toString('utf8', start, contentEnd)) === undefined;
		const isOverLimit =
			this.held.length + 1 > limits.multilineMaxLines || this.heldBytes + end - start > limits.multilineMaxBytes;
		if (isNewMessage || isOverLimit) {
			this.releaseHeld();
			this.boundaryLine(line);
			return;
		}

		if (scanJsonValueEnd(buf, start, contentEnd, this.multilineScan) !== -1) {
			// Depth returned to 0: the held lines form one frame if they parse as one JSON value (R1).
			this.hold(HELD_MULTILINE, line, undefined);
			const heldBytes = this.heldBytes;
			if (!emitMultiline(this.sink, this.held, heldBytes)) {
				// Not JSON: a message printed as an object over several lines is one broken message, not strays.
				if (unparsedBlock(this.sink, this.held, heldBytes)) this.takeHeld();
				else this.releaseHeld();
				return;
			}

			this.takeHeld();
			return;
		}

		if (this.multilineScan.inString) {
			// A JSON string cannot hold a raw LF: this is not one value spread over lines.
			this.releaseHeld();
			this.boundaryLine(line);
			return;
		}

		this.hold(HELD_MULTILINE, line, undefined);
		if (!line.hasLF) this.releaseHeld();
	}

	/** A line while header-shaped lines are held. */
	private headerLine(line: Line): void {
		const {buf, start, end, contentEnd} = line;
		const limits = this.sink.limits;
		if (line.hasLF && contentEnd === start) {
			if (this.held.some((held) => held.header!.name.toLowerCase() === 'content-length')) {
				this.hold(HELD_HEADERS, line, undefined);
				const headerBytes = this.heldBytes;
				this.body = new ContentLengthReader(this.sink, this.takeHeld(), headerBytes, this.lines);
				return;
			}

			this.releaseHeld();
			this.boundaryLine(line);
			return;
		}

		const header =
			line.hasLF && end - start <= limits.headerMaxLineBytes && this.held.length + 2 <= limits.headerMaxLines
				? parseHeaderLine(buf, start, contentEnd)
				: undefined;
		if (header !== undefined) {
			this.hold(HELD_HEADERS, line, header);
			return;
		}

		this.releaseHeld();
		this.boundaryLine(line);
	}

	private finish(tMs: number): void {
		for (let body = this.body; body !== undefined; body = this.body) {
			const again = body.end(tMs);
			this.body = undefined;
			if (again === undefined) break;
			this.queue.unshift(...again);
			this.drainQueue();
		}

		const last = this.lines.flush(tMs);
		if (last !== undefined) this.line(last);
		if (this.heldKind !== HELD_NONE) this.releaseHeld();
	}
}
