import {describe, expect, it} from 'vitest';
import {BYTE_CATEGORIES, BYTE_CATEGORY_TABLE, byteCategory} from '../../../src/core/bytes/byte-category.js';

describe('byteCategory (hexyl categories)', () => {
	it.each([
		[0x00, 'null'],
		[0x41, 'ascii-printable'],
		[0x21, 'ascii-printable'],
		[0x7e, 'ascii-printable'],
		[0x20, 'ascii-whitespace'],
		[0x09, 'ascii-whitespace'],
		[0x0a, 'ascii-whitespace'],
		[0x0c, 'ascii-whitespace'],
		[0x0d, 'ascii-whitespace'],
		[0x0b, 'ascii-other'],
		[0x1b, 'ascii-other'],
		[0x01, 'ascii-other'],
		[0x7f, 'ascii-other'],
		[0x80, 'non-ascii'],
		[0xef, 'non-ascii'],
		[0xff, 'non-ascii'],
	] as const)('byte %i is %s', (byte, category) => {
		expect(byteCategory(byte)).toBe(category);
	});

	it('has a 256-entry table with hexyl counts per category', () => {
		expect(BYTE_CATEGORY_TABLE).toHaveLength(256);
		const counts = Object.fromEntries(
			BYTE_CATEGORIES.map((category) => [category, BYTE_CATEGORY_TABLE.filter((c) => c === category).length]),
		);
		expect(counts).toEqual({
			null: 1,
			'ascii-printable': 94,
			'ascii-whitespace': 5,
			'ascii-other': 28,
			'non-ascii': 128,
		});
	});

	it('masks values outside 0-255 to the low byte', () => {
		expect(byteCategory(0x141)).toBe('ascii-printable');
	});
});
