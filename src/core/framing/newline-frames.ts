import {Buffer, isAscii} from 'node:buffer';
import {isValidUtf8} from '../bytes/utf8.js';
import {byteFacts, errorMessage, jsonParseError} from './byte-facts.js';
import {parseHeaderLine, type HeaderLine} from './content-length.js';
import type {ContentFact, FrameFacts, GluedReply, NonPortableToken} from './facts.js';
import {makeFrame, type FrameSink} from './frame-sink.js';
import type {RawFrame} from './framer.js';
import {
	isOpenBracket,
	newJsonScanState,
	scanJsonValueEnd,
	skipJsonWhitespace,
	type JsonScanState,
} from './json-scan.js';
import {terminatorOf, type HeldLine, type Line} from './line.js';
import {mayBeNonPortable, nonPortableTokens, parseNonFinite} from './portability.js';
import {nonCanonicalRawId} from './raw-id.js';
import {classifyStrayLine, launcherOf, loggerOf, stderrOnlyLine} from './stray-kind.js';

const CR = 0x0d;
const OPEN_BRACE = 0x7b;
const BLANK_CLIENT_ERROR = jsonParseError('') ?? 'Unexpected end of JSON input';
/** How much of the text after a complete message (F43) the trailing fact quotes, in bytes. */
const TRAILING_TEXT_BYTES = 240;
const CUT_JSON: ContentFact = Object.freeze({kind: 'cut-json'});

/**
 * A JSON line at least this long (bytes) and all ASCII is decoded as Latin-1, which gives the same text:
 * Node makes a Latin-1 decode over ~1 MB (its EXTERN_APEX, 0xFBEE9 bytes) an external string, whose
 * bytes live outside the JS heap and can go at a minor GC once the string is dropped, where a UTF-8
 * decode that long is a heap string in the large-object space until a major GC (docs/performance.md#replay: `view --json`
 * of a capture of 5 MB frames peaked ~10 MiB lower this way).
 */
const EXTERNAL_TEXT_BYTES = 1_100_000;

/**
 * What a line at a frame boundary asks for instead of a frame of its own: to be held as the first line of
 * a Content-Length header block (L6) or of one JSON value spread over lines (R1), with the scan state.
 */
export type Hold =
	{readonly kind: 'headers'; readonly header: HeaderLine} | {readonly kind: 'multiline'; readonly scan: JsonScanState};

/** A JSON-RPC message's object (it has a `jsonrpc` member): what F43's trailing text is glued to. */
function isMessageObject(value: unknown): boolean {
	return value !== null && typeof value === 'object' && !Array.isArray(value) && 'jsonrpc' in value;
}

/**
 * Frames one line that starts at a frame boundary (R1, R2, R5, J9), or says it should be held.
 * @param allowHold false for lines released from a failed multi-line / header hold: they are framed alone
 * @returns the hold it asks for, or undefined when it was framed (emitted to `sink`)
 */
export function frameLine(sink: FrameSink, line: Line, allowHold: boolean): Hold | undefined {
	const {buf, start, end, contentEnd} = line;
	if (contentEnd === start) {
		blankFrame(sink, line);
		return undefined;
	}

	if (buf[start] !== OPEN_BRACE) return otherLine(sink, line, allowHold, undefined, undefined);
	// Hot path: a one-line JSON object. A long line of ASCII only is decoded as Latin-1 (the same text):
	// see EXTERNAL_TEXT_BYTES.
	let text: string | undefined =
		contentEnd - start >= EXTERNAL_TEXT_BYTES && isAscii(buf.subarray(start, contentEnd))
			? buf.toString('latin1', start, contentEnd)
			: buf.toString('utf8', start, contentEnd);
	let message: unknown;
	try {
		message = JSON.parse(text);
	} catch (error) {
		return otherLine(sink, line, allowHold, text, errorMessage(error));
	}

	const valid = line.isUtf8 ?? isValidUtf8(buf, start, end);
	const byteLength = end - start;
	sink.seenJson = true;
	if (valid && !line.isCrlf && line.hasLF && byteLength <= sink.limits.oversizeWarnBytes) {
		const offset = line.offset;
		const frame: RawFrame = {
			stream: sink.stream,
			framing: 'newline',
			offset,
			byteLength,
			bodyOffset: offset,
			bodyLength: byteLength - 1,
			terminator: 'lf',
			lineCount: 1,
			tMs: line.tMs,
			firstTMs: line.firstTMs,
			firstSeq: line.firstSeq,
			lastSeq: line.lastSeq,
			isJson: true,
			isBlank: false,
			message,
		};
		const rawId = nonCanonicalRawId(message, text);
		if (rawId !== undefined) (frame as {rawId?: string}).rawId = rawId;
		const tokens = mayBeNonPortable(text) ? nonPortableTokens(text, offset) : undefined;
		sink.emit(
			frame,
			tokens === undefined || tokens.length === 0 ? sink.cleanFacts : {limits: sink.limits, nonPortable: tokens},
		);
		return undefined;
	}

	// The line's text goes on in a holder lineFrame empties once it is checked: a 5 MB line's text is
	// not kept while its frame is handed on (and written out) beside the parsed message (docs/performance.md#replay).
	const holder = {text};
	text = undefined;
	lineFrame(sink, line, {bodyStart: start, isUtf8: valid, isJson: true, message, holder});
	return undefined;
}

