import {Box, Text} from 'ink';
import {escapeText} from '../../../core/bytes/glyphs.js';
import type {SendOffer} from '../state/selectors.js';
import type {InputState} from '../state/view-reducer.js';
import {visibleSlice} from '../state/window.js';
import {useTheme} from '../theme.js';
import {Line} from './line.js';

/**
 * The `s` panel: step 1 picks a method from the offers (the listed tools, prompts and resources, then the
 * standard methods); step 2 edits the params JSON on the footer's input line; Enter sends it through the
 * caller's `send` action and the list follows the tail to show the reply arriving.
 */

/** Rows of the offer list in a panel of `height` rows (a title line on top). */
export function sendListRows(height: number): number {
	return Math.max(1, height - 1);
}

/** Props of {@link SendPanel}. */
export interface SendPanelProps {
	readonly offers: readonly SendOffer[];
	readonly input: InputState;
	readonly width: number;
	readonly height: number;
}

/** The send panel (shown in place of the lower pane). */
export function SendPanel({offers, input, width, height}: SendPanelProps) {
	const theme = useTheme();
	if (input.mode === 'send-params') {
		return (
			<Box flexDirection="column" height={height} overflow="hidden">
				<Text wrap="truncate-end" {...theme.tokens['ui.accent']}>
					Send {escapeText(input.label)}: edit the params JSON on the bottom line (←/→ Home/End move) · Enter send · Esc
					cancel
				</Text>
				{input.error === undefined ? null : (
					<Text wrap="truncate-end" {...theme.tokens['severity.error']}>
						✖ {escapeText(input.error)}
					</Text>
				)}
			</Box>
		);
	}

	if (input.mode !== 'send-pick') {
		return null;
	}

	const rows = sendListRows(height);
	const slice = visibleSlice(offers.length, input.cursor, input.scrollTop, rows);
	return (
		<Box flexDirection="column" height={height} overflow="hidden">
			<Text wrap="truncate-end" {...theme.tokens['ui.accent']}>
				Send a request: ↑/↓ pick · Enter edit params · Esc cancel
			</Text>
			{offers.slice(slice.start, slice.end).map((offer, i) => (
				<Line
					key={slice.start + i}
					segments={[{text: `  ${escapeText(offer.label, Math.max(1, width - 2))}`, token: 'ui.plain'}]}
					isSelected={slice.start + i === slice.cursor}
				/>
			))}
		</Box>
	);
}
