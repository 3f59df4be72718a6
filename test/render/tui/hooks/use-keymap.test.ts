import {describe, expect, it, vi} from 'vitest';
import type {Finding} from '../../../../src/core/types.js';
import {handleInput, keyOfChar, RERUN_NOTICE, type KeymapContext} from '../../../../src/render/tui/hooks/use-keymap.js';
import type {ViewAction} from '../../../../src/render/tui/state/actions.js';
import {
	findingsLayout,
	groupFindings,
	identityView,
	indexFindings,
	stderrFrames,
} from '../../../../src/render/tui/state/selectors.js';
import {INITIAL_VIEW_STATE, viewReducer, type ViewState} from '../../../../src/render/tui/state/view-reducer.js';
import {exchangeSession} from '../exchange.js';

const snapshot = exchangeSession().getSnapshot();

function context(state: ViewState, findings: readonly Finding[] = snapshot.findings) {
	const actions: ViewAction[] = [];
	const onQuit = vi.fn();
	const onSend = vi.fn();
	const layout = findingsLayout(groupFindings(findings));
	const value: KeymapContext = {
		state,
		dispatch: (action) => actions.push(action),
		nav: {
			view: identityView(snapshot.frames.length),
			listRows: 10,
			detailLines: 5,
			detailRows: 5,
			findingCount: layout.count,
			findingLines: layout.lineCount,
			findingLineOf: layout.lineOf,
			findingRows: 4,
			stderrCount: 2,
			stderrRows: 4,
			helpLines: 30,
			helpRows: 10,
		},
		frames: snapshot.frames,
		findings,
		findingsLayout: layout,
		flaggedFrames: indexFindings(findings).flaggedFrames,
		stderrLines: stderrFrames(snapshot.frames),
		perRow: 16,
		features: new Set(['send']),
		offers: [{method: 'ping', params: {}, label: 'ping'}],
		sendRows: 5,
		onQuit,
		onSend,
	};
	return {value, actions, onQuit, onSend};
}

describe('key routing', () => {
	it('splits a burst of keys from one read (two Tabs, jj) and applies them in order', () => {
		const {value, actions} = context(INITIAL_VIEW_STATE);
		handleInput('\t\t', {}, value);
		expect(actions).toEqual([{type: 'focus-next'}, {type: 'focus-next'}]);
		expect(actions.reduce(viewReducer, INITIAL_VIEW_STATE).focus).toBe('findings');
		const jj = context({...INITIAL_VIEW_STATE, selected: 0, isFollowing: false});
		handleInput('jj', {}, jj.value);
		expect(jj.actions.map((action) => action.type)).toEqual(['select-next', 'select-next']);
	});

	it('routes a burst through a mode switch: "/" opens search, the rest is search text', () => {
		const {value, actions} = context(INITIAL_VIEW_STATE);
		handleInput('/tools\r', {}, value);
		expect(actions).toEqual([{type: 'open-search'}, {type: 'input-text', text: 'tools'}, {type: 'input-commit'}]);
	});

	it('decodes control characters of a burst', () => {
		expect([keyOfChar('\t'), keyOfChar('\r'), keyOfChar('\u007F'), keyOfChar('\u0003'), keyOfChar('x')]).toEqual([
			{input: '', key: {tab: true}},
			{input: '', key: {return: true}},
			{input: '', key: {backspace: true}},
			{input: 'c', key: {ctrl: true}},
			{input: 'x', key: {}},
		]);
	});

	it('jumps from a finding to its frame, scrolled so the evidence row is in view', () => {
		const {value, actions} = context({...INITIAL_VIEW_STATE, focus: 'findings', findingCursor: 1});
		handleInput('', {return: true}, value);
		// crlf at stdout offset 167, frame 3 starts at 26: row (167 − 26) / 16 = 8, one row of context above.
		expect(actions).toEqual([{type: 'jump-to-frame', frameIndex: 3, detailScroll: 7, isVisible: true}]);
	});

	it('says so when a finding points at no frame', () => {
		const earlyExit = {...snapshot.findings[0]!, code: 'early-exit', offset: 323, byteLength: 0} as Finding;
		delete (earlyExit as {frameIndex?: number}).frameIndex;
		const {value, actions} = context({...INITIAL_VIEW_STATE, focus: 'findings'}, [earlyExit]);
		handleInput('', {return: true}, value);
		expect(actions).toEqual([{type: 'set-notice', text: 'early-exit points at no frame (stream offset 323)'}]);
	});

	it('sends parsed params, or reports bad JSON', () => {
		const bad = context({
			...INITIAL_VIEW_STATE,
			input: {mode: 'send-params', method: 'ping', label: 'ping', text: '{', cursor: 1},
		});
		handleInput('', {return: true}, bad.value);
		expect(bad.onSend).not.toHaveBeenCalled();
		expect(bad.actions[0]).toMatchObject({type: 'send-error'});
		const good = context({
			...INITIAL_VIEW_STATE,
			input: {mode: 'send-params', method: 'ping', label: 'ping', text: ' ', cursor: 1},
		});
		handleInput('', {return: true}, good.value);
		expect(good.onSend).toHaveBeenCalledWith('ping', {});
		expect(good.actions).toEqual([{type: 'send-done', method: 'ping', sent: true}]);
	});

	it('says when nothing was sent: the action returned false (the server had exited)', () => {
		const closed = context({
			...INITIAL_VIEW_STATE,
			input: {mode: 'send-params', method: 'ping', label: 'ping', text: '', cursor: 0},
		});
		closed.onSend.mockReturnValue(false);
		handleInput('', {return: true}, closed.value);
		expect(closed.actions).toEqual([{type: 'send-done', method: 'ping', sent: false}]);
	});

	it('r announces the re-run and clears that notice when the re-run is done', async () => {
		let done!: () => void;
		const rerun = new Promise<void>((resolve) => {
			done = resolve;
		});
		const {value, actions} = context(INITIAL_VIEW_STATE);
		handleInput('r', {}, {...value, features: new Set(['rerun']), onRerun: () => rerun});
		expect(actions).toEqual([{type: 'set-notice', text: RERUN_NOTICE}]);
		await Promise.resolve();
		expect(actions).toHaveLength(1);
		done();
		await rerun;
		await new Promise((resolve) => setImmediate(resolve));
		expect(actions).toEqual([
			{type: 'set-notice', text: RERUN_NOTICE},
			{type: 'clear-notice', text: RERUN_NOTICE},
		]);
	});

	it('quits on q and Ctrl+C, but q is text in the search line', () => {
		const plain = context(INITIAL_VIEW_STATE);
		handleInput('q', {}, plain.value);
		expect(plain.onQuit).toHaveBeenCalledTimes(1);
		const searching = context({...INITIAL_VIEW_STATE, input: {mode: 'search', text: ''}});
		handleInput('q', {}, searching.value);
		expect(searching.onQuit).not.toHaveBeenCalled();
		expect(searching.actions).toEqual([{type: 'input-text', text: 'q'}]);
		handleInput('c', {ctrl: true}, searching.value);
		expect(searching.onQuit).toHaveBeenCalledTimes(1);
		const help = context({...INITIAL_VIEW_STATE, isHelpOpen: true});
		handleInput('j', {}, help.value);
		handleInput('?', {}, help.value);
		expect(help.actions.map((action) => action.type)).toEqual(['select-next', 'close-help']);
	});
});
