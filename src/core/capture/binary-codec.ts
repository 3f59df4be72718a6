import {Buffer} from 'node:buffer';
import type {CaptureGapReason, Chunk, SessionEvent, StreamName} from '../types.js';
import {
	decodeRecord,
	decodeRecords,
	encodeHeader,
	type DecodedRecords,
	type DecodeProblem,
	type SessionHeader,
} from './record-codec.js';
import type {SessionMeta} from '../types.js';

/**
 * The tap's capture file, format 2 (docs/performance.md#tap-forwarding-and-capture, docs/capture-format.md#gaps-and-incomplete-captures): raw bytes with small binary
 * record headers, the way pcap stores packets, so the writer never encodes chunk bytes (no base64) and
 * the reader never decodes them. The NDJSON records (record-codec.ts, format 1) are produced from it on
 * replay and by `--json`.
 *
 * ```
 * "mcp-wire capture 2\n"                      magic line (ASCII; not JSON, so a format-1 reader refuses it)
 * {"type":"session","format":1,…}\n           the session header record, as encodeHeader writes it
 * record*                                     binary records, each a 24-byte head + payload:
 *   0  u8   type      1 chunk, 2 mark, 3 exit, 4 finding, 5 gap, 6 end
 *   1  u8   stream    0 stdin, 1 stdout, 2 stderr
 *   2  u16  0         reserved
 *   4  u32  length    payload bytes
 *   8  f64  tMs       ms since the session started
 *  16  u64  offset    stream byte offset (chunk: of its first byte; gap: of the first missing byte; else 0)
 * ```
 * Every number is little-endian. Payloads: chunk, the bytes as they crossed; mark, exit and finding,
 * the format-1 NDJSON record (UTF-8 JSON, no LF); gap, `{"length":N,"reason":"lag"}` (`length` bytes of
 * `stream` from `offset` were forwarded but are not in the file); end, the JSON of {@link CaptureEnd}
 * (with `stalls` only when the tap paused reading for the capture)
 * followed by a u32 (the whole end record's size in bytes) and ASCII `MWND`, so a reader finds it from
 * the file's last 8 bytes before reading anything else. A file without an end record was cut short (the
 * tap was killed). Unknown record types are skipped (their length is known).
 */

/** The file format version of a binary capture. */
export const CAPTURE_FORMAT = 2;
/** The first line of a binary capture. */
export const CAPTURE_MAGIC = `mcp-wire capture ${CAPTURE_FORMAT}\n`;
/** What every binary capture starts with, whatever its version. */
const MAGIC_PREFIX = 'mcp-wire capture ';
/** Bytes of a record head. */
export const RECORD_HEAD_BYTES = 24;
/** Record types. */
export const RECORD_TYPE = {chunk: 1, mark: 2, exit: 3, finding: 4, gap: 5, end: 6} as const;
/** The last 4 bytes of a finished capture (after the end record's size). */
export const END_TRAILER = 'MWND';
/** Bytes after the end record's JSON: its size (u32) and {@link END_TRAILER}. */
export const END_TAIL_BYTES = 8;
/** A record longer than this is taken as corruption (a chunk is at most a read: far less). */
const MAX_RECORD_BYTES = 256 * 1024 * 1024;

const STREAM_CODE: Readonly<Record<StreamName, number>> = {stdin: 0, stdout: 1, stderr: 2};
const STREAMS: readonly StreamName[] = ['stdin', 'stdout', 'stderr'];
const GAP_REASONS: readonly CaptureGapReason[] = [
	'lag',
	'write-failed',
	'writer-timeout',
	'writer-failed',
	'unrecorded',
];

/** Per-stream byte counts. */
export type StreamBytes = Readonly<Record<StreamName, number>>;

/** The end record: how complete the capture is. */
export interface CaptureEnd {
	/** True when every forwarded byte is in the file (no gap). */
	readonly complete: boolean;
	/** Bytes recorded per stream. */
	readonly recorded: StreamBytes;
	/** Bytes forwarded but not recorded per stream (the sum of the gaps). */
	readonly missing: StreamBytes;
	/** Number of gap records. */
	readonly gaps: number;
	/** Times the tap paused reading a source for the capture to catch up (absent: none). */
	readonly stalls?: CaptureStalls;
}

/**
 * The tap's waits for its capture (`tap --capture-wait`): each time the capture had no room for a read,
 * the tap stopped reading that source until the writer made room, at most the wait limit.
 */
