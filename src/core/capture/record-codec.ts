import {Buffer, isAscii, isUtf8} from 'node:buffer';
import {findingDocsRef} from '../detectors/docs-ref.js';
import {
	FINDING_CODES,
	type Chunk,
	type ClientImpact,
	type ExitInfo,
	type Finding,
	type FindingCode,
	type Frame,
	type Mark,
	type ProcessEvidence,
	type ProcessObservation,
	type SessionEvent,
	type SessionMeta,
	type StreamTotals,
	type Summary,
} from '../types.js';

/**
 * The NDJSON record format shared by `--json` output, tap capture files and replay (style.md §1.4).
 *
 * One JSON object per line, each with a `type` discriminator; the first line is the `session` header.
 * Offsets are bytes per stream, times are ms since session start, bytes travel as base64.
 *
 * | type | fields |
 * | --- | --- |
 * | `session` | `format` (this is 1) + every {@link SessionMeta} field |
 * | `chunk` | `seq, stream, tMs, offset, length, base64`, and `text` (a UTF-8 preview, only when the bytes are valid UTF-8 and at most {@link CHUNK_PREVIEW_MAX_BYTES} long; ignored on decode) |
 * | `frame` | every {@link Frame} field (`message` as parsed JSON, `text` for text frames) |
 * | `finding` | every {@link Finding} field, and `docs`: the code's section, `docs/findings.md#<code>` (written only; added in format 1 without a version bump: readers ignore unknown fields) |
 * | `mark` | `mark`: the {@link Mark} object (it has its own `type`; `evidence` marks carry a {@link ProcessEvidence}; a `gap` mark says `length` bytes of `stream` from `offset` are not in the capture, with a `reason`; older readers skip both as bad marks) |
 * | `exit` | `code, signal, tMs` ({@link ExitInfo}) |
 * | `summary` | every {@link Summary} field |
 *
 * Lines never contain a raw newline: JSON escapes controls, and this codec also escapes U+0085, U+2028
 * and U+2029, which some line splitters (Python `str.splitlines`) treat as line ends.
 */

/** The record format version this code writes and reads. */
export const RECORD_FORMAT = 1;

/** Chunks up to this many bytes carry a `text` preview when they are valid UTF-8. */
export const CHUNK_PREVIEW_MAX_BYTES = 1024;

/** The decoded header: session facts plus the format version of the file. */
export type SessionHeader = SessionMeta & {readonly format: number};

/**
 * A problem met while decoding. `line`: its 1-based line number in an NDJSON capture (format 1); in a
 * binary capture (format 2, binary-codec.ts) the 1-based number of its record (the magic line is 1,
 * the session header 2, records from 3), and then `byteOffset` is where that record starts in the file
 * (bytes from 0): a binary capture has no lines to point at.
 */
export interface DecodeProblem {
	readonly line: number;
	readonly byteOffset?: number;
	readonly message: string;
}

/**
 * Where a {@link DecodeProblem} is, in words for a `FILE: PLACE: message` line: `line 10` for an NDJSON
 * capture, `record 4 at byte 1480` for a binary one.
 */
export function problemPlace(problem: DecodeProblem): string {
	return problem.byteOffset === undefined
		? `line ${problem.line}`
		: `record ${problem.line} at byte ${problem.byteOffset}`;
}

/** What {@link decodeRecords} returns. */
export interface DecodedRecords {
	/** The first valid `session` record, if any. */
	readonly header?: SessionHeader;
	/** Every valid non-header record, in file order. */
	readonly events: SessionEvent[];
	/** Lines that were skipped or doubtful, in line order. */
	readonly problems: DecodeProblem[];
	/** True when the last line was cut short (no final newline and not complete JSON). */
	readonly isTruncated: boolean;
}

/** One decoded line, for readers that consume records incrementally (a socket, a growing file). */
export type DecodedLine =
	| {readonly kind: 'header'; readonly header: SessionHeader; readonly problem?: string}
	| {readonly kind: 'event'; readonly event: SessionEvent}
	| {readonly kind: 'empty'}
	| {readonly kind: 'problem'; readonly message: string; readonly isJson: boolean};

// ---------------------------------------------------------------------------------------------------
// Encoding

/** The characters {@link toLine} escapes in a record line (see the module comment). */
const LINE_ENDS = /[\u0085\u2028\u2029]/g;
const escapeLineEnd = (char: string): string => `\\u${char.codePointAt(0)!.toString(16).padStart(4, '0')}`;

function toLine(record: Record<string, unknown>): string {
	return JSON.stringify(record).replaceAll(LINE_ENDS, escapeLineEnd);
}

/** Copies `source[key]` into `target` when it is not undefined (keeps a field order, drops absent fields). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
	if (value !== undefined) {
		target[key] = value;
	}
}

/**
 * Encodes the `session` header record.
 * @param meta the session facts.
 * @returns one line of JSON, without a trailing newline (and never containing one).
 */
export function encodeHeader(meta: SessionMeta): string {
	const record: Record<string, unknown> = {
		type: 'session',
		format: RECORD_FORMAT,
		tool: {name: meta.tool.name, version: meta.tool.version},
	};
	record['node'] = meta.node;
	record['platform'] = meta.platform;
	record['command'] = [...meta.command];
	put(record, 'cwd', meta.cwd);
	record['envMode'] = meta.envMode;
	put(record, 'envKeys', meta.envKeys === undefined ? undefined : [...meta.envKeys]);
	record['startedAt'] = meta.startedAt;
	put(record, 'pid', meta.pid);
	record['mode'] = meta.mode;
	put(record, 'protocolVersion', meta.protocolVersion);
	put(record, 'name', meta.name);
	put(record, 'home', meta.home);
	put(record, 'user', meta.user);
	put(record, 'capturePath', meta.capturePath);
	return toLine(record);
}

/** A number as `JSON.stringify` writes it: `ToString` when finite, else `null` (ECMA-262 SerializeJSONProperty). */
function jsonNumber(value: number): string {
	return Number.isFinite(value) ? `${value}` : 'null';
}

/**
 * The start of a chunk record, up to and including its `length` (no closing brace): the text
 * `toLine({type: 'chunk', seq, stream, tMs, offset, length})` has before its last `}`.
 */
