import {Box, Text, useApp} from 'ink';
import {useMemo, useReducer, useSyncExternalStore} from 'react';
import type {TableStore as SessionStore} from '../../core/session/stores/frame-table.js';
import {DetailPane, detailContentRows, type DetailContent} from './components/detail-pane.js';
import {FindingsPane, findingsSplit} from './components/findings-pane.js';
import {Footer} from './components/footer.js';
import {FrameList} from './components/frame-list.js';
import {HelpOverlay, helpLayout} from './components/help-overlay.js';
import {hexRowCount, visibleHexRows} from './components/hex-pane.js';
import {jsonLines} from './components/json-pane.js';
import {RAW_LIMIT, rawLines} from './components/raw-pane.js';
import {chunkLines} from './components/chunks-pane.js';
import {SendPanel, sendListRows} from './components/send-panel.js';
import {StatusBar} from './components/status-bar.js';
import {StderrPane} from './components/stderr-pane.js';
import {TabBar} from './components/tab-bar.js';
import {useKeymap} from './hooks/use-keymap.js';
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
import {frameCursor, INITIAL_VIEW_STATE, stderrCursor, viewReducer} from './state/view-reducer.js';
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

/** The load's progress, re-rendering on each change; undefined without a load. */
function useLoadProgress(loading: LoadProgressStore | undefined): LoadProgress | undefined {
	const getSnapshot = loading ? loading.getSnapshot : NO_LOAD;
	return useSyncExternalStore(loading ? loading.subscribe : NO_SUBSCRIPTION, getSnapshot, getSnapshot);
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
	const layout =
		extraLine !== undefined
			? {
					...fullLayout,
					height: fullLayout.height - 1,
					bodyRows: fullLayout.bodyRows - 1,
					lowerRows: Math.max(1, fullLayout.lowerRows - 1),
				}
			: fullLayout;
	const {frames, findings} = snapshot;
	const width = layout.width;

	const features = useMemo(() => {
		const set = new Set<Feature>();
		if (actions?.send) set.add('send');
		if (actions?.rerun) set.add('rerun');
		return set;
	}, [actions]);

	// O(frames) or O(findings) work, memoised per snapshot array; a key press reuses them.
	const findingIndex = useMemo(() => indexFindings(findings), [findings]);
	// While the handshake request is outstanding, the status says so (and counts the seconds), never OK.
	// Bytes a capture's gaps lost are not counted as captured; an incomplete capture says so (as the plain path does).
	const missing = useMemo(() => gapBytes(snapshot.marks), [snapshot.marks]);
	// A tap capture's stalls: from its end record while it loads, then from the summary.
	const status = statusModel(snapshot, {
		missing,
		...(progress?.incomplete === undefined ? {} : {incomplete: progress.incomplete}),
		...(progress?.stalls === undefined ? {} : {stalls: progress.stalls}),
	});
	// A capture being read waits for nothing: its handshake reply may just not be read yet.
	const waiting = useMemo(
		() => (isLoading ? undefined : pendingHandshake(snapshot)),
		// The snapshot object changes on every refresh; only these parts decide the wait.
		// eslint-disable-next-line react-hooks/exhaustive-deps
		[snapshot.frames, snapshot.marks, snapshot.isEnded, isLoading],
	);
	const nowTMs = useSessionClock(snapshot.meta.startedAt, waiting !== undefined);
	const isSilent = !isLoading && !snapshot.isEnded && frames.length === 0;
	const grouped = useMemo(() => findingsLayout(groupFindings(findings)), [findings]);
	const stderrLines = useMemo(() => stderrFrames(frames), [frames]);
	const view = useMemo(
		() => filterFrames(frames, state.filter, findingIndex.severity),
		[frames, state.filter, findingIndex],
	);

	const cursor = frameCursor(state, view);
	const slice = visibleSlice(view.length, cursor, state.scrollTop, layout.listRows);
	const frameIndex = cursor < 0 ? -1 : view.indexAt(cursor);
	const frame = frameIndex < 0 ? undefined : frames.at(frameIndex);
	const frameFindings = useMemo(
		() => (findingIndex.byFrame.get(frameIndex) ?? []).map((i) => findings[i]!),
		[findingIndex, frameIndex, findings],
	);

	// Detail content: only what the current tab shows.
	const perRow = 8 * hexPanels(width);
	const detailRows = detailContentRows(layout.lowerRows, frameFindings.length);
	const chunks = useMemo(() => (frame ? snapshot.chunksOf(frame) : []), [frame, snapshot]);
	const json = useMemo(
		() => (state.detailTab === 'json' && frame?.message !== undefined ? jsonLines(frame.message, width) : undefined),
		[state.detailTab, frame, width],
	);
	const raw = useMemo(
		() =>
			state.detailTab === 'raw' && frame
				? rawLines(
						snapshot.bytes(frame.stream, frame.offset, Math.min(frame.byteLength, RAW_LIMIT)),
						width,
						frame.byteLength,
					)
				: [],
		[state.detailTab, frame, width, snapshot],
	);
	const chunkText = useMemo(
		() => (state.detailTab === 'chunks' && frame ? chunkLines(frame, chunks) : []),
		[state.detailTab, frame, chunks],
	);
	const detailLines =
		state.detailTab === 'hex'
			? hexRowCount(frame?.byteLength ?? 0, perRow)
			: state.detailTab === 'json'
				? (json?.length ?? 1)
				: state.detailTab === 'raw'
					? raw.length
					: chunkText.length;
	const detailScroll = Math.min(state.detailScroll, maxScrollTop(detailLines, detailRows));

	// The selected finding (findings pane cursor) is highlighted when it is on this frame; otherwise the frame's first finding.
	const cursorFinding = findings[grouped.order[state.findingCursor] ?? -1];
	const shownFinding = cursorFinding && cursorFinding.frameIndex === frameIndex ? cursorFinding : frameFindings[0];
	let content: DetailContent;
	switch (state.detailTab) {
		case 'hex': {
			const highlight =
				shownFinding && frame && shownFinding.stream === frame.stream
					? [{offset: shownFinding.offset, length: shownFinding.byteLength}]
					: [];
			const rows = frame
				? visibleHexRows(
						{
							read: (offset, length) => snapshot.bytes(frame.stream, offset, length),
							offset: frame.offset,
							byteLength: frame.byteLength,
						},
						perRow,
						detailScroll,
						detailRows,
						highlight,
					)
				: [];
			content = {tab: 'hex', rows, perRow};
			break;
		}

		case 'json': {
			content = {tab: 'json', lines: json};
			break;
		}

		case 'raw': {
			content = {tab: 'raw', lines: raw};
			break;
		}

		case 'chunks': {
			content = {tab: 'chunks', lines: chunkText};
			break;
		}
	}

	const findingRows = findingsSplit(
		snapshot.summary.clients?.length ? layout.lowerRows - 1 : layout.lowerRows,
	).listRows;
	const stderrAt = stderrCursor(state, stderrLines.length);
	const stderrSlice = visibleSlice(stderrLines.length, stderrAt, state.stderrScroll, layout.lowerRows);
	const offers = useMemo(
		() => (state.input?.mode === 'send-pick' ? sendOffers(frames, actions?.tools) : []),
		[state.input?.mode, frames, actions],
	);

	const help = useMemo(
		() => (state.isHelpOpen ? helpLayout(helpSections(features), width, layout.bodyRows - 1) : []),
		[state.isHelpOpen, features, width, layout.bodyRows],
	);
	const helpScroll = Math.min(state.helpScroll, maxScrollTop(help.length, layout.bodyRows - 1));
	const nav: NavContext = {
		view,
		listRows: layout.listRows,
		detailLines,
		detailRows,
		findingCount: grouped.order.length,
		findingLines: grouped.lines.length,
		findingLineOf: grouped.lineOf,
		findingRows,
		stderrCount: stderrLines.length,
		stderrRows: layout.lowerRows,
		helpLines: help.length,
		helpRows: Math.max(1, layout.bodyRows - 1),
	};

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
	});

	if (layout.isTooSmall) {
		return (
			<Text wrap="wrap" {...theme.tokens['severity.warning']}>
				{tooSmallMessage(size.columns, size.rows)}
			</Text>
		);
	}

	const isSending = state.input?.mode === 'send-pick' || state.input?.mode === 'send-params';
	let lower;
	if (isSending && state.input) {
		lower = <SendPanel offers={offers} input={state.input} width={width} height={layout.lowerRows + 1} />;
	} else if (state.focus === 'findings') {
		lower = (
			<FindingsPane
				findings={findings}
				layout={grouped}
				cursor={Math.min(state.findingCursor, Math.max(0, grouped.order.length - 1))}
				scroll={state.findingScroll}
				width={width}
				height={layout.lowerRows}
				isFocused
				{...(snapshot.summary.clients ? {clients: snapshot.summary.clients} : {})}
			/>
		);
	} else if (state.focus === 'stderr') {
		lower = (
			<StderrPane
				frames={frames}
				lines={stderrLines}
				start={stderrSlice.start}
				end={stderrSlice.end}
				cursor={stderrSlice.cursor}
				width={width}
				height={layout.lowerRows}
				isFocused
			/>
		);
	} else {
		lower = (
			<DetailPane
				frame={frame}
				findings={frameFindings}
				readCount={chunks.length}
				content={content}
				scroll={detailScroll}
				width={width}
				height={layout.lowerRows}
			/>
		);
	}

	return (
		<Box flexDirection="column" width={width} height={fullLayout.height}>
			<StatusBar
				model={status}
				width={width}
				{...(isLoading ? {loading: progress} : {})}
				{...(waiting
					? {
							waiting: {
								method: waiting.method,
								elapsedMs: nowTMs - waiting.tMs,
								...(waitLimitMs === undefined ? {} : {limitMs: waitLimitMs}),
							},
						}
					: isSilent
						? {waiting: {elapsedMs: 0}}
						: {})}
			/>
			{state.isHelpOpen ? (
				<HelpOverlay lines={help} scroll={helpScroll} width={width} height={layout.bodyRows} />
			) : (
				<>
					<FrameList
						frames={frames}
						view={view}
						start={slice.start}
						end={slice.end}
						cursor={slice.cursor}
						rows={layout.listRows}
						width={width}
						severity={findingIndex.severity}
						isFocused={state.focus === 'frames'}
					/>
					{isSending ? null : (
						<TabBar
							focus={state.focus}
							tab={state.detailTab}
							findingCount={findings.length}
							stderrCount={stderrLines.length}
							width={width}
						/>
					)}
					<Box flexDirection="column" height={isSending ? layout.lowerRows + 1 : layout.lowerRows} overflow="hidden">
						{lower}
					</Box>
				</>
			)}
			{extraLine === undefined ? null : (
				<Box height={1} width={width} overflow="hidden">
					<Text wrap="truncate-end" {...theme.tokens[isLoading ? 'ui.accent' : 'severity.warning']}>
						{extraLine}
					</Text>
				</Box>
			)}
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
