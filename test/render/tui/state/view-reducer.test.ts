import {describe, expect, it} from 'vitest';
import type {NavContext} from '../../../../src/render/tui/state/actions.js';
import {arrayView, identityView, NO_FILTER, type FrameView} from '../../../../src/render/tui/state/selectors.js';
import {
	frameCursor,
	INITIAL_VIEW_STATE,
	selectedFrame,
	stderrCursor,
	viewReducer,
	type ViewState,
} from '../../../../src/render/tui/state/view-reducer.js';

function nav(view: FrameView, overrides: Partial<NavContext> = {}): NavContext {
	return {
		view,
		listRows: 10,
		detailLines: 30,
		detailRows: 8,
		findingCount: 4,
		findingLines: 7,
		findingLineOf: (ordinal) => [1, 2, 4, 6][ordinal],
		findingRows: 3,
		stderrCount: 5,
		stderrRows: 3,
		helpLines: 40,
		helpRows: 10,
		...overrides,
	};
}

const run = (state: ViewState, ...actions: Parameters<typeof viewReducer>[1][]): ViewState =>
	actions.reduce(viewReducer, state);

describe('view reducer: frame list and follow-tail', () => {
	const view = identityView(100);

	it('starts following the tail: the last frame is selected', () => {
		expect(frameCursor(INITIAL_VIEW_STATE, view)).toBe(99);
		expect(selectedFrame(INITIAL_VIEW_STATE, view)).toBe(99);
		expect(frameCursor(INITIAL_VIEW_STATE, identityView(0))).toBe(-1);
	});

	it('stops following when the user moves up, keeps the frame when more arrive, resumes at the bottom', () => {
		const up = viewReducer(INITIAL_VIEW_STATE, {type: 'select-prev', nav: nav(view)});
		expect(up).toMatchObject({selected: 98, scrollTop: 90, isFollowing: false});
		// 20 more frames arrive: the selection stays on frame 98.
		expect(selectedFrame(up, identityView(120))).toBe(98);
		const down = viewReducer(up, {type: 'select-next', nav: nav(view)});
		expect(down).toMatchObject({selected: 99, isFollowing: true});
		expect(selectedFrame(down, identityView(120))).toBe(119);
	});

	it('pages, jumps to the ends, and G resumes following', () => {
		const top = viewReducer(INITIAL_VIEW_STATE, {type: 'select-first', nav: nav(view)});
		expect(top).toMatchObject({selected: 0, scrollTop: 0, isFollowing: false});
		const paged = run(top, {type: 'page-down', nav: nav(view)}, {type: 'page-down', nav: nav(view)});
		expect(paged).toMatchObject({selected: 20, scrollTop: 20, isFollowing: false});
		expect(viewReducer(paged, {type: 'page-up', nav: nav(view)})).toMatchObject({selected: 10, scrollTop: 10});
		expect(viewReducer(paged, {type: 'select-last', nav: nav(view)})).toMatchObject({
			selected: 99,
			scrollTop: 90,
			isFollowing: true,
		});
	});

	it('moves within a filtered view by position and keeps frame indices', () => {
		const filtered = arrayView([3, 8, 20, 41]);
		const state = viewReducer(
			{...INITIAL_VIEW_STATE, selected: 20, isFollowing: false},
			{type: 'select-prev', nav: nav(filtered)},
		);
		expect(state.selected).toBe(8);
		// A frame that the filter hides maps to the next shown one.
		expect(frameCursor({...INITIAL_VIEW_STATE, selected: 9, isFollowing: false}, filtered)).toBe(2);
	});

	it('resets the detail scroll when the selection changes', () => {
		const state = viewReducer(
			{...INITIAL_VIEW_STATE, selected: 50, isFollowing: false, detailScroll: 7},
			{type: 'select-next', nav: nav(view)},
		);
		expect(state).toMatchObject({selected: 51, detailScroll: 0});
	});

	it('toggles follow: off pins the current frame, on follows again', () => {
		const off = viewReducer(INITIAL_VIEW_STATE, {type: 'toggle-follow', view});
		expect(off).toMatchObject({isFollowing: false, selected: 99});
		expect(viewReducer(off, {type: 'toggle-follow', view}).isFollowing).toBe(true);
	});

	it('ignores navigation in an empty list', () => {
		const state = viewReducer(INITIAL_VIEW_STATE, {type: 'select-next', nav: nav(identityView(0))});
		expect(state).toBe(INITIAL_VIEW_STATE);
	});
});