function chunkHead(chunk: Chunk): string {
	return `{"type":"chunk","seq":${jsonNumber(chunk.seq)},"stream":${JSON.stringify(chunk.stream)},"tMs":${jsonNumber(chunk.tMs)},"offset":${jsonNumber(chunk.offset)},"length":${chunk.bytes.byteLength}`;
}

/**
 * A chunk record's line: the same text as `toLine` of the record `{type, seq, stream, tMs, offset, length,
 * base64, text?}` (`text`: the bytes as UTF-8 when they are valid UTF-8, 1 to {@link CHUNK_PREVIEW_MAX_BYTES}
 * bytes), written directly: one record per read is the most common line of `--json` (issue 12: building
 * an object and stringifying it cost a third more at 1M frames). Only `text` can hold U+0085/U+2028/U+2029,
 * and only when the bytes are not ASCII; the other fields are digits, a stream name and base64.
 */
function chunkLine(chunk: Chunk): string {
	const buffer = Buffer.from(chunk.bytes.buffer, chunk.bytes.byteOffset, chunk.bytes.byteLength);
	const head = `${chunkHead(chunk)},"base64":"${buffer.toString('base64')}"`;
	if (buffer.length === 0 || buffer.length > CHUNK_PREVIEW_MAX_BYTES) return `${head}}`;
	if (isAscii(buffer)) return `${head},"text":${JSON.stringify(buffer.toString('latin1'))}}`;
	if (isUtf8(buffer))
		return `${head},"text":${JSON.stringify(buffer.toString('utf8')).replaceAll(LINE_ENDS, escapeLineEnd)}}`;
	return `${head}}`;
}

function frameRecord(frame: Frame): Record<string, unknown> {
	const record: Record<string, unknown> = {
		type: 'frame',
		index: frame.index,
		stream: frame.stream,
		framing: frame.framing,
		offset: frame.offset,
		byteLength: frame.byteLength,
		bodyOffset: frame.bodyOffset,
		bodyLength: frame.bodyLength,
		terminator: frame.terminator,
		lineCount: frame.lineCount,
		tMs: frame.tMs,
		firstTMs: frame.firstTMs,
		firstSeq: frame.firstSeq,
		lastSeq: frame.lastSeq,
		kind: frame.kind,
	};
	put(record, 'message', frame.message);
	put(record, 'method', frame.method);
	put(record, 'id', frame.id);
	put(
		record,
		'answers',
		frame.answers === undefined
			? undefined
			: {method: frame.answers.method, requestIndex: frame.answers.requestIndex, latencyMs: frame.answers.latencyMs},
	);
	put(record, 'text', frame.text);
	return record;
}

function findingRecord(finding: Finding): Record<string, unknown> {
	const record: Record<string, unknown> = {
		type: 'finding',
		code: finding.code,
		severity: finding.severity,
		stream: finding.stream,
		offset: finding.offset,
		byteLength: finding.byteLength,
	};
	put(record, 'frameIndex', finding.frameIndex);
	record['tMs'] = finding.tMs;
	record['message'] = finding.message;
	record['hint'] = finding.hint;
	record['rules'] = [...finding.rules];
	// The code's section in docs/findings.md; written, never read back (decoding derives nothing from it).
	record['docs'] = findingDocsRef(finding.code);
	record['impact'] = finding.impact.map((impact) => ({
		client: impact.client,
		reaction: impact.reaction,
		note: impact.note,
	}));
	put(record, 'detail', finding.detail);
	put(record, 'confidence', finding.confidence);
	put(record, 'origin', finding.origin);
	return record;
}

function summaryRecord(summary: Summary): Record<string, unknown> {
	const record: Record<string, unknown> = {
		type: 'summary',
		verdict: summary.verdict,
		findings: summary.findings.map((entry) => ({code: entry.code, severity: entry.severity, count: entry.count})),
		errors: summary.errors,
		warnings: summary.warnings,
		infos: summary.infos,
		streams: summary.streams,
		durationMs: summary.durationMs,
	};
	put(
		record,
		'exit',
		summary.exit === undefined
			? undefined
			: {code: summary.exit.code, signal: summary.exit.signal, tMs: summary.exit.tMs},
	);
	put(record, 'era', summary.era);
	put(record, 'serverInfo', summary.serverInfo);
	put(record, 'protocolVersion', summary.protocolVersion);
	put(record, 'tools', summary.tools);
	put(record, 'prompts', summary.prompts);
	put(record, 'resources', summary.resources);
	put(
		record,
		'clients',
		summary.clients?.map((entry) => ({
			client: entry.client,
			outcome: entry.outcome,
			decidedBy: [...entry.decidedBy],
			note: entry.note,
			connects: entry.connects,
			toolsListed: entry.toolsListed,
		})),
	);
	put(
		record,
		'incomplete',
		summary.incomplete === undefined
			? undefined
			: {
					cutShort: summary.incomplete.cutShort,
					missingBytes: summary.incomplete.missingBytes,
					gaps: summary.incomplete.gaps,
				},
	);
	put(
		record,
		'stalls',
		summary.stalls === undefined
			? undefined
			: {
					count: summary.stalls.count,
					totalMs: summary.stalls.totalMs,
					longestMs: summary.stalls.longestMs,
					timedOut: summary.stalls.timedOut,
				},
	);
	return record;
}

/**
 * Encodes one session event as a record (see the module table).
 * @returns one line of JSON, without a trailing newline (and never containing one).
 */
export function encodeEvent(event: SessionEvent): string {
	switch (event.type) {
		case 'chunk': {
			return chunkLine(event.chunk);
		}

		case 'frame': {
			return toLine(frameRecord(event.frame));
		}

		case 'finding': {
			return toLine(findingRecord(event.finding));
		}

		case 'mark': {
			return toLine({type: 'mark', mark: event.mark});
		}

		case 'exit': {
			return toLine({type: 'exit', code: event.exit.code, signal: event.exit.signal, tMs: event.exit.tMs});
		}

		case 'summary': {
			return toLine(summaryRecord(event.summary));
		}
	}
}

/** Characters of one piece {@link encodeEventInPieces} hands out (about; a piece may be a few characters longer). */
export const RECORD_PIECE_CHARS = 64 * 1024;

/** Bytes of chunk data encoded per base64 piece (a multiple of 3, so the pieces join into one base64 text). */
const BASE64_PIECE_BYTES = (RECORD_PIECE_CHARS / 4) * 3;

