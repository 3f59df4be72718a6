import type {InputCursorMove, NavContext, ViewAction} from './actions.js';
import {PANES, type PaneName} from './keymap.js';
import {NO_FILTER, type FrameFilter, type FrameView} from './selectors.js';
import {moveCursor, moveScroll, scrollToShow, visibleSlice, type Move} from './window.js';

/**
 * The TUI's view state and its pure reducer (style.md §1.3 "View state is a reducer"): selection, scroll,
 * focus, detail tab, filters, follow-tail, text entry and help. The session is not in here: the reducer
 * gets list sizes with each navigation action, and the selected frame is kept as a frame index (stable
 * while frames arrive and filters change).
 */

/** Tabs of the detail pane, in ←/→ order. */
export type DetailTab = 'hex' | 'json' | 'raw' | 'chunks';

/** Detail tabs in order. */
export const DETAIL_TABS: readonly DetailTab[] = ['hex', 'json', 'raw', 'chunks'];

/** Text entry: the `/` search line, or the two steps of the `s` send panel. */
export type InputState =
	| {readonly mode: 'search'; readonly text: string}
	| {readonly mode: 'send-pick'; readonly cursor: number; readonly scrollTop: number}
	| {
			readonly mode: 'send-params';
			readonly method: string;
			readonly label: string;
			readonly text: string;
			/** Where the next key edits, in UTF-16 code units of `text` (0 … text.length). */
			readonly cursor: number;
			readonly error?: string;
	  };

/** The whole view state. */
export interface ViewState {
	/** Selected frame index (-1: none chosen; the last frame is shown while following). */
	readonly selected: number;
	/** First visible row of the frame list (a position in the filtered view). */
	readonly scrollTop: number;
	/** Follow-tail: the selection sticks to the last frame while true (mitmproxy's `console_focus_follow`). */
	readonly isFollowing: boolean;
	readonly focus: PaneName;
	readonly detailTab: DetailTab;
	/** First visible line of the detail tab. */
	readonly detailScroll: number;
	readonly filter: FrameFilter;
	/** Cursor in the findings pane (ordinal in grouped order) and its first visible line. */
	readonly findingCursor: number;
	readonly findingScroll: number;
	/** Cursor in the stderr pane, its first visible line, and whether it follows new lines. */
	readonly stderrCursor: number;
	readonly stderrScroll: number;
	readonly isStderrFollowing: boolean;
	readonly input: InputState | null;
	readonly isHelpOpen: boolean;
	/** First visible line of the help overlay. */
	readonly helpScroll: number;
	/** A one-line message for the footer (cleared by the next action). */
	readonly notice: string;
}

/** The state a TUI opens with: following the tail, frames focused, hex tab, no filter. */
export const INITIAL_VIEW_STATE: ViewState = {
	selected: -1,
	scrollTop: 0,
	isFollowing: true,
	focus: 'frames',
	detailTab: 'hex',
	detailScroll: 0,
	filter: NO_FILTER,
	findingCursor: 0,
	findingScroll: 0,
	stderrCursor: 0,
	stderrScroll: 0,
	isStderrFollowing: true,
	input: null,
	isHelpOpen: false,
	helpScroll: 0,
	notice: '',
};

/** Position of the selected row in `view` (-1 when empty): the last row while following or before any selection. */
export function frameCursor(state: ViewState, view: FrameView): number {
	if (view.length === 0) {
		return -1;
	}

	return state.isFollowing || state.selected < 0 ? view.length - 1 : view.positionOf(state.selected);
}

/** The selected frame index under `view` (-1 when the view is empty). */
export function selectedFrame(state: ViewState, view: FrameView): number {
	const cursor = frameCursor(state, view);
	return cursor < 0 ? -1 : view.indexAt(cursor);
}

/** Position of the stderr cursor among `count` lines (the last one while following). */
export function stderrCursor(state: ViewState, count: number): number {
	if (count === 0) {
		return -1;
	}

	return state.isStderrFollowing ? count - 1 : Math.min(state.stderrCursor, count - 1);
}

const MOVE: Readonly<
	Record<'select-prev' | 'select-next' | 'page-up' | 'page-down' | 'select-first' | 'select-last', Move>
> = {
	'select-prev': 'prev',
	'select-next': 'next',
	'page-up': 'page-up',
	'page-down': 'page-down',
	'select-first': 'first',
	'select-last': 'last',
};

function cycle<T>(list: readonly T[], current: T, step: number): T {
	const index = list.indexOf(current);
	return list[(index + step + list.length) % list.length]!;
}

