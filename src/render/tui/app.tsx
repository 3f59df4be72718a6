import {Box, Text, useApp} from 'ink';
import {useMemo, useReducer, useSyncExternalStore, type ComponentProps} from 'react';
import type {TableStore as SessionStore} from '../../core/session/stores/frame-table.js';
import {findingsSplit} from './components/findings-pane.js';
import {Footer} from './components/footer.js';
import {FrameList} from './components/frame-list.js';
import {HelpOverlay, helpLayout} from './components/help-overlay.js';
import {LowerPane} from './components/lower-pane.js';
import {sendListRows} from './components/send-panel.js';
import {StatusBar} from './components/status-bar.js';
import {TabBar} from './components/tab-bar.js';
import {useDetailContent} from './hooks/use-detail-content.js';
import {useKeymap, type KeymapContext} from './hooks/use-keymap.js';
import {useSession} from './hooks/use-session.js';
import {useSessionClock} from './hooks/use-session-clock.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import type {NavContext} from './state/actions.js';
import {helpSections, hintText, type Feature} from './state/keymap.js';
import {progressText, type LoadProgress, type LoadProgressStore} from './state/loading.js';
import {MIN_COLUMNS, MIN_ROWS, screenLayout} from './state/layout.js';
import {
	filterFrames,
	findingsLayout,
	gapBytes,
	groupFindings,
	hexPanels,
	indexFindings,
	pendingHandshake,
	sendOffers,
	statusModel,
	stderrFrames,
	type SendOffer,
} from './state/selectors.js';
import {frameCursor, INITIAL_VIEW_STATE, stderrCursor, viewReducer, type ViewState} from './state/view-reducer.js';
import {maxScrollTop, visibleSlice} from './state/window.js';
import {useTheme} from './theme.js';

/**
 * The line shown instead of the screen when the terminal is smaller than {@link MIN_COLUMNS}×{@link MIN_ROWS}:
 * the minimum comes first and the line wraps, so a narrow terminal still shows it.
 */
export function tooSmallMessage(columns: number, rows: number): string {
	return `mcp-wire needs at least ${MIN_COLUMNS}×${MIN_ROWS}; this terminal is ${columns}×${rows}. Enlarge it, or q to quit.`;
}

/** Optional actions of an interactive probe (shown as `s` and `r` only when provided). */
export interface TuiActions {
	/** Send a JSON-RPC request to the server (the probe writes it to the server's stdin); false when nothing was written. */
	send?(method: string, params: unknown): boolean | void;
	/** Re-run the probe with a fresh process; may return the new session to show. */
	rerun?(): SessionStore | void | Promise<SessionStore | void>;
	/** Extra requests offered first by `s` (the listed tools, prompts and resources are offered anyway). */
	tools?: readonly SendOffer[];
}

/** Props of {@link App}. */
export interface AppProps {
	readonly store: SessionStore;
	readonly actions?: TuiActions;
	/** Called with the new store when `actions.rerun` returns one. */
	readonly onStore?: (store: SessionStore) => void;
	/** How long the probe waits for the `initialize` reply (ms), shown while it waits; absent: not known (a tap). */
	readonly waitLimitMs?: number;
	/**
	 * `view` on a capture still being read: until it is done the status says LOAD (never OK) and a progress
	 * line shows frames, bytes and percent read. Absent: the session is live or complete.
	 */
	readonly loading?: LoadProgressStore;
}

const NO_LOAD = (): undefined => undefined;
const NO_SUBSCRIPTION = (): (() => void) => () => undefined;

/** The screen with one row less for the lower pane: the load's progress line, or an incomplete capture's sentence. */
function withExtraLine(layout: ReturnType<typeof screenLayout>): ReturnType<typeof screenLayout> {
	return {
		...layout,
		height: layout.height - 1,
		bodyRows: layout.bodyRows - 1,
		lowerRows: Math.max(1, layout.lowerRows - 1),
	};
}

/** The status bar's wait: the handshake request outstanding (seconds counted), or a server silent so far. */
function statusWaiting(
	waiting: ReturnType<typeof pendingHandshake>,
	nowTMs: number,
	limitMs: number | undefined,
	isSilent: boolean,
): {waiting?: {method?: string; elapsedMs: number; limitMs?: number}} {
	if (waiting)
		return {
			waiting: {method: waiting.method, elapsedMs: nowTMs - waiting.tMs, ...(limitMs === undefined ? {} : {limitMs})},
		};
	return isSilent ? {waiting: {elapsedMs: 0}} : {};
}

