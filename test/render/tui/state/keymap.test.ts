import {describe, expect, it} from 'vitest';
import {helpSections, hintText, KEYMAP, matchKey, type Feature} from '../../../../src/render/tui/state/keymap.js';

const none = new Set<Feature>();
const all = new Set<Feature>(['send', 'rerun']);

describe('keymap', () => {
	it('maps letters, arrows and named keys to actions', () => {
		expect(matchKey('j', {}, 'frames', none)).toBe('select-next');
		expect(matchKey('', {downArrow: true}, 'frames', none)).toBe('select-next');
		expect(matchKey('k', {}, 'findings', none)).toBe('select-prev');
		expect(matchKey('', {pageDown: true}, 'frames', none)).toBe('page-down');
		expect(matchKey('G', {shift: true}, 'frames', none)).toBe('select-last');
		expect(matchKey('', {end: true}, 'frames', none)).toBe('select-last');
		expect(matchKey('g', {}, 'frames', none)).toBe('select-first');
		expect(matchKey('', {tab: true}, 'frames', none)).toBe('focus-next');
		expect(matchKey('', {tab: true, shift: true}, 'frames', none)).toBe('focus-prev');
		expect(matchKey('/', {}, 'frames', none)).toBe('open-search');
		expect(matchKey('?', {}, 'frames', none)).toBe('toggle-help');
		expect(matchKey('q', {}, 'frames', none)).toBe('quit');
		expect(matchKey('c', {ctrl: true}, 'frames', none)).toBe('quit');
		expect(matchKey('c', {}, 'frames', none)).toBeUndefined();
		expect(matchKey('x', {}, 'frames', none)).toBeUndefined();
	});

	it('gives Enter a meaning per pane', () => {
		expect(matchKey('', {return: true}, 'frames', none)).toBe('open-detail');
		expect(matchKey('', {return: true}, 'findings', none)).toBe('jump-to-frame');
		expect(matchKey('', {return: true}, 'stderr', none)).toBe('jump-to-frame');
		expect(matchKey('', {return: true}, 'detail', none)).toBeUndefined();
	});

	it('binds s and r only when the actions exist', () => {
		expect(matchKey('s', {}, 'frames', none)).toBeUndefined();
		expect(matchKey('r', {}, 'frames', none)).toBeUndefined();
		expect(matchKey('s', {}, 'frames', all)).toBe('open-send');
		expect(matchKey('r', {}, 'frames', all)).toBe('rerun');
	});

	it('has no key bound twice in one context', () => {
		const seen = new Set<string>();
		const duplicates: string[] = [];
		for (const binding of KEYMAP) {
			for (const spec of binding.keys) {
				const id = `${binding.context}:${spec.key ?? ''}:${spec.input ?? ''}:${spec.ctrl ? 'ctrl' : ''}`;
				if (seen.has(id)) duplicates.push(id);
				seen.add(id);
			}
		}

		expect(duplicates).toEqual([]);
	});

	it('generates the help from the same table', () => {
		const sections = helpSections(none);
		expect(sections.map((section) => section.title)).toEqual([
			'Everywhere',
			'Frame list',
			'Findings pane',
			'Stderr pane',
			'Search line and send panel',
		]);
		expect(sections[0]!.rows.slice(0, 3)).toEqual([
			{keys: '↑/k', help: 'previous frame / finding / line; scroll detail up'},
			{keys: '↓/j', help: 'next frame / finding / line; scroll detail down'},
			{keys: 'PgUp', help: 'one page up'},
		]);
		expect(sections[0]!.rows.some((row) => row.keys === 's')).toBe(false);
		expect(helpSections(all)[0]!.rows.filter((row) => row.keys === 's' || row.keys === 'r')).toEqual([
			{keys: 's', help: 'send a request (pick a method, edit params)'},
			{keys: 'r', help: 're-run the probe with a fresh process'},
		]);
	});

	it("lists the params editor's cursor and erase keys under the search line and send panel", () => {
		expect(helpSections(none).at(-1)).toEqual({
			title: 'Search line and send panel',
			rows: [
				{keys: 'Enter', help: 'search: keep the filter; send: next step / send'},
				{keys: 'Esc', help: 'search: clear; send: cancel'},
				{keys: '←/→', help: 'send params: move the cursor'},
				{keys: 'Home', help: 'send params: cursor to the start'},
				{keys: 'End', help: 'send params: cursor to the end'},
				{keys: 'Bksp', help: 'erase before the cursor (search: the last character)'},
				{keys: 'Del', help: 'send params: erase under the cursor'},
			],
		});
		// Help only: on the main screen these keys keep their pane bindings (← is the previous detail tab).
		expect(matchKey('', {leftArrow: true}, 'frames', none)).toBe('prev-tab');
		expect(matchKey('', {home: true}, 'frames', none)).toBe('select-first');
	});

	it('generates the footer hints from the same table', () => {
		expect(hintText(none, 'frames')).toBe('Tab pane  →/l tab  n next fault  / search  ? help  q/^C quit');
		expect(hintText(all, 'findings')).toBe(
			'Enter jump  Tab pane  →/l tab  n next fault  / search  s send  r rerun  ? help  q/^C quit',
		);
	});
});
