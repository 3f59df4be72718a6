/**
 * The one key table (style.md §1.3 "Keys"; mitmproxy's `defaultkeys.py`, gemini's `keyBindings.ts`): it
 * drives input handling (`matchKey`) and generates the `?` help overlay and the footer hints, so they
 * cannot drift apart. Text-entry modes (the `/` search line and the `s` send panel) take keys before the
 * table; their keys are listed in the table under the `input` context for the help.
 */

/** The pane that has focus (Tab cycles them in this order). */
export type PaneName = 'frames' | 'detail' | 'findings' | 'stderr';

/** Panes in Tab order. */
export const PANES: readonly PaneName[] = ['frames', 'detail', 'findings', 'stderr'];

/** Where a binding applies: everywhere, one pane, or the text-entry modes (help only). */
export type KeyContext = 'global' | PaneName | 'input';

/** Names of the keys ink reports as flags. */
export type KeyName =
	| 'up'
	| 'down'
	| 'left'
	| 'right'
	| 'pageUp'
	| 'pageDown'
	| 'home'
	| 'end'
	| 'return'
	| 'escape'
	| 'tab'
	| 'shiftTab'
	| 'backspace';

/** One way to press a binding: a printable input (`'j'`, `'?'`), a named key, or Ctrl + a letter. */
export interface KeySpec {
	readonly input?: string;
	readonly key?: KeyName;
	readonly ctrl?: boolean;
}

/** Names of what a key does; the keymap hook turns them into view-reducer actions or side effects. */
export type KeyAction =
	| 'select-prev'
	| 'select-next'
	| 'page-up'
	| 'page-down'
	| 'select-first'
	| 'select-last'
	| 'focus-next'
	| 'focus-prev'
	| 'prev-tab'
	| 'next-tab'
	| 'open-detail'
	| 'jump-to-frame'
	| 'next-flagged'
	| 'prev-flagged'
	| 'toggle-stdin'
	| 'toggle-stdout'
	| 'toggle-stderr'
	| 'toggle-findings-only'
	| 'open-search'
	| 'clear-search'
	| 'toggle-follow'
	| 'toggle-help'
	| 'open-send'
	| 'rerun'
	| 'quit'
	| 'input-commit'
	| 'input-cancel'
	| 'input-cursor'
	| 'input-erase';

/** Optional features a binding may need (`s` and `r` exist only when the caller provides the action). */
export type Feature = 'send' | 'rerun';

/** One row of the key table. */
export interface KeyBinding {
	readonly keys: readonly KeySpec[];
	/** How the keys are shown in help and hints (`↑/k`). */
	readonly label: string;
	readonly action: KeyAction;
	/** One line for the help overlay. */
	readonly help: string;
	readonly context: KeyContext;
	readonly requires?: Feature;
	/** Short text for the footer hints; bindings without one are shown only in help. */
	readonly hint?: string;
}

