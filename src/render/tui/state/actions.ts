import type {StreamName} from '../../../core/types.js';
import type {PaneName} from './keymap.js';
import type {FrameView} from './selectors.js';
import type {Move} from './window.js';

/**
 * The view reducer's actions (kebab-case `type`, as in ink-ui and Shopify). Actions that move through a
 * list carry the sizes they need ({@link NavContext}), so the reducer stays pure: it never reads the
 * session or the terminal.
 */

/** The sizes of every pane at the moment of a key press (built by the app from the layout and snapshot). */
export interface NavContext {
	/** The filtered frame list. */
	readonly view: FrameView;
	/** Visible rows of the frame list. */
	readonly listRows: number;
	/** Lines of the detail pane's current tab, and how many are visible. */
	readonly detailLines: number;
	readonly detailRows: number;
	/** Findings in the findings pane, its line count (group headers included), line of each finding, visible rows. */
	readonly findingCount: number;
	readonly findingLines: number;
	/** The line of the finding at an ordinal (undefined outside). */
	findingLineOf(ordinal: number): number | undefined;
	readonly findingRows: number;
	/** Stderr lines and visible rows of the stderr pane. */
	readonly stderrCount: number;
	readonly stderrRows: number;
	/** Lines of the help overlay and how many are visible (navigation scrolls it while it is open). */
	readonly helpLines: number;
	readonly helpRows: number;
}

/** A move of the params line's cursor: one code point, or to either end. */
export type InputCursorMove = 'left' | 'right' | 'home' | 'end';

/** Every action of the view reducer. */
export type ViewAction =
	| {
			readonly type: 'select-prev' | 'select-next' | 'page-up' | 'page-down' | 'select-first' | 'select-last';
			readonly nav: NavContext;
	  }
	| {readonly type: 'select-frame'; readonly frameIndex: number}
	| {
			readonly type: 'jump-to-frame';
			readonly frameIndex: number;
			/** Hex rows to scroll so the finding's first byte is in view. */
			readonly detailScroll: number;
			/** Whether the frame is shown under the current filter (if not, the filter is cleared). */
			readonly isVisible: boolean;
	  }
	| {readonly type: 'toggle-follow'; readonly view: FrameView}
	| {readonly type: 'focus-next' | 'focus-prev'}
	| {readonly type: 'set-focus'; readonly pane: PaneName}
	| {readonly type: 'next-tab' | 'prev-tab'}
	| {readonly type: 'toggle-stream'; readonly stream: StreamName}
	| {readonly type: 'toggle-findings-only'}
	| {readonly type: 'open-search'}
	| {readonly type: 'clear-search'}
	| {readonly type: 'input-text'; readonly text: string}
	/** Backspace: the code point before the cursor; `input-delete` (Delete): the one under it. */
	| {readonly type: 'input-backspace'}
	| {readonly type: 'input-delete'}
	/** Moves the send panel's params cursor (the search line edits at its end). */
	| {readonly type: 'input-cursor'; readonly move: InputCursorMove}
	| {readonly type: 'input-commit'}
	| {readonly type: 'input-cancel'}
	| {readonly type: 'toggle-help'}
	| {readonly type: 'close-help'}
	| {readonly type: 'open-send'}
	| {readonly type: 'send-move'; readonly move: Move; readonly total: number; readonly rows: number}
	| {readonly type: 'send-choose'; readonly method: string; readonly label: string; readonly text: string}
	| {readonly type: 'send-error'; readonly message: string}
	/** `sent` false: nothing was written (the server exited or its stdin is closed). */
	| {readonly type: 'send-done'; readonly method: string; readonly sent: boolean}
	| {readonly type: 'set-notice'; readonly text: string}
	/** Clear the notice when it still says `text` (the action it announced has ended). */
	| {readonly type: 'clear-notice'; readonly text: string};
