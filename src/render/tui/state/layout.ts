import {clamp} from './window.js';

/**
 * How the screen is divided (pure, from the terminal size): status bar, frame list (a header line and
 * its rows), the tab line and the lower pane (detail, findings, stderr or the send panel), and the
 * footer. The app draws `rows - 1` lines: ink clears the whole terminal on every frame whose output is as
 * tall as the terminal, and one spare line avoids that flicker.
 */

/** The sizes of every region, in rows and columns. */
export interface ScreenLayout {
	readonly width: number;
	/** Lines drawn (terminal rows − 1). */
	readonly height: number;
	/** True below 40×11: only a "terminal too small" line is drawn. */
	readonly isTooSmall: boolean;
	/** Rows of the body (everything between status bar and footer). */
	readonly bodyRows: number;
	/** Frame rows of the list (its header line excluded). */
	readonly listRows: number;
	/** Rows of the lower pane (its tab line excluded). */
	readonly lowerRows: number;
}

/** Smallest usable terminal. */
export const MIN_COLUMNS = 40;
export const MIN_ROWS = 11;

/**
 * The layout for a terminal of `columns` × `rows`: the list takes 40% of the body (at least 3 frame
 * rows), the lower pane the rest (at least 5 rows).
 */
export function screenLayout(columns: number, rows: number): ScreenLayout {
	const width = Math.max(1, columns);
	const height = Math.max(1, rows - 1);
	const isTooSmall = columns < MIN_COLUMNS || rows < MIN_ROWS;
	const bodyRows = Math.max(0, height - 2);
	const listHeight = clamp(Math.floor(bodyRows * 0.4), 4, Math.max(4, bodyRows - 6));
	return {
		width,
		height,
		isTooSmall,
		bodyRows,
		listRows: Math.max(1, listHeight - 1),
		lowerRows: Math.max(1, bodyRows - listHeight - 1),
	};
}
