import {isAtSpawn} from '../../../core/findings/support/at-spawn.js';
import {useInput, useStdin, type Key} from 'ink';
import {useCallback, useEffect, useRef, type Dispatch} from 'react';
import type {FrameTable} from '../../../core/session/stores/frame-table.js';
import type {InputCursorMove, NavContext, ViewAction} from '../state/actions.js';
import {keyNameOf, matchKey, type Feature, type InkKeyLike} from '../state/keymap.js';
import type {FindingTable} from '../../../core/session/stores/finding-list.js';
import {lowerBound, type FindingsLayout, type FrameView, type SendOffer} from '../state/selectors.js';
import {selectedFrame, stderrCursor, viewReducer, type ViewState} from '../state/view-reducer.js';

/**
 * The one root input handler (style.md §1.3 "Keys"): ink's `useInput` is called once, here. Text-entry
 * modes (search line, send panel) and the help overlay take keys first; everything else goes through
 * the key table (state/keymap.ts) and becomes a view-reducer action or a side effect (quit, send,
 * rerun). The handler is kept in a ref, so ink subscribes once.
 */

/** What the handler needs from the current render. */
export interface KeymapContext {
	readonly state: ViewState;
	readonly dispatch: Dispatch<ViewAction>;
	readonly nav: NavContext;
	readonly frames: FrameTable;
	readonly findings: FindingTable;
	readonly findingsLayout: FindingsLayout;
	/** Frame indices with findings, ascending. */
	readonly flaggedFrames: ArrayLike<number>;
	/** Frame indices of the stderr lines. */
	readonly stderrLines: readonly number[];
	/** Bytes per hex row (to scroll a finding's bytes into view). */
	readonly perRow: number;
	readonly features: ReadonlySet<Feature>;
	/** The send panel's offers (computed while it is open). */
	readonly offers: readonly SendOffer[];
	/** Rows of the send panel's list. */
	readonly sendRows: number;
	readonly onQuit: () => void;
	/** Returns false when nothing was sent (the server's stdin is closed). */
	readonly onSend?: (method: string, params: unknown) => boolean | void;
	/** May return a promise that settles when the re-run is done (its notice is then cleared). */
	readonly onRerun?: () => void | Promise<unknown>;
}

/** The footer notice while a re-run is in progress (cleared when it is done). */
export const RERUN_NOTICE = 're-running the probe…';

/**
 * Key flags of one key press: ink's {@link Key}, of which only these are read, and `forwardDelete` for the
 * Delete key (`ESC [3~`), which ink reports as `delete` like Backspace (DEL, 0x7F) on most terminals.
 */
export type KeyPress = InkKeyLike & {readonly meta?: boolean; readonly forwardDelete?: boolean};

/** The cursor moves of the params line's keys (←/→, Home/End). */
const CURSOR_KEYS: Readonly<Partial<Record<string, InputCursorMove>>> = {
	left: 'left',
	right: 'right',
	home: 'home',
	end: 'end',
};

function isPrintable(input: string, key: KeyPress): boolean {
	return input !== '' && !key.ctrl && !key.meta && keyNameOf(key) === undefined;
}

/** Handles one key press (exported for tests of the routing rules). */
export function handleKey(input: string, key: KeyPress, context: KeymapContext): void {
	const {state} = context;
	if (state.input?.mode === 'search') return handleSearchKey(input, key, context);
	if (state.input?.mode === 'send-pick') return handleSendPickKey(input, key, context, state.input.cursor);
	if (state.input?.mode === 'send-params')
		return handleSendParamsKey(input, key, context, state.input.method, state.input.text);
	const action = matchKey(input, key, state.focus, context.features);
	if (state.isHelpOpen) return handleHelpKey(input, key, context, action);
	if (action !== undefined) handleAction(action, context);
}

type KeyAction = NonNullable<ReturnType<typeof matchKey>>;

/** Keys that move a cursor or page through whatever is focused. */
const MOVES = ['select-prev', 'select-next', 'page-up', 'page-down', 'select-first', 'select-last'] as const;
const isMove = (action: KeyAction | undefined): action is (typeof MOVES)[number] =>
	(MOVES as readonly (KeyAction | undefined)[]).includes(action);

