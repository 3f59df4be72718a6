import {Text} from 'ink';
import {memo} from 'react';
import {useTheme, type ThemeToken} from '../theme.js';

/** A run of already escaped text painted with one theme token. */
export interface Segment {
	readonly text: string;
	readonly token: ThemeToken;
}

/** Appends a segment, merging it into the previous one when the token is the same (fewer `<Text>` nodes). */
export function pushSegment(segments: Segment[], text: string, token: ThemeToken): void {
	if (text === '') {
		return;
	}

	const last = segments.at(-1);
	if (last && last.token === token) {
		segments[segments.length - 1] = {text: last.text + text, token};
	} else {
		segments.push({text, token});
	}
}

/** The plain text of segments (what a test sees after strip-ansi). */
export function segmentsText(segments: readonly Segment[]): string {
	return segments.map((segment) => segment.text).join('');
}

/** Props of {@link Line}. */
export interface LineProps {
	readonly segments: readonly Segment[];
	readonly isSelected?: boolean;
}

/** One terminal line of coloured segments, cut at the pane's edge (never wrapped). */
export const Line = memo(function Line({segments, isSelected = false}: LineProps) {
	const theme = useTheme();
	if (segments.length === 0) {
		return <Text> </Text>;
	}

	return (
		<Text wrap="truncate-end" {...(isSelected ? theme.tokens['ui.selected'] : {})}>
			{segments.map((segment, i) => (
				// Segments of one line never reorder, so the position is a stable key.
				<Text key={i} {...theme.tokens[segment.token]}>
					{segment.text}
				</Text>
			))}
		</Text>
	);
});
