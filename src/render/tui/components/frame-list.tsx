import {Box, Text} from 'ink';
import type {FrameTable} from '../../../core/session/stores/frame-table.js';
import {frameRowCells, rowHeader, rowLayout} from '../format.js';
import type {FrameSeverity, FrameView} from '../state/selectors.js';
import {useTheme} from '../theme.js';
import {FrameRow} from './frame-row.js';

/** Props of {@link FrameList}. */
export interface FrameListProps {
	readonly frames: FrameTable;
	readonly view: FrameView;
	/** Visible slice `[start, end)` of the view (from state/window.ts) and the cursor position in the view. */
	readonly start: number;
	readonly end: number;
	readonly cursor: number;
	/** Rows for frames (the header line comes on top of them). */
	readonly rows: number;
	readonly width: number;
	/** Frame index → highest severity of its findings. */
	readonly severity: FrameSeverity;
	readonly isFocused: boolean;
	/** The session is over: an empty list then says "no frames", not "no frames yet". */
	readonly isEnded?: boolean;
}

/**
 * The frame list: a header line and only the visible rows (`end - start` ≤ `rows`), each a memoised
 * one-line {@link FrameRow} keyed by frame index, so rendering costs O(rows), not O(frames).
 */
export function FrameList({
	frames,
	view,
	start,
	end,
	cursor,
	rows,
	width,
	severity,
	isFocused,
	isEnded = false,
}: FrameListProps) {
	const theme = useTheme();
	const layout = rowLayout(width, frames.length);
	const items = [];
	for (let position = start; position < end; position++) {
		const frameIndex = view.indexAt(position);
		const frame = frames.at(frameIndex);
		if (!frame) {
			continue;
		}

		const level = severity.get(frameIndex);
		const cells = frameRowCells(frame, level, layout);
		items.push(
			<FrameRow
				key={frameIndex}
				{...cells}
				stream={frame.stream}
				frameKind={frame.kind}
				severity={level ?? ''}
				isSelected={position === cursor}
				width={width}
			/>,
		);
	}

	return (
		<Box flexDirection="column" height={rows + 1} overflow="hidden">
			<Text wrap="truncate-end" {...theme.tokens[isFocused ? 'ui.focus' : 'ui.dim']}>
				{rowHeader(layout)}
			</Text>
			{items.length === 0 ? (
				<Text {...theme.tokens['ui.dim']}>
					{view.length === 0 && frames.length > 0
						? '  (no frame matches the filter)'
						: isEnded
							? '  (no frames: nothing crossed the wire)'
							: '  (no frames yet)'}
				</Text>
			) : (
				items
			)}
		</Box>
	);
}
