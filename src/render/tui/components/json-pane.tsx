import {Box} from 'ink';
import {escapeText, escapeTextWithin} from '../../../core/bytes/glyphs.js';
import {Line, pushSegment, type Segment} from './line.js';

/**
 * The JSON tab: the parsed message pretty-printed (2-space indent) and coloured by token (keys, strings,
 * numbers, literals, punctuation). Every key and string goes through the glyph escaper, so control and
 * bidi characters inside JSON strings are shown, never interpreted; long strings are cut to the pane
 * width with a byte count.
 */

/** One line of pretty JSON. */
export type JsonLine = readonly Segment[];

/** At most this many lines are laid out for one message (a 10 MiB array would otherwise be huge). */
export const MAX_JSON_LINES = 20_000;

class LineLimit extends Error {}

/**
 * Pretty-prints a JSON value as coloured lines.
 * @param value a parsed JSON value.
 * @param width pane width in columns; strings longer than the rest of their line are cut with
 *   `… (+N bytes)`.
 * @returns the lines; when more than {@link MAX_JSON_LINES} would be needed, the last line says how the
 *   output was cut.
 */
export function jsonLines(value: unknown, width: number): JsonLine[] {
	const out: JsonLine[] = [];
	const columnsOf = (segments: readonly Segment[]): number =>
		segments.reduce((sum, segment) => sum + segment.text.length, 0);

	const scalar = (segments: Segment[], item: unknown): void => {
		if (typeof item === 'string') {
			const budget = Math.max(8, width - columnsOf(segments) - 1);
			pushSegment(segments, quotedString(item, budget), 'json.string');
		} else if (typeof item === 'number') {
			pushSegment(segments, String(item), 'json.number');
		} else {
			pushSegment(segments, String(item), 'json.literal');
		}
	};

	const emit = (item: unknown, indent: number, key: string | undefined, isLast: boolean): void => {
		if (out.length >= MAX_JSON_LINES) {
			throw new LineLimit();
		}

		const segments: Segment[] = [];
		pushSegment(segments, ' '.repeat(indent), 'ui.plain');
		if (key !== undefined) {
			pushSegment(segments, escapeText(JSON.stringify(key), Math.max(8, width - indent)), 'json.key');
			pushSegment(segments, ': ', 'json.punct');
		}

		const comma = isLast ? '' : ',';
		if (item !== null && typeof item === 'object') {
			const isArray = Array.isArray(item);
			const entries: [string | undefined, unknown][] = isArray
				? (item as unknown[]).map((v) => [undefined, v])
				: Object.entries(item as Record<string, unknown>);
			const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
			if (entries.length === 0) {
				pushSegment(segments, open + close + comma, 'json.punct');
				out.push(segments);
				return;
			}

			pushSegment(segments, open, 'json.punct');
			out.push(segments);
			entries.forEach(([childKey, child], i) => emit(child, indent + 2, childKey, i === entries.length - 1));
			const closing: Segment[] = [];
			pushSegment(closing, ' '.repeat(indent), 'ui.plain');
			pushSegment(closing, close + comma, 'json.punct');
			out.push(closing);
			return;
		}

		scalar(segments, item);
		pushSegment(segments, comma, 'json.punct');
		out.push(segments);
	};

	try {
		emit(value, 0, undefined, true);
	} catch (error) {
		if (!(error instanceof LineLimit)) {
			throw error;
		}

		out.push([{text: `… (cut at ${MAX_JSON_LINES} lines; the raw and hex tabs show every byte)`, token: 'ui.dim'}]);
	}

	return out;
}

/**
 * A JSON string as shown: quoted and escaped; when wider than `budget` columns, its content is cut and
 * the closing quote kept, the cut marked outside the quotes: `"Lorem ipsum…" (+1,234 bytes)` (N counts the
 * JSON text's bytes not shown).
 */
export function quotedString(value: string, budget: number): string {
	const json = JSON.stringify(value);
	// Measured cut to the budget, never escaped whole (a 5 MB string would be: ~150 MiB for one frame's JSON
	// tab). It fits when its inside fits in `budget - 2` columns: the quotes are one column each, and JSON
	// leaves no control character that could join them to a neighbour.
	const {text: cut, isCut} = escapeTextWithin(json.slice(1, -1), Math.max(1, budget - 2));
	if (!isCut) return `"${cut}"`;
	const marker = /… \(\+[\d,]+ bytes?\)$/.exec(cut);
	return marker === null ? `"${cut}"` : `"${cut.slice(0, marker.index)}…"${cut.slice(marker.index + 1)}`;
}

/** Props of {@link JsonPane}. */
export interface JsonPaneProps {
	/** All lines (from {@link jsonLines}), or undefined when the frame is not JSON. */
	readonly lines: readonly JsonLine[] | undefined;
	readonly scroll: number;
	readonly height: number;
}

/** Shows `height` lines of pretty JSON from `scroll`. */
export function JsonPane({lines, scroll, height}: JsonPaneProps) {
	const visible = lines
		? lines.slice(scroll, scroll + height)
		: [
				[
					{text: '(not JSON: this frame is a text or blank line; see the raw and hex tabs)', token: 'ui.dim'},
				] as JsonLine,
			];
	return (
		<Box flexDirection="column" height={height} overflow="hidden">
			{visible.map((line, i) => (
				<Line key={scroll + i} segments={line} />
			))}
		</Box>
	);
}