/** The key table. Pane-specific bindings come before global ones with the same key. */
export const KEYMAP: readonly KeyBinding[] = [
	{
		keys: [{key: 'return'}],
		label: 'Enter',
		action: 'open-detail',
		help: 'show the selected frame in the detail pane',
		context: 'frames',
	},
	{
		keys: [{key: 'return'}],
		label: 'Enter',
		action: 'jump-to-frame',
		help: "jump to the finding's frame (hex, bytes highlighted)",
		context: 'findings',
		hint: 'jump',
	},
	{
		keys: [{key: 'return'}],
		label: 'Enter',
		action: 'jump-to-frame',
		help: 'jump to the stderr line in the frame list',
		context: 'stderr',
	},
	{
		keys: [{key: 'up'}, {input: 'k'}],
		label: '↑/k',
		action: 'select-prev',
		help: 'previous frame / finding / line; scroll detail up',
		context: 'global',
	},
	{
		keys: [{key: 'down'}, {input: 'j'}],
		label: '↓/j',
		action: 'select-next',
		help: 'next frame / finding / line; scroll detail down',
		context: 'global',
	},
	{keys: [{key: 'pageUp'}], label: 'PgUp', action: 'page-up', help: 'one page up', context: 'global'},
	{keys: [{key: 'pageDown'}], label: 'PgDn', action: 'page-down', help: 'one page down', context: 'global'},
	{keys: [{input: 'g'}, {key: 'home'}], label: 'g/Home', action: 'select-first', help: 'first row', context: 'global'},
	{
		keys: [{input: 'G'}, {key: 'end'}],
		label: 'G/End',
		action: 'select-last',
		help: 'last row (frames: follow the tail again)',
		context: 'global',
	},
	{
		keys: [{key: 'tab'}],
		label: 'Tab',
		action: 'focus-next',
		help: 'next pane (frames, detail, findings, stderr)',
		context: 'global',
		hint: 'pane',
	},
	{keys: [{key: 'shiftTab'}], label: 'S-Tab', action: 'focus-prev', help: 'previous pane', context: 'global'},
	{
		keys: [{key: 'left'}, {input: 'h'}],
		label: '←/h',
		action: 'prev-tab',
		help: 'previous detail tab (hex, json, raw, chunks)',
		context: 'global',
	},
	{
		keys: [{key: 'right'}, {input: 'l'}],
		label: '→/l',
		action: 'next-tab',
		help: 'next detail tab',
		context: 'global',
		hint: 'tab',
	},
	{
		keys: [{input: 'n'}],
		label: 'n',
		action: 'next-flagged',
		help: 'next frame with a finding',
		context: 'global',
		hint: 'next fault',
	},
	{keys: [{input: 'N'}], label: 'N', action: 'prev-flagged', help: 'previous frame with a finding', context: 'global'},
	{
		keys: [{input: 'i'}],
		label: 'i',
		action: 'toggle-stdin',
		help: 'show/hide C→S frames (server stdin)',
		context: 'global',
	},
	{
		keys: [{input: 'o'}],
		label: 'o',
		action: 'toggle-stdout',
		help: 'show/hide S→C frames (server stdout)',
		context: 'global',
	},
	{
		keys: [{input: 'e'}],
		label: 'e',
		action: 'toggle-stderr',
		help: 'show/hide ERR lines (server stderr)',
		context: 'global',
	},
	{
		keys: [{input: 'f'}],
		label: 'f',
		action: 'toggle-findings-only',
		help: 'only frames with findings',
		context: 'global',
	},
	{
		keys: [{input: '/'}],
		label: '/',
		action: 'open-search',
		help: 'search method, id or text',
		context: 'global',
		hint: 'search',
	},
	{
		keys: [{key: 'escape'}],
		label: 'Esc',
		action: 'clear-search',
		help: 'clear the search and close help',
		context: 'global',
	},
	{keys: [{input: 'F'}], label: 'F', action: 'toggle-follow', help: 'follow the tail on/off', context: 'global'},
	{
		keys: [{input: 's'}],
		label: 's',
		action: 'open-send',
		help: 'send a request (pick a method, edit params)',
		context: 'global',
		requires: 'send',
		hint: 'send',
	},
	{
		keys: [{input: 'r'}],
		label: 'r',
		action: 'rerun',
		help: 're-run the probe with a fresh process',
		context: 'global',
		requires: 'rerun',
		hint: 'rerun',
	},
	{keys: [{input: '?'}], label: '?', action: 'toggle-help', help: 'this help', context: 'global', hint: 'help'},
	{
		keys: [{input: 'q'}, {input: 'c', ctrl: true}],
		label: 'q/^C',
		action: 'quit',
		help: 'quit and restore the terminal',
		context: 'global',
		hint: 'quit',
	},
	{
		keys: [{key: 'return'}],
		label: 'Enter',
		action: 'input-commit',
		help: 'search: keep the filter; send: next step / send',
		context: 'input',
	},
	{
		keys: [{key: 'escape'}],
		label: 'Esc',
		action: 'input-cancel',
		help: 'search: clear; send: cancel',
		context: 'input',
	},
	{
		keys: [{key: 'left'}, {key: 'right'}],
		label: '←/→',
		action: 'input-cursor',
		help: 'send params: move the cursor',
		context: 'input',
	},
	{
		keys: [{key: 'home'}],
		label: 'Home',
		action: 'input-cursor',
		help: 'send params: cursor to the start',
		context: 'input',
	},
	{
		keys: [{key: 'end'}],
		label: 'End',
		action: 'input-cursor',
		help: 'send params: cursor to the end',
		context: 'input',
	},
	{
		keys: [{key: 'backspace'}],
		label: 'Bksp',
		action: 'input-erase',
		help: 'erase before the cursor (search: the last character)',
		context: 'input',
	},
	// Delete (ESC [3~) reaches ink as Backspace does; the keymap hook tells them apart by the sequence.
	{keys: [], label: 'Del', action: 'input-erase', help: 'send params: erase under the cursor', context: 'input'},
];

