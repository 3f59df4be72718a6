import {Box} from 'ink';
import {escapeText} from '../../../core/bytes/glyphs.js';
import {formatBytes, SEVERITY_MARK} from '../format.js';
import type {StatusModel} from '../state/selectors.js';
import {streamToken, verdictToken} from '../theme.js';
import {Line, pushSegment, type Segment} from './line.js';

/**
 * The status bar: verdict, frames and bytes per stream, error/warning/info counts, and whether the
 * session is live or ended (with the exit code or signal). From 100 columns on it also names the server
 * and spells the units out.
 */

const VERDICT_LABEL = {ok: ' OK ', warn: ' WARN ', fail: ' FAIL '} as const;

/** The status bar's segments at a width. */
export function statusSegments(model: StatusModel, width: number): Segment[] {
	const isWide = width >= 100;
	const segments: Segment[] = [];
	pushSegment(segments, VERDICT_LABEL[model.verdict], verdictToken(model.verdict));
	if (isWide && model.server !== undefined) {
		pushSegment(segments, ` ${escapeText(model.server, 24)}`, 'ui.accent');
	}

	for (const stream of model.streams) {
		pushSegment(segments, '  ', 'ui.plain');
		pushSegment(segments, stream.label, streamToken(stream.stream));
		const unit = stream.stream === 'stderr' ? 'ln' : 'fr';
		pushSegment(segments, isWide ? ` ${stream.frames} ${unit} ${formatBytes(stream.bytes)}` : ` ${stream.frames}/${formatBytes(stream.bytes)}`, 'ui.plain');
	}

	pushSegment(segments, '  ', 'ui.plain');
	pushSegment(segments, `${SEVERITY_MARK.error}${isWide ? ' ' : ''}${model.errors}`, model.errors > 0 ? 'severity.error' : 'ui.dim');
	pushSegment(segments, ' ', 'ui.plain');
	pushSegment(segments, `${SEVERITY_MARK.warning}${isWide ? ' ' : ''}${model.warnings}`, model.warnings > 0 ? 'severity.warning' : 'ui.dim');
	if (isWide) {
		pushSegment(segments, ' ', 'ui.plain');
		pushSegment(segments, `${SEVERITY_MARK.info} ${model.infos}`, model.infos > 0 ? 'severity.info' : 'ui.dim');
	}

	pushSegment(segments, '  ', 'ui.plain');
	if (model.isEnded) {
		pushSegment(segments, `■ ended${model.exit === undefined ? '' : `, ${model.exit}`}`, 'ui.dim');
	} else {
		pushSegment(segments, `● live${model.exit === undefined ? '' : ` (${model.exit})`}`, 'stream.stdout');
	}

	return segments;
}

/** Props of {@link StatusBar}. */
export interface StatusBarProps {
	readonly model: StatusModel;
	readonly width: number;
}

/** The one-line status bar. */
export function StatusBar({model, width}: StatusBarProps) {
	return (
		<Box height={1} width={width} overflow="hidden">
			<Line segments={statusSegments(model, width)} />
		</Box>
	);
}