/** Nesting below which {@link jsonPieces} hands a value to `JSON.stringify` whole (bounds the recursion). */
const MAX_PIECE_DEPTH = 64;

/** The base64 alphabet as byte values. */
const BASE64_CHARS = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', 'latin1');

/** Standard padded base64 of `bytes[start, end)` as ASCII bytes (what `toString('base64', start, end)` spells). */
function base64Piece(bytes: Uint8Array, start: number, end: number): Buffer {
	const length = end - start;
	const out = Buffer.allocUnsafe(Math.ceil(length / 3) * 4);
	const chars = BASE64_CHARS;
	let o = 0;
	let i = start;
	for (const whole = start + length - (length % 3); i < whole; i += 3) {
		const triple = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
		out[o++] = chars[triple >> 18]!;
		out[o++] = chars[(triple >> 12) & 63]!;
		out[o++] = chars[(triple >> 6) & 63]!;
		out[o++] = chars[triple & 63]!;
	}

	if (i < end) {
		const hasTwo = i + 1 < end;
		const triple = (bytes[i]! << 16) | (hasTwo ? bytes[i + 1]! << 8 : 0);
		out[o++] = chars[triple >> 18]!;
		out[o++] = chars[(triple >> 12) & 63]!;
		out[o++] = hasTwo ? chars[(triple >> 6) & 63]! : 0x3d;
		out[o++] = 0x3d;
	}

	return out;
}

/**
 * Encodes one session event as {@link encodeEvent} does, handing the line to `write` in pieces: short
 * strings, and the bytes (UTF-8) of what is long, about {@link RECORD_PIECE_CHARS} at a time. The pieces
 * joined (strings as UTF-8) are the bytes of `encodeEvent(event)` exactly. A big chunk's base64 and a big
 * frame's message are never made into one string, and mostly not into strings at all (issue 12: a 5 MB
 * frame's `--json` records were a 7 MB base64 string, a 7 MB line, a 5 MB line and, written to a file or
 * pipe, the same again as bytes; short-lived strings that size outlive a minor GC and wait for a major
 * one). An event whose record is short is handed out as one string.
 * @param event the event to encode
 * @param write receives the pieces in order (no newline at the end); it may keep a byte piece (each is new)
 */
export function encodeEventInPieces(event: SessionEvent, write: (piece: string | Uint8Array) => void): void {
	if (event.type === 'chunk' && event.chunk.bytes.byteLength > BASE64_PIECE_BYTES) {
		const {bytes} = event.chunk;
		const {chunk} = event;
		// Longer than the text preview: the record ends with its base64 (see chunkLine).
		write(`${chunkHead(chunk)},"base64":"`);
		for (let start = 0; start < bytes.byteLength; start += BASE64_PIECE_BYTES)
			write(base64Piece(bytes, start, Math.min(bytes.byteLength, start + BASE64_PIECE_BYTES)));
		write('"}');
		return;
	}

	if (event.type === 'frame' && event.frame.byteLength > RECORD_PIECE_CHARS) {
		const pieces = new PieceBatch(write);
		jsonPieces(frameRecord(event.frame), pieces, 0);
		pieces.flush();
		return;
	}

	write(encodeEvent(event));
}

/** What JSON.stringify escapes in a string, what {@link toLine} escapes, and surrogates (left to JSON.stringify). */
const NEEDS_ESCAPE = /["\\\u0000-\u001F\u0085\u2028\u2029\uD800-\uDFFF]/;

/** Joins short pieces into pieces of about {@link RECORD_PIECE_CHARS} characters before handing them out. */
class PieceBatch {
	private parts: string[] = [];
	private length = 0;

	constructor(private readonly write: (piece: string | Uint8Array) => void) {}

	/** Add JSON text that has no string in it (punctuation, a number, a literal). */
	add(text: string): void {
		this.parts.push(text);
		this.length += text.length;
		if (this.length >= RECORD_PIECE_CHARS) this.flush();
	}

	/** Add JSON text that may hold strings: with the line-end escapes of {@link toLine}. */
	addStrings(text: string): void {
		this.add(text.replaceAll(LINE_ENDS, escapeLineEnd));
	}

	/** Add the inside of a JSON string literal for `slice` (part of a long string): as bytes when nothing in it is escaped. */
	addStringSlice(slice: string): void {
		if (NEEDS_ESCAPE.test(slice)) {
			this.addStrings(JSON.stringify(slice).slice(1, -1));
			return;
		}

		this.flush();
		this.write(Buffer.from(slice, 'utf8'));
	}

	flush(): void {
		if (this.parts.length === 0) return;
		const piece = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
		this.parts = [];
		this.length = 0;
		this.write(piece);
	}
}

/**
 * `JSON.stringify(value)` handed to `pieces` in parts: strings longer than a piece are escaped a slice at a
 * time (never between the two halves of a surrogate pair, so the escapes are those of the whole string).
 * Arrays and plain objects are walked; any other value (a number, a `toJSON` object) and anything nested
 * deeper than {@link MAX_PIECE_DEPTH} goes to `JSON.stringify` whole. Only for values `JSON.stringify` takes
 * (no cycles, no BigInt): a record's fields and a message from `JSON.parse`.
 */
function jsonPieces(value: unknown, pieces: PieceBatch, depth: number): void {
	if (typeof value === 'string') {
		if (value.length <= RECORD_PIECE_CHARS) {
			pieces.addStrings(JSON.stringify(value));
			return;
		}

		pieces.add('"');
		for (let start = 0; start < value.length;) {
			let end = Math.min(value.length, start + RECORD_PIECE_CHARS);
			const last = value.charCodeAt(end - 1);
			if (end < value.length && last >= 0xd8_00 && last <= 0xdb_ff) end--;
			pieces.addStringSlice(value.slice(start, end));
			start = end;
		}

		pieces.add('"');
		return;
	}

	if (
		typeof value !== 'object' ||
		value === null ||
		depth >= MAX_PIECE_DEPTH ||
		typeof (value as {toJSON?: unknown}).toJSON === 'function'
	) {
		pieces.addStrings(JSON.stringify(value) ?? 'null');
		return;
	}

	if (Array.isArray(value)) {
		pieces.add('[');
		for (let i = 0; i < value.length; i++) {
			if (i > 0) pieces.add(',');
			const item: unknown = value[i];
			// As JSON.stringify: what it cannot write becomes null in an array.
			if (item === undefined || typeof item === 'function' || typeof item === 'symbol') pieces.add('null');
			else jsonPieces(item, pieces, depth + 1);
		}

		pieces.add(']');
		return;
	}

	const prototype: unknown = Object.getPrototypeOf(value);
	if (prototype !== Object.prototype && prototype !== null) {
		pieces.addStrings(JSON.stringify(value));
		return;
	}

	pieces.add('{');
	let isFirst = true;
	for (const key of Object.keys(value)) {
		const item: unknown = (value as Record<string, unknown>)[key];
		// As JSON.stringify: members it cannot write are left out.
		if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
		pieces.addStrings(`${isFirst ? '' : ','}${JSON.stringify(key)}:`);
		isFirst = false;
		jsonPieces(item, pieces, depth + 1);
	}

	pieces.add('}');
}

// ---------------------------------------------------------------------------------------------------
// Decoding: hand-written checks (core may not import zod), every failure becomes a RecordError.

class RecordError extends Error {}

type Json = Record<string, unknown>;

function fail(message: string): never {
	throw new RecordError(message);
}

function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function object(value: unknown, what: string): Json {
	return isObject(value) ? value : fail(`${what} is not an object`);
}

function count(record: Json, key: string): number {
	const value = record[key];
	return Number.isSafeInteger(value) && (value as number) >= 0
		? (value as number)
		: fail(`\`${key}\` is not a non-negative integer`);
}

function optionalCount(record: Json, key: string): number | undefined {
	return record[key] === undefined ? undefined : count(record, key);
}

function num(record: Json, key: string): number {
	const value = record[key];
	return typeof value === 'number' && Number.isFinite(value) ? value : fail(`\`${key}\` is not a finite number`);
}

function str(record: Json, key: string): string {
	const value = record[key];
	return typeof value === 'string' ? value : fail(`\`${key}\` is not a string`);
}

function optionalStr(record: Json, key: string): string | undefined {
	return record[key] === undefined ? undefined : str(record, key);
}

function oneOf<T extends string>(record: Json, key: string, allowed: readonly T[]): T {
	const value = record[key];
	return typeof value === 'string' && (allowed as readonly string[]).includes(value)
		? (value as T)
		: fail(`\`${key}\` is not one of ${allowed.join(', ')}`);
}

function strings(record: Json, key: string): string[] {
	const value = record[key];
	return Array.isArray(value) && value.every((item) => typeof item === 'string')
		? [...(value as string[])]
		: fail(`\`${key}\` is not an array of strings`);
}

/** Builds an object from entries, leaving out undefined values (optional fields stay absent). */
function compact<T>(entries: Record<string, unknown>): T {
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(entries)) {
		if (value !== undefined) {
			out[key] = value;
		}
	}

	return out as T;
}