describe('view reducer: panes, tabs, findings and stderr', () => {
	const view = identityView(100);

	it('cycles focus with Tab and tabs with ←/→', () => {
		expect(run(INITIAL_VIEW_STATE, {type: 'focus-next'}).focus).toBe('detail');
		expect(
			run(INITIAL_VIEW_STATE, {type: 'focus-next'}, {type: 'focus-next'}, {type: 'focus-next'}, {type: 'focus-next'})
				.focus,
		).toBe('frames');
		expect(run(INITIAL_VIEW_STATE, {type: 'focus-prev'}).focus).toBe('stderr');
		expect(run(INITIAL_VIEW_STATE, {type: 'next-tab'}).detailTab).toBe('json');
		expect(run(INITIAL_VIEW_STATE, {type: 'prev-tab'}).detailTab).toBe('chunks');
		expect(run({...INITIAL_VIEW_STATE, detailScroll: 5}, {type: 'next-tab'}).detailScroll).toBe(0);
	});

	it('scrolls the detail pane when it has focus', () => {
		const detail = {...INITIAL_VIEW_STATE, focus: 'detail' as const};
		expect(viewReducer(detail, {type: 'select-next', nav: nav(view)}).detailScroll).toBe(1);
		expect(viewReducer(detail, {type: 'select-last', nav: nav(view)}).detailScroll).toBe(22);
		expect(viewReducer(detail, {type: 'page-down', nav: nav(view)}).detailScroll).toBe(8);
	});

	it('walks findings in grouped order and scrolls their lines (group header kept in view)', () => {
		const findings = {...INITIAL_VIEW_STATE, focus: 'findings' as const};
		const second = viewReducer(findings, {type: 'select-next', nav: nav(view)});
		expect(second).toMatchObject({findingCursor: 1, findingScroll: 0});
		const third = viewReducer(second, {type: 'select-next', nav: nav(view)});
		// Finding 2 is on line 4, first of its group (header on line 3): lines 2–4 are shown.
		expect(third).toMatchObject({findingCursor: 2, findingScroll: 2});
		expect(viewReducer(third, {type: 'select-last', nav: nav(view)})).toMatchObject({
			findingCursor: 3,
			findingScroll: 4,
		});
	});

	it('follows new stderr lines at the bottom and stops when moved up', () => {
		const stderr = {...INITIAL_VIEW_STATE, focus: 'stderr' as const};
		expect(stderrCursor(stderr, 5)).toBe(4);
		const up = viewReducer(stderr, {type: 'select-prev', nav: nav(view)});
		expect(up).toMatchObject({stderrCursor: 3, stderrScroll: 2, isStderrFollowing: false});
		expect(stderrCursor(up, 9)).toBe(3);
		expect(viewReducer(up, {type: 'select-next', nav: nav(view)}).isStderrFollowing).toBe(true);
	});

	it('jumps to a finding frame: selects it, shows hex scrolled to the bytes, and clears a filter that hid it', () => {
		const filtered = {...INITIAL_VIEW_STATE, focus: 'findings' as const, filter: {...NO_FILTER, search: 'tools'}};
		const jumped = viewReducer(filtered, {type: 'jump-to-frame', frameIndex: 3, detailScroll: 4, isVisible: false});
		expect(jumped).toMatchObject({
			selected: 3,
			isFollowing: false,
			focus: 'frames',
			detailTab: 'hex',
			detailScroll: 4,
			filter: NO_FILTER,
		});
		expect(
			viewReducer(filtered, {type: 'jump-to-frame', frameIndex: 3, detailScroll: 0, isVisible: true}).filter.search,
		).toBe('tools');
	});
});