/**
 * The frame under the cursor and what is shown of the list: the filtered view, the visible slice, the
 * frame's findings, and the finding to highlight (the findings pane's cursor when it is on this frame;
 * otherwise the frame's first).
 */
function useFrameSelection(
	frames: ReturnType<typeof useSession>['frames'],
	findings: ReturnType<typeof useSession>['findings'],
	state: ViewState,
	findingIndex: ReturnType<typeof indexFindings>,
	grouped: ReturnType<typeof findingsLayout>,
	listRows: number,
) {
	const view = useMemo(
		() => filterFrames(frames, state.filter, findingIndex.severity),
		[frames, state.filter, findingIndex],
	);
	const cursor = frameCursor(state, view);
	const slice = visibleSlice(view.length, cursor, state.scrollTop, listRows);
	const frameIndex = cursor < 0 ? -1 : view.indexAt(cursor);
	const frame = frameIndex < 0 ? undefined : frames.at(frameIndex);
	const frameFindings = useMemo(
		() => findingIndex.findingsOf(frameIndex).map((i) => findings.at(i)!),
		[findingIndex, frameIndex, findings],
	);
	const cursorFinding = findings.at(grouped.findingAt(state.findingCursor) ?? -1);
	const shownFinding = cursorFinding && cursorFinding.frameIndex === frameIndex ? cursorFinding : frameFindings[0];
	return {view, slice, frameIndex, frame, frameFindings, shownFinding};
}

/** The line above the footer: the load's progress (accent) or an incomplete capture's sentence (warning). */
function ExtraLine({text, width, isLoading}: {text: string; width: number; isLoading: boolean}) {
	const theme = useTheme();
	return (
		<Box height={1} width={width} overflow="hidden">
			<Text wrap="truncate-end" {...theme.tokens[isLoading ? 'ui.accent' : 'severity.warning']}>
				{text}
			</Text>
		</Box>
	);
}

/** The help overlay's lines (built only while it is open) and its scroll, clamped to them. */
function useHelp(state: ViewState, features: ReadonlySet<Feature>, width: number, bodyRows: number) {
	const help = useMemo(
		() => (state.isHelpOpen ? helpLayout(helpSections(features), width, bodyRows - 1) : []),
		[state.isHelpOpen, features, width, bodyRows],
	);
	return {help, helpScroll: Math.min(state.helpScroll, maxScrollTop(help.length, bodyRows - 1))};
}

/** What the keymap needs to move cursors and scroll: the sizes of every list and pane. */
function navContext(
	view: NavContext['view'],
	layout: ReturnType<typeof screenLayout>,
	detail: {readonly lines: number; readonly rows: number},
	grouped: ReturnType<typeof findingsLayout>,
	findingRows: number,
	stderrCount: number,
	helpLines: number,
): NavContext {
	return {
		view,
		listRows: layout.listRows,
		detailLines: detail.lines,
		detailRows: detail.rows,
		findingCount: grouped.count,
		findingLines: grouped.lineCount,
		findingLineOf: grouped.lineOf,
		findingRows,
		stderrCount,
		stderrRows: layout.lowerRows,
		helpLines,
		helpRows: Math.max(1, layout.bodyRows - 1),
	};
}

/** The optional features the actions offer (`s` send, `r` re-run). */
function featuresOf(actions: TuiActions | undefined): ReadonlySet<Feature> {
	const set = new Set<Feature>();
	if (actions?.send) set.add('send');
	if (actions?.rerun) set.add('rerun');
	return set;
}

/** The keymap's handlers: quit, and send and re-run when the actions offer them (a re-run's store goes to `onStore`). */
function actionHandlers(
	actions: TuiActions | undefined,
	onStore: ((store: SessionStore) => void) | undefined,
	exit: () => void,
): Pick<KeymapContext, 'onQuit' | 'onSend' | 'onRerun'> {
	return {
		onQuit: exit,
		...(actions?.send ? {onSend: (method: string, params: unknown) => actions.send?.(method, params)} : {}),
		...(actions?.rerun
			? {
					async onRerun() {
						const next = await actions.rerun?.();
						if (next && onStore) onStore(next);
					},
				}
			: {}),
	};
}