const STREAMS = ['stdin', 'stdout', 'stderr'] as const;
const GAP_REASONS = ['lag', 'write-failed', 'writer-timeout', 'writer-failed', 'unrecorded'] as const;
const SEVERITIES = ['error', 'warning', 'info'] as const;
const CLIENTS = ['ts-sdk-v1', 'ts-sdk-v2', 'python-sdk', 'vscode', 'rmcp', 'cursor'] as const;
const REACTIONS = ['ok', 'skip', 'skip-log', 'drop-log', 'hang', 'fatal', 'corrupt', 'unknown'] as const;
// With the length a multiple of 4, this is standard padded base64. A flat character class, no repeated
// group: V8 backtracks a repeated group recursively and overflows its stack on a chunk of a few MB.
const BASE64 = /^[A-Za-z\d+/]*={0,2}$/;

function decodeHeader(record: Json): SessionHeader {
	const format = record['format'];
	if (!Number.isSafeInteger(format) || (format as number) < 1) {
		fail('`format` is not a positive integer');
	}

	const tool = object(record['tool'], '`tool`');
	if (tool['name'] !== 'mcp-wire') {
		fail('`tool.name` is not "mcp-wire"');
	}

	return compact<SessionHeader>({
		format,
		tool: {name: 'mcp-wire', version: str(tool, 'version')},
		node: str(record, 'node'),
		platform: str(record, 'platform'),
		command: strings(record, 'command'),
		cwd: optionalStr(record, 'cwd'),
		envMode: oneOf(record, 'envMode', ['sdk-default', 'inherit', 'gui-minimal', 'client-full']),
		envKeys: record['envKeys'] === undefined ? undefined : strings(record, 'envKeys'),
		startedAt: str(record, 'startedAt'),
		pid: optionalCount(record, 'pid'),
		mode: oneOf(record, 'mode', ['probe', 'tap', 'replay']),
		protocolVersion: optionalStr(record, 'protocolVersion'),
		name: optionalStr(record, 'name'),
		home: optionalStr(record, 'home'),
		user: optionalStr(record, 'user'),
		capturePath: optionalStr(record, 'capturePath'),
	});
}

function decodeChunk(record: Json, given?: Uint8Array): Chunk {
	const length = count(record, 'length');
	let bytes: Uint8Array;
	if (given === undefined) {
		const base64 = str(record, 'base64');
		if (base64.length % 4 !== 0 || !BASE64.test(base64)) {
			fail('`base64` is not valid base64');
		}

		const decoded = Buffer.from(base64, 'base64');
		// A big chunk's bytes have their own memory (Node pools only small ones): a view, not a second copy (issue 12).
		bytes =
			decoded.length >= 4096
				? new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.length)
				: new Uint8Array(decoded);
	} else {
		bytes = given;
	}

	if (bytes.byteLength !== length) {
		fail(`\`base64\` holds ${bytes.byteLength} bytes but \`length\` says ${length}`);
	}

	return {
		seq: count(record, 'seq'),
		stream: oneOf(record, 'stream', STREAMS),
		tMs: num(record, 'tMs'),
		offset: count(record, 'offset'),
		bytes,
	};
}

function decodeId(value: unknown): Frame['id'] {
	if (
		value === undefined ||
		value === null ||
		typeof value === 'string' ||
		(typeof value === 'number' && Number.isFinite(value))
	) {
		return value;
	}

	return fail('`id` is not a string, number or null');
}

