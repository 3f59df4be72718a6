import {byteCategory, type ByteCategory} from './byte-category.js';
import {byteGlyph} from './glyphs.js';

/**
 * The hex dump layout model (style.md §1.4 "Hex = layout model + painters"): rows of cells with their
 * stream offset, hexyl category, gutter glyph and highlight flag. Painters (render/hex/plain.ts for the
 * xxd layout, render/hex/ansi.ts for terminals, the TUI's hex pane) only decide how a row looks.
 */

/** One byte of a hex row. */
export interface HexCell {
	readonly byte: number;
	/** Stream offset of this byte. */
	readonly offset: number;
	readonly category: ByteCategory;
	/** One-column gutter glyph ({@link byteGlyph}: `←` for CR, `↵` for LF, `␛`, `␀`, `•`, `×`…). */
	readonly glyph: string;
	/** True when the byte lies in one of the highlight ranges. */
	readonly isHighlighted: boolean;
}

/**
 * One row of a hex dump. A normal row has 1–`bytesPerRow` cells (only the last row may be shorter).
 * A squeeze row (`isSqueezed`) stands for `squeezedRows` full rows, `squeezedBytes` bytes in all, that
 * repeat the row printed just before them (hexyl's and hexdump's `*` line); it has no cells.
 */
export interface HexRow {
	/** Stream offset of the row's first byte (of the first squeezed row, for a squeeze row). */
	readonly offset: number;
	readonly cells: readonly HexCell[];
	/** The cells' glyphs joined: the rich gutter (empty for a squeeze row). */
	readonly gutter: string;
	readonly isSqueezed: boolean;
	readonly squeezedRows: number;
	readonly squeezedBytes: number;
}

/** A range of stream offsets to highlight: `[offset, offset + length)`. */
export interface HexHighlight {
	readonly offset: number;
	readonly length: number;
}

/** Options for {@link hexRows}. */
export interface HexRowsOptions {
	/** Stream offset of `bytes[0]`; row offsets are `baseOffset + k * bytesPerRow` (as `xxd -s`). */
	readonly baseOffset: number;
	/** Bytes per row, default 16 (xxd, hexyl). */
	readonly bytesPerRow?: number;
	/** Ranges in stream offsets whose bytes are marked `isHighlighted`. */
	readonly highlight?: readonly HexHighlight[];
	/**
	 * Collapse runs of two or more full rows identical to the row before them into one squeeze row
	 * (hexyl's default, `xxd -a` for NUL rows). Rows with highlighted bytes are never squeezed.
	 * Default false.
	 */
	readonly squeeze?: boolean;
}

function sameBytes(bytes: Uint8Array, a: number, b: number, length: number): boolean {
	for (let k = 0; k < length; k++) {
		if (bytes[a + k] !== bytes[b + k]) {
			return false;
		}
	}

	return true;
}

/**
 * Lays bytes out as hex rows.
 * @param bytes the bytes to show (any length; an empty array gives no rows).
 * @param options see {@link HexRowsOptions}.
 * @returns rows in offset order.
 * @throws RangeError when `bytesPerRow` is not a positive integer or `baseOffset` is negative.
 */