export interface CaptureStalls {
	/** Number of waits. */
	readonly count: number;
	/** All waits together (ms, rounded). */
	readonly totalMs: number;
	/** The longest wait (ms, rounded). */
	readonly longestMs: number;
	/** Waits that reached the limit: their read is in a gap record instead. */
	readonly timedOut: number;
}

/** A decoded gap record, as a session mark. */
export type GapMark = Extract<SessionEvent, {type: 'mark'}>['mark'] & {readonly type: 'gap'};

// ---------------------------------------------------------------------------------------------------
// Encoding

/**
 * The start of a binary capture: the magic line and the session header line.
 * @returns `CAPTURE_MAGIC + encodeHeader(meta) + "\n"` as UTF-8 bytes
 */
export function encodeCaptureStart(meta: SessionMeta): Buffer {
	return Buffer.from(`${CAPTURE_MAGIC}${encodeHeader(meta)}\n`, 'utf8');
}

/**
 * Write a record head into `target` at `at` (24 bytes; see the module table).
 * @throws RangeError when `target` has less than 24 bytes from `at`
 */
export function writeRecordHead(
	target: Buffer,
	at: number,
	type: number,
	stream: StreamName,
	length: number,
	tMs: number,
	offset: number,
): void {
	target[at] = type;
	target[at + 1] = STREAM_CODE[stream];
	target[at + 2] = 0;
	target[at + 3] = 0;
	target.writeUInt32LE(length, at + 4);
	target.writeDoubleLE(tMs, at + 8);
	target.writeUInt32LE(offset % 0x1_0000_0000, at + 16);
	target.writeUInt32LE(Math.floor(offset / 0x1_0000_0000), at + 20);
}

/** One chunk record: head + the bytes. */
export function encodeChunkRecord(stream: StreamName, tMs: number, offset: number, bytes: Uint8Array): Buffer {
	const out = Buffer.allocUnsafe(RECORD_HEAD_BYTES + bytes.byteLength);
	writeRecordHead(out, 0, RECORD_TYPE.chunk, stream, bytes.byteLength, tMs, offset);
	out.set(bytes, RECORD_HEAD_BYTES);
	return out;
}

/**
 * A mark, exit or finding record: the payload is the format-1 NDJSON record `line` (from `encodeEvent`).
 * @param type RECORD_TYPE.mark, .exit or .finding
 */
export function encodeJsonRecord(type: number, tMs: number, line: string): Buffer {
	const length = Buffer.byteLength(line);
	const out = Buffer.allocUnsafe(RECORD_HEAD_BYTES + length);
	writeRecordHead(out, 0, type, 'stdout', length, tMs, 0);
	out.write(line, RECORD_HEAD_BYTES, 'utf8');
	return out;
}

/** A gap record: `length` bytes of `stream` from `offset` are not in the capture. */
export function encodeGapRecord(gap: {
	readonly stream: StreamName;
	readonly offset: number;
	readonly length: number;
	readonly reason: CaptureGapReason;
	readonly tMs: number;
}): Buffer {
	const json = JSON.stringify({length: gap.length, reason: gap.reason});
	const out = Buffer.allocUnsafe(RECORD_HEAD_BYTES + json.length);
	writeRecordHead(out, 0, RECORD_TYPE.gap, gap.stream, json.length, gap.tMs, gap.offset);
	out.write(json, RECORD_HEAD_BYTES, 'latin1');
	return out;
}

/** The end record (always the file's last): its JSON, its whole size (u32) and `MWND`. */
export function encodeEndRecord(end: CaptureEnd, tMs: number): Buffer {
	const json = JSON.stringify({
		complete: end.complete,
		recorded: {stdin: end.recorded.stdin, stdout: end.recorded.stdout, stderr: end.recorded.stderr},
		missing: {stdin: end.missing.stdin, stdout: end.missing.stdout, stderr: end.missing.stderr},
		gaps: end.gaps,
		...(end.stalls === undefined
			? {}
			: {
					stalls: {
						count: end.stalls.count,
						totalMs: end.stalls.totalMs,
						longestMs: end.stalls.longestMs,
						timedOut: end.stalls.timedOut,
					},
				}),
	});
	const length = json.length + END_TAIL_BYTES;
	const out = Buffer.allocUnsafe(RECORD_HEAD_BYTES + length);
	writeRecordHead(out, 0, RECORD_TYPE.end, 'stdout', length, tMs, 0);
	out.write(json, RECORD_HEAD_BYTES, 'latin1');
	out.writeUInt32LE(RECORD_HEAD_BYTES + length, RECORD_HEAD_BYTES + json.length);
	out.write(END_TRAILER, RECORD_HEAD_BYTES + json.length + 4, 'latin1');
	return out;
}