/** Everything but a clean one-line JSON object: BOM, headers, batches, strays, J9, the start of R1. */
function otherLine(
	sink: FrameSink,
	line: Line,
	allowHold: boolean,
	parsedText: string | undefined,
	parseError: string | undefined,
): Hold | undefined {
	const {buf, start, end, contentEnd} = line;
	const b0 = buf[start]!;
	if (allowHold && line.hasLF && !isOpenBracket(b0) && end - start <= sink.limits.headerMaxLineBytes) {
		const header = parseHeaderLine(buf, start, contentEnd);
		if (header !== undefined) return {kind: 'headers', header};
	}

	const hasBom = contentEnd - start >= 3 && b0 === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf;
	const bodyStart = hasBom ? start + 3 : start;
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
			sink.seenJson = true;
			lineFrame(sink, line, {bodyStart, isJson: true, message, holder: {text}});
			return undefined;
		}
	}

	// R26: `NaN` / `Infinity` written by Python's `json.dumps` (allow_nan=True). JSON.parse rejects the line, the
	// Python SDK reads it: framed as the message it reads, with the tokens as facts (cold path only).
	const lenient = parseNonFinite(text, error, line.offset + bodyStart - start);
	if (lenient !== undefined && isMessageObject(lenient.value)) {
		sink.seenJson = true;
		lineFrame(sink, line, {bodyStart, isJson: true, message: lenient.value, holder: {text}, nonFinite: lenient.tokens});
		return undefined;
	}

	const clientError = hasBom ? jsonParseError(buf.toString('utf8', start, contentEnd)) : error;
	const first = skipJsonWhitespace(buf, bodyStart, contentEnd);
	if (first < contentEnd && isOpenBracket(buf[first])) {
		const scan = newJsonScanState();
		const valueEnd = scanJsonValueEnd(buf, first, contentEnd, scan);
		if (valueEnd !== -1) {
			if (trailingLine(sink, line, bodyStart, first, valueEnd, clientError)) return undefined;
		} else if (allowHold && line.hasLF && !scan.inString) {
			return {kind: 'multiline', scan};
		} else if (!line.hasLF) {
			// A JSON value cut at end of stream (F25): clients never see it as a line, so it is not a stray
			// line; the frame's missing terminator says what happened.
			lineFrame(sink, line, {bodyStart, isJson: false, text, content: CUT_JSON});
			return undefined;
		}
	}

	if (first < contentEnd && buf[first] === OPEN_BRACE && unparsedLine(sink, line, bodyStart, text, error)) {
		return undefined;
	}

	strayLine(sink, line, bodyStart, text, clientError);
	return undefined;
}

/**
 * R1, J1: a line that opens like a JSON-RPC message (`{` and a `"jsonrpc"` member) or holds the id of a
 * request the peer still awaits, but does not parse (a raw control character in a string, a bad escape,
 * a cut): framed with an `unparsed-message` fact at the parse error's own byte. Returns false when the
 * line is not meant to be a message.
 */
