import {Box} from 'ink';
import {escapeText, groupDigits} from '../../../core/bytes/glyphs.js';
import {formatBytes, SEVERITY_MARK} from '../format.js';
import {loadPercent, type LoadProgress} from '../state/loading.js';
import type {StatusModel} from '../state/selectors.js';
import {streamToken, verdictToken} from '../theme.js';
import {Line, pushSegment, type Segment} from './line.js';

/**
 * The status bar: verdict, frames and bytes per stream, error/warning/info counts, and whether the
 * session is live or ended (with the exit code or signal). From 100 columns on it also names the server
 * and spells the units out.
 */

const VERDICT_LABEL = {ok: ' OK ', warn: ' WARN ', fail: ' FAIL ', stopped: ' STOPPED '} as const;

/**
 * The handshake request is outstanding: which, for how long (ms), and how long the probe waits (absent:
 * not known). `method` absent: nothing has crossed the wire yet (the server is starting).
 */
export interface WaitingStatus {
	readonly method?: string;
	readonly elapsedMs: number;
	readonly limitMs?: number;
}

/** `waiting for initialize 3 s / 30 s` (whole seconds, never negative), or `waiting for the first message`. */
export function waitingText(waiting: WaitingStatus): string {
	if (waiting.method === undefined) return 'waiting for the first message';
	const seconds = (ms: number): string => `${Math.max(0, Math.floor(ms / 1000))} s`;
	return `waiting for ${waiting.method} ${seconds(waiting.elapsedMs)}${waiting.limitMs === undefined ? '' : ` / ${seconds(waiting.limitMs)}`}`;
}

/**
 * The status bar's segments at a width. While the handshake is outstanding (`waiting`), an OK verdict is not shown (nothing has been judged yet): the label says WAIT and the
 * live segment counts the seconds. Findings already made (a banner before the reply) keep their verdict.
 * While `view` still reads the capture (`loading`), OK is shown as LOAD and the last segment is `● loading 21%`.
 * A tap capture whose tap paused reading for its capture (`model.stalls`) says `stalls 3×, 120 ms` (narrow: `stalls 3×`).
 * An incomplete capture (`model.incomplete`) ends the bar with `▲ incomplete` (the app shows the whole sentence on a line of its own).
 * A server that exited in a session still open (a probe's TUI, until `q`) shows `■ server ended, exit 1`, not live.
 */
export function statusSegments(
	model: StatusModel,
	width: number,
	waiting?: WaitingStatus,
	loading?: LoadProgress,
): Segment[] {
	const isWide = width >= 100;
	const segments: Segment[] = [];
	// A capture still being read has not been judged either: LOAD, not OK (findings already made keep their verdict).
	if (loading !== undefined && model.verdict === 'ok') pushSegment(segments, ' LOAD ', 'ui.accent');
	else if (waiting !== undefined && model.verdict === 'ok') pushSegment(segments, ' WAIT ', 'ui.accent');
	else pushSegment(segments, VERDICT_LABEL[model.verdict], verdictToken(model.verdict));
	if (isWide && model.server !== undefined) {
		pushSegment(segments, ` ${escapeText(model.server, 24)}`, 'ui.accent');
	}

	for (const stream of model.streams) {
		pushSegment(segments, '  ', 'ui.plain');
		pushSegment(segments, stream.label, streamToken(stream.stream));
		const unit = stream.stream === 'stderr' ? 'ln' : 'fr';
		pushSegment(
			segments,
			isWide
				? ` ${stream.frames} ${unit} ${formatBytes(stream.bytes)}`
				: ` ${stream.frames}/${formatBytes(stream.bytes)}`,
			'ui.plain',
		);
	}

	pushSegment(segments, '  ', 'ui.plain');
	pushSegment(
		segments,
		`${SEVERITY_MARK.error}${isWide ? ' ' : ''}${model.errors}`,
		model.errors > 0 ? 'severity.error' : 'ui.dim',
	);
	pushSegment(segments, ' ', 'ui.plain');
	pushSegment(
		segments,
		`${SEVERITY_MARK.warning}${isWide ? ' ' : ''}${model.warnings}`,
		model.warnings > 0 ? 'severity.warning' : 'ui.dim',
	);
	if (isWide) {
		pushSegment(segments, ' ', 'ui.plain');
		pushSegment(segments, `${SEVERITY_MARK.info} ${model.infos}`, model.infos > 0 ? 'severity.info' : 'ui.dim');
	}

	pushSegment(segments, '  ', 'ui.plain');
	// A capture's exit signal is its own text (a crafted one can hold OSC 52): escaped like the server name.
	const exit = model.exit === undefined ? undefined : escapeText(model.exit, 32);
	if (loading !== undefined) {
		pushSegment(segments, `● loading ${loadPercent(loading)}%`, 'stream.stdout');
	} else if (model.isEnded) {
		pushSegment(segments, `■ ended${exit === undefined ? '' : `, ${exit}`}`, 'ui.dim');
	} else if (waiting !== undefined) {
		pushSegment(segments, `● ${waitingText(waiting)}`, 'stream.stdout');
	} else if (exit !== undefined) {
		// The server is gone though the session is not finished (a probe keeps it open for `r`): not live.
		pushSegment(segments, `■ server ended, ${exit}`, 'ui.dim');
	} else {
		pushSegment(segments, '● live', 'stream.stdout');
	}

	if (model.stalls !== undefined) {
		// Times in the capture include these waits (README: tap --capture-wait); the plain log's end says it in full.
		pushSegment(segments, '  ', 'ui.plain');
		pushSegment(
			segments,
			`stalls ${groupDigits(model.stalls.count)}×${isWide ? `, ${groupDigits(model.stalls.totalMs)} ms` : ''}`,
			'severity.info',
		);
	}

	if (model.incomplete !== undefined) {
		pushSegment(segments, '  ', 'ui.plain');
		pushSegment(segments, `${SEVERITY_MARK.warning} incomplete`, 'severity.warning');
	}

	return segments;
}

/** Props of {@link StatusBar}. */
export interface StatusBarProps {
	readonly model: StatusModel;
	readonly width: number;
	/** Set while the handshake is outstanding (see {@link statusSegments}). */
	readonly waiting?: WaitingStatus;
	/** Set while `view` is still reading the capture (see {@link statusSegments}). */
	readonly loading?: LoadProgress;
}

/** The one-line status bar. */
export function StatusBar({model, width, waiting, loading}: StatusBarProps) {
	return (
		<Box height={1} width={width} overflow="hidden">
			<Line segments={statusSegments(model, width, waiting, loading)} />
		</Box>
	);
}