/**
 * The status bar's model and its wait. While the handshake request is outstanding, the status says so
 * (and counts the seconds), never OK. Bytes a capture's gaps lost are not counted as captured; an
 * incomplete capture says so (as the plain path does); a tap capture's stalls come from its end record
 * while it loads, then from the summary. A capture being read waits for nothing: its handshake reply
 * may just not be read yet.
 */
function useStatusLine(
	snapshot: ReturnType<typeof useSession>,
	progress: LoadProgress | undefined,
	waitLimitMs: number | undefined,
): {status: ReturnType<typeof statusModel>; waitingProps: ReturnType<typeof statusWaiting>} {
	const isLoading = progress !== undefined && !progress.isDone;
	const missing = useMemo(() => gapBytes(snapshot.marks), [snapshot.marks]);
	const status = statusModel(snapshot, {
		missing,
		...(progress?.incomplete === undefined ? {} : {incomplete: progress.incomplete}),
		...(progress?.stalls === undefined ? {} : {stalls: progress.stalls}),
	});
	const waiting = useMemo(
		() => (isLoading ? undefined : pendingHandshake(snapshot)),
		// The snapshot object changes on every refresh; only these parts decide the wait.
		// eslint-disable-next-line react-hooks/exhaustive-deps
		[snapshot.frames, snapshot.marks, snapshot.isEnded, isLoading],
	);
	const nowTMs = useSessionClock(snapshot.meta.startedAt, waiting !== undefined);
	const isSilent = !isLoading && !snapshot.isEnded && snapshot.frames.length === 0;
	return {status, waitingProps: statusWaiting(waiting, nowTMs, waitLimitMs, isSilent)};
}

/** The load's progress, re-rendering on each change; undefined without a load. */
function useLoadProgress(loading: LoadProgressStore | undefined): LoadProgress | undefined {
	const getSnapshot = loading ? loading.getSnapshot : NO_LOAD;
	return useSyncExternalStore(loading ? loading.subscribe : NO_SUBSCRIPTION, getSnapshot, getSnapshot);
}

/** Props of {@link MainPanes}: the view state, the snapshot, and what the app derived from them. */
interface MainPanesProps {
	readonly state: ViewState;
	readonly snapshot: ReturnType<typeof useSession>;
	readonly layout: ReturnType<typeof screenLayout>;
	readonly view: NavContext['view'];
	readonly slice: ReturnType<typeof visibleSlice>;
	readonly severity: ReturnType<typeof indexFindings>['severity'];
	readonly offers: readonly SendOffer[];
	readonly grouped: ReturnType<typeof findingsLayout>;
	readonly stderr: ComponentProps<typeof LowerPane>['stderr'];
	readonly detail: ComponentProps<typeof LowerPane>['detail'];
}

/**
 * The main screen under the status bar: the frame list, the tab bar and the lower pane (detail, findings,
 * stderr); the send panel takes the tab bar's row too.
 */
function MainPanes({state, snapshot, layout, view, slice, severity, offers, grouped, stderr, detail}: MainPanesProps) {
	const {frames, findings} = snapshot;
	const width = layout.width;
	const isSending = state.input?.mode === 'send-pick' || state.input?.mode === 'send-params';
	return (
		<>
			<FrameList
				frames={frames}
				view={view}
				start={slice.start}
				end={slice.end}
				cursor={slice.cursor}
				rows={layout.listRows}
				width={width}
				severity={severity}
				isFocused={state.focus === 'frames'}
				isEnded={snapshot.isEnded}
			/>
			{isSending ? null : (
				<TabBar
					focus={state.focus}
					tab={state.detailTab}
					findingCount={findings.length}
					stderrCount={stderr.lines.length}
					width={width}
				/>
			)}
			<Box flexDirection="column" height={isSending ? layout.lowerRows + 1 : layout.lowerRows} overflow="hidden">
				<LowerPane
					state={state}
					snapshot={snapshot}
					width={width}
					rows={layout.lowerRows}
					offers={offers}
					grouped={grouped}
					stderr={stderr}
					detail={detail}
				/>
			</Box>
		</>
	);
}

/**
 * The root of the TUI: reads the session (batched), the terminal size and the view state, derives
 * everything else with pure selectors, and picks a layout (too small, help, or the main screen). It owns
 * `exit()`: `q` and Ctrl+C end here.
 */
