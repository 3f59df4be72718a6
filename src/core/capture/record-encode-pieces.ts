import {Buffer} from 'node:buffer';
import type {SessionEvent} from '../types.js';
import {chunkHead, encodeEvent, frameRecord} from './record-encode.js';
import {LINE_ENDS, escapeLineEnd} from './record-format.js';

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
 * frame's message are never made into one string, and mostly not into strings at all (docs/performance.md#replay: a 5 MB
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
const NEEDS_ESCAPE =
	/["\\\u0000-\u001F\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff\uD800-\uDFFF]/;

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