function navigate(state: ViewState, move: Move, nav: NavContext): ViewState {
	if (state.isHelpOpen) {
		return {...state, helpScroll: moveScroll(state.helpScroll, nav.helpLines, nav.helpRows, move)};
	}

	switch (state.focus) {
		case 'frames': {
			const {view, listRows} = nav;
			if (view.length === 0) {
				return state;
			}

			const current = visibleSlice(view.length, frameCursor(state, view), state.scrollTop, listRows);
			const next = moveCursor(current, view.length, listRows, move);
			const selected = view.indexAt(next.cursor);
			return {
				...state,
				selected,
				scrollTop: next.scrollTop,
				isFollowing: next.cursor === view.length - 1,
				detailScroll: selected === selectedFrame(state, view) ? state.detailScroll : 0,
			};
		}

		case 'detail': {
			return {...state, detailScroll: moveScroll(state.detailScroll, nav.detailLines, nav.detailRows, move)};
		}

		case 'findings': {
			if (nav.findingCount === 0) {
				return state;
			}

			const next = moveCursor(
				{cursor: Math.min(state.findingCursor, nav.findingCount - 1), scrollTop: 0},
				nav.findingCount,
				nav.findingRows,
				move,
			);
			const line = nav.findingLineOf(next.cursor) ?? 0;
			// Show the group header too when the cursor is on the first finding of a group.
			const withHeader = scrollToShow(Math.max(0, line - 1), state.findingScroll, nav.findingRows, nav.findingLines);
			return {
				...state,
				findingCursor: next.cursor,
				findingScroll: scrollToShow(line, withHeader, nav.findingRows, nav.findingLines),
			};
		}

		case 'stderr': {
			if (nav.stderrCount === 0) {
				return state;
			}

			const current = visibleSlice(
				nav.stderrCount,
				stderrCursor(state, nav.stderrCount),
				state.stderrScroll,
				nav.stderrRows,
			);
			const next = moveCursor(current, nav.stderrCount, nav.stderrRows, move);
			return {
				...state,
				stderrCursor: next.cursor,
				stderrScroll: next.scrollTop,
				isStderrFollowing: next.cursor === nav.stderrCount - 1,
			};
		}
	}
}

/** A text and the cursor in it (UTF-16 code units); the search line edits at its end. */
interface Editing {
	readonly text: string;
	readonly cursor: number;
}

function editInput(state: ViewState, edit: (editing: Editing) => Editing): ViewState {
	const input = state.input;
	if (input?.mode === 'search') {
		const {text} = edit({text: input.text, cursor: input.text.length});
		return {...state, input: {mode: 'search', text}, filter: {...state.filter, search: text}};
	}

	if (input?.mode === 'send-params') {
		const {error: _error, ...rest} = input;
		return {...state, input: {...rest, ...edit({text: input.text, cursor: input.cursor})}};
	}

	return state;
}

/** The length in code units of the code point that ends at `at` (2 for an astral one). */
function pointBefore(text: string, at: number): number {
	const code = text.charCodeAt(at - 1);
	return at >= 2 && code >= 0xdc00 && code <= 0xdfff ? 2 : at >= 1 ? 1 : 0;
}

/** The length in code units of the code point that starts at `at`. */
function pointAt(text: string, at: number): number {
	if (at >= text.length) return 0;
	const code = text.charCodeAt(at);
	return code >= 0xd800 && code <= 0xdbff && at + 1 < text.length ? 2 : 1;
}

/** Inserts `typed` at the cursor. */
const insertText =
	(typed: string) =>
	({text, cursor}: Editing): Editing => ({
		text: text.slice(0, cursor) + typed + text.slice(cursor),
		cursor: cursor + typed.length,
	});

/** Backspace: drops the code point before the cursor. */
function dropBefore({text, cursor}: Editing): Editing {
	const size = pointBefore(text, cursor);
	return {text: text.slice(0, cursor - size) + text.slice(cursor), cursor: cursor - size};
}

/** Delete: drops the code point under the cursor. */
function dropAt({text, cursor}: Editing): Editing {
	return {text: text.slice(0, cursor) + text.slice(cursor + pointAt(text, cursor)), cursor};
}

/** Moves the cursor: one code point left or right, or to the start or the end. */
function moveInputCursor({text, cursor}: Editing, move: InputCursorMove): Editing {
	switch (move) {
		case 'left':
			return {text, cursor: cursor - pointBefore(text, cursor)};
		case 'right':
			return {text, cursor: cursor + pointAt(text, cursor)};
		case 'home':
			return {text, cursor: 0};
		case 'end':
			return {text, cursor: text.length};
	}
}

/** The keys of the text-entry line: type, erase, and (the params line only) move the cursor. */
function editKey(
	state: ViewState,
	action: Extract<ViewAction, {type: 'input-text' | 'input-backspace' | 'input-delete' | 'input-cursor'}>,
): ViewState {
	switch (action.type) {
		case 'input-text':
			return editInput(state, insertText(action.text));
		case 'input-backspace':
			return editInput(state, dropBefore);
		case 'input-delete':
			return editInput(state, dropAt);
		case 'input-cursor':
			return state.input?.mode === 'send-params'
				? editInput(state, (editing) => moveInputCursor(editing, action.move))
				: state;
	}
}