// ---------------------------------------------------------------------------------------------------
// Decoding

/**
 * Whether bytes are the start of a binary capture: true (the magic prefix), false (something else, such
 * as NDJSON), undefined (too few bytes to tell).
 */
export function isBinaryCapture(start: Uint8Array): boolean | undefined {
	const n = Math.min(start.byteLength, MAGIC_PREFIX.length);
	for (let i = 0; i < n; i++) if (start[i] !== MAGIC_PREFIX.charCodeAt(i)) return false;
	return n === MAGIC_PREFIX.length ? true : undefined;
}

function isCount(value: unknown): value is number {
	return Number.isSafeInteger(value) && (value as number) >= 0;
}

function streamBytes(value: unknown): StreamBytes | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const raw = value as Record<string, unknown>;
	return isCount(raw['stdin']) && isCount(raw['stdout']) && isCount(raw['stderr'])
		? {stdin: raw['stdin'], stdout: raw['stdout'], stderr: raw['stderr']}
		: undefined;
}

/** Parse an end record's JSON; undefined when it is not one. */
function parseEnd(json: string): CaptureEnd | undefined {
	let value: unknown;
	try {
		value = JSON.parse(json);
	} catch {
		return undefined;
	}

	if (typeof value !== 'object' || value === null) return undefined;
	const raw = value as Record<string, unknown>;
	const recorded = streamBytes(raw['recorded']);
	const missing = streamBytes(raw['missing']);
	if (typeof raw['complete'] !== 'boolean' || recorded === undefined || missing === undefined || !isCount(raw['gaps']))
		return undefined;
	const stalls = parseStalls(raw['stalls']);
	return {complete: raw['complete'], recorded, missing, gaps: raw['gaps'], ...(stalls === undefined ? {} : {stalls})};
}

/** The end record's `stalls`, when it is one (otherwise left out: it is only a note). */
function parseStalls(value: unknown): CaptureStalls | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const raw = value as Record<string, unknown>;
	return isCount(raw['count']) && isCount(raw['totalMs']) && isCount(raw['longestMs']) && isCount(raw['timedOut'])
		? {count: raw['count'], totalMs: raw['totalMs'], longestMs: raw['longestMs'], timedOut: raw['timedOut']}
		: undefined;
}

/**
 * The end record from the last bytes of a binary capture (at least {@link END_TAIL_BYTES}; pass up to
 * 64 KiB so the whole end record is there).
 * @returns the end record; `undefined` when the bytes do not end with one (a capture cut short)
 */
export function readCaptureEnd(tail: Uint8Array): CaptureEnd | undefined {
	const bytes = Buffer.from(tail.buffer, tail.byteOffset, tail.byteLength);
	if (bytes.length < END_TAIL_BYTES + RECORD_HEAD_BYTES || bytes.toString('latin1', bytes.length - 4) !== END_TRAILER)
		return undefined;
	const size = bytes.readUInt32LE(bytes.length - END_TAIL_BYTES);
	if (size < RECORD_HEAD_BYTES + END_TAIL_BYTES || size > bytes.length) return undefined;
	const start = bytes.length - size;
	if (bytes[start] !== RECORD_TYPE.end || bytes.readUInt32LE(start + 4) !== size - RECORD_HEAD_BYTES) return undefined;
	return parseEnd(bytes.toString('utf8', start + RECORD_HEAD_BYTES, bytes.length - END_TAIL_BYTES));
}

/** Callbacks of {@link CaptureDecoder}. */
export interface CaptureDecoderHandlers {
	/** The session header (once). */
	onHeader(header: SessionHeader): void;
	/** Every record but the header and the end, in file order; gaps come as `gap` marks. */
	onEvent(event: SessionEvent): void;
	/** The end record. */
	onEnd?(end: CaptureEnd): void;
}

const STATE_MAGIC = 0;
const STATE_HEADER = 1;
const STATE_RECORDS = 2;
const STATE_DONE = 3;