function unparsedLine(
	sink: FrameSink,
	line: Line,
	bodyStart: number,
	text: string,
	parseError: string,
	lineCount = 1,
): boolean {
	const {buf, start, contentEnd} = line;
	const shape = messageShape(text);
	const awaited = shape.idToken === undefined ? undefined : sink.awaitedMethod?.(shape.idToken);
	if (!shape.hasJsonrpc && awaited === undefined) return false;
	// V8 names the UTF-16 position of the error; the fact points at its byte.
	const position = /at position (\d+)/.exec(parseError);
	const errorAt =
		position === null ? contentEnd - bodyStart : Buffer.byteLength(text.slice(0, Number(position[1])), 'utf8');
	const at = Math.min(bodyStart + errorAt, contentEnd);
	const content: ContentFact = {
		kind: 'unparsed-message',
		at: line.offset + at - start,
		length: at < contentEnd ? 1 : 0,
		looksLike: describeShape(shape, awaited),
		clientError: parseError,
		position: errorAt,
		byte: at < contentEnd ? buf[at] : undefined,
		id: shape.idToken,
		awaitedMethod: awaited,
		method: awaited === undefined ? shape.method : undefined,
		...(shape.literal === true ? {objectLiteral: true} : {}),
	};
	lineFrame(sink, line, {bodyStart, isJson: false, text, content, lineCount});
	return true;
}

/**
 * R1, J1: lines held as one pretty-printed value that did not parse, when together they are a message
 * printed as an object literal over several lines (Node's `console.log` of the message: bare keys, single
 * quotes; Python's `pprint`): framed as one frame with an `unparsed-message` fact, as {@link unparsedLine}
 * frames such a line, so the fix is to serialize it, not to move it to stderr. Returns false otherwise.
 * @param lines the held lines, in stream order (at least one); `heldBytes` their total length in bytes
 */
export function unparsedBlock(sink: FrameSink, lines: readonly HeldLine[], heldBytes: number): boolean {
	const first = lines[0]!;
	const last = lines.at(-1)!;
	const buf = Buffer.concat(
		lines.map((held) => held.buf),
		heldBytes,
	);
	const contentEnd = buf.length - (last.end - last.contentEnd);
	const text = buf.toString('utf8', 0, contentEnd);
	if (messageShape(text).literal !== true) return false;
	const line: Line = {
		offset: first.offset,
		firstSeq: first.firstSeq,
		firstTMs: first.firstTMs,
		lastSeq: last.lastSeq,
		tMs: last.tMs,
		buf,
		start: 0,
		end: buf.length,
		contentEnd,
		hasLF: last.hasLF,
		isCrlf: last.isCrlf,
		isUtf8: undefined,
	};
	return unparsedLine(sink, line, 0, text, jsonParseError(text) ?? 'not valid JSON', lines.length);
}

/**
 * J9: `{…}{…}`, `{…} {…}`, `{…}\r{…}` on one line, or a message and then text (F43): framed as the first
 * value with a `trailing` fact. Returns false when the line is not that.
 * @param first index of the first value's first byte; `firstEnd` just after its last
 */
function trailingLine(
	sink: FrameSink,
	line: Line,
	bodyStart: number,
	first: number,
	firstEnd: number,
	clientError: string | undefined,
): boolean {
	const {buf, start, contentEnd} = line;
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
		if (valueEnd === -1 || jsonParseError(buf.toString('utf8', next, valueEnd)) !== undefined) break;
		values++;
		next = skipJsonWhitespace(buf, valueEnd, contentEnd);
	}

	// F43: a complete message, then text that is not JSON before the LF (a logger's line glued to it).
	const trailing = values < 2 && secondStart < contentEnd && isMessageObject(message);
	if (values < 2 && !trailing) return false;
	sink.seenJson = true;
	const content: ContentFact = {
		kind: 'trailing',
		at: line.offset + secondStart - start,
		length: contentEnd - secondStart,
		values,
		clientError,
		messageEnd: trailing ? line.offset + firstEnd - start : undefined,
		trailing: trailing
			? buf.toString('utf8', secondStart, Math.min(contentEnd, secondStart + TRAILING_TEXT_BYTES))
			: undefined,
	};
	lineFrame(sink, line, {bodyStart, isJson: true, message, content});
	return true;
}

/** The id of `text` when it is one JSON-RPC response (a result or an error) with a number or string id. */
function replyId(text: string): string | number | undefined {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return undefined;
	}
	if (!isMessageObject(value)) return undefined;
	const reply = value as {id?: unknown};
	const isReply = 'result' in reply || 'error' in reply;
	return isReply && (typeof reply.id === 'number' || typeof reply.id === 'string') ? reply.id : undefined;
}

