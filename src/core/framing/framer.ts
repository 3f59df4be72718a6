import type {Chunk, Frame, StreamName} from '../types.js';
import type {FrameFacts} from './facts.js';

/**
 * A frame as the framer sees it: positions, terminator and the parsed JSON value, before the session
 * gives it a session-wide index and JSON-RPC classification (kind, method, id).
 * `message` is present exactly when `isJson` is true.
 */
export type RawFrame = Omit<Frame, 'index' | 'kind' | 'method' | 'id' | 'answers'> & {
	/** True when the frame body is one complete JSON value (after BOM strip / reassembly). */
	readonly isJson: boolean;
	/** True when the body is empty (a blank line). */
	readonly isBlank: boolean;
};

/**
 * One framer output: a frame and what its bytes did. The framer names no finding: the framing rules
 * (`findings/rules/<code>.ts`, `onFrameFacts`) decide from the facts.
 */
export interface FramerOutput {
	readonly frame: RawFrame;
	/** What the frame's bytes did (protocol mode only; the log framer reports none). */
	readonly facts?: FrameFacts | undefined;
}

/** Receives framer outputs in stream order. */
export type FramerEmit = (output: FramerOutput) => void;

/**
 * An incremental, pure framer for one stream. Chunk boundaries never change the result: the same bytes
 * split anywhere give the same frames and facts (positions and kinds; `tMs`/`seq` naturally follow
 * the chunks). It never drops a byte: every byte of the stream ends up in exactly one frame.
 */
export interface Framer {
	readonly stream: StreamName;
	/** Feed the next chunk of this stream (chunks must arrive in offset order). Throws RangeError on a gap. */
	push(chunk: Chunk, emit: FramerEmit): void;
	/** End of stream at `tMs`: flushes pending bytes as a final frame (terminator `none` when unterminated). */
	end(tMs: number, emit: FramerEmit): void;
	/** Bytes received but not yet part of an emitted frame. */
	readonly pendingBytes: number;
	/** Stream offset of the first pending byte (equals the stream's byte count when nothing is pending). */
	readonly pendingOffset: number;
}

/** Options for {@link createFramer}. */
export interface FramerOptions {
	/**
	 * `protocol` (stdin, stdout): MCP framing (R1, R2, L1–L6) with the facts of every frame's bytes.
	 * `log` (stderr): lines only; no JSON parsing and no facts.
	 */
	readonly mode: 'protocol' | 'log';
	/**
	 * Protocol mode: the method of the peer's request still waiting for a response with this id, given the
	 * id's raw JSON token (`1`, `"a"`), or undefined. The framer asks only for a line that does not parse;
	 * with an answer the line is an unparsed message (a reply the client cannot read), not a text line.
	 */
	readonly awaitedMethod?: (idToken: string) => string | undefined;
	/**
	 * Stream offset of the first byte this framer gets (default 0): a framer that starts after bytes it
	 * never sees (a gap in a capture, where the session resyncs framing at the next line).
	 */
	readonly startOffset?: number;
}
