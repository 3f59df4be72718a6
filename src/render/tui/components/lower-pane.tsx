import type {Finding, Frame} from '../../../core/types.js';
import type {TableSnapshot as SessionSnapshot} from '../../../core/session/stores/frame-table.js';
import type {SendOffer, findingsLayout} from '../state/selectors.js';
import type {ViewState} from '../state/view-reducer.js';
import {DetailPane, type DetailContent} from './detail-pane.js';
import {FindingsPane} from './findings-pane.js';
import {SendPanel} from './send-panel.js';
import {StderrPane} from './stderr-pane.js';

/** Props of {@link LowerPane}. */
export interface LowerPaneProps {
	readonly state: ViewState;
	readonly snapshot: SessionSnapshot;
	readonly width: number;
	/** Rows of the lower pane (the send panel takes the tab bar's row too). */
	readonly rows: number;
	readonly offers: readonly SendOffer[];
	readonly grouped: ReturnType<typeof findingsLayout>;
	readonly stderr: {
		readonly lines: readonly number[];
		readonly start: number;
		readonly end: number;
		readonly cursor: number;
	};
	readonly detail: {
		readonly frame: Frame | undefined;
		readonly findings: readonly Finding[];
		readonly readCount: number;
		readonly content: DetailContent;
		readonly scroll: number;
	};
}

/** The pane under the frame list: the send panel while sending, else the focused pane (findings, stderr, or the frame's detail). */
export function LowerPane({state, snapshot, width, rows, offers, grouped, stderr, detail}: LowerPaneProps) {
	const {frames, findings} = snapshot;
	if ((state.input?.mode === 'send-pick' || state.input?.mode === 'send-params') && state.input) {
		return <SendPanel offers={offers} input={state.input} width={width} height={rows + 1} />;
	}
	if (state.focus === 'findings') {
		return (
			<FindingsPane
				findings={findings}
				layout={grouped}
				cursor={Math.min(state.findingCursor, Math.max(0, grouped.count - 1))}
				scroll={state.findingScroll}
				width={width}
				height={rows}
				isFocused
				{...(snapshot.summary.clients ? {clients: snapshot.summary.clients} : {})}
			/>
		);
	}
	if (state.focus === 'stderr') {
		return (
			<StderrPane
				frames={frames}
				lines={stderr.lines}
				start={stderr.start}
				end={stderr.end}
				cursor={stderr.cursor}
				width={width}
				height={rows}
				isFocused
			/>
		);
	}
	return (
		<DetailPane
			frame={detail.frame}
			findings={detail.findings}
			readCount={detail.readCount}
			content={detail.content}
			scroll={detail.scroll}
			width={width}
			height={rows}
			sessionFindings={findings}
		/>
	);
}
