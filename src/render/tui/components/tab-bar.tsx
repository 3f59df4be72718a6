import {Box} from 'ink';
import type {PaneName} from '../state/keymap.js';
import {DETAIL_TABS, type DetailTab} from '../state/view-reducer.js';
import {Line, pushSegment, type Segment} from './line.js';

/** Labels of the detail tabs. */
export const TAB_LABEL: Readonly<Record<DetailTab, string>> = {hex: 'Hex', json: 'JSON', raw: 'Raw', chunks: 'Chunks'};

/**
 * The line above the lower pane: `Detail  Hex  JSON  Raw  Chunks │ Findings 3 │ Stderr 2`. The focused
 * pane's name is in the focus token; the current detail tab is shown selected.
 */
export function tabBarSegments(focus: PaneName, tab: DetailTab, findingCount: number, stderrCount: number): Segment[] {
	const segments: Segment[] = [];
	const isDetailShown = focus === 'frames' || focus === 'detail';
	pushSegment(segments, 'Detail', focus === 'detail' ? 'ui.focus' : 'ui.dim');
	for (const name of DETAIL_TABS) {
		pushSegment(segments, ' ', 'ui.plain');
		pushSegment(segments, ` ${TAB_LABEL[name]} `, isDetailShown && name === tab ? 'ui.selected' : 'ui.plain');
	}

	pushSegment(segments, ' │ ', 'ui.dim');
	pushSegment(
		segments,
		`Findings ${findingCount}`,
		focus === 'findings' ? 'ui.focus' : findingCount > 0 ? 'ui.plain' : 'ui.dim',
	);
	pushSegment(segments, ' │ ', 'ui.dim');
	pushSegment(
		segments,
		`Stderr ${stderrCount}`,
		focus === 'stderr' ? 'ui.focus' : stderrCount > 0 ? 'ui.plain' : 'ui.dim',
	);
	return segments;
}

/** Props of {@link TabBar}. */
export interface TabBarProps {
	readonly focus: PaneName;
	readonly tab: DetailTab;
	readonly findingCount: number;
	readonly stderrCount: number;
	readonly width: number;
}

/** The tab line. */
export function TabBar({focus, tab, findingCount, stderrCount, width}: TabBarProps) {
	return (
		<Box height={1} width={width} overflow="hidden">
			<Line segments={tabBarSegments(focus, tab, findingCount, stderrCount)} />
		</Box>
	);
}