/** How many `{` of a stray line are tried as the start of a glued reply (text rarely holds one). */
const GLUED_STARTS = 4;

/**
 * The reply to an awaited request that ends a stray line after its text (R5, J9): the first of the line's
 * first {@link GLUED_STARTS} `{` whose value runs to the end of the content and is a JSON-RPC response whose
 * id the peer awaits. Cold path: stray lines that mention `"jsonrpc"` only.
 */
function gluedReply(sink: FrameSink, line: Line, bodyStart: number, text: string): GluedReply | undefined {
	const {buf, start, contentEnd} = line;
	if (sink.awaitedMethod === undefined || !text.includes('"jsonrpc"')) return undefined;
	let open = buf.indexOf(OPEN_BRACE, bodyStart + 1);
	for (let tries = 0; tries < GLUED_STARTS && open !== -1 && open < contentEnd; tries++) {
		const end = scanJsonValueEnd(buf, open, contentEnd, newJsonScanState());
		if (end !== -1 && skipJsonWhitespace(buf, end, contentEnd) === contentEnd) {
			const id = replyId(buf.toString('utf8', open, end));
			if (id === undefined) return undefined;
			const method = sink.awaitedMethod(JSON.stringify(id));
			return method === undefined ? undefined : {at: line.offset + open - start, id, method};
		}
		open = buf.indexOf(OPEN_BRACE, open + 1);
	}
	return undefined;
}

/** A line that is not JSON (R5): framed with a `text` fact, its kind and the client's parse error. */
function strayLine(
	sink: FrameSink,
	line: Line,
	bodyStart: number,
	text: string,
	clientError: string | undefined,
): void {
	const bytes = line.buf.subarray(bodyStart, line.contentEnd);
	const hasLoneCr = bytes.indexOf(CR) !== -1 || bytes.indexOf(0x08) !== -1;
	const kind = classifyStrayLine(text, {hasLoneCr, seenJson: sink.seenJson});
	const content: ContentFact = {
		kind: 'text',
		length: line.contentEnd - line.start,
		strayKind: kind,
		clientError,
		logger: kind === 'log' ? loggerOf(text) : undefined,
		launcher: kind === 'launcher' ? launcherOf(text) : undefined,
		stderrOnly: stderrOnlyLine(text),
		glued: gluedReply(sink, line, bodyStart, text),
	};
	lineFrame(sink, line, {bodyStart, isJson: false, text, content});
}

/** An empty line (only its LF or CR LF). */
function blankFrame(sink: FrameSink, line: Line): void {
	const offset = line.offset;
	const frame: RawFrame = {
		stream: sink.stream,
		framing: 'newline',
		offset,
		byteLength: line.end - line.start,
		bodyOffset: offset,
		bodyLength: 0,
		terminator: terminatorOf(line),
		lineCount: 1,
		tMs: line.tMs,
		firstTMs: line.firstTMs,
		firstSeq: line.firstSeq,
		lastSeq: line.lastSeq,
		isJson: false,
		isBlank: true,
	};
	sink.emit(frame, {limits: sink.limits, content: {kind: 'blank', clientError: BLANK_CLIENT_ERROR}});
}

/** What a one-line frame holds ({@link lineFrame}). */
interface LineBody {
	/** Index in the line's buffer where the JSON text starts (after a BOM). */
	readonly bodyStart: number;
	readonly isJson: boolean;
	readonly message?: unknown;
	/** The frame's text when it is not JSON. */
	readonly text?: string | undefined;
	/** The body as text, when already decoded: emptied once checked (a 5 MB line's text is not kept). */
	readonly holder?: {text?: string | undefined};
	/** What the content is, when it is anything but one clean JSON value on its line. */
	readonly content?: ContentFact | undefined;
	/** UTF-8 validity when known better than the line's. */
	readonly isUtf8?: boolean;
	/** Lines the frame spans, when it is held lines joined ({@link unparsedBlock}); default 1. */
	readonly lineCount?: number;
	/** The `NaN` / `Infinity` tokens of a line read leniently (`parseNonFinite`), merged into its non-portable tokens. */
	readonly nonFinite?: readonly NonPortableToken[];
}

