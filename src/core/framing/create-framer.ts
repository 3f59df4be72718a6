import type {StreamName} from '../types.js';
import type {Framer, FramerOptions} from './framer.js';
import {LogFramer} from './log-framer.js';
import {ProtocolFramer} from './protocol-framer.js';

/**
 * Creates the incremental, pure framer for one stream (style.md §1.1; contract in framer.ts).
 *
 * `mode: 'protocol'` (stdin, stdout) frames newline-delimited JSON (R1, R2), joins the lines of one
 * pretty-printed value (R1: lines whose string-aware bracket depth stays open are held, at most 10,000
 * lines / 20 MiB, and framed as one value if they parse together; otherwise one by one) and recognises,
 * at any frame boundary, LSP Content-Length framing (L1–L6: header block + one JSON value found by
 * scanning, not by trusting the declared length; an LF / CR LF right after the body belongs to the frame,
 * so the frame is emitted when the next byte or the end of the stream arrives). With each frame it
 * reports what the bytes did (facts.ts), never a finding: what the content is when it is not one clean
 * JSON value (blank, text and its kind, an unparsed message and the parse error's byte, trailing values
 * or text, multi-line, a Content-Length header block, a cut value), a BOM, the first escape sequence and
 * the first invalid UTF-8 byte, non-portable JSON tokens. The rules (`findings/rules/`) decide.
 *
 * `mode: 'log'` (stderr) only splits lines into text frames and reports no facts (R7).
 *
 * Every frame carries exact `offset`/`byteLength`/`bodyOffset`/`bodyLength`; frames tile the stream.
 * The same bytes cut at any chunk boundaries give the same frames and facts (except `tMs`/`seq`).
 * `push` throws RangeError when a chunk does not start where the previous one ended, TypeError for a
 * chunk of another stream, and Error after `end`.
 */
export function createFramer(stream: StreamName, options: FramerOptions): Framer {
	const start = options.startOffset ?? 0;
	return options.mode === 'log'
		? new LogFramer(stream, start)
		: new ProtocolFramer(stream, undefined, options.awaitedMethod, start);
}
