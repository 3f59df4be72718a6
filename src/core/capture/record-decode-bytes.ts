import {Buffer} from 'node:buffer';
import type {DecodedLine} from './record-format.js';
import {decodeChunk, decodeRecordText, isObject} from './record-decode.js';

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
 * base64 into a second (docs/performance.md#replay: 14 MB of strings per 5 MB chunk); anything else, and any chunk record
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
