import type {HexCell, HexRow} from '../../core/bytes/hex-layout.js';

/**
 * The xxd canonical layout (style.md §1.4), for reports, findings and pipes: no colour.
 *
 * ```text
 * 00000010: 7b22 6a73 6f6e 7270 6322 3a22 322e 3022  {"jsonrpc":"2.0"
 * ```
 *
 * The offset is the stream offset in at least 8 lowercase hex digits, then 16 bytes in groups of 2
 * (the hex part is padded to full width on a short last row, as xxd does), two spaces, and the gutter:
 * bytes 0x20–0x7E as themselves and `.` for every other byte (xxd) or, with `gutter: 'glyph'`, the
 * layout model's glyphs (`←` CR, `↵` LF, `␛` ESC, `␀` NUL…).
 */

/** Options for {@link plainHexLines}. */
export interface PlainHexOptions {
	/** Add a marker line of `^` under highlighted bytes (hex pairs and gutter) after each row that has some. Default true. */
	readonly markers?: boolean;
	/** Prefix for every line (e.g. two spaces when nested under a finding). Default ''. */
	readonly indent?: string;
	/** `xxd` (default): `.` for non-printables; `glyph`: the model's rich glyphs. */
	readonly gutter?: 'xxd' | 'glyph';
	/** Bytes per row the hex part is padded to (default 16; use the value given to `hexRows`). */
	readonly bytesPerRow?: number;
}

const HEX = '0123456789abcdef';

/** Two lowercase hex digits of a byte. */
export function hexByte(byte: number): string {
	return HEX[(byte >> 4) & 0xf]! + HEX[byte & 0xf]!;
}

/** A stream offset as xxd prints it: lowercase hex, at least 8 digits. */
export function formatHexOffset(offset: number): string {
	return offset.toString(16).padStart(8, '0');
}

/** xxd's gutter character: the byte itself for 0x20–0x7E, `.` otherwise. */
export function xxdGutterChar(byte: number): string {
	return byte >= 0x20 && byte <= 0x7e ? String.fromCharCode(byte) : '.';
}

/** Width of the hex part for `perRow` bytes in groups of 2: `2n + ceil(n/2) - 1` (39 for 16). */
export function hexPartWidth(perRow: number): number {
	return perRow * 2 + Math.ceil(perRow / 2) - 1;
}

/**
 * Builds the hex part of a row: pairs in groups of two bytes, padded to {@link hexPartWidth}. `cellText`
 * renders one cell (used by the painters to add colour or markers); `blank` fills a missing cell.
 */
export function hexPart(
	cells: readonly HexCell[],
	perRow: number,
	cellText: (cell: HexCell) => string,
	blank = '  ',
): string {
	let out = '';
	for (let k = 0; k < perRow; k++) {
		if (k > 0 && k % 2 === 0) {
			out += ' ';
		}

		const cell = cells[k];
		out += cell === undefined ? blank : cellText(cell);
	}

	return out;
}

/**
 * The marker line for a row: `^^` under each highlighted hex pair and `^` under its gutter character,
 * aligned with the row printed by {@link plainHexLines} (trailing spaces trimmed).
 * @returns the line (without indent), or undefined when no cell of the row is highlighted.
 */
export function markerLine(row: HexRow, perRow = 16): string | undefined {
	if (!row.cells.some((cell) => cell.isHighlighted)) {
		return undefined;
	}

	const lead = ' '.repeat(formatHexOffset(row.offset).length + 2);
	const hex = hexPart(row.cells, perRow, (cell) => (cell.isHighlighted ? '^^' : '  '));
	const gutter = row.cells.map((cell) => (cell.isHighlighted ? '^' : ' ')).join('');
	return `${lead}${hex}  ${gutter}`.trimEnd();
}

/**
 * Paints layout rows in the xxd layout without colour.
 * @param rows from `hexRows` (core/bytes/hex-layout.ts).
 * @returns one string per line (no newlines): a row, its marker line when it has highlighted bytes and
 *   `markers` is on, and `*` for a squeeze row.
 */
export function plainHexLines(rows: readonly HexRow[], options: PlainHexOptions = {}): string[] {
	const indent = options.indent ?? '';
	const perRow = options.bytesPerRow ?? 16;
	const isGlyph = options.gutter === 'glyph';
	const lines: string[] = [];
	for (const row of rows) {
		if (row.isSqueezed) {
			lines.push(`${indent}*`);
			continue;
		}

		const hex = hexPart(row.cells, perRow, (cell) => hexByte(cell.byte));
		const gutter = isGlyph ? row.gutter : row.cells.map((cell) => xxdGutterChar(cell.byte)).join('');
		lines.push(`${indent}${formatHexOffset(row.offset)}: ${hex}  ${gutter}`);
		if (options.markers !== false) {
			const marker = markerLine(row, perRow);
			if (marker !== undefined) {
				lines.push(indent + marker);
			}
		}
	}

	return lines;
}
