import {Buffer} from 'node:buffer';
import type {NonPortableToken} from './facts.js';

/** One place in a JSON text that strict parsers reject or read differently than `JSON.parse`. */
export interface PortabilityProblem {
	readonly reason: NonPortableToken['reason'];
	/** UTF-16 index of the escape or number in the text, and its length in UTF-16 units (= bytes: ASCII). */
	readonly index: number;
	readonly length: number;
	/** The escape (`\ud83d`) or the number token as written. */
	readonly token: string;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** The digits in a row {@link hasLongDigitRun} looks for: the fewest an integer beyond ±(2^53−1) has. */
const LONG_RUN = 16;

/**
 * Cheap gate for {@link portabilityProblems}: true only when `text` holds a `\u` escape or a run of 16 or
 * more digits, the only texts that can hold a lone surrogate or an integer beyond ±(2^53−1).
 */
export function mayBeNonPortable(text: string): boolean {
	return text.includes('\\u') || hasLongDigitRun(text);
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/**
 * True when `text` holds 16 or more ASCII digits in a row: the answer of `/\d{16}/.test(text)`, its plain
 * reference (test/core/framing/portability.test.ts), in about a tenth of its time on a frame's text
 * (docs/performance.md#replay). Any 16 characters in a row hold exactly one index `i` with
 * `i % 16 === 15`, so only those are probed; a digit there is measured to both sides, up to 16.
 */
export function hasLongDigitRun(text: string): boolean {
	const n = text.length;
	for (let i = LONG_RUN - 1; i < n; i += LONG_RUN) {
		if (!isDigit(text.charCodeAt(i))) continue;
		let first = i;
		while (first > 0 && i - first < LONG_RUN - 1 && isDigit(text.charCodeAt(first - 1))) first--;
		let last = i;
		while (last + 1 < n && last - first < LONG_RUN - 1 && isDigit(text.charCodeAt(last + 1))) last++;
		if (last - first + 1 >= LONG_RUN) return true;
	}
	return false;
}

const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

function escapeUnit(text: string, i: number): number {
	// `\uXXXX` at i (text[i] === '\\'), or -1.
	if (text.charCodeAt(i + 1) !== 0x75) return -1;
	for (let k = 2; k < 6; k++) if (!isHex(text.charCodeAt(i + k))) return -1;
	return parseInt(text.slice(i + 2, i + 6), 16);
}

/**
 * Lone surrogate escapes and unsafe integers in a JSON text that `JSON.parse` accepted (R3, J1): a
 * `\uD800–\uDBFF` escape not followed by a `\uDC00–\uDFFF` escape, or a `\uDC00–\uDFFF` escape without a
 * high one before it (Python's `json`/`pydantic` and Rust `serde_json` reject the string; the MCP Python
 * SDK drops the line, measured), and an integer token (no fraction, no exponent) beyond ±(2^53−1), which
 * JavaScript rounds. One string-aware pass; call it only when {@link mayBeNonPortable} is true. In text
 * order; never throws. Raw (unescaped) surrogates cannot occur: the text came from UTF-8 decoding.
 */
export function portabilityProblems(text: string): PortabilityProblem[] {
	const out: PortabilityProblem[] = [];
	const n = text.length;
	let i = 0;
	while (i < n) {
		const c = text.charCodeAt(i);
		if (c === 0x22) {
			i++;
			while (i < n) {
				const d = text.charCodeAt(i);
				if (d === 0x22) break;
				if (d !== 0x5c) {
					i++;
					continue;
				}
				const unit = escapeUnit(text, i);
				if (unit >= 0xd800 && unit <= 0xdbff) {
					const next = text.charCodeAt(i + 6) === 0x5c ? escapeUnit(text, i + 6) : -1;
					if (next >= 0xdc00 && next <= 0xdfff) {
						i += 12;
						continue;
					}
					out.push({reason: 'lone-surrogate', index: i, length: 6, token: text.slice(i, i + 6)});
				} else if (unit >= 0xdc00 && unit <= 0xdfff) {
					out.push({reason: 'lone-surrogate', index: i, length: 6, token: text.slice(i, i + 6)});
				}
				i += unit === -1 ? 2 : 6;
			}
			i++;
			continue;
		}
		if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
			const start = i;
			i++;
			let integer = true;
			while (i < n) {
				const d = text.charCodeAt(i);
				if (d >= 0x30 && d <= 0x39) i++;
				else if (d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d) {
					integer = false;
					i++;
				} else break;
			}
			const token = text.slice(start, i);
			if (integer && i - start >= 16) {
				const value = BigInt(token);
				if (value > MAX_SAFE || value < -MAX_SAFE)
					out.push({reason: 'unsafe-integer', index: start, length: i - start, token});
			}
			continue;
		}
		i++;
	}
	return out;
}

/**
 * The non-portable tokens (J3) of a frame body `text` whose first byte is stream byte `offset`: each with
 * its stream offset and byte length. Empty unless {@link mayBeNonPortable}; in text order.
 */
export function nonPortableTokens(text: string, offset: number): NonPortableToken[] {
	if (!mayBeNonPortable(text)) return [];
	return portabilityProblems(text).map((p) => ({
		reason: p.reason,
		at: offset + Buffer.byteLength(text.slice(0, p.index), 'utf8'),
		length: p.length,
		token: p.token,
	}));
}

/** The tokens Python's `json.dumps` writes for non-finite floats (`allow_nan=True`, its default). */
const NON_FINITE = ['-Infinity', 'Infinity', 'NaN'] as const;

/**
 * V8's `JSON.parse` messages for a text whose first fault is a non-finite token: `Unexpected token 'N'`
 * (`NaN`), `Unexpected token 'I'` (`Infinity`), `No number after minus sign` (`-Infinity`). The gate of
 * {@link parseNonFinite}: only a line that failed `JSON.parse` with one of these is scanned.
 */
const NON_FINITE_ERROR = /^Unexpected token '[NI]'|^No number after minus sign/;

/**
 * `NaN`, `Infinity` and `-Infinity` tokens outside strings of a JSON text (R26: RFC 8259 has no such
 * number; Python's `json.dumps` writes them by default). One string-aware pass, in text order; never throws.
 */
export function nonFiniteProblems(text: string): PortabilityProblem[] {
	const out: PortabilityProblem[] = [];
	const n = text.length;
	let i = 0;
	while (i < n) {
		const c = text.charCodeAt(i);
		if (c === 0x22) {
			i++;
			while (i < n && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
			i++;
			continue;
		}
		if (c === 0x4e || c === 0x49 || c === 0x2d) {
			const token = NON_FINITE.find((t) => text.startsWith(t, i));
			if (token !== undefined) {
				out.push({reason: 'non-finite', index: i, length: token.length, token});
				i += token.length;
				continue;
			}
		}
		i++;
	}
	return out;
}

/** A stand-in string for `NaN`, which no JSON number parses to; {@link parseNonFinite}'s reviver swaps it back. */
const NAN_STAND_IN = '\u0000mcp-wire:NaN\u0000';

/**
 * A JSON text that `JSON.parse` rejected (`parseError`, its message), read as the MCP Python SDK reads it
 * (pydantic's JSON parser takes `NaN`, `Infinity`, `-Infinity` as floats; mcp 2.3.0 lists the tools of
 * such a reply, docs/clients.md#non-finite-numbers): undefined unless the error is a non-finite token's
 * ({@link NON_FINITE_ERROR}) and the text parses once those tokens are read as numbers. Otherwise the
 * value (`NaN`, `±Infinity` in place) and the tokens with their stream offsets, `offset` being the stream
 * byte of the text's first character. Cold path: only for a line that failed `JSON.parse`. Never throws.
 */
export function parseNonFinite(
	text: string,
	parseError: string,
	offset: number,
): {readonly value: unknown; readonly tokens: NonPortableToken[]} | undefined {
	if (!NON_FINITE_ERROR.test(parseError)) return undefined;
	const problems = nonFiniteProblems(text);
	if (problems.length === 0) return undefined;
	let lenient = '';
	let from = 0;
	for (const p of problems) {
		const standIn = p.token === 'NaN' ? JSON.stringify(NAN_STAND_IN) : p.token === 'Infinity' ? '1e999' : '-1e999';
		lenient += text.slice(from, p.index) + standIn;
		from = p.index + p.length;
	}
	lenient += text.slice(from);
	let value: unknown;
	try {
		value = JSON.parse(lenient, (_key, v: unknown) => (v === NAN_STAND_IN ? Number.NaN : v));
	} catch {
		return undefined;
	}
	const tokens = problems.map((p) => ({
		reason: p.reason,
		at: offset + Buffer.byteLength(text.slice(0, p.index), 'utf8'),
		length: p.length,
		token: p.token,
	}));
	return {value, tokens};
}
