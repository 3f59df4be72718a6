import {describe, expect, it} from 'vitest';
import {
	arrayView,
	filterFrames,
	findingsLayout,
	groupFindings,
	hexPanels,
	identityView,
	indexFindings,
	lowerBound,
	matchesSearch,
	NO_FILTER,
	promptArguments,
	sendOffers,
	statusModel,
	stderrFrames,
} from '../../../../src/render/tui/state/selectors.js';
import {exchangeSession} from '../exchange.js';

const snapshot = exchangeSession().getSnapshot();
const {frames, findings} = snapshot;
const positions = (view: {length: number; indexAt(p: number): number}): number[] =>
	Array.from({length: view.length}, (_, p) => view.indexAt(p));

describe('frame views', () => {
	it('identity view maps positions to frame indices', () => {
		const view = identityView(5);
		expect([view.indexAt(3), view.positionOf(3), view.positionOf(9), view.has(4), view.has(5)]).toEqual([
			3,
			3,
			4,
			true,
			false,
		]);
		expect(identityView(0).positionOf(0)).toBe(-1);
	});

	it('array view finds positions by binary search', () => {
		const view = arrayView([2, 5, 9]);
		expect([
			lowerBound([2, 5, 9], 6),
			view.positionOf(5),
			view.positionOf(6),
			view.positionOf(40),
			view.has(9),
			view.has(6),
		]).toEqual([2, 1, 2, 2, true, false]);
	});
});

describe('filtering', () => {
	const {severity} = indexFindings(findings);

	it('no filter is the identity view (no per-frame work)', () => {
		expect(positions(filterFrames(frames, NO_FILTER, severity))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
	});

	it('hides a direction', () => {
		const noStderr = {...NO_FILTER, streams: {stdin: true, stdout: true, stderr: false}};
		expect(positions(filterFrames(frames, noStderr, severity))).toEqual([0, 2, 3, 4, 5, 6]);
		const clientOnly = {...NO_FILTER, streams: {stdin: true, stdout: false, stderr: false}};
		expect(positions(filterFrames(frames, clientOnly, severity))).toEqual([0, 4, 5]);
	});

	it('shows only frames with findings', () => {
		expect(positions(filterFrames(frames, {...NO_FILTER, isFindingsOnly: true}, severity))).toEqual([2, 3]);
	});

	it('searches method (and the method a response answers), id and text, case-insensitively', () => {
		expect(positions(filterFrames(frames, {...NO_FILTER, search: 'TOOLS'}, severity))).toEqual([5, 6]);
		expect(positions(filterFrames(frames, {...NO_FILTER, search: 'listening'}, severity))).toEqual([2]);
		expect(positions(filterFrames(frames, {...NO_FILTER, search: '2'}, severity))).toEqual([5, 6]);
		expect(matchesSearch(frames[7]!, 'slow disk')).toBe(true);
	});
});

describe('findings', () => {
	it('indexes findings by frame with the highest severity', () => {
		const index = indexFindings(findings);
		expect([0, 1, 2, 3, 4, -1, 2.5].map((f) => index.findingsOf(f))).toEqual([[], [], [0], [1], [], [], []]);
		expect([0, 1, 2, 3, 4].map((f) => index.severity.get(f))).toEqual([
			undefined,
			undefined,
			'error',
			'warning',
			undefined,
		]);
		expect([0, 2, 3, 4].map((f) => index.severity.has(f))).toEqual([false, true, true, false]);
		expect(Array.from(index.flaggedFrames)).toEqual([2, 3]);
	});

	it('keeps the order found among the findings of one frame, and frames ascending', () => {
		const [error, warning] = [findings[0]!, findings[1]!];
		const index = indexFindings([
			{...warning, frameIndex: 7},
			{...error, frameIndex: 1},
			{...error, frameIndex: undefined},
			{...warning, frameIndex: 1},
		]);
		expect(index.findingsOf(1)).toEqual([1, 3]);
		expect(index.findingsOf(7)).toEqual([0]);
		expect(index.severity.get(1)).toBe('error');
		expect(Array.from(index.flaggedFrames)).toEqual([1, 7]);
	});

	it('groups by code, errors first, and lays out header and item lines', () => {
		const groups = groupFindings(findings);
		expect(groups).toEqual([
			{code: 'stray-output', severity: 'error', items: [0]},
			{code: 'crlf', severity: 'warning', items: [1]},
		]);
		const layout = findingsLayout(groups);
		expect(layout.lines(0, 99)).toEqual([
			{type: 'group', code: 'stray-output', severity: 'error', count: 1},
			{type: 'item', finding: 0, ordinal: 0},
			{type: 'group', code: 'crlf', severity: 'warning', count: 1},
			{type: 'item', finding: 1, ordinal: 1},
		]);
		expect([layout.lineCount, layout.count]).toEqual([4, 2]);
		expect([0, 1, 2].map((o) => [layout.findingAt(o), layout.lineOf(o)])).toEqual([
			[0, 1],
			[1, 3],
			[undefined, undefined],
		]);
		expect(layout.lines(2, 3)).toEqual([{type: 'group', code: 'crlf', severity: 'warning', count: 1}]);
		expect(layout.lineAt(4)).toBeUndefined();
	});

	it('sorts warnings after errors even when found first', () => {
		const warning = findings[1]!;
		const error = findings[0]!;
		expect(groupFindings([warning, error, warning]).map((group) => [group.code, group.items])).toEqual([
			['stray-output', [1]],
			['crlf', [0, 2]],
		]);
	});
});

describe('status, stderr, hex panels, send offers', () => {
	it('builds the status model', () => {
		expect(statusModel(snapshot)).toEqual({
			verdict: 'warn',
			streams: [
				{label: 'C→S', stream: 'stdin', frames: 3, bytes: 260},
				{label: 'S→C', stream: 'stdout', frames: 3, bytes: 323},
				{label: 'ERR', stream: 'stderr', frames: 2, bytes: 53},
			],
			errors: 1,
			warnings: 1,
			infos: 0,
			isEnded: false,
			server: 'demo',
		});
	});

	it('lists stderr frames', () => {
		expect(stderrFrames(frames)).toEqual([1, 7]);
	});

	it('picks 1, 2 or 3 hex panels by width (row width 10 + 29 per panel)', () => {
		expect([
			hexPanels(60),
			hexPanels(67),
			hexPanels(68),
			hexPanels(80),
			hexPanels(96),
			hexPanels(97),
			hexPanels(120),
		]).toEqual([1, 1, 2, 2, 2, 3, 3]);
	});

	it('offers extra requests, the listed tools with required arguments, then standard methods', () => {
		const extra = [{method: 'custom/thing', params: {a: 1}, label: 'custom'}];
		expect(sendOffers(frames, extra)).toEqual([
			{method: 'custom/thing', params: {a: 1}, label: 'custom'},
			{method: 'tools/call', params: {name: 'echo', arguments: {text: ''}}, label: 'tools/call echo'},
			{method: 'ping', params: {}, label: 'ping'},
			{method: 'tools/list', params: {}, label: 'tools/list'},
			{method: 'prompts/list', params: {}, label: 'prompts/list'},
			{method: 'resources/list', params: {}, label: 'resources/list'},
			{method: 'resources/templates/list', params: {}, label: 'resources/templates/list'},
		]);
		expect(
			promptArguments({
				name: 'review',
				arguments: [{name: 'code', required: true}, {name: 'style'}, {name: 7, required: true}, null],
			}),
		).toEqual({code: ''});
		expect(promptArguments({name: 'plain'})).toEqual({});
	});
});
