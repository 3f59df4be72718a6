import {Box, Text} from 'ink';
import type {HelpSection} from '../state/keymap.js';
import {displayWidth} from '../../../core/bytes/glyphs.js';
import {fitColumns, padColumns} from '../format.js';
import {useTheme} from '../theme.js';
import {Line, type Segment} from './line.js';

/**
 * The `?` help overlay, generated from the key table (state/keymap.ts), so it always matches the keys
 * that work. Sections flow into two columns (split at a section boundary) when they do not fit in one
 * and the terminal is at least 100 columns wide; whatever still does not fit scrolls with ↑/↓.
 */

/** One line of a help column: a section title or a `keys  help` row, already fitted to the column. */
interface HelpEntry {
	readonly text: string;
	readonly isTitle: boolean;
}

function columnEntries(sections: readonly HelpSection[], width: number, keyWidth: number): HelpEntry[] {
	const entries: HelpEntry[] = [];
	sections.forEach((section, i) => {
		if (i > 0) {
			entries.push({text: '', isTitle: false});
		}

		entries.push({text: fitColumns(section.title, width), isTitle: true});
		for (const row of section.rows) {
			entries.push({text: fitColumns(`  ${padColumns(row.keys, keyWidth)}${row.help}`, width), isTitle: false});
		}
	});
	return entries;
}

const entrySegments = (entry: HelpEntry | undefined): Segment[] =>
	entry && entry.text !== '' ? [{text: entry.text, token: entry.isTitle ? 'ui.accent' : 'ui.plain'}] : [];

/**
 * Lays the help out as lines for a body of `width` × `rows`: one column, or two when one column is
 * taller than `rows` and `width` ≥ 100 (the second column starts at the section boundary that best
 * balances the two).
 */
export function helpLayout(sections: readonly HelpSection[], width: number, rows: number): Segment[][] {
	const keyWidth = Math.max(4, ...sections.flatMap((section) => section.rows.map((row) => row.keys.length))) + 2;
	const single = columnEntries(sections, width, keyWidth);
	if (single.length <= rows || width < 100 || sections.length < 2) {
		return single.map(entrySegments);
	}

	const columnWidth = Math.floor((width - 2) / 2);
	const sizes = sections.map((section, i) => section.rows.length + 1 + (i > 0 ? 1 : 0));
	const total = sizes.reduce((a, b) => a + b, 0);
	let split = 1;
	let best = Number.POSITIVE_INFINITY;
	let running = 0;
	for (let i = 0; i < sections.length - 1; i++) {
		running += sizes[i]!;
		const height = Math.max(running, total - running - 1);
		if (height < best) {
			best = height;
			split = i + 1;
		}
	}

	const left = columnEntries(sections.slice(0, split), columnWidth, keyWidth);
	const right = columnEntries(sections.slice(split), columnWidth, keyWidth);
	const lines: Segment[][] = [];
	for (let i = 0; i < Math.max(left.length, right.length); i++) {
		const leftEntry = left[i];
		const segments = entrySegments(leftEntry);
		const rightSegments = entrySegments(right[i]);
		if (rightSegments.length > 0) {
			segments.push(
				{text: ' '.repeat(Math.max(1, columnWidth + 2 - displayWidth(leftEntry?.text ?? ''))), token: 'ui.plain'},
				...rightSegments,
			);
		}

		lines.push(segments);
	}

	return lines;
}

/** Props of {@link HelpOverlay}. */
export interface HelpOverlayProps {
	readonly lines: readonly Segment[][];
	readonly scroll: number;
	readonly width: number;
	/** Total height: a title line and `height - 1` help lines. */
	readonly height: number;
}

/** The help overlay, filling the body of the screen. */
export function HelpOverlay({lines, scroll, width, height}: HelpOverlayProps) {
	const theme = useTheme();
	const rows = Math.max(1, height - 1);
	const visible = lines.slice(scroll, scroll + rows);
	const range =
		lines.length > rows ? ` · lines ${scroll + 1}–${scroll + visible.length} of ${lines.length}, ↑/↓ scroll` : '';
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Text wrap="truncate-end" {...theme.tokens['ui.accent']}>
				Keys (? or Esc closes help{range})
			</Text>
			{visible.map((segments, i) => (
				<Line key={scroll + i} segments={segments} />
			))}
		</Box>
	);
}