/**
 * An incremental decoder of a binary capture (format 2). Bytes may arrive split anywhere. Never throws
 * on bad input: each problem becomes a {@link DecodeProblem} whose `line` is the record's number (the
 * magic line is 1, the header 2, records from 3) and `byteOffset` where that record starts in the input,
 * and decoding goes on where it can.
 * - Chunk bytes come back as fresh `Uint8Array`s (a copy, no per-byte work), numbered `seq` in file order.
 * - A chunk that starts past the bytes recorded so far without a gap record in between yields an
 *   `unrecorded` gap mark first; one that overlaps them is a problem and skipped.
 * - Input that ends without an end record is cut short: {@link isCutShort} (and a problem when it
 *   ends inside a record).
 */
export class CaptureDecoder {
	/** Problems so far. */
	readonly problems: DecodeProblem[] = [];
	private state = STATE_MAGIC;
	private parts: Buffer[] = [];
	private partsLength = 0;
	private record = 0;
	private seq = 0;
	private readonly next: Record<StreamName, number> = {stdin: 0, stdout: 0, stderr: 0};
	private header: SessionHeader | undefined;
	private endRecord: CaptureEnd | undefined;
	private cutBytes = 0;
	private isEnded = false;
	private isAfterEndReported = false;
	private readonly utf8 = new TextDecoder('utf-8');
	/** Bytes pushed so far, and the input offset of the buffer {@link consume} works on. */
	private received = 0;
	private base = 0;
	private currentRecord = 0;
	/** Where the magic or header line being decoded starts in the input. */
	private lineAt = 0;

	constructor(private readonly handlers: CaptureDecoderHandlers) {}

	/**
	 * The byte offset in the input (the capture file) of the record whose event is being handed out:
	 * read it inside `onEvent` (a gap mark made for unrecorded bytes gives the chunk record after it).
	 * A reader can later read that record's bytes back from the file (tap/capture-read-back.ts).
	 */
	get recordOffset(): number {
		return this.currentRecord;
	}

	/** The header, once read. */
	get sessionHeader(): SessionHeader | undefined {
		return this.header;
	}

	/** The end record, once read. */
	get captureEnd(): CaptureEnd | undefined {
		return this.endRecord;
	}

	/** After {@link end}: true when the input had no end record (the tap was killed, or the file was cut). */
	get isCutShort(): boolean {
		return this.isEnded && this.endRecord === undefined;
	}

	/** Bytes received that are not a whole record yet. */
	get pendingBytes(): number {
		return this.partsLength;
	}

	/** Bytes of a record cut by the end of the input (0 when it ended on a record boundary). */
	get cutRecordBytes(): number {
		return this.cutBytes;
	}

	/** Feed the next bytes. */
	push(bytes: Uint8Array): void {
		if (this.state === STATE_DONE || bytes.byteLength === 0) {
			if (this.state === STATE_DONE) {
				this.received += bytes.byteLength;
				this.afterEnd(bytes.byteLength);
			}
			return;
		}

		let buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
		this.base = this.received - this.partsLength;
		this.received += buffer.length;
		if (this.partsLength > 0) {
			if (this.partsLength + buffer.length < this.needed()) {
				this.parts.push(Buffer.from(buffer));
				this.partsLength += buffer.length;
				return;
			}

			this.parts.push(buffer);
			buffer = Buffer.concat(this.parts, this.partsLength + buffer.length);
			this.parts = [];
			this.partsLength = 0;
		}

		const used = this.consume(buffer);
		if (used < buffer.length) {
			if (this.state === STATE_DONE) {
				this.afterEnd(buffer.length - used);
				return;
			}

			this.parts.push(Buffer.from(buffer.subarray(used)));
			this.partsLength = buffer.length - used;
		}
	}

	/** The input ended: report a cut record and a missing end record. */
	end(): void {
		if (this.isEnded) return;
		this.isEnded = true;
		if (this.partsLength > 0) {
			this.cutBytes = this.partsLength;
			this.problems.push({
				line: this.record + 1,
				byteOffset: this.received - this.partsLength,
				message: `the capture ends inside a record (${this.partsLength} bytes of it); the cut record is skipped`,
			});
			this.parts = [];
			this.partsLength = 0;
		}

		if (this.state === STATE_MAGIC || this.state === STATE_HEADER) {
			if (this.header === undefined) this.problems.push({line: 1, byteOffset: 0, message: 'no session header'});
		}
	}

