import {Buffer} from 'node:buffer';
import {byteFacts, jsonParseError} from './byte-facts.js';
import {makeFrame, type FrameSink} from './frame-sink.js';
import {terminatorOf, type HeldLine} from './line.js';

/**
 * Lines held while one pretty-printed JSON value was open, now that its depth returned to 0 (R1): when
 * they parse together as one JSON value, emits them as one frame with a `multiline` fact and returns
 * true; otherwise emits nothing and returns false (the caller frames each line alone).
 * @param lines the held lines, in stream order (at least one)
 * @param heldBytes their total length in bytes
 */
export function emitMultiline(sink: FrameSink, lines: readonly HeldLine[], heldBytes: number): boolean {
	const firstLine = lines[0]!;
	const lastLine = lines.at(-1)!;
	const whole = Buffer.concat(
		lines.map((line) => line.buf),
		heldBytes,
	);
	const hasBom = whole[0] === 0xef && whole[1] === 0xbb && whole[2] === 0xbf;
	const bodyStart = hasBom ? 3 : 0;
	const contentEnd = whole.length - (lastLine.end - lastLine.contentEnd);
	let message: unknown;
	try {
		message = JSON.parse(whole.toString('utf8', bodyStart, contentEnd));
	} catch {
		return false;
	}

	sink.seenJson = true;
	const offset = firstLine.offset;
	const span = {
		offset,
		firstSeq: firstLine.firstSeq,
		firstTMs: firstLine.firstTMs,
		lastSeq: lastLine.lastSeq,
		tMs: lastLine.tMs,
	};
	const frame = makeFrame(sink.stream, span, {
		framing: 'newline',
		byteLength: whole.length,
		bodyOffset: offset + bodyStart,
		bodyLength: contentEnd - bodyStart,
		terminator: terminatorOf(lastLine),
		lineCount: lines.length,
		isJson: true,
		message,
	});
	const firstLineError = jsonParseError(firstLine.buf.toString('utf8', 0, firstLine.contentEnd));
	sink.emit(frame, {
		limits: sink.limits,
		content: {kind: 'multiline', lines: lines.length, clientError: firstLineError},
		...byteFacts({
			buf: whole,
			start: 0,
			end: whole.length,
			offset,
			bodyStart,
			bomIndex: hasBom ? 0 : -1,
			checkEscape: false,
			bomClientError: hasBom ? firstLineError : undefined,
		}),
	});
	return true;
}
