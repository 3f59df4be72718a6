import {Box, Text} from 'ink';
import {escapeText} from '../../../core/bytes/glyphs.js';
import type {FrameTable} from '../../../core/session/stores/frame-table.js';
import type {Frame} from '../../../core/types.js';
import {formatMs} from '../format.js';
import {useTheme} from '../theme.js';
import {Line} from './line.js';

/**
 * The stderr pane: the server's stderr lines with their times, escaped (a server's colour codes and CRs
 * are shown as glyphs, never interpreted), following new lines while the cursor is on the last one.
 * Enter jumps to the line in the frame list.
 */

/** The text of one stderr line: `   12.3  text`, fitted to `width`. */
export function stderrLineText(frame: Frame, width: number): string {
	const time = formatMs(frame.tMs).padStart(9);
	return `${time}  ${escapeText(frame.text ?? '', Math.max(0, width - time.length - 2))}`;
}

/** Props of {@link StderrPane}. */
export interface StderrPaneProps {
	readonly frames: FrameTable;
	/** Frame indices of the stderr lines. */
	readonly lines: readonly number[];
	readonly start: number;
	readonly end: number;
	readonly cursor: number;
	readonly width: number;
	readonly height: number;
	readonly isFocused: boolean;
}

/** The stderr pane (only the visible lines are rendered). */
export function StderrPane({frames, lines, start, end, cursor, width, height, isFocused}: StderrPaneProps) {
	const theme = useTheme();
	if (lines.length === 0) {
		return (
			<Box height={height}>
				<Text {...theme.tokens['ui.dim']}>No stderr output.</Text>
			</Box>
		);
	}

	const items = [];
	for (let position = start; position < end; position++) {
		const frameIndex = lines[position]!;
		items.push(
			<Line
				key={frameIndex}
				segments={[{text: stderrLineText(frames.at(frameIndex)!, width), token: 'stream.stderr'}]}
				isSelected={isFocused && position === cursor}
			/>,
		);
	}

	return (
		<Box flexDirection="column" height={height} overflow="hidden">
			{items}
		</Box>
	);
}