function decodeFrame(record: Json): Frame {
	let answers: Frame['answers'];
	if (record['answers'] !== undefined) {
		const raw = object(record['answers'], '`answers`');
		answers = {method: str(raw, 'method'), requestIndex: count(raw, 'requestIndex'), latencyMs: num(raw, 'latencyMs')};
	}

	return compact<Frame>({
		index: count(record, 'index'),
		stream: oneOf(record, 'stream', STREAMS),
		framing: oneOf(record, 'framing', ['newline', 'content-length']),
		offset: count(record, 'offset'),
		byteLength: count(record, 'byteLength'),
		bodyOffset: count(record, 'bodyOffset'),
		bodyLength: count(record, 'bodyLength'),
		terminator: oneOf(record, 'terminator', ['lf', 'crlf', 'none', 'length']),
		lineCount: count(record, 'lineCount'),
		tMs: num(record, 'tMs'),
		firstTMs: num(record, 'firstTMs'),
		firstSeq: count(record, 'firstSeq'),
		lastSeq: count(record, 'lastSeq'),
		kind: oneOf(record, 'kind', ['request', 'notification', 'response', 'error', 'json', 'text', 'blank']),
		message: record['message'],
		method: optionalStr(record, 'method'),
		id: decodeId(record['id']),
		answers,
		text: optionalStr(record, 'text'),
	});
}

function decodeImpact(value: unknown): ClientImpact {
	const raw = object(value, 'an `impact` entry');
	return {client: oneOf(raw, 'client', CLIENTS), reaction: oneOf(raw, 'reaction', REACTIONS), note: str(raw, 'note')};
}

function decodeFinding(record: Json): Finding {
	const impact = record['impact'];
	if (!Array.isArray(impact)) {
		fail('`impact` is not an array');
	}

	const detail = record['detail'];
	if (detail !== undefined && !isObject(detail)) {
		fail('`detail` is not an object');
	}

	return compact<Finding>({
		code: oneOf<FindingCode>(record, 'code', FINDING_CODES),
		severity: oneOf(record, 'severity', SEVERITIES),
		stream: oneOf(record, 'stream', STREAMS),
		offset: count(record, 'offset'),
		byteLength: count(record, 'byteLength'),
		frameIndex: optionalCount(record, 'frameIndex'),
		tMs: num(record, 'tMs'),
		message: str(record, 'message'),
		hint: str(record, 'hint'),
		rules: strings(record, 'rules'),
		impact: impact.map((entry) => decodeImpact(entry)),
		detail,
		confidence: record['confidence'] === undefined ? undefined : oneOf(record, 'confidence', ['observed', 'inferred']),
		origin: record['origin'] === undefined ? undefined : oneOf(record, 'origin', ['derived', 'probe']),
	});
}

function decodeMark(value: unknown): Mark {
	const raw = object(value, '`mark`');
	const tMs = num(raw, 'tMs');
	const type = oneOf(raw, 'type', [
		'stdin-closed',
		'eof',
		'signal-sent',
		'timeout',
		'phase',
		'evidence',
		'reaped',
		'gap',
	]);
	switch (type) {
		case 'stdin-closed': {
			return {type, tMs};
		}

		case 'eof': {
			return {type, stream: oneOf(raw, 'stream', STREAMS), tMs};
		}

		case 'signal-sent': {
			return {type, signal: oneOf(raw, 'signal', ['SIGTERM', 'SIGKILL']), tMs};
		}

		case 'timeout': {
			const id = decodeId(raw['id']);
			if (id === undefined) {
				fail('`mark.id` is missing');
			}

			return {type, id, method: str(raw, 'method'), timeoutMs: num(raw, 'timeoutMs'), tMs};
		}

		case 'phase': {
			return {type, name: str(raw, 'name'), tMs};
		}

		case 'evidence': {
			return {type, evidence: decodeEvidence(object(raw['evidence'], '`mark.evidence`')), tMs};
		}

		case 'reaped': {
			const pids = raw['pids'];
			if (!Array.isArray(pids) || !pids.every((pid) => Number.isSafeInteger(pid) && (pid as number) > 0)) {
				fail('`mark.pids` is not an array of pids');
			}

			return {type, pids: [...(pids as number[])], signal: oneOf(raw, 'signal', ['SIGTERM', 'SIGKILL']), tMs};
		}

		case 'gap': {
			return {
				type,
				stream: oneOf(raw, 'stream', STREAMS),
				offset: count(raw, 'offset'),
				length: count(raw, 'length'),
				reason: oneOf(raw, 'reason', GAP_REASONS),
				tMs,
			};
		}
	}
}

const ACTIVITIES = [
	'reading-stdin',
	'idle',
	'timer',
	'waiting-child',
	'busy',
	'network',
	'reading',
	'writing',
	'zombie',
	'stopped',
	'unknown',
] as const;

function optionalBool(record: Json, key: string): boolean | undefined {
	const value = record[key];
	if (value === undefined) return undefined;
	return typeof value === 'boolean' ? value : fail(`\`${key}\` is not a boolean`);
}

function fds(value: unknown, key: string): number[] | undefined {
	if (value === undefined) return undefined;
	return Array.isArray(value) && value.every((fd) => Number.isSafeInteger(fd) && (fd as number) >= 0)
		? [...(value as number[])]
		: fail(`\`holds.${key}\` is not an array of fds`);
}

function decodeObservation(value: unknown): ProcessObservation {
	const raw = object(value, 'a `processes` entry');
	let syscall: ProcessObservation['syscall'];
	if (raw['syscall'] !== undefined) {
		const call = object(raw['syscall'], '`syscall`');
		const timeout = call['timeoutMs'];
		if (timeout !== undefined && timeout !== null && !(typeof timeout === 'number' && Number.isFinite(timeout)))
			fail('`syscall.timeoutMs` is not a number or null');
		syscall = compact({
			name: optionalStr(call, 'name'),
			fd: optionalCount(call, 'fd'),
			timeoutMs: timeout as number | null | undefined,
		});
	}

	let holds: ProcessObservation['holds'];
	if (raw['holds'] !== undefined) {
		const held = object(raw['holds'], '`holds`');
		holds = compact({
			stdin: fds(held['stdin'], 'stdin'),
			stdout: fds(held['stdout'], 'stdout'),
			stderr: fds(held['stderr'], 'stderr'),
		});
	}

	const startTMs = raw['startTMs'];
	if (startTMs !== undefined && !(typeof startTMs === 'number' && Number.isFinite(startTMs)))
		fail('`startTMs` is not a finite number');
	return compact<ProcessObservation>({
		pid: count(raw, 'pid'),
		ppid: optionalCount(raw, 'ppid'),
		command: raw['command'] === undefined ? undefined : strings(raw, 'command'),
		comm: optionalStr(raw, 'comm'),
		state: optionalStr(raw, 'state'),
		wchan: optionalStr(raw, 'wchan'),
		syscall,
		activity: oneOf(raw, 'activity', ACTIVITIES),
		threads: optionalCount(raw, 'threads'),
		startTMs,
		holds,
		connecting: raw['connecting'] === undefined ? undefined : strings(raw, 'connecting'),
	});
}