/** The search line: Enter commits, Escape cancels, Backspace and printable keys edit; Ctrl+C quits. */
function handleSearchKey(input: string, key: KeyPress, context: KeymapContext): void {
	const {dispatch} = context;
	const name = keyNameOf(key);
	if (key.ctrl && input === 'c') context.onQuit();
	else if (name === 'return') dispatch({type: 'input-commit'});
	else if (name === 'escape') dispatch({type: 'input-cancel'});
	else if (name === 'backspace') dispatch({type: 'input-backspace'});
	else if (isPrintable(input, key)) dispatch({type: 'input-text', text: input});
}

/** The send panel's list: move (arrows, j/k, pages), Enter picks the offer under the cursor, Escape cancels. */
function handleSendPickKey(input: string, key: KeyPress, context: KeymapContext, cursor: number): void {
	const {dispatch} = context;
	const name = keyNameOf(key);
	const move =
		name === 'up' || input === 'k'
			? 'prev'
			: name === 'down' || input === 'j'
				? 'next'
				: name === 'pageUp'
					? 'page-up'
					: name === 'pageDown'
						? 'page-down'
						: undefined;
	if (key.ctrl && input === 'c') {
		context.onQuit();
	} else if (move) {
		dispatch({type: 'send-move', move, total: context.offers.length, rows: context.sendRows});
	} else if (name === 'return') {
		const offer = context.offers[cursor];
		if (offer)
			dispatch({type: 'send-choose', method: offer.method, label: offer.label, text: JSON.stringify(offer.params)});
	} else if (name === 'escape') {
		dispatch({type: 'input-cancel'});
	}
}

/**
 * The send panel's params line: Enter sends (the text must be JSON; empty is `{}`), Escape cancels; ←/→
 * and Home/End move the cursor, Backspace and Delete erase before and under it, printable keys insert.
 */
function handleSendParamsKey(input: string, key: KeyPress, context: KeymapContext, method: string, text: string): void {
	const {dispatch} = context;
	const name = keyNameOf(key);
	if (key.ctrl && input === 'c') {
		context.onQuit();
	} else if (name === 'return') {
		let params: unknown;
		try {
			params = text.trim() === '' ? {} : JSON.parse(text);
		} catch (error) {
			dispatch({type: 'send-error', message: `params are not JSON: ${(error as Error).message}`});
			return;
		}
		const sent = context.onSend?.(method, params);
		dispatch({type: 'send-done', method, sent: sent !== false});
	} else if (name === 'escape') {
		dispatch({type: 'input-cancel'});
	} else if (key.forwardDelete) {
		dispatch({type: 'input-delete'});
	} else if (name === 'backspace') {
		dispatch({type: 'input-backspace'});
	} else if (name !== undefined && CURSOR_KEYS[name] !== undefined) {
		dispatch({type: 'input-cursor', move: CURSOR_KEYS[name]});
	} else if (isPrintable(input, key)) {
		dispatch({type: 'input-text', text: input});
	}
}

/** The help overlay: q or Ctrl+C quits, ? or Escape closes it, the moves scroll it. */
function handleHelpKey(input: string, key: KeyPress, context: KeymapContext, action: KeyAction | undefined): void {
	const {dispatch} = context;
	const isQuit = (key.ctrl && input === 'c') || (input === 'q' && !key.ctrl);
	if (isQuit) context.onQuit();
	else if (input === '?' || keyNameOf(key) === 'escape') dispatch({type: 'close-help'});
	else if (isMove(action)) dispatch({type: action, nav: context.nav});
}