	/** Bytes needed before the pending bytes can be decoded further (a lower bound). */
	private needed(): number {
		if (this.state !== STATE_RECORDS) return this.partsLength + 1;
		if (this.partsLength < RECORD_HEAD_BYTES) return RECORD_HEAD_BYTES;
		const first = this.parts[0]!;
		const head = first.length >= RECORD_HEAD_BYTES ? first : Buffer.concat(this.parts, this.partsLength);
		return RECORD_HEAD_BYTES + head.readUInt32LE(4);
	}

	/** Decode what `buffer` holds completely; returns the bytes used. */
	private consume(buffer: Buffer): number {
		let at = 0;
		while (at < buffer.length) {
			if (this.state === STATE_MAGIC || this.state === STATE_HEADER) {
				const newline = buffer.indexOf(0x0a, at);
				if (newline === -1) {
					if (buffer.length - at > 1024 * 1024) {
						this.problems.push({
							line: this.record + 1,
							byteOffset: this.base + at,
							message: 'no line end within 1 MiB at the start of the capture; not readable',
						});
						this.state = STATE_DONE;
						return buffer.length;
					}

					return at;
				}

				const line = this.utf8.decode(buffer.subarray(at, newline));
				this.lineAt = this.base + at;
				at = newline + 1;
				this.record++;
				if (this.state === STATE_MAGIC) {
					this.magic(line);
				} else {
					this.headerLine(line);
				}

				continue;
			}

			if (this.state === STATE_DONE) return at;
			if (buffer.length - at < RECORD_HEAD_BYTES) return at;
			const length = buffer.readUInt32LE(at + 4);
			if (length > MAX_RECORD_BYTES) {
				this.problems.push({
					line: this.record + 1,
					byteOffset: this.base + at,
					message: `a record says it holds ${length} bytes (corrupt capture); the rest is not read`,
				});
				this.state = STATE_DONE;
				return buffer.length;
			}

			if (buffer.length - at < RECORD_HEAD_BYTES + length) return at;
			this.record++;
			this.currentRecord = this.base + at;
			this.binaryRecord(buffer, at, length);
			at += RECORD_HEAD_BYTES + length;
		}

		return at;
	}

	private magic(line: string): void {
		const version = Number(line.slice(MAGIC_PREFIX.length));
		if (!line.startsWith(MAGIC_PREFIX) || !Number.isSafeInteger(version)) {
			this.problems.push({
				line: this.record,
				byteOffset: this.lineAt,
				message: 'not a binary mcp-wire capture (no magic line)',
			});
			this.state = STATE_DONE;
			return;
		}

		if (version > CAPTURE_FORMAT) {
			this.problems.push({
				line: this.record,
				byteOffset: this.lineAt,
				message: `capture format ${version} is newer than this version of mcp-wire reads (${CAPTURE_FORMAT}); records are read as format ${CAPTURE_FORMAT}`,
			});
		}

		this.state = STATE_HEADER;
	}

	private headerLine(line: string): void {
		const decoded = decodeRecord(line, {isTapCapture: true});
		if (decoded.kind !== 'header') {
			this.problems.push({
				line: this.record,
				byteOffset: this.lineAt,
				message: decoded.kind === 'problem' ? `bad session header: ${decoded.message}` : 'no session header',
			});
			this.state = STATE_DONE;
			return;
		}

		this.header = decoded.header;
		if (decoded.problem !== undefined)
			this.problems.push({line: this.record, byteOffset: this.lineAt, message: decoded.problem});
		this.state = STATE_RECORDS;
		this.handlers.onHeader(decoded.header);
	}