/** The key flags ink's `useInput` reports (the subset the table uses). */
export interface InkKeyLike {
	readonly upArrow?: boolean;
	readonly downArrow?: boolean;
	readonly leftArrow?: boolean;
	readonly rightArrow?: boolean;
	readonly pageUp?: boolean;
	readonly pageDown?: boolean;
	readonly home?: boolean;
	readonly end?: boolean;
	readonly return?: boolean;
	readonly escape?: boolean;
	readonly tab?: boolean;
	readonly shift?: boolean;
	readonly backspace?: boolean;
	readonly delete?: boolean;
	readonly ctrl?: boolean;
}

/** The named key an ink key event stands for, if any. */
export function keyNameOf(key: InkKeyLike): KeyName | undefined {
	if (key.tab) {
		return key.shift ? 'shiftTab' : 'tab';
	}

	if (key.upArrow) return 'up';
	if (key.downArrow) return 'down';
	if (key.leftArrow) return 'left';
	if (key.rightArrow) return 'right';
	if (key.pageUp) return 'pageUp';
	if (key.pageDown) return 'pageDown';
	if (key.home) return 'home';
	if (key.end) return 'end';
	if (key.return) return 'return';
	if (key.escape) return 'escape';
	if (key.backspace || key.delete) return 'backspace';
	return undefined;
}

function specMatches(spec: KeySpec, input: string, key: InkKeyLike): boolean {
	if (spec.key !== undefined) {
		return keyNameOf(key) === spec.key;
	}

	if (spec.ctrl) {
		return key.ctrl === true && input === spec.input;
	}

	return key.ctrl !== true && keyNameOf(key) === undefined && input === spec.input;
}

function isAvailable(binding: KeyBinding, features: ReadonlySet<Feature>): boolean {
	return binding.requires === undefined || features.has(binding.requires);
}

/**
 * The action of a key press in a pane: the pane's own binding first, then a global one.
 * @param input the text ink reports (`'j'`, `''` for named keys).
 * @param key ink's key flags.
 * @param focus the focused pane.
 * @param features the optional features available (`send`, `rerun`).
 * @returns the action, or undefined when the key is not bound there.
 */
export function matchKey(
	input: string,
	key: InkKeyLike,
	focus: PaneName,
	features: ReadonlySet<Feature>,
): KeyAction | undefined {
	for (const context of [focus, 'global'] as const) {
		for (const binding of KEYMAP) {
			if (
				binding.context === context &&
				isAvailable(binding, features) &&
				binding.keys.some((spec) => specMatches(spec, input, key))
			) {
				return binding.action;
			}
		}
	}

	return undefined;
}

/** One section of the help overlay. */
export interface HelpSection {
	readonly title: string;
	readonly rows: readonly {readonly keys: string; readonly help: string}[];
}

const CONTEXT_TITLE: Readonly<Record<KeyContext, string>> = {
	global: 'Everywhere',
	frames: 'Frame list',
	detail: 'Detail pane',
	findings: 'Findings pane',
	stderr: 'Stderr pane',
	input: 'Search line and send panel',
};

/** The help overlay's sections, generated from {@link KEYMAP} (only bindings whose feature is available). */
export function helpSections(features: ReadonlySet<Feature>): HelpSection[] {
	const order: KeyContext[] = ['global', 'frames', 'findings', 'stderr', 'detail', 'input'];
	return order
		.map((context) => ({
			title: CONTEXT_TITLE[context],
			rows: KEYMAP.filter((binding) => binding.context === context && isAvailable(binding, features)).map(
				(binding) => ({keys: binding.label, help: binding.help}),
			),
		}))
		.filter((section) => section.rows.length > 0);
}

/** The footer hints (`Tab pane  / search  ? help  q quit`), generated from {@link KEYMAP}. */
export function hintText(features: ReadonlySet<Feature>, focus: PaneName): string {
	return KEYMAP.filter(
		(binding) =>
			binding.hint !== undefined &&
			isAvailable(binding, features) &&
			(binding.context === 'global' || binding.context === focus),
	)
		.map((binding) => `${binding.label} ${binding.hint!}`)
		.join('  ');
}