/** One action of the key table, on the main screen. */
function handleAction(action: KeyAction, context: KeymapContext): void {
	const {dispatch, nav} = context;
	switch (action) {
		case 'select-prev':
		case 'select-next':
		case 'page-up':
		case 'page-down':
		case 'select-first':
		case 'select-last':
			dispatch({type: action, nav});
			return;
		case 'focus-next':
		case 'focus-prev':
		case 'prev-tab':
		case 'next-tab':
		case 'toggle-findings-only':
		case 'open-search':
		case 'clear-search':
		case 'toggle-help':
		case 'open-send':
			dispatch({type: action});
			return;
		case 'toggle-stdin':
		case 'toggle-stdout':
		case 'toggle-stderr':
			dispatch({
				type: 'toggle-stream',
				stream: action === 'toggle-stdin' ? 'stdin' : action === 'toggle-stdout' ? 'stdout' : 'stderr',
			});
			return;
		case 'toggle-follow':
			dispatch({type: 'toggle-follow', view: nav.view});
			return;
		case 'open-detail':
			dispatch({type: 'set-focus', pane: 'detail'});
			return;
		case 'jump-to-frame':
			jumpToFrame(context);
			return;
		case 'next-flagged':
		case 'prev-flagged':
			jumpToFlagged(context, action === 'next-flagged' ? 1 : -1);
			return;
		case 'rerun':
			dispatch({type: 'set-notice', text: RERUN_NOTICE});
			void Promise.resolve(context.onRerun?.()).finally(() => dispatch({type: 'clear-notice', text: RERUN_NOTICE}));
			return;
		case 'quit':
			context.onQuit();
			return;
		case 'input-commit':
		case 'input-cancel':
		case 'input-cursor':
		case 'input-erase':
			return;
	}
}

/**
 * `n` / `N`: the next (or previous) frame with a finding in the view, wrapping around (as `n` does in less
 * and vim, so the fault is found wherever the cursor is), with a notice when it wrapped or found none.
 */
function jumpToFlagged(context: KeymapContext, direction: 1 | -1): void {
	const {state, dispatch, nav} = context;
	const current = selectedFrame(state, nav.view);
	const flagged = context.flaggedFrames;
	if (direction === 1) {
		for (let i = lowerBound(flagged, current + 1); i < flagged.length; i++) {
			if (nav.view.has(flagged[i]!)) return dispatch({type: 'select-frame', frameIndex: flagged[i]!});
		}
	} else {
		for (let i = lowerBound(flagged, current) - 1; i >= 0; i--) {
			if (nav.view.has(flagged[i]!)) return dispatch({type: 'select-frame', frameIndex: flagged[i]!});
		}
	}
	const wrapped = firstShown(flagged, direction, nav.view);
	if (wrapped !== undefined && wrapped !== current) {
		dispatch({type: 'select-frame', frameIndex: wrapped});
		dispatch({
			type: 'set-notice',
			text: direction === 1 ? 'wrapped to the first frame with a finding' : 'wrapped to the last frame with a finding',
		});
		return;
	}
	if (wrapped === undefined && context.findings.length > 0) {
		// Findings of no frame (an early exit, a spawn failure): the findings pane is where they are.
		dispatch({type: 'set-focus', pane: 'findings'});
		dispatch({
			type: 'set-notice',
			text: `no frame carries a finding: the findings pane lists ${context.findings.length === 1 ? 'it' : `all ${context.findings.length}`}`,
		});
		return;
	}
	dispatch({
		type: 'set-notice',
		text: wrapped === current ? 'this is the only frame with a finding' : 'no frame with a finding',
	});
}

/** The first (direction 1) or last (-1) of the ascending `flagged` frames that `view` shows. */
function firstShown(flagged: ArrayLike<number>, direction: 1 | -1, view: FrameView): number | undefined {
	for (let k = 0; k < flagged.length; k++) {
		const frameIndex = flagged[direction === 1 ? k : flagged.length - 1 - k]!;
		if (view.has(frameIndex)) return frameIndex;
	}

	return undefined;
}

function jumpToFrame(context: KeymapContext): void {
	const {state, dispatch, nav} = context;
	if (state.focus === 'stderr') {
		const cursor = stderrCursor(state, context.stderrLines.length);
		const frameIndex = context.stderrLines[cursor];
		if (frameIndex !== undefined) {
			dispatch({type: 'jump-to-frame', frameIndex, detailScroll: 0, isVisible: nav.view.has(frameIndex)});
		}

		return;
	}

	const finding = context.findings.at(context.findingsLayout.findingAt(state.findingCursor) ?? -1);
	if (!finding) {
		return;
	}

	const frame = finding.frameIndex === undefined ? undefined : context.frames.at(finding.frameIndex);
	if (!frame) {
		dispatch({
			type: 'set-notice',
			text: isAtSpawn(finding)
				? `${finding.code} points at no frame (the command did not start)`
				: `${finding.code} points at no frame (stream offset ${finding.offset})`,
		});
		return;
	}

	const row = Math.floor(Math.max(0, finding.offset - frame.offset) / context.perRow);
	dispatch({
		type: 'jump-to-frame',
		frameIndex: finding.frameIndex!,
		detailScroll: Math.max(0, row - 1),
		isVisible: nav.view.has(finding.frameIndex!),
	});
}