/**
 * Where the cursor starts in a params template: inside the first empty string among the `arguments`
 * (`{"city":""}`: between the quotes, to type the value in place), else at the end.
 */
export function initialParamsCursor(text: string): number {
	const args = text.indexOf('"arguments":');
	const empty = args < 0 ? -1 : text.indexOf(':""', args + '"arguments":'.length - 1);
	return empty < 0 ? text.length : empty + 2;
}

/**
 * The view reducer: `(state, action) → state`, pure and total (unknown combinations return `state`).
 * The footer notice is cleared by every action except the ones that set it, and by `clear-notice` when the
 * action it announced ends (a re-run is done).
 */
export function viewReducer(previous: ViewState, action: ViewAction): ViewState {
	const keepsNotice = action.type === 'set-notice' || action.type === 'send-done' || action.type === 'clear-notice';
	const state = previous.notice !== '' && !keepsNotice ? {...previous, notice: ''} : previous;
	switch (action.type) {
		case 'select-prev':
		case 'select-next':
		case 'page-up':
		case 'page-down':
		case 'select-first':
		case 'select-last': {
			return navigate(state, MOVE[action.type], action.nav);
		}

		case 'select-frame': {
			return {...state, selected: action.frameIndex, isFollowing: false, detailScroll: 0};
		}

		case 'jump-to-frame': {
			return {
				...state,
				selected: action.frameIndex,
				isFollowing: false,
				focus: 'frames',
				detailTab: 'hex',
				detailScroll: Math.max(0, action.detailScroll),
				filter: action.isVisible ? state.filter : NO_FILTER,
			};
		}

		case 'toggle-follow': {
			return state.isFollowing
				? {...state, isFollowing: false, selected: selectedFrame(state, action.view)}
				: {...state, isFollowing: true, detailScroll: 0};
		}

		case 'focus-next':
		case 'focus-prev': {
			return {...state, focus: cycle(PANES, state.focus, action.type === 'focus-next' ? 1 : -1)};
		}

		case 'set-focus': {
			return {...state, focus: action.pane};
		}

		case 'next-tab':
		case 'prev-tab': {
			return {
				...state,
				detailTab: cycle(DETAIL_TABS, state.detailTab, action.type === 'next-tab' ? 1 : -1),
				detailScroll: 0,
			};
		}

		case 'toggle-stream': {
			const streams = {...state.filter.streams, [action.stream]: !state.filter.streams[action.stream]};
			return {...state, filter: {...state.filter, streams}};
		}

		case 'toggle-findings-only': {
			return {...state, filter: {...state.filter, isFindingsOnly: !state.filter.isFindingsOnly}};
		}

		case 'open-search': {
			return {...state, input: {mode: 'search', text: state.filter.search}, isHelpOpen: false};
		}

		case 'clear-search': {
			return {...state, filter: {...state.filter, search: ''}, isHelpOpen: false};
		}

		case 'input-text':
		case 'input-backspace':
		case 'input-delete':
		case 'input-cursor': {
			return editKey(state, action);
		}

		case 'input-commit': {
			return state.input?.mode === 'search' ? {...state, input: null} : state;
		}

		case 'input-cancel': {
			if (state.input?.mode === 'search') {
				return {...state, input: null, filter: {...state.filter, search: ''}};
			}

			return {...state, input: null};
		}

		case 'toggle-help': {
			return {...state, isHelpOpen: !state.isHelpOpen, helpScroll: 0};
		}

		case 'close-help': {
			return {...state, isHelpOpen: false};
		}

		case 'open-send': {
			return {...state, input: {mode: 'send-pick', cursor: 0, scrollTop: 0}, isHelpOpen: false};
		}

		case 'send-move': {
			if (state.input?.mode !== 'send-pick') {
				return state;
			}

			const next = moveCursor(
				{cursor: state.input.cursor, scrollTop: state.input.scrollTop},
				action.total,
				action.rows,
				action.move,
			);
			return {...state, input: {mode: 'send-pick', cursor: Math.max(0, next.cursor), scrollTop: next.scrollTop}};
		}

		case 'send-choose': {
			const {method, label, text} = action;
			return {...state, input: {mode: 'send-params', method, label, text, cursor: initialParamsCursor(text)}};
		}

		case 'send-error': {
			return state.input?.mode === 'send-params' ? {...state, input: {...state.input, error: action.message}} : state;
		}

		case 'send-done': {
			const notice = action.sent
				? `sent ${action.method}`
				: `${action.method} not sent: the server's stdin is closed (it exited or is shutting down)`;
			return {...state, input: null, isFollowing: true, focus: 'frames', detailScroll: 0, notice};
		}

		case 'clear-notice': {
			return previous.notice === action.text ? {...state, notice: ''} : state;
		}

		case 'set-notice': {
			return {...state, notice: action.text};
		}
	}
}