function decodeEvidence(raw: Json): ProcessEvidence {
	const processes = raw['processes'];
	if (!Array.isArray(processes)) fail('`evidence.processes` is not an array');
	const open = raw['openPipes'];
	if (open !== undefined && !(Array.isArray(open) && open.every((name) => name === 'stdout' || name === 'stderr')))
		fail('`evidence.openPipes` is not a list of stdout/stderr');
	return compact<ProcessEvidence>({
		reason: oneOf(raw, 'reason', ['stall', 'timeout', 'shutdown', 'exit']),
		observed: optionalBool(raw, 'observed') ?? fail('`evidence.observed` is missing'),
		note: optionalStr(raw, 'note'),
		rootPid: optionalCount(raw, 'rootPid'),
		rootAlive: optionalBool(raw, 'rootAlive'),
		processes: processes.map((entry) => decodeObservation(entry)),
		sameStdoutStderr: optionalBool(raw, 'sameStdoutStderr'),
		openPipes: open === undefined ? undefined : [...(open as ('stdout' | 'stderr')[])],
	});
}

function decodeExit(record: Json): ExitInfo {
	const code = record['code'];
	const signal = record['signal'];
	if (code !== null && !Number.isSafeInteger(code)) {
		fail('`code` is not an integer or null');
	}

	if (signal !== null && typeof signal !== 'string') {
		fail('`signal` is not a string or null');
	}

	return {code: code as number | null, signal: signal as string | null, tMs: num(record, 'tMs')};
}

function decodeTotals(value: unknown, stream: string): StreamTotals {
	const raw = object(value, `\`streams.${stream}\``);
	return {bytes: count(raw, 'bytes'), chunks: count(raw, 'chunks'), frames: count(raw, 'frames')};
}

function decodeSummary(record: Json): Summary {
	const findings = record['findings'];
	if (!Array.isArray(findings)) {
		fail('`findings` is not an array');
	}

	const streams = object(record['streams'], '`streams`');
	let serverInfo: Summary['serverInfo'];
	if (record['serverInfo'] !== undefined) {
		const raw = object(record['serverInfo'], '`serverInfo`');
		serverInfo = compact({name: optionalStr(raw, 'name'), version: optionalStr(raw, 'version')});
	}

	return compact<Summary>({
		verdict: oneOf(record, 'verdict', ['ok', 'warn', 'fail']),
		findings: findings.map((entry) => {
			const raw = object(entry, 'a `findings` entry');
			return {
				code: oneOf<FindingCode>(raw, 'code', FINDING_CODES),
				severity: oneOf(raw, 'severity', SEVERITIES),
				count: count(raw, 'count'),
			};
		}),
		errors: count(record, 'errors'),
		warnings: count(record, 'warnings'),
		infos: count(record, 'infos'),
		streams: {
			stdin: decodeTotals(streams['stdin'], 'stdin'),
			stdout: decodeTotals(streams['stdout'], 'stdout'),
			stderr: decodeTotals(streams['stderr'], 'stderr'),
		},
		durationMs: num(record, 'durationMs'),
		exit: record['exit'] === undefined ? undefined : decodeExit(object(record['exit'], '`exit`')),
		era: record['era'] === undefined ? undefined : oneOf(record, 'era', ['legacy', 'modern']),
		serverInfo,
		protocolVersion: optionalStr(record, 'protocolVersion'),
		tools: optionalCount(record, 'tools'),
		prompts: optionalCount(record, 'prompts'),
		resources: optionalCount(record, 'resources'),
		clients: decodeClients(record['clients']),
		incomplete:
			record['incomplete'] === undefined ? undefined : decodeIncomplete(object(record['incomplete'], '`incomplete`')),
		stalls: record['stalls'] === undefined ? undefined : decodeStalls(object(record['stalls'], '`stalls`')),
	});
}

function decodeStalls(raw: Json): Summary['stalls'] {
	return {
		count: count(raw, 'count'),
		totalMs: count(raw, 'totalMs'),
		longestMs: count(raw, 'longestMs'),
		timedOut: count(raw, 'timedOut'),
	};
}

function decodeIncomplete(raw: Json): Summary['incomplete'] {
	if (typeof raw['cutShort'] !== 'boolean') fail('`incomplete.cutShort` is not a boolean');
	return {cutShort: raw['cutShort'], missingBytes: count(raw, 'missingBytes'), gaps: count(raw, 'gaps')};
}

const OUTCOMES = ['works', 'degraded', 'fails', 'unknown'] as const;

/**
 * The summary's `clients` list. It is derived (replay recomputes it), so a list this version cannot
 * read (written by another version, a code it does not know) is left out rather than failing the record.
 */
function decodeClients(value: unknown): Summary['clients'] {
	if (!Array.isArray(value)) return undefined;
	const out: NonNullable<Summary['clients']>[number][] = [];
	for (const entry of value) {
		if (!isObject(entry)) return undefined;
		const {client, outcome, decidedBy, note, connects, toolsListed} = entry;
		const isFlag = (flag: unknown): flag is boolean | null => flag === null || typeof flag === 'boolean';
		if (
			!(CLIENTS as readonly unknown[]).includes(client) ||
			!(OUTCOMES as readonly unknown[]).includes(outcome) ||
			typeof note !== 'string'
		)
			return undefined;
		if (
			!Array.isArray(decidedBy) ||
			!decidedBy.every((code) => (FINDING_CODES as readonly unknown[]).includes(code)) ||
			!isFlag(connects) ||
			!isFlag(toolsListed)
		)
			return undefined;
		out.push({
			client: client as (typeof CLIENTS)[number],
			outcome: outcome as (typeof OUTCOMES)[number],
			decidedBy: decidedBy as FindingCode[],
			note,
			connects,
			toolsListed,
		});
	}

	return out;
}

