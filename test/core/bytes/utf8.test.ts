import {Buffer} from 'node:buffer';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {findInvalidUtf8, isValidUtf8} from '../../../src/core/bytes/utf8.js';

describe('UTF-8 validation (R3)', () => {
	it('accepts well-formed text, including 4-byte characters', () => {
		const b = Buffer.from('aé€😀中');
		expect(isValidUtf8(b)).toBe(true);
		expect(findInvalidUtf8(b)).toBeUndefined();
	});

	it.each([
		['lone continuation', [0x61, 0x80], {index: 1, length: 1}],
		['CP949 pair', [0x7b, 0xb0, 0xa1], {index: 1, length: 1}],
		['C0 overlong lead', [0xc0, 0xaf], {index: 0, length: 1}],
		['E0 overlong', [0xe0, 0x80, 0x80], {index: 0, length: 1}],
		['surrogate ED A0', [0xed, 0xa0, 0x80], {index: 0, length: 1}],
		['cut 3-byte sequence', [0xe2, 0x82], {index: 0, length: 2}],
		['3-byte lead then ASCII', [0xe2, 0x82, 0x41], {index: 0, length: 2}],
		['F4 90 above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], {index: 0, length: 1}],
		['F5 lead', [0xf5, 0x80], {index: 0, length: 1}],
		['cut 4-byte sequence', [0x41, 0xf0, 0x9f, 0x98], {index: 1, length: 3}],
	])('%s', (_name, input, expected) => {
		const b = Buffer.from(input);
		expect(isValidUtf8(b)).toBe(false);
		expect(findInvalidUtf8(b)).toEqual(expected);
	});

	it('checks only the given range and reports absolute indexes', () => {
		const b = Buffer.from([0x80, 0x41, 0xff, 0x42]);
		expect(isValidUtf8(b, 1, 2)).toBe(true);
		expect(findInvalidUtf8(b, 1, 4)).toEqual({index: 2, length: 1});
	});

	it('agrees with node:buffer isUtf8 and TextDecoder on random bytes', () => {
		fc.assert(
			fc.property(fc.uint8Array({maxLength: 32}), (input) => {
				const error = findInvalidUtf8(input);
				expect(error === undefined).toBe(isValidUtf8(input));
				if (error !== undefined) {
					// The prefix before the first error is valid; TextDecoder replaces exactly that subsequence with one U+FFFD.
					expect(isValidUtf8(input, 0, error.index)).toBe(true);
					const decoded = new TextDecoder().decode(input.subarray(error.index, error.index + error.length));
					expect(decoded).toBe('\uFFFD');
				}
			}),
			{numRuns: 2000},
		);
	});
});