describe('view reducer: filters, search, help, send', () => {
	it('toggles streams and findings-only', () => {
		const state = run(INITIAL_VIEW_STATE, {type: 'toggle-stream', stream: 'stderr'}, {type: 'toggle-findings-only'});
		expect(state.filter).toEqual({
			streams: {stdin: true, stdout: true, stderr: false},
			isFindingsOnly: true,
			search: '',
		});
		expect(viewReducer(state, {type: 'toggle-stream', stream: 'stderr'}).filter.streams.stderr).toBe(true);
	});

	it('edits the search live, keeps it on Enter and clears it on Esc', () => {
		const typed = run(
			INITIAL_VIEW_STATE,
			{type: 'open-search'},
			{type: 'input-text', text: 'tools'},
			{type: 'input-text', text: 'x'},
			{type: 'input-backspace'},
		);
		expect(typed.input).toEqual({mode: 'search', text: 'tools'});
		expect(typed.filter.search).toBe('tools');
		const kept = viewReducer(typed, {type: 'input-commit'});
		expect(kept).toMatchObject({input: null, filter: {search: 'tools'}});
		expect(viewReducer(typed, {type: 'input-cancel'})).toMatchObject({input: null, filter: {search: ''}});
		expect(viewReducer(kept, {type: 'clear-search'}).filter.search).toBe('');
		// Reopening starts from the kept text.
		expect(viewReducer(kept, {type: 'open-search'}).input).toEqual({mode: 'search', text: 'tools'});
	});

	it('opens, scrolls and closes help', () => {
		const open = viewReducer(INITIAL_VIEW_STATE, {type: 'toggle-help'});
		expect(open.isHelpOpen).toBe(true);
		// While help is open, navigation scrolls it and leaves the frame list alone.
		const scrolled = run(
			open,
			{type: 'page-down', nav: nav(identityView(100))},
			{type: 'select-next', nav: nav(identityView(100))},
		);
		expect(scrolled).toMatchObject({helpScroll: 11, selected: -1, isFollowing: true});
		expect(viewReducer(scrolled, {type: 'select-last', nav: nav(identityView(100))}).helpScroll).toBe(30);
		expect(viewReducer(viewReducer(scrolled, {type: 'toggle-help'}), {type: 'toggle-help'}).helpScroll).toBe(0);
		expect(viewReducer(open, {type: 'close-help'}).isHelpOpen).toBe(false);
		expect(viewReducer(open, {type: 'clear-search'}).isHelpOpen).toBe(false);
	});

	it('walks the send panel: pick, edit params, error, sent', () => {
		const picking = run(
			INITIAL_VIEW_STATE,
			{type: 'open-send'},
			{type: 'send-move', move: 'next', total: 6, rows: 4},
			{type: 'send-move', move: 'next', total: 6, rows: 4},
		);
		expect(picking.input).toEqual({mode: 'send-pick', cursor: 2, scrollTop: 0});
		const editing = run(
			picking,
			{type: 'send-choose', method: 'tools/list', label: 'tools/list', text: '{}'},
			{type: 'input-backspace'},
			{type: 'input-text', text: '"x"'},
		);
		expect(editing.input).toEqual({
			mode: 'send-params',
			method: 'tools/list',
			label: 'tools/list',
			text: '{"x"',
			cursor: 4,
		});
		const failed = viewReducer(editing, {type: 'send-error', message: 'bad JSON'});
		expect(failed.input).toEqual({
			mode: 'send-params',
			method: 'tools/list',
			label: 'tools/list',
			text: '{"x"',
			cursor: 4,
			error: 'bad JSON',
		});
		// Typing clears the error.
		expect(viewReducer(failed, {type: 'input-text', text: '}'}).input).toEqual({
			mode: 'send-params',
			method: 'tools/list',
			label: 'tools/list',
			text: '{"x"}',
			cursor: 5,
		});
		const sent = viewReducer(
			{...failed, isFollowing: false, focus: 'findings'},
			{type: 'send-done', method: 'tools/list', sent: true},
		);
		expect(sent).toMatchObject({input: null, isFollowing: true, focus: 'frames', notice: 'sent tools/list'});
		// The notice lasts until the next action.
		expect(viewReducer(sent, {type: 'focus-next'}).notice).toBe('');
	});

	it('edits the params at the cursor: ←/→ and Home/End move it, Backspace and Delete erase around it', () => {
		const chosen = viewReducer(INITIAL_VIEW_STATE, {
			type: 'send-choose',
			method: 'tools/call',
			label: 'tools/call get_weather',
			text: '{"name":"get_weather","arguments":{"city":"","days":1}}',
		});
		// The cursor starts inside the first empty string of the arguments.
		expect(chosen.input).toMatchObject({text: '{"name":"get_weather","arguments":{"city":"","days":1}}', cursor: 43});
		const typed = run(chosen, {type: 'input-text', text: 'Pari'}, {type: 'input-text', text: 's'});
		expect(typed.input).toMatchObject({
			text: '{"name":"get_weather","arguments":{"city":"Paris","days":1}}',
			cursor: 48,
		});
		const moved = run(
			typed,
			{type: 'input-cursor', move: 'left'},
			{type: 'input-cursor', move: 'left'},
			{type: 'input-backspace'},
			{type: 'input-delete'},
			{type: 'input-text', text: 'R'},
		);
		expect(moved.input).toMatchObject({
			text: '{"name":"get_weather","arguments":{"city":"PaRs","days":1}}',
			cursor: 46,
		});
		const ends = run(moved, {type: 'input-cursor', move: 'home'}, {type: 'input-delete'});
		expect(ends.input).toMatchObject({text: '"name":"get_weather","arguments":{"city":"PaRs","days":1}}', cursor: 0});
		const atEnd = run(
			ends,
			{type: 'input-cursor', move: 'end'},
			{type: 'input-cursor', move: 'right'},
			{type: 'input-delete'},
		);
		expect(atEnd.input).toMatchObject({cursor: 58});
		// A code point outside the BMP moves and erases whole.
		const emoji = run(atEnd, {type: 'input-text', text: 'a😀'}, {type: 'input-cursor', move: 'left'});
		expect(emoji.input).toMatchObject({cursor: 59});
		expect(run(emoji, {type: 'input-delete'}).input).toMatchObject({
			text: `${'"name":"get_weather","arguments":{"city":"PaRs","days":1}}'}a`,
			cursor: 59,
		});
		expect(run(emoji, {type: 'input-cursor', move: 'right'}, {type: 'input-backspace'}).input).toMatchObject({
			cursor: 59,
		});
		// Without an empty argument the cursor starts at the end.
		const ping = viewReducer(INITIAL_VIEW_STATE, {type: 'send-choose', method: 'ping', label: 'ping', text: '{}'});
		expect(ping.input).toMatchObject({cursor: 2});
	});

	it('does not claim a request was sent when nothing was written (the server had exited)', () => {
		const state = {
			...INITIAL_VIEW_STATE,
			input: {mode: 'send-params' as const, method: 'ping', label: 'ping', text: '', cursor: 0},
		};
		const after = viewReducer(state, {type: 'send-done', method: 'ping', sent: false});
		expect(after.notice).toBe("ping not sent: the server's stdin is closed (it exited or is shutting down)");
		expect(after.input).toBeNull();
	});

	it('clears a notice when the action it announced ends, and only that notice', () => {
		const running = viewReducer(INITIAL_VIEW_STATE, {type: 'set-notice', text: 're-running the probe…'});
		expect(viewReducer(running, {type: 'clear-notice', text: 're-running the probe…'}).notice).toBe('');
		const other = viewReducer(running, {type: 'set-notice', text: 'no frame with a finding'});
		expect(viewReducer(other, {type: 'clear-notice', text: 're-running the probe…'}).notice).toBe(
			'no frame with a finding',
		);
	});
});