/**
 * Decodes one line (without its newline; a trailing CR is ignored). Never throws.
 * @returns the header or event it holds, `empty` for a blank line, or a problem message (`isJson` says
 *   whether the line was at least JSON, which tells a cut last line from a bad record).
 */
export function decodeRecord(line: string): DecodedLine {
	return decodeRecordText(line);
}

/** What {@link decodeRecordBytes} decodes text with: a `TextDecoder('utf-8')`. */
export interface Utf8Decoder {
	decode(bytes: Uint8Array): string;
}

/** Chunk records at least this long take {@link decodeRecordBytes}'s fast path. */
const FAST_CHUNK_BYTES = 64 * 1024;
const CHUNK_START = Buffer.from(JSON.stringify({type: 'chunk'}).slice(0, -1) + ',');
const BASE64_MEMBER = Buffer.from(`,${JSON.stringify('base64')}:"`);
/** Base64 alphabet value of each byte, -1 for a byte outside it. */
const BASE64_VALUE = (() => {
	const table = new Int16Array(256).fill(-1);
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
	for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
	return table;
})();

/** A part of a record line: `bytes[start, end)`. */
interface Span {
	readonly bytes: Uint8Array;
	readonly start: number;
	readonly end: number;
}

/**
 * The bytes of standard padded base64 held in `spans` one after the other (what `BASE64` accepts),
 * decoded without making a string of it; undefined when it is not valid.
 */
function base64Bytes(spans: readonly Span[]): Uint8Array | undefined {
	let n = 0;
	for (const span of spans) n += span.end - span.start;
	if (n % 4 !== 0) return undefined;
	// The last 4 characters (the only ones that may be padding), gathered across spans.
	const last: number[] = [];
	for (let i = spans.length - 1; i >= 0 && last.length < 4; i--) {
		const span = spans[i]!;
		for (let k = span.end - 1; k >= span.start && last.length < 4; k--) last.unshift(span.bytes[k]!);
	}

	const pad = n === 0 ? 0 : last[3] === 0x3d ? (last[2] === 0x3d ? 2 : 1) : 0;
	const out = new Uint8Array((n / 4) * 3 - pad);
	const v = BASE64_VALUE;
	let left = pad === 0 ? n : n - 4;
	let o = 0;
	let acc = 0;
	let k = 0;
	let bad = 0;
	for (const span of spans) {
		if (left === 0) break;
		const src = span.bytes;
		const stop = Math.min(span.end, span.start + left);
		let i = span.start;
		// Whole quads inside this span first (the hot loop), then one character at a time across its end.
		if (k === 0) {
			const quadsEnd = i + ((stop - i) & ~3);
			for (; i < quadsEnd; i += 4) {
				const a = v[src[i]!]!;
				const b = v[src[i + 1]!]!;
				const c = v[src[i + 2]!]!;
				const d = v[src[i + 3]!]!;
				bad |= a | b | c | d;
				const triple = (a << 18) | (b << 12) | (c << 6) | d;
				out[o++] = triple >> 16;
				out[o++] = (triple >> 8) & 0xff;
				out[o++] = triple & 0xff;
			}
		}

		for (; i < stop; i++) {
			const value = v[src[i]!]!;
			bad |= value;
			acc = (acc << 6) | (value & 0x3f);
			if (++k === 4) {
				out[o++] = (acc >> 16) & 0xff;
				out[o++] = (acc >> 8) & 0xff;
				out[o++] = acc & 0xff;
				acc = 0;
				k = 0;
			}
		}

		left -= stop - span.start;
	}

	if (bad < 0) return undefined;
	if (pad > 0) {
		const a = v[last[0]!]!;
		const b = v[last[1]!]!;
		const c = pad === 1 ? v[last[2]!]! : 0;
		if ((a | b | c) < 0) return undefined;
		const triple = (a << 18) | (b << 12) | (c << 6);
		out[o++] = triple >> 16;
		if (pad === 1) out[o++] = (triple >> 8) & 0xff;
	}

	return out;
}

/**
 * The bytes of a piece of standard padded base64 given as its ASCII bytes (length a multiple of 4,
 * `=` only as the last one or two characters), decoded without making a string of it; undefined when it
 * is not valid. Used to read part of a big chunk record's `base64` back (tap/capture-read-back.ts).
 */
export function decodeBase64Bytes(bytes: Uint8Array): Uint8Array | undefined {
	return base64Bytes([{bytes, start: 0, end: bytes.length}]);
}

/**
 * True when `bytes` are base64 alphabet characters only (no padding): a middle piece of a record's
 * `base64`, checked without decoding it (tap/capture-read-back.ts checks a big chunk record whole once
 * before it reads part of it back, as a record that does not decode is skipped).
 */
export function isBase64Alphabet(bytes: Uint8Array): boolean {
	const v = BASE64_VALUE;
	let bad = 0;
	for (let i = 0; i < bytes.length; i++) bad |= v[bytes[i]!]!;
	return bad >= 0;
}

/**
 * {@link decodeRecord} of a line given as its UTF-8 bytes (without the LF), whole or in the parts it
 * arrived in: the same result. A big chunk record as `encodeEvent` writes it has its `base64` decoded
 * straight from the bytes, so the line is neither joined into one buffer nor made into one string and its
 * base64 into a second (issue 12: 14 MB of strings per 5 MB chunk); anything else, and any chunk record
 * the fast path cannot take whole, is decoded as text.
 * @param line the record's bytes, or its parts in order
 * @param utf8 a `TextDecoder('utf-8')` to decode with
 */
export function decodeRecordBytes(line: Uint8Array | readonly Uint8Array[], utf8: Utf8Decoder): DecodedLine {
	const parts = Array.isArray(line) ? (line as readonly Uint8Array[]) : [line as Uint8Array];
	let length = 0;
	for (const part of parts) length += part.length;
	if (length >= FAST_CHUNK_BYTES) {
		const fast = fastChunk(parts, utf8);
		if (fast !== undefined) return fast;
	}

	return decodeRecordText(utf8.decode(parts.length === 1 ? parts[0]! : Buffer.concat(parts)));
}

