/**
 * hexyl's five byte categories (sharkdp/hexyl `ByteCategory`), used to colour hex dumps and to pick
 * gutter glyphs. Names follow style.md §1.6.
 *
 * - `null`: 0x00
 * - `ascii-printable`: 0x21–0x7E (Rust `is_ascii_graphic`; the space is whitespace, as in hexyl)
 * - `ascii-whitespace`: 0x09 TAB, 0x0A LF, 0x0C FF, 0x0D CR, 0x20 SPACE (Rust `is_ascii_whitespace`)
 * - `ascii-other`: every other byte below 0x80 (C0 controls such as ESC 0x1B, VT 0x0B, and DEL 0x7F)
 * - `non-ascii`: 0x80–0xFF
 */
export type ByteCategory = 'null' | 'ascii-printable' | 'ascii-whitespace' | 'ascii-other' | 'non-ascii';

/** All categories, in hexyl's order. */
export const BYTE_CATEGORIES: readonly ByteCategory[] = [
	'null',
	'ascii-printable',
	'ascii-whitespace',
	'ascii-other',
	'non-ascii',
];

function categorize(byte: number): ByteCategory {
	if (byte === 0x00) {
		return 'null';
	}

	if (byte >= 0x21 && byte <= 0x7e) {
		return 'ascii-printable';
	}

	if (byte === 0x09 || byte === 0x0a || byte === 0x0c || byte === 0x0d || byte === 0x20) {
		return 'ascii-whitespace';
	}

	return byte < 0x80 ? 'ascii-other' : 'non-ascii';
}

/** The 256-entry lookup table: `BYTE_CATEGORY_TABLE[b]` is the category of byte `b`. */
export const BYTE_CATEGORY_TABLE: readonly ByteCategory[] = Object.freeze(
	Array.from({length: 256}, (_, byte) => categorize(byte)),
);

/**
 * The hexyl category of one byte.
 * @param byte an integer 0–255 (a value from a `Uint8Array`).
 * @returns its category; values outside 0–255 are masked to their low 8 bits.
 */
export function byteCategory(byte: number): ByteCategory {
	return BYTE_CATEGORY_TABLE[byte & 0xff]!;
}