export function hexRows(bytes: Uint8Array, options: HexRowsOptions): HexRow[] {
	const perRow = options.bytesPerRow ?? 16;
	if (!Number.isInteger(perRow) || perRow <= 0) {
		throw new RangeError(`bytesPerRow must be a positive integer, got ${perRow}`);
	}

	if (!Number.isInteger(options.baseOffset) || options.baseOffset < 0) {
		throw new RangeError(`baseOffset must be a non-negative integer, got ${options.baseOffset}`);
	}

	const base = options.baseOffset;
	const ranges = (options.highlight ?? []).filter((range) => range.length > 0);
	const isHighlighted = (offset: number): boolean =>
		ranges.some((range) => offset >= range.offset && offset < range.offset + range.length);
	const rowHasHighlight = (start: number, length: number): boolean =>
		ranges.some((range) => range.offset < base + start + length && range.offset + range.length > base + start);

	const rows: HexRow[] = [];
	let start = 0;
	while (start < bytes.length) {
		const length = Math.min(perRow, bytes.length - start);
		if (options.squeeze === true && length === perRow && start >= perRow) {
			const previous = start - perRow;
			let run = 0;
			while (
				start + (run + 1) * perRow <= bytes.length &&
				sameBytes(bytes, previous, start + run * perRow, perRow) &&
				!rowHasHighlight(start + run * perRow, perRow)
			) {
				run++;
			}

			if (run >= 2) {
				rows.push({
					offset: base + start,
					cells: [],
					gutter: '',
					isSqueezed: true,
					squeezedRows: run,
					squeezedBytes: run * perRow,
				});
				start += run * perRow;
				continue;
			}
		}

		const cells: HexCell[] = [];
		let gutter = '';
		for (let k = 0; k < length; k++) {
			const byte = bytes[start + k]!;
			const offset = base + start + k;
			const glyph = byteGlyph(byte);
			cells.push({byte, offset, category: byteCategory(byte), glyph, isHighlighted: isHighlighted(offset)});
			gutter += glyph;
		}

		rows.push({offset: base + start, cells, gutter, isSqueezed: false, squeezedRows: 0, squeezedBytes: 0});
		start += length;
	}

	return rows;
}

/** Reads `[offset, offset + length)` of one stream, clamped to what exists (e.g. `snapshot.bytes` bound to a stream). */
export type StreamBytesProvider = (offset: number, length: number) => Uint8Array;

/** Options for {@link hexWindow}. */
export interface HexWindowOptions {
	/** Stream offset of the first byte of interest. */
	readonly offset: number;
	/** Bytes of interest (0 for a position, such as a `no-response` finding at the stream's end). */
	readonly length: number;
	/** Whole rows of context before and after the rows holding the bytes of interest (default 1). */
	readonly context?: number;
	/** Upper bound on the rows of the window, context included (default 8). */
	readonly maxRows?: number;
	/** Row width the window aligns to (default 16). */
	readonly bytesPerRow?: number;
}

/** An excerpt of a stream for a hex dump. */
export interface HexWindow {
	/** Stream offset of `bytes[0]`, a multiple of `bytesPerRow`. */
	readonly offset: number;
	readonly bytes: Uint8Array;
	/** Bytes of interest that lie past the end of the window because of `maxRows` (0 when all are shown). */
	readonly cutBytes: number;
}

/**
 * Takes an excerpt around `[offset, offset + length)`, aligned to whole rows of `bytesPerRow` bytes, with
 * `context` rows before and after, and at most `maxRows` rows. The provider clamps at the stream's end, so
 * the last row may be short and the window may be empty (an empty stream).
 * @throws RangeError for a negative offset/length or non-positive `bytesPerRow`/`maxRows`.
 */
export function hexWindow(provider: StreamBytesProvider, options: HexWindowOptions): HexWindow {
	const perRow = options.bytesPerRow ?? 16;
	const context = Math.max(0, Math.floor(options.context ?? 1));
	const maxRows = options.maxRows ?? 8;
	if (options.offset < 0 || options.length < 0 || perRow <= 0 || maxRows <= 0) {
		throw new RangeError('hexWindow: offset and length must be >= 0, bytesPerRow and maxRows > 0');
	}

	const first = Math.floor(options.offset / perRow);
	const last = Math.floor((options.offset + Math.max(options.length, 1) - 1) / perRow);
	const startRow = Math.max(0, first - context);
	const endRow = Math.min(last + context, startRow + maxRows - 1);
	const start = startRow * perRow;
	const end = (endRow + 1) * perRow;
	const bytes = provider(start, end - start);
	const interestEnd = options.offset + options.length;
	return {offset: start, bytes, cutBytes: Math.max(0, interestEnd - end)};
}