const asBuffer = (bytes: Uint8Array): Buffer =>
	Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function fastChunk(parts: readonly Uint8Array[], utf8: Utf8Decoder): DecodedLine | undefined {
	const first = asBuffer(parts[0]!);
	if (
		first.length < CHUNK_START.length ||
		first.compare(CHUNK_START, 0, CHUNK_START.length, 0, CHUNK_START.length) !== 0
	)
		return undefined;
	let lastByte: number | undefined;
	for (let i = parts.length - 1; i >= 0 && lastByte === undefined; i--)
		if (parts[i]!.length > 0) lastByte = parts[i]![parts[i]!.length - 1];
	if (lastByte !== 0x7d) return undefined;
	const member = first.indexOf(BASE64_MEMBER);
	if (member === -1) return undefined;
	const start = member + BASE64_MEMBER.length;
	// The base64 runs to the next quote, in whichever part it is.
	const spans: Span[] = [];
	let tail: Buffer | undefined;
	for (let p = 0; p < parts.length; p++) {
		const part = asBuffer(parts[p]!);
		const from = p === 0 ? start : 0;
		const quote = part.indexOf(0x22, from);
		if (quote === -1) {
			spans.push({bytes: part, start: from, end: part.length});
			continue;
		}

		spans.push({bytes: part, start: from, end: quote});
		tail = Buffer.concat([part.subarray(quote), ...parts.slice(p + 1)]);
		break;
	}

	if (tail === undefined) return undefined;
	const bytes = base64Bytes(spans);
	if (bytes === undefined) return undefined;
	const rest = utf8.decode(first.subarray(0, start)) + utf8.decode(tail);
	// A second `base64` member would win in JSON.parse: leave such a line to the text path.
	if (rest.indexOf('"base64"') !== rest.lastIndexOf('"base64"')) return undefined;
	let value: unknown;
	try {
		value = JSON.parse(rest);
	} catch {
		return undefined;
	}

	if (!isObject(value) || value['type'] !== 'chunk') return undefined;
	try {
		return {kind: 'event', event: {type: 'chunk', chunk: decodeChunk(value, bytes)}};
	} catch {
		return undefined;
	}
}

function decodeRecordText(line: string): DecodedLine {
	const text = line.endsWith('\r') ? line.slice(0, -1) : line;
	if (text.trim() === '') {
		return {kind: 'empty'};
	}

	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return {kind: 'problem', message: 'not JSON', isJson: false};
	}

	if (!isObject(value) || typeof value['type'] !== 'string') {
		return {kind: 'problem', message: 'not a record (a JSON object with a string `type`)', isJson: true};
	}

	const type = value['type'];
	try {
		switch (type) {
			case 'session': {
				const header = decodeHeader(value);
				return header.format > RECORD_FORMAT
					? {
							kind: 'header',
							header,
							problem: `format ${header.format} is newer than this version of mcp-wire reads (${RECORD_FORMAT}); records are read as format ${RECORD_FORMAT}`,
						}
					: {kind: 'header', header};
			}

			case 'chunk': {
				return {kind: 'event', event: {type: 'chunk', chunk: decodeChunk(value)}};
			}

			case 'frame': {
				return {kind: 'event', event: {type: 'frame', frame: decodeFrame(value)}};
			}

			case 'finding': {
				return {kind: 'event', event: {type: 'finding', finding: decodeFinding(value)}};
			}

			case 'mark': {
				return {kind: 'event', event: {type: 'mark', mark: decodeMark(value['mark'])}};
			}

			case 'exit': {
				return {kind: 'event', event: {type: 'exit', exit: decodeExit(value)}};
			}

			case 'summary': {
				return {kind: 'event', event: {type: 'summary', summary: decodeSummary(value)}};
			}

			default: {
				return {
					kind: 'problem',
					message: `unknown record type ${JSON.stringify(type).slice(0, 60)}, skipped`,
					isJson: true,
				};
			}
		}
	} catch (error) {
		if (error instanceof RecordError) {
			return {kind: 'problem', message: `bad ${type} record: ${error.message}, skipped`, isJson: true};
		}

		return {kind: 'problem', message: `bad ${type} record, skipped`, isJson: true};
	}
}

/**
 * Decodes a whole capture or `--json` dump. Never throws on bad input: every line that cannot be used
 * becomes a problem with its 1-based line number, and decoding goes on.
 * - A last line without a final newline that is not complete JSON is a cut file: `isTruncated` is true,
 *   a problem says so, and every record before it is kept.
 * - Unknown record types, records with missing or mistyped fields, and non-JSON lines are problems and
 *   are skipped. Blank lines are ignored.
 * - The first valid `session` record is the header; a `format` newer than {@link RECORD_FORMAT} is a
 *   problem (the records are still read). A missing header, or a second one, is a problem.
 * - Chunk bytes come back exactly (a fresh `Uint8Array`); the `text` preview is ignored.
 */
export function decodeRecords(text: string): DecodedRecords {
	const lines = text.split('\n');
	const isTerminated = text.endsWith('\n');
	if (isTerminated) {
		lines.pop();
	}

	let header: SessionHeader | undefined;
	const events: SessionEvent[] = [];
	const problems: DecodeProblem[] = [];
	let isTruncated = false;
	for (const [index, line] of lines.entries()) {
		const lineNumber = index + 1;
		const decoded = decodeRecord(line);
		switch (decoded.kind) {
			case 'empty': {
				break;
			}

			case 'header': {
				if (header === undefined) {
					header = decoded.header;
					if (decoded.problem !== undefined) {
						problems.push({line: lineNumber, message: decoded.problem});
					}
				} else {
					problems.push({line: lineNumber, message: 'a second session header, skipped'});
				}

				break;
			}

			case 'event': {
				if (header === undefined && events.length === 0) {
					problems.push({line: lineNumber, message: 'records before any session header'});
				}

				events.push(decoded.event);
				break;
			}

			case 'problem': {
				const isLast = index === lines.length - 1;
				if (isLast && !isTerminated && !decoded.isJson) {
					isTruncated = true;
					problems.push({
						line: lineNumber,
						message: 'the file ends inside a record (truncated capture); the cut record is skipped',
					});
				} else {
					problems.push({line: lineNumber, message: decoded.message});
				}

				break;
			}
		}
	}

	if (header === undefined && events.length === 0 && lines.some((line) => line.trim() !== '')) {
		problems.push({line: 1, message: 'no session header'});
	}

	return {header, events, problems, isTruncated};
}