/** The key flags of one character of a multi-character input (`\t`, `\r`, DEL, Ctrl+C, or a printable). */
export function keyOfChar(char: string): {input: string; key: KeyPress} {
	switch (char) {
		case '\t': {
			return {input: '', key: {tab: true}};
		}

		case '\r':
		case '\n': {
			return {input: '', key: {return: true}};
		}

		case '\u007F':
		case '\b': {
			return {input: '', key: {backspace: true}};
		}

		case '\u0003': {
			return {input: 'c', key: {ctrl: true}};
		}

		default: {
			return {input: char, key: {}};
		}
	}
}

/**
 * Feeds one ink input event to {@link handleKey}. ink delivers a burst of plain characters (`jj`, two
 * Tabs sent at once, a paste) as one event: outside text entry each character is handled as its own key,
 * with the state advanced by the reducer between them so a mode switch inside the burst routes the rest
 * correctly; inside text entry printable text is inserted whole.
 */
export function handleInput(input: string, key: KeyPress, context: KeymapContext): void {
	let local = context.state;
	const localContext: KeymapContext = {
		...context,
		dispatch(action) {
			local = viewReducer(local, action);
			context.dispatch(action);
		},
	};
	const isBurst = [...input].length > 1 && !key.ctrl && !key.meta && keyNameOf(key) === undefined;
	if (!isBurst) {
		handleKey(input, key, localContext);
		return;
	}

	let text = '';
	const flushText = (): void => {
		if (text !== '') {
			handleKey(text, {}, {...localContext, state: local});
			text = '';
		}
	};

	for (const char of input) {
		const isTextEntry = local.input?.mode === 'search' || local.input?.mode === 'send-params';
		const press = keyOfChar(char);
		if (isTextEntry && press.input === char && char >= ' ') {
			text += char;
			continue;
		}

		flushText();
		handleKey(press.input, press.key, {...localContext, state: local});
	}

	flushText();
}

/** What the Delete key sends (xterm, VT220): ink names it `delete`, as it does DEL (Backspace). */
const DELETE_KEY = '\u001B[3~';

/**
 * The raw sequence of the key being handled: ink's input event, heard before `useInput`'s handler (this
 * listener subscribes first, in the same component), since ink's key flags do not tell Delete from
 * Backspace.
 */
function useLastSequence(): {readonly current: string} {
	// Internal on purpose: ink 6 names DEL and ESC [3~ both `delete`, useInput gets no sequence; ink 7 splits them but needs Node >= 22.
	const {internal_eventEmitter: emitter} = useStdin();
	const ref = useRef('');
	useEffect(() => {
		const listener = (data: string): void => {
			ref.current = data;
		};
		emitter.on('input', listener);
		return () => {
			emitter.removeListener('input', listener);
		};
	}, [emitter]);
	return ref;
}

/**
 * Subscribes the root handler to ink's input once. Each key uses the latest render's context, and the
 * view state as advanced by the keys already handled: ink may deliver several key events (`↓` then
 * Enter from one read) before React re-renders, and the second must see the first's effect.
 */
export function useKeymap(context: KeymapContext): void {
	const ref = useRef(context);
	const stateRef = useRef(context.state);
	const lastSequence = useLastSequence();
	ref.current = context;
	stateRef.current = context.state;
	const handler = useCallback(
		(input: string, key: Key) => {
			const current = ref.current;
			const press: KeyPress = key.delete && lastSequence.current === DELETE_KEY ? {...key, forwardDelete: true} : key;
			handleInput(input, press, {
				...current,
				state: stateRef.current,
				dispatch(action) {
					stateRef.current = viewReducer(stateRef.current, action);
					current.dispatch(action);
				},
			});
		},
		[lastSequence],
	);
	useInput(handler);
}
