import {Box} from 'ink';
import {hexRows, type HexHighlight, type HexRow} from '../../../core/bytes/hex-layout.js';
import {formatHexOffset, hexByte} from '../../hex/plain.js';
import {byteToken} from '../theme.js';
import {Line, pushSegment, type Segment} from './line.js';

/**
 * The hex tab of the detail pane: the xxd layout (`00000010: 7b22 6a73 …  {"js…`), in 1, 2 or 3 panels
 * of 8 bytes chosen by width (hexyl `--panels=auto`; an extra space between panels), cells painted by
 * hexyl byte category through theme tokens, CR in its own token, the selected finding's bytes
 * highlighted, and the glyph gutter of core/bytes (`←` CR, `↵` LF, `␛` ESC, `␀` NUL). Only the visible
 * rows of a frame are read and laid out, so a 10 MiB frame costs what a screenful costs.
 */

/**
 * The segments of one hex row: offset, hex cells in groups of 2 bytes (panel gap every 8), the gutter.
 * A space between two highlighted cells is highlighted too, so a highlighted run reads as one block.
 * @param perRow bytes per row (8, 16 or 24); short rows are padded so the gutter stays aligned.
 */
export function hexLineSegments(row: HexRow, perRow: number): Segment[] {
	const segments: Segment[] = [];
	pushSegment(segments, `${formatHexOffset(row.offset)}:`, 'hex.offset');
	pushSegment(segments, ' ', 'ui.plain');
	if (row.isSqueezed) {
		pushSegment(segments, `* (${row.squeezedRows} identical rows, ${row.squeezedBytes} bytes)`, 'hex.offset');
		return segments;
	}

	for (let k = 0; k < perRow; k++) {
		const cell = row.cells[k];
		if (k > 0) {
			const gap = k % 8 === 0 ? '  ' : k % 2 === 0 ? ' ' : '';
			const previous = row.cells[k - 1];
			pushSegment(segments, gap, cell?.isHighlighted && previous?.isHighlighted ? 'byte.highlight' : 'ui.plain');
		}

		if (cell) {
			pushSegment(segments, hexByte(cell.byte), byteToken(cell.byte, cell.category, cell.isHighlighted));
		} else {
			pushSegment(segments, '  ', 'ui.plain');
		}
	}

	pushSegment(segments, '  ', 'ui.plain');
	for (const cell of row.cells) {
		pushSegment(segments, cell.glyph, byteToken(cell.byte, cell.category, cell.isHighlighted));
	}

	return segments;
}

/** Where the visible part of a frame's hex dump comes from. */
export interface HexSource {
	/** Reads `[offset, offset + length)` of the frame's stream (clamped). */
	readonly read: (offset: number, length: number) => Uint8Array;
	/** Stream offset and length of the frame. */
	readonly offset: number;
	readonly byteLength: number;
}

/**
 * The rows visible in a hex pane: rows start at the frame's first byte (offsets are stream offsets) and
 * `scroll` skips whole rows.
 */
export function visibleHexRows(
	source: HexSource,
	perRow: number,
	scroll: number,
	rows: number,
	highlight: readonly HexHighlight[],
): HexRow[] {
	const start = scroll * perRow;
	const length = Math.max(0, Math.min(rows * perRow, source.byteLength - start));
	if (length === 0) {
		return [];
	}

	const bytes = source.read(source.offset + start, length);
	return hexRows(bytes, {baseOffset: source.offset + start, bytesPerRow: perRow, highlight});
}

/** Number of hex rows of a frame. */
export function hexRowCount(byteLength: number, perRow: number): number {
	return Math.ceil(byteLength / perRow);
}

/** Props of {@link HexPane}. */
export interface HexPaneProps {
	readonly rows: readonly HexRow[];
	readonly perRow: number;
	readonly height: number;
}

/** Paints hex rows, one line each, in a box of fixed height. */
export function HexPane({rows, perRow, height}: HexPaneProps) {
	return (
		<Box flexDirection="column" height={height} overflow="hidden">
			{rows.map((row) => (
				<Line key={row.offset} segments={hexLineSegments(row, perRow)} />
			))}
		</Box>
	);
}
