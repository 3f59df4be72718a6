import {Buffer} from 'node:buffer';
import type {Range, RedactionKind} from './types.js';

/** Bytes as a string with one UTF-16 unit per byte (ISO-8859-1), so string indexes are byte offsets. */
export function latin1(bytes: Uint8Array): string {
	return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** A JS string as its UTF-8 bytes in {@link latin1} form, for matching inside byte strings. */
export function utf8AsLatin1(text: string): string {
	return Buffer.from(text, 'utf8').toString('latin1');
}

/** Sorts and merges overlapping ranges; the earliest (then longest) range's kind and prefix win. */
export function mergeRanges(ranges: readonly Range[]): Range[] {
	const sorted = [...ranges].sort((a, b) => a.start - b.start || b.end - a.end);
	const merged: Range[] = [];
	for (const range of sorted) {
		const last = merged.at(-1);
		if (last !== undefined && range.start < last.end) {
			last.end = Math.max(last.end, range.end);
			continue;
		}

		merged.push({...range});
	}

	return merged;
}

export function bump(counts: Partial<Record<RedactionKind, number>>, kind: RedactionKind, by = 1): void {
	counts[kind] = (counts[kind] ?? 0) + by;
}

/** Mask `[start + keep, end)` of `bytes` in place with `*`, leaving LF and CR. */
export function maskInPlace(bytes: Uint8Array, start: number, end: number): void {
	for (let i = Math.max(0, start); i < Math.min(end, bytes.length); i++) {
		if (bytes[i] !== 0x0a && bytes[i] !== 0x0d) {
			bytes[i] = 0x2a;
		}
	}
}
