import {describe, expect, it} from 'vitest';
import {screenLayout} from '../../../../src/render/tui/state/layout.js';
import {
	clamp,
	maxScrollTop,
	moveCursor,
	moveScroll,
	scrollToShow,
	visibleSlice,
} from '../../../../src/render/tui/state/window.js';

describe('window math', () => {
	it('clamps and bounds the scroll top', () => {
		expect(clamp(5, 0, 3)).toBe(3);
		expect(clamp(-2, 0, 3)).toBe(0);
		expect(maxScrollTop(100, 10)).toBe(90);
		expect(maxScrollTop(5, 10)).toBe(0);
		expect(maxScrollTop(100_000, 13)).toBe(99_987);
	});

	it('scrolls just enough to show the cursor', () => {
		expect(scrollToShow(5, 0, 10, 100)).toBe(0);
		expect(scrollToShow(10, 0, 10, 100)).toBe(1);
		expect(scrollToShow(3, 8, 10, 100)).toBe(3);
		expect(scrollToShow(99, 0, 10, 100)).toBe(90);
		// A stale scroll top past the end is pulled back.
		expect(scrollToShow(4, 50, 10, 12)).toBe(2);
	});

	it('computes the visible slice from cursor, scroll top and rows', () => {
		expect(visibleSlice(100, 50, 0, 10)).toEqual({cursor: 50, scrollTop: 41, start: 41, end: 51});
		expect(visibleSlice(100, 50, 45, 10)).toEqual({cursor: 50, scrollTop: 45, start: 45, end: 55});
		expect(visibleSlice(5, 9, 0, 10)).toEqual({cursor: 4, scrollTop: 0, start: 0, end: 5});
		expect(visibleSlice(0, 3, 7, 10)).toEqual({cursor: -1, scrollTop: 0, start: 0, end: 0});
		expect(visibleSlice(100_000, 99_999, 0, 13)).toEqual({
			cursor: 99_999,
			scrollTop: 99_987,
			start: 99_987,
			end: 100_000,
		});
	});

	it('moves a cursor by row, page and to the ends', () => {
		const at = {cursor: 20, scrollTop: 15};
		expect(moveCursor(at, 100, 10, 'prev')).toEqual({cursor: 19, scrollTop: 15});
		expect(moveCursor(at, 100, 10, 'next')).toEqual({cursor: 21, scrollTop: 15});
		expect(moveCursor(at, 100, 10, 'page-down')).toEqual({cursor: 30, scrollTop: 25});
		expect(moveCursor(at, 100, 10, 'page-up')).toEqual({cursor: 10, scrollTop: 5});
		expect(moveCursor(at, 100, 10, 'first')).toEqual({cursor: 0, scrollTop: 0});
		expect(moveCursor(at, 100, 10, 'last')).toEqual({cursor: 99, scrollTop: 90});
		expect(moveCursor({cursor: 0, scrollTop: 0}, 100, 10, 'prev')).toEqual({cursor: 0, scrollTop: 0});
		expect(moveCursor({cursor: 95, scrollTop: 90}, 100, 10, 'page-down')).toEqual({cursor: 99, scrollTop: 90});
		expect(moveCursor({cursor: 3, scrollTop: 0}, 100, 10, 'page-up')).toEqual({cursor: 0, scrollTop: 0});
		expect(moveCursor({cursor: 3, scrollTop: 0}, 0, 10, 'next')).toEqual({cursor: -1, scrollTop: 0});
	});

	it('moves a plain scroll offset within the content', () => {
		expect(moveScroll(0, 50, 10, 'next')).toBe(1);
		expect(moveScroll(0, 50, 10, 'prev')).toBe(0);
		expect(moveScroll(35, 50, 10, 'page-down')).toBe(40);
		expect(moveScroll(35, 50, 10, 'page-up')).toBe(25);
		expect(moveScroll(35, 50, 10, 'last')).toBe(40);
		expect(moveScroll(35, 50, 10, 'first')).toBe(0);
		expect(moveScroll(0, 5, 10, 'next')).toBe(0);
	});
});

describe('screen layout', () => {
	it('splits 120×40: status, 1+13 list rows, tab line, 22 lower rows, footer = 39 lines', () => {
		expect(screenLayout(120, 40)).toEqual({
			width: 120,
			height: 39,
			isTooSmall: false,
			bodyRows: 37,
			listRows: 13,
			lowerRows: 22,
		});
	});

	it('splits 80×24 and the smallest usable size', () => {
		expect(screenLayout(80, 24)).toEqual({
			width: 80,
			height: 23,
			isTooSmall: false,
			bodyRows: 21,
			listRows: 7,
			lowerRows: 12,
		});
		expect(screenLayout(40, 11)).toEqual({
			width: 40,
			height: 10,
			isTooSmall: false,
			bodyRows: 8,
			listRows: 3,
			lowerRows: 3,
		});
	});

	it('flags a terminal that is too small', () => {
		expect(screenLayout(39, 30).isTooSmall).toBe(true);
		expect(screenLayout(80, 10).isTooSmall).toBe(true);
	});
});