	private binaryRecord(buffer: Buffer, at: number, length: number): void {
		const type = buffer[at]!;
		const stream = STREAMS[buffer[at + 1]!];
		const tMs = buffer.readDoubleLE(at + 8);
		const offset = buffer.readUInt32LE(at + 16) + buffer.readUInt32LE(at + 20) * 0x1_0000_0000;
		const payloadAt = at + RECORD_HEAD_BYTES;
		const problem = (message: string): void => {
			this.problems.push({line: this.record, byteOffset: this.base + at, message: `${message}, skipped`});
		};

		if (stream === undefined) return problem(`stream code ${buffer[at + 1]} is not 0, 1 or 2`);
		if (!Number.isFinite(tMs)) return problem('tMs is not a finite number');
		switch (type) {
			case RECORD_TYPE.chunk: {
				const expected = this.next[stream];
				if (offset < expected)
					return problem(`${stream} chunk at offset ${offset} overlaps the ${expected} bytes before it`);
				if (offset > expected)
					this.gap({type: 'gap', stream, offset: expected, length: offset - expected, reason: 'unrecorded', tMs});
				const chunk: Chunk = {
					seq: this.seq++,
					stream,
					tMs,
					offset,
					bytes: new Uint8Array(buffer.subarray(payloadAt, payloadAt + length)),
				};
				this.next[stream] = offset + length;
				this.handlers.onEvent({type: 'chunk', chunk});
				return;
			}

			case RECORD_TYPE.mark:
			case RECORD_TYPE.exit:
			case RECORD_TYPE.finding: {
				const decoded = decodeRecord(this.utf8.decode(buffer.subarray(payloadAt, payloadAt + length)));
				const wanted = type === RECORD_TYPE.mark ? 'mark' : type === RECORD_TYPE.exit ? 'exit' : 'finding';
				if (decoded.kind !== 'event' || decoded.event.type !== wanted)
					return problem(decoded.kind === 'problem' ? decoded.message : `not a ${wanted} record`);
				if (decoded.event.type === 'mark' && decoded.event.mark.type === 'gap')
					return problem('a gap written as a mark');
				this.handlers.onEvent(decoded.event);
				return;
			}

			case RECORD_TYPE.gap: {
				let value: unknown;
				try {
					value = JSON.parse(buffer.toString('utf8', payloadAt, payloadAt + length));
				} catch {
					return problem('the gap is not JSON');
				}

				const raw = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
				const gapLength = raw['length'];
				const reason = raw['reason'];
				if (!isCount(gapLength) || !GAP_REASONS.includes(reason as CaptureGapReason))
					return problem('the gap has no valid length and reason');
				const expected = this.next[stream];
				if (offset < expected)
					return problem(`${stream} gap at offset ${offset} overlaps the ${expected} bytes before it`);
				if (offset > expected)
					this.gap({type: 'gap', stream, offset: expected, length: offset - expected, reason: 'unrecorded', tMs});
				this.gap({type: 'gap', stream, offset, length: gapLength, reason: reason as CaptureGapReason, tMs});
				return;
			}

			case RECORD_TYPE.end: {
				const end =
					length >= END_TAIL_BYTES
						? parseEnd(buffer.toString('utf8', payloadAt, payloadAt + length - END_TAIL_BYTES))
						: undefined;
				if (end === undefined) return problem('the end record is not valid');
				this.endRecord = end;
				this.state = STATE_DONE;
				this.handlers.onEnd?.(end);
				return;
			}

			default: {
				return problem(`unknown record type ${type}`);
			}
		}
	}

	private gap(mark: GapMark): void {
		this.next[mark.stream] = mark.offset + mark.length;
		this.handlers.onEvent({type: 'mark', mark});
	}

	/** Bytes after the end record (or after a problem that stopped decoding) are ignored; said once. */
	private afterEnd(bytes: number): void {
		if (bytes === 0 || this.endRecord === undefined || this.isAfterEndReported) return;
		this.isAfterEndReported = true;
		this.problems.push({
			line: this.record + 1,
			byteOffset: this.received - bytes,
			message: 'bytes after the end record, ignored',
		});
	}
}

/** What {@link decodeCapture} returns: the records of a whole capture, and its end record. */
export interface DecodedCapture extends DecodedRecords {
	/** 1: NDJSON records; 2: binary. */
	readonly format: 1 | 2;
	/** The end record (format 2); undefined when the capture was cut short or is NDJSON. */
	readonly end?: CaptureEnd;
}

/**
 * Decode a whole capture of either format (binary format 2, told by its magic line, or NDJSON format
 * 1 via `decodeRecords`). Never throws on bad input. For a binary capture, `isTruncated` is true when
 * it has no end record (cut short).
 */
export function decodeCapture(bytes: Uint8Array): DecodedCapture {
	if (isBinaryCapture(bytes) !== true)
		return {
			...decodeRecords(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')),
			format: 1,
		};
	let header: SessionHeader | undefined;
	const events: SessionEvent[] = [];
	const decoder = new CaptureDecoder({
		onHeader: (h) => {
			header = h;
		},
		onEvent: (event) => events.push(event),
	});
	decoder.push(bytes);
	decoder.end();
	const end = decoder.captureEnd;
	return {
		...(header === undefined ? {} : {header}),
		events,
		problems: decoder.problems,
		isTruncated: decoder.isCutShort,
		format: 2,
		...(end === undefined ? {} : {end}),
	};
}
