import type {StreamName, Terminator} from '../types.js';
import type {FrameFacts} from './facts.js';
import type {FramerEmit, RawFrame} from './framer.js';
import type {FramingLimits} from './limits.js';
import type {Span} from './line.js';

function noop(): void {}

/** The shape of a frame besides where it lies ({@link makeFrame}): its framing, body and terminator. */
export interface FrameFields {
	readonly framing: 'newline' | 'content-length';
	/** Bytes of the whole frame, with headers and terminator. */
	readonly byteLength: number;
	/** Stream offset and length (bytes) of the JSON text or the line's content. */
	readonly bodyOffset: number;
	readonly bodyLength: number;
	readonly terminator: Terminator;
	readonly lineCount: number;
	/** The body is one complete JSON value: `message` is it. */
	readonly isJson: boolean;
	readonly message?: unknown;
	/** The frame's text when it is not JSON. */
	readonly text?: string | undefined;
}

/** A frame of `stream` at `span` ({@link FrameFields}); `message` only when `isJson`, else `text` when given. */
export function makeFrame(stream: StreamName, span: Span, fields: FrameFields): RawFrame {
	const base = {
		stream,
		framing: fields.framing,
		offset: span.offset,
		byteLength: fields.byteLength,
		bodyOffset: fields.bodyOffset,
		bodyLength: fields.bodyLength,
		terminator: fields.terminator,
		lineCount: fields.lineCount,
		tMs: span.tMs,
		firstTMs: span.firstTMs,
		firstSeq: span.firstSeq,
		lastSeq: span.lastSeq,
		isJson: fields.isJson,
		isBlank: false,
	};
	if (fields.isJson) return {...base, message: fields.message};
	return fields.text === undefined ? base : {...base, text: fields.text};
}

/**
 * Where the pieces of the protocol framer (newline frames, multi-line reassembly, Content-Length) hand
 * their frames: one per framer. It knows the stream, the limits and what the stream showed so far, and
 * passes each frame with its facts to the `emit` of the current `push` / `end` call.
 */
export class FrameSink {
	/** The emit of the `push` / `end` call in progress (a no-op between calls). */
	out: FramerEmit = noop;
	/** Stream offset just after the last emitted frame. */
	emittedEnd: number;
	/** A JSON value was framed on this stream already (a text line after one is no banner, stray-kind.ts). */
	seenJson = false;
	/** The facts of a clean frame (one JSON value on its own line): shared, never changed. */
	readonly cleanFacts: FrameFacts;

	/**
	 * @param stream the stream framed
	 * @param limits byte and line limits (C1, O4)
	 * @param awaitedMethod see `FramerOptions.awaitedMethod`
	 * @param startOffset stream offset of the first byte
	 */
	constructor(
		readonly stream: StreamName,
		readonly limits: FramingLimits,
		readonly awaitedMethod: ((idToken: string) => string | undefined) | undefined,
		startOffset: number,
	) {
		this.cleanFacts = Object.freeze({limits});
		this.emittedEnd = startOffset;
	}

	/** Hands on a frame and its facts. */
	emit(frame: RawFrame, facts: FrameFacts): void {
		this.emittedEnd = frame.offset + frame.byteLength;
		this.out({frame, facts});
	}
}
