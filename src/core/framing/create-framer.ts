import type {StreamName} from '../types.js';
import type {Framer, FramerOptions} from './framer.js';
import {LogFramer} from './log-framer.js';
import {ProtocolFramer} from './protocol-framer.js';

/**
 * Creates the incremental, pure framer for one stream (style.md §1.1; contract in framer.ts).
 *
 * `mode: 'protocol'` (stdin, stdout) frames newline-delimited JSON and recognises, at any frame
 * boundary, LSP Content-Length framing; it reports the byte and framing findings:
 * - `stray-output` (R5, first byte of the line; `detail.kind` launcher > log > progress > banner > text,
 *   `detail.clientError` = V8 `JSON.parse` message for the line as the TS SDK sees it, C1/C8),
 * - `blank-line` (R5), `crlf` (R2, at the CR), `bom` (R4, stripped before parsing), `ansi-escape` (R5,
 *   first ESC; `detail.sequence`), `invalid-utf8` (R3, byte-level, first invalid byte; `detail.inString`),
 * - `multiline-json` (R1: lines whose string-aware bracket depth stays open are held, at most 10,000
 *   lines / 20 MiB, and framed as one value if they parse together; otherwise one by one),
 * - `concatenated-json` (J9: one frame, `message` = first value, `detail.values`),
 * - `content-length-framing` (L1–L6: header block + one JSON value found by scanning, not by trusting
 *   the declared length; an LF / CR LF right after the body belongs to the frame, so the frame is emitted
 *   when the next byte or the end of the stream arrives),
 * - `missing-newline` (R1, O4: bytes pending at `end()`; `detail.cutAt64KiB`),
 * - `invalid-json` (R1, J1: a line meant to be a message, opening like one with a `"jsonrpc"` member or
 *   holding the id of a request the peer still awaits (`awaitedMethod`), that does not parse: at the parse
 *   error's own byte; `detail.looksLike`, `detail.clientError`), instead of `stray-output`,
 * - `oversize-frame` (C1: > 65,536 bytes info, > 10,485,760 bytes error).
 *
 * `mode: 'log'` (stderr) only splits lines into text frames and reports nothing (R7).
 *
 * Every frame carries exact `offset`/`byteLength`/`bodyOffset`/`bodyLength`; frames tile the stream.
 * The same bytes cut at any chunk boundaries give the same frames and findings (except `tMs`/`seq`).
 * `push` throws RangeError when a chunk does not start where the previous one ended, TypeError for a
 * chunk of another stream, and Error after `end`.
 */
export function createFramer(stream: StreamName, options: FramerOptions): Framer {
	const start = options.startOffset ?? 0;
	return options.mode === 'log'
		? new LogFramer(stream, start)
		: new ProtocolFramer(stream, undefined, options.awaitedMethod, start);
}