export function App({store, actions, onStore, waitLimitMs, loading}: AppProps) {
	const {exit} = useApp();
	const theme = useTheme();
	const progress = useLoadProgress(loading);
	const isLoading = progress !== undefined && !progress.isDone;
	// While a capture loads, every snapshot costs O(frames) (copies, filters) and a redraw, which the load
	// waits for: take one at most every 500 ms (the progress line moves every 250 ms).
	const snapshot = useSession(store, isLoading ? 500 : 50);
	const size = useTerminalSize();
	const [state, dispatch] = useReducer(viewReducer, INITIAL_VIEW_STATE);
	const fullLayout = screenLayout(size.columns, size.rows);
	// The progress line takes one row from the lower pane while the capture loads; then an incomplete capture's sentence does.
	const extraLine = isLoading ? progressText(progress) : progress?.incomplete;
	const layout = extraLine === undefined ? fullLayout : withExtraLine(fullLayout);
	const {frames, findings} = snapshot;
	const width = layout.width;

	const features = useMemo(() => featuresOf(actions), [actions]);

	// O(frames) or O(findings) work, memoised per snapshot array; a key press reuses them.
	const findingIndex = useMemo(() => indexFindings(findings), [findings]);
	const {status, waitingProps} = useStatusLine(snapshot, progress, waitLimitMs);
	const grouped = useMemo(() => findingsLayout(groupFindings(findings)), [findings]);
	const stderrLines = useMemo(() => stderrFrames(frames), [frames]);
	const {view, slice, frame, frameFindings, shownFinding} = useFrameSelection(
		frames,
		findings,
		state,
		findingIndex,
		grouped,
		layout.listRows,
	);
	const perRow = 8 * hexPanels(width);
	const detail = useDetailContent({
		snapshot,
		frame,
		tab: state.detailTab,
		width,
		perRow,
		lowerRows: layout.lowerRows,
		findingCount: frameFindings.length,
		scroll: state.detailScroll,
		highlight: shownFinding,
	});

	const findingRows = findingsSplit(
		snapshot.summary.clients?.length ? layout.lowerRows - 1 : layout.lowerRows,
	).listRows;
	const stderrAt = stderrCursor(state, stderrLines.length);
	const stderrSlice = visibleSlice(stderrLines.length, stderrAt, state.stderrScroll, layout.lowerRows);
	const offers = useMemo(
		() => (state.input?.mode === 'send-pick' ? sendOffers(frames, actions?.tools) : []),
		[state.input?.mode, frames, actions],
	);

	const {help, helpScroll} = useHelp(state, features, width, layout.bodyRows);
	const nav = navContext(view, layout, detail, grouped, findingRows, stderrLines.length, help.length);

	useKeymap({
		state,
		dispatch,
		nav,
		frames,
		findings,
		findingsLayout: grouped,
		flaggedFrames: findingIndex.flaggedFrames,
		stderrLines,
		perRow,
		features,
		offers,
		sendRows: sendListRows(layout.lowerRows + 1),
		...actionHandlers(actions, onStore, exit),
	});

	if (layout.isTooSmall) {
		return (
			<Text wrap="wrap" {...theme.tokens['severity.warning']}>
				{tooSmallMessage(size.columns, size.rows)}
			</Text>
		);
	}

	return (
		<Box flexDirection="column" width={width} height={fullLayout.height}>
			<StatusBar model={status} width={width} {...(isLoading ? {loading: progress} : {})} {...waitingProps} />
			{state.isHelpOpen ? (
				<HelpOverlay lines={help} scroll={helpScroll} width={width} height={layout.bodyRows} />
			) : (
				<MainPanes
					state={state}
					snapshot={snapshot}
					layout={layout}
					view={view}
					slice={slice}
					severity={findingIndex.severity}
					offers={offers}
					grouped={grouped}
					stderr={{lines: stderrLines, ...stderrSlice}}
					detail={{
						frame,
						findings: frameFindings,
						readCount: detail.readCount,
						content: detail.content,
						scroll: detail.scroll,
					}}
				/>
			)}
			{extraLine === undefined ? null : <ExtraLine text={extraLine} width={width} isLoading={isLoading} />}
			<Footer
				model={{
					input: state.input,
					filter: state.filter,
					cursor: slice.cursor,
					shown: view.length,
					total: frames.length,
					isFollowing: state.isFollowing,
					notice: state.notice,
					hints: hintText(features, state.focus),
				}}
				width={width}
			/>
		</Box>
	);
}
