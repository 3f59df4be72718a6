import {isUtf8} from 'node:buffer';

/**
 * Where a byte range stops being UTF-8: the first byte of the first ill-formed sequence and the length
 * of its maximal subpart (Unicode §3.9, Table 3-7; what a WHATWG decoder replaces with one U+FFFD).
 */
export interface Utf8Error {
	/** Index of the first invalid byte, relative to the array passed in (not to `start`). */
	readonly index: number;
	/** Bytes in the ill-formed subsequence, 1–3. */
	readonly length: number;
}

/**
 * True when `bytes[start, end)` is well-formed UTF-8 (rule R3). Uses node:buffer `isUtf8` (simdutf);
 * an empty range is valid.
 */
export function isValidUtf8(bytes: Uint8Array, start = 0, end = bytes.length): boolean {
	if (start === 0 && end === bytes.length) {
		return isUtf8(bytes);
	}

	return isUtf8(bytes.subarray(start, end));
}

/**
 * Finds the first ill-formed UTF-8 sequence in `bytes[start, end)` by validating bytes, not by decoding
 * (rule R3). A multi-byte character cut by `end` counts as ill-formed: pass whole lines.
 *
 * @returns the first error, or `undefined` when the range is valid UTF-8.
 */
export function findInvalidUtf8(bytes: Uint8Array, start = 0, end = bytes.length): Utf8Error | undefined {
	let i = start;
	while (i < end) {
		const b = bytes[i]!;
		if (b < 0x80) {
			i++;
			continue;
		}

		let need: number;
		let lo = 0x80;
		let hi = 0xbf;
		if (b >= 0xc2 && b <= 0xdf) {
			need = 1;
		} else if (b === 0xe0) {
			need = 2;
			lo = 0xa0;
		} else if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) {
			need = 2;
		} else if (b === 0xed) {
			need = 2;
			hi = 0x9f;
		} else if (b === 0xf0) {
			need = 3;
			lo = 0x90;
		} else if (b >= 0xf1 && b <= 0xf3) {
			need = 3;
		} else if (b === 0xf4) {
			need = 3;
			hi = 0x8f;
		} else {
			return {index: i, length: 1};
		}

		let j = i + 1;
		for (let k = 0; k < need; k++) {
			if (j >= end) {
				return {index: i, length: j - i};
			}

			const c = bytes[j]!;
			if (c < lo || c > hi) {
				return {index: i, length: j - i};
			}

			lo = 0x80;
			hi = 0xbf;
			j++;
		}

		i = j;
	}

	return undefined;
}
