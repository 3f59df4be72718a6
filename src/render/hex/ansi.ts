import type {ByteCategory} from '../../core/bytes/byte-category.js';
import type {HexCell, HexRow} from '../../core/bytes/hex-layout.js';
import {formatHexOffset, hexByte, hexPart, markerLine} from './plain.js';
import {applyStyle, isColorAllowedByEnv, type StyleFormat} from './sgr.js';

/**
 * The terminal hex painter: the xxd layout with hexyl's colours by byte category (sharkdp/hexyl:
 * null bright black, printable cyan, whitespace green, other ASCII magenta, non-ASCII yellow), CR in
 * its own colour because CRLF is a finding (style.md §1.4), highlighted bytes inverse red, and the rich
 * gutter glyphs of the layout model (`←` CR, `↵` LF, `␛` ESC, `␀` NUL, `•` other controls, `×` non-ASCII).
 */

/** Semantic tokens of the hex painter and their `styleText` formats. */
export const HEX_THEME = {
	offset: ['gray'],
	squeeze: ['gray'],
	cr: ['redBright'],
	highlight: ['inverse', 'red'],
	byte: {
		null: ['gray'],
		'ascii-printable': ['cyan'],
		'ascii-whitespace': ['green'],
		'ascii-other': ['magenta'],
		'non-ascii': ['yellow'],
	},
} as const satisfies {
	readonly offset: readonly StyleFormat[];
	readonly squeeze: readonly StyleFormat[];
	readonly cr: readonly StyleFormat[];
	readonly highlight: readonly StyleFormat[];
	readonly byte: Readonly<Record<ByteCategory, readonly StyleFormat[]>>;
};

/** The formats a cell is painted with: highlight, else CR, else its category. */
export function cellStyle(cell: HexCell): readonly StyleFormat[] {
	if (cell.isHighlighted) {
		return HEX_THEME.highlight;
	}

	return cell.byte === 0x0d ? HEX_THEME.cr : HEX_THEME.byte[cell.category];
}

/** Options for {@link ansiHexLines}. */
export interface AnsiHexOptions {
	/** Paint colours. Default: true unless `NO_COLOR` is set (an explicit value overrides NO_COLOR). */
	readonly color?: boolean;
	/** Add `^` marker lines under highlighted bytes. Default: only when colour is off (inverse shows them otherwise). */
	readonly markers?: boolean;
	/** Prefix for every line. Default ''. */
	readonly indent?: string;
	/** Bytes per row the hex part is padded to (default 16). */
	readonly bytesPerRow?: number;
}

/**
 * Paints layout rows for a terminal. With colour off the result is the plain xxd layout with the rich
 * glyph gutter (and marker lines), so it stays readable under `NO_COLOR`.
 * @returns one string per line, no newlines.
 */
export function ansiHexLines(rows: readonly HexRow[], options: AnsiHexOptions = {}): string[] {
	const isColor = options.color ?? isColorAllowedByEnv();
	const isMarkers = options.markers ?? !isColor;
	const indent = options.indent ?? '';
	const perRow = options.bytesPerRow ?? 16;
	const paint = (formats: readonly StyleFormat[], text: string): string => (isColor ? applyStyle(formats, text) : text);
	const lines: string[] = [];
	for (const row of rows) {
		if (row.isSqueezed) {
			lines.push(indent + paint(HEX_THEME.squeeze, '*'));
			continue;
		}

		const hex = hexPart(row.cells, perRow, (cell) => paint(cellStyle(cell), hexByte(cell.byte)));
		const gutter = row.cells.map((cell) => paint(cellStyle(cell), cell.glyph)).join('');
		lines.push(`${indent}${paint(HEX_THEME.offset, `${formatHexOffset(row.offset)}:`)} ${hex}  ${gutter}`);
		if (isMarkers) {
			const marker = markerLine(row, perRow);
			if (marker !== undefined) {
				lines.push(indent + marker);
			}
		}
	}

	return lines;
}
