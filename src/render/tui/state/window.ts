/**
 * Scroll math for fixed-height, one-line rows (style.md §1.3 "Large lists"; ink-ui's
 * `visibleFromIndex`/`visibleToIndex`). All positions are 0-based positions in a list of `total` rows;
 * `rows` is the viewport height in rows. Everything is O(1), so a list of 100,000 rows costs the same as
 * a list of 100.
 */

/** How a cursor moves in a list. */
export type Move = 'prev' | 'next' | 'page-up' | 'page-down' | 'first' | 'last';

/** A cursor and the first visible position. `cursor` is -1 for an empty list. */
export interface ListPosition {
	readonly cursor: number;
	readonly scrollTop: number;
}

/** The visible slice `[start, end)` of a list, with the cursor and scroll top it was computed from. */
export interface VisibleSlice extends ListPosition {
	readonly start: number;
	readonly end: number;
}

/** `value` limited to `[low, high]` (low wins when high < low). */
export function clamp(value: number, low: number, high: number): number {
	return Math.max(low, Math.min(high, value));
}

/** The largest useful scroll top: the last page starts there (0 when everything fits). */
export function maxScrollTop(total: number, rows: number): number {
	return Math.max(0, total - Math.max(1, rows));
}

/**
 * The scroll top that shows `cursor` with the least movement from `scrollTop`, clamped to
 * `[0, maxScrollTop]`.
 */
export function scrollToShow(cursor: number, scrollTop: number, rows: number, total: number): number {
	const height = Math.max(1, rows);
	let top = scrollTop;
	if (cursor < top) {
		top = cursor;
	} else if (cursor >= top + height) {
		top = cursor - height + 1;
	}

	return clamp(top, 0, maxScrollTop(total, height));
}

/**
 * The visible slice for a cursor and scroll top: the cursor is clamped into the list, the scroll top is
 * moved just enough to show it, and `end - start` is at most `rows`.
 */
export function visibleSlice(total: number, cursor: number, scrollTop: number, rows: number): VisibleSlice {
	if (total <= 0 || rows <= 0) {
		return {cursor: total <= 0 ? -1 : clamp(cursor, 0, total - 1), scrollTop: 0, start: 0, end: 0};
	}

	const clampedCursor = clamp(cursor, 0, total - 1);
	const top = scrollToShow(clampedCursor, scrollTop, rows, total);
	return {cursor: clampedCursor, scrollTop: top, start: top, end: Math.min(total, top + rows)};
}

/**
 * Moves a cursor: one row (`prev`/`next`), one page (`page-up`/`page-down`: cursor and scroll top both
 * move by `rows`, as in `less`), or to an end. The result always shows the cursor.
 */
export function moveCursor(position: ListPosition, total: number, rows: number, move: Move): ListPosition {
	if (total <= 0) {
		return {cursor: -1, scrollTop: 0};
	}

	const height = Math.max(1, rows);
	const last = total - 1;
	const cursor = clamp(position.cursor, 0, last);
	let next: number;
	let top = position.scrollTop;
	switch (move) {
		case 'prev': {
			next = cursor - 1;
			break;
		}

		case 'next': {
			next = cursor + 1;
			break;
		}

		case 'page-up': {
			next = cursor - height;
			top -= height;
			break;
		}

		case 'page-down': {
			next = cursor + height;
			top += height;
			break;
		}

		case 'first': {
			next = 0;
			break;
		}

		case 'last': {
			next = last;
			break;
		}
	}

	next = clamp(next, 0, last);
	top = clamp(top, 0, maxScrollTop(total, height));
	return {cursor: next, scrollTop: scrollToShow(next, top, height, total)};
}

/** Moves a scroll offset (a view with no cursor, such as a text pane) by `move`, clamped to the content. */
export function moveScroll(scrollTop: number, total: number, rows: number, move: Move): number {
	const height = Math.max(1, rows);
	const max = maxScrollTop(total, height);
	switch (move) {
		case 'prev': {
			return clamp(scrollTop - 1, 0, max);
		}

		case 'next': {
			return clamp(scrollTop + 1, 0, max);
		}

		case 'page-up': {
			return clamp(scrollTop - height, 0, max);
		}

		case 'page-down': {
			return clamp(scrollTop + height, 0, max);
		}

		case 'first': {
			return 0;
		}

		case 'last': {
			return max;
		}
	}
}
