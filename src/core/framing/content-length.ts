import {readEscapeSequence} from './stray-kind.js';

/**
 * One `Name: value` header line of an LSP base-protocol header block (L2, L3, L6). Escape sequences
 * and a BOM glued before the name (field case F14) are skipped and reported separately.
 */
export interface HeaderLine {
	/** Index of the first byte of the header name (after any BOM / ESC prefix). */
	readonly nameStart: number;
	readonly name: string;
	/** The value with surrounding blanks trimmed. */
	readonly value: string;
	/** Index of the first ESC in the prefix, or -1. */
	readonly firstEsc: number;
	/** The line starts with EF BB BF. */
	readonly hasBom: boolean;
}

const MAX_NAME_BYTES = 64;

function isNameByte(b: number): boolean {
	return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x2d;
}

/**
 * Parses `bytes[start, contentEnd)` (a line without its LF / CR LF) as a header line: optional BOM,
 * optional complete escape sequences, a name of `[A-Za-z0-9-]`, a colon, and a printable-ASCII value
 * (header part is ASCII, L3). Any header name is accepted, so that headers before `Content-Length` are
 * recognised (L6).
 *
 * @returns the header, or `undefined` when the line does not have that shape.
 */
export function parseHeaderLine(bytes: Uint8Array, start: number, contentEnd: number): HeaderLine | undefined {
	let i = start;
	const hasBom = contentEnd - start >= 3 && bytes[i] === 0xef && bytes[i + 1] === 0xbb && bytes[i + 2] === 0xbf;
	if (hasBom) {
		i += 3;
	}

	let firstEsc = -1;
	while (i < contentEnd && bytes[i] === 0x1b) {
		const sequence = readEscapeSequence(bytes, i, contentEnd);
		if (!sequence.isComplete) {
			return undefined;
		}

		if (firstEsc === -1) {
			firstEsc = i;
		}

		i += sequence.length;
	}

	const nameStart = i;
	while (i < contentEnd && isNameByte(bytes[i]!)) {
		i++;
	}

	const nameEnd = i;
	if (nameEnd === nameStart || nameEnd - nameStart > MAX_NAME_BYTES || i >= contentEnd || bytes[i] !== 0x3a) {
		return undefined;
	}

	for (let j = i + 1; j < contentEnd; j++) {
		const b = bytes[j]!;
		if ((b < 0x20 || b > 0x7e) && b !== 0x09) {
			return undefined;
		}
	}

	const name = String.fromCharCode(...bytes.subarray(nameStart, nameEnd));
	const value = String.fromCharCode(...bytes.subarray(i + 1, contentEnd)).trim();
	return {nameStart, name, value, firstEsc, hasBom};
}

/**
 * The declared `Content-Length` (L3, L5: decimal bytes), or `null` when the value is not a plain
 * non-negative integer (a `vscode-jsonrpc` reader rejects it: "Content-Length value must be a number.").
 */
export function parseContentLengthValue(value: string): number | null {
	return /^\d{1,15}$/.test(value) ? Number(value) : null;
}