/** Emits a one-line frame with its content fact and its byte-level facts. */
function lineFrame(sink: FrameSink, line: Line, body: LineBody): void {
	const {buf, start, end, contentEnd} = line;
	const {bodyStart, isJson, message, content} = body;
	const offset = line.offset;
	// The body as text, decoded once (a 5 MB line is not decoded again for each check; docs/performance.md#replay).
	let bodyText = body.holder?.text;
	const bodyString = (): string => (bodyText ??= buf.toString('utf8', bodyStart, contentEnd));
	let frame = makeFrame(sink.stream, line, {
		framing: 'newline',
		byteLength: end - start,
		bodyOffset: offset + bodyStart - start,
		bodyLength: contentEnd - bodyStart,
		terminator: terminatorOf(line),
		lineCount: body.lineCount ?? 1,
		isJson,
		message,
		text: body.text,
	});
	if (isJson && typeof message === 'object' && message !== null && typeof (message as {id?: unknown}).id === 'number') {
		const rawId = nonCanonicalRawId(message, bodyString());
		if (rawId !== undefined) frame = {...frame, rawId};
	}
	let nonPortable: FrameFacts['nonPortable'];
	if (isJson) {
		const text = bodyString();
		if (mayBeNonPortable(text)) nonPortable = nonPortableTokens(text, offset + bodyStart - start);
		if (body.nonFinite !== undefined)
			nonPortable = [...body.nonFinite, ...(nonPortable ?? [])].sort((a, b) => a.at - b.at);
	}
	// Checked: the text is not kept while the frame is handed on.
	bodyText = undefined;
	if (body.holder !== undefined) body.holder.text = undefined;
	const bytes = byteFacts({
		buf,
		start,
		end,
		offset,
		bodyStart,
		bomIndex: bodyStart === start ? -1 : start,
		// Raw ESC cannot be in JSON: a frame that parsed whole is not searched for one.
		checkEscape: !isJson || content !== undefined,
		isUtf8: body.isUtf8 ?? line.isUtf8,
		bomClientError: bodyStart === start ? undefined : jsonParseError(buf.toString('utf8', start, contentEnd)),
	});
	// Only a line the stream ended without an LF: the cold path.
	const loneCrEnd = !line.hasLF && contentEnd > start && buf[contentEnd - 1] === CR ? true : undefined;
	sink.emit(frame, {limits: sink.limits, content, nonPortable, ...bytes, ...(loneCrEnd ? {loneCrEnd} : {})});
}

/** What a line that does not parse says about itself, read with regular expressions (cold path only). */
interface MessageShape {
	readonly hasJsonrpc: boolean;
	readonly idToken: string | undefined;
	readonly method: string | undefined;
	readonly isResult: boolean;
	readonly isError: boolean;
	/** Printed as an object literal (single-quoted or bare keys), not serialized as JSON. */
	readonly literal?: boolean;
}

function messageShape(text: string): MessageShape {
	const id = /"id"\s*:\s*("(?:[^"\\\u0000-\u001f]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text);
	const method = /"method"\s*:\s*"([^"\\\u0000-\u001f]*)"/.exec(text);
	if (!/"jsonrpc"\s*:/.test(text) && /(?:'jsonrpc'|[{,]\s*jsonrpc)\s*:/.test(text)) return literalShape(text);
	return {
		hasJsonrpc: /"jsonrpc"\s*:/.test(text),
		idToken: id?.[1],
		method: method?.[1],
		isResult: /"result"\s*:/.test(text),
		isError: /"error"\s*:/.test(text),
	};
}

/**
 * A message printed as an object literal, not serialized: keys in single quotes (Python's `repr` of a dict,
 * `print(message)`) or bare (Node's `console.log` of the message), with a `jsonrpc` key (so a logged object with an
 * `id` is not taken for a reply). Still meant as the message: its integer id and method are read the same.
 */
function literalShape(text: string): MessageShape {
	const id = /(?:'id'|[{,]\s*id)\s*:\s*(-?\d+)\b/.exec(text);
	const method = /(?:'method'|[{,]\s*method)\s*:\s*'([^'\\\u0000-\u001f]*)'/.exec(text);
	return {
		hasJsonrpc: true,
		idToken: id?.[1],
		method: method?.[1],
		isResult: /(?:'result'|[{,]\s*result)\s*:/.test(text),
		isError: /(?:'error'|[{,]\s*error)\s*:/.test(text),
		literal: true,
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
