import {Box} from 'ink';
import {escapeText} from '../../../core/bytes/glyphs.js';
import {STREAM_LABEL} from '../../../core/types.js';
import type {FrameFilter} from '../state/selectors.js';
import type {InputState} from '../state/view-reducer.js';
import {Line, pushSegment, type Segment} from './line.js';

/**
 * The bottom line: the text being typed (search or send params) when an input is open; otherwise the
 * position in the list, follow state, active filters, a notice, and the key hints from the key table.
 */

/** What the footer shows. */
export interface FooterModel {
	readonly input: InputState | null;
	readonly filter: FrameFilter;
	/** Cursor position in the filtered list (-1 when empty) and its length. */
	readonly cursor: number;
	readonly shown: number;
	readonly total: number;
	readonly isFollowing: boolean;
	readonly notice: string;
	/** From `hintText` (state/keymap.ts). */
	readonly hints: string;
}

/** The footer's segments; `width` (columns) keeps the params cursor in view. */
export function footerSegments(model: FooterModel, width?: number): Segment[] {
	const segments: Segment[] = [];
	const input = model.input;
	if (input?.mode === 'search') {
		pushSegment(segments, '/', 'ui.accent');
		pushSegment(segments, escapeText(input.text), 'ui.plain');
		pushSegment(segments, '█', 'ui.accent');
		pushSegment(segments, '  Enter keep · Esc clear', 'ui.dim');
		return segments;
	}

	if (input?.mode === 'send-params') {
		pushSegment(segments, 'params› ', 'ui.accent');
		// Text past the width is cut on the left, so the cursor stays on screen.
		const before = escapeText(input.text.slice(0, input.cursor));
		const room = Math.max(1, (width ?? Infinity) - 'params› '.length - 1);
		pushSegment(segments, before.length > room ? `…${before.slice(before.length - room + 1)}` : before, 'ui.plain');
		pushSegment(segments, '█', 'ui.accent');
		pushSegment(segments, escapeText(input.text.slice(input.cursor)), 'ui.plain');
		if (input.error !== undefined) {
			pushSegment(segments, `  ✖ ${escapeText(input.error)}`, 'severity.error');
		}

		return segments;
	}

	const position = model.shown === 0 ? '0/0' : `${model.cursor + 1}/${model.shown}`;
	pushSegment(segments, position, 'ui.plain');
	if (model.shown !== model.total) {
		pushSegment(segments, ` of ${model.total}`, 'ui.dim');
	}

	pushSegment(segments, model.isFollowing ? ' follow' : ' paused', model.isFollowing ? 'stream.stdout' : 'ui.dim');
	const hidden = (['stdin', 'stdout', 'stderr'] as const)
		.filter((stream) => !model.filter.streams[stream])
		.map((stream) => `-${STREAM_LABEL[stream]}`);
	const filters = [
		...hidden,
		...(model.filter.isFindingsOnly ? ['faults only'] : []),
		...(model.filter.search === '' ? [] : [`/${escapeText(model.filter.search)}`]),
	];
	if (filters.length > 0) {
		pushSegment(segments, ` [${filters.join(' ')}]`, 'ui.accent');
	}

	if (model.notice !== '') {
		pushSegment(segments, `  ${escapeText(model.notice)}`, 'ui.accent');
	}

	const used = segments.reduce((sum, segment) => sum + [...segment.text].length, 0);
	pushSegment(segments, `  ${fitHints(model.hints, width === undefined ? Infinity : width - used - 2)}`, 'ui.dim');
	return segments;
}

/**
 * The key hints that fit in `room` columns: the last two (`? help`, `q/^C quit`: how to learn the rest and
 * how to leave) always stay; the others are kept from the left while they fit, so a narrow terminal drops
 * `r rerun` before it drops `q quit`. Hints are separated by two spaces (`hintText`, state/keymap.ts).
 */
export function fitHints(hints: string, room: number): string {
	if ([...hints].length <= room) return hints;
	const all = hints.split('  ');
	const kept = all.slice(-2);
	let length = [...kept.join('  ')].length;
	const front: string[] = [];
	for (const hint of all.slice(0, -2)) {
		length += [...hint].length + 2;
		if (length > room) break;
		front.push(hint);
	}

	return [...front, ...kept].join('  ');
}

/** Props of {@link Footer}. */
export interface FooterProps {
	readonly model: FooterModel;
	readonly width: number;
}

/** The footer line. */
export function Footer({model, width}: FooterProps) {
	return (
		<Box height={1} width={width} overflow="hidden">
			<Line segments={footerSegments(model, width)} />
		</Box>
	);
}
