import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {
	byteGlyph,
	displayWidth,
	escapeBytes,
	escapeText,
	groupDigits,
	truncationMarker,
} from '../../../src/core/bytes/glyphs.js';
import {bytesOf, utf8} from '../../helpers/factories.js';

/** Characters that must never reach a terminal: C0, DEL, C1, bidi controls, line/paragraph separators. */
const HAZARD = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/u;

describe('escapeBytes', () => {
	it('shows CR and LF as glyphs', () => {
		expect(escapeBytes(bytesOf('{"a":1}', 0x0d, 0x0a))).toBe('{"a":1}←↵');
	});

	it('neutralises ESC sequences', () => {
		expect(escapeBytes(bytesOf(0x1b, '[31mred', 0x1b, '[0m'))).toBe('␛[31mred␛[0m');
	});

	it('shows NUL, TAB, other C0 and DEL', () => {
		expect(escapeBytes(bytesOf(0x00, 'a', 0x09, 'b', 0x08, 0x07, 0x7f))).toBe('␀a\\tb\\x08\\x07\\x7f');
	});

	it('shows every byte that is not UTF-8 as \\xNN', () => {
		expect(escapeBytes(bytesOf('a', 0xff, 'b'))).toBe('a\\xffb');
		// Cut multi-byte character at the end.
		expect(escapeBytes(bytesOf('x', 0xe2, 0x82))).toBe('x\\xe2\\x82');
		// Cut before a non-continuation byte.
		expect(escapeBytes(bytesOf(0xe2, 0x82, 'A'))).toBe('\\xe2\\x82A');
		// Overlong encoding of '/', a UTF-16 surrogate, and a code point above U+10FFFF.
		expect(escapeBytes(bytesOf(0xc0, 0xaf))).toBe('\\xc0\\xaf');
		expect(escapeBytes(bytesOf(0xed, 0xa0, 0x80))).toBe('\\xed\\xa0\\x80');
		expect(escapeBytes(bytesOf(0xf4, 0x90, 0x80, 0x80))).toBe('\\xf4\\x90\\x80\\x80');
		// Latin-1 "café" (legacy code page).
		expect(escapeBytes(bytesOf('caf', 0xe9))).toBe('caf\\xe9');
	});

	it('keeps valid UTF-8 as text', () => {
		expect(escapeBytes(bytesOf(0xf0, 0x9f, 0x9a, 0x80, ' café'))).toBe('🚀 café');
	});

	it('escapes C1 controls, bidi overrides, U+2028 and the BOM as \\u{…}', () => {
		expect(escapeBytes(bytesOf(0xc2, 0x9b, '31m'))).toBe('\\u{9b}31m');
		expect(escapeBytes(bytesOf(0xef, 0xbb, 0xbf, '{}'))).toBe('\\u{feff}{}');
		expect(escapeBytes(utf8('a\u202eb\u2028c'))).toBe('a\\u{202e}b\\u{2028}c');
	});

	it('never lets a hazardous character through (property)', () => {
		fc.assert(
			fc.property(
				fc.uint8Array({maxLength: 64}),
				fc.option(fc.integer({min: 0, max: 40}), {nil: undefined}),
				(bytes, max) => {
					expect(escapeBytes(bytes, max)).not.toMatch(HAZARD);
				},
			),
			{numRuns: 500},
		);
	});

	it('truncates to the column budget with a byte count', () => {
		// 17 + '… (+83 bytes)' (13 columns) = 30.
		expect(escapeBytes(utf8('a'.repeat(100)), 30)).toBe(`${'a'.repeat(17)}… (+83 bytes)`);
		// Thousands are grouped: 23 + '… (+19,977 bytes)' (17 columns) = 40.
		expect(escapeBytes(utf8('a'.repeat(20_000)), 40)).toBe(`${'a'.repeat(23)}… (+19,977 bytes)`);
		// Escapes take 4 columns each: 2 × 4 + '… (+8 bytes)' (12) = 20.
		expect(escapeBytes(new Uint8Array(10).fill(0xff), 20)).toBe('\\xff\\xff… (+8 bytes)');
	});

	it('does not truncate what fits exactly', () => {
		expect(escapeBytes(utf8('a'.repeat(30)), 30)).toBe('a'.repeat(30));
	});

	it('keeps the marker even when the budget is smaller than it', () => {
		expect(escapeBytes(utf8('abcdefghijklmnop'), 5)).toBe('… (+16 bytes)');
	});

	it('fits the budget whenever the budget can hold the marker (property)', () => {
		fc.assert(
			fc.property(fc.uint8Array({maxLength: 300}), fc.integer({min: 20, max: 80}), (bytes, max) => {
				expect(displayWidth(escapeBytes(bytes, max))).toBeLessThanOrEqual(max);
			}),
			{numRuns: 300},
		);
	});
});

describe('escapeText', () => {
	it('uses the same glyphs as escapeBytes', () => {
		expect(escapeText('line1\nline2\r\u001b[2J\u0000')).toBe('line1↵line2←␛[2J␀');
	});

	it('shows a lone surrogate as \\u{…} and keeps U+FFFD', () => {
		expect(escapeText('a\ud800b\ufffd')).toBe('a\\u{d800}b\ufffd');
	});

	it('counts omitted UTF-8 bytes when truncating', () => {
		// 7 × 'é' (2 bytes each) + '… (+86 bytes)' = 20 columns.
		expect(escapeText('é'.repeat(50), 20)).toBe(`${'é'.repeat(7)}… (+86 bytes)`);
	});

	it('counts wide characters as two columns', () => {
		// 3 × '中' (2 columns, 3 bytes) + '… (+51 bytes)' (13) = 19 ≤ 20.
		expect(escapeText('中'.repeat(20), 20)).toBe('中中中… (+51 bytes)');
	});
});

describe('helpers', () => {
	it('byteGlyph follows hexyl plus the MCP glyphs', () => {
		expect(
			[0x00, 0x0a, 0x0d, 0x1b, 0x20, 0x09, 0x0c, 0x41, 0x7f, 0x01, 0x80, 0xff].map((byte) => byteGlyph(byte)).join(''),
		).toBe('␀↵←␛ __A••××');
	});

	it('groupDigits and truncationMarker', () => {
		expect(groupDigits(0)).toBe('0');
		expect(groupDigits(999)).toBe('999');
		expect(groupDigits(1000)).toBe('1,000');
		expect(groupDigits(12_345_678)).toBe('12,345,678');
		expect(truncationMarker(1)).toBe('… (+1 byte)');
		expect(truncationMarker(12_345)).toBe('… (+12,345 bytes)');
	});
});
