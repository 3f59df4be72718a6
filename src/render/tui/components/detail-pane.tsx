import {isAtSpawn} from '../../../core/findings/support/at-spawn.js';
import {Box} from 'ink';
import {escapeText} from '../../../core/bytes/glyphs.js';
import type {HexRow} from '../../../core/bytes/hex-layout.js';
import {STREAM_LABEL, type Finding, type Frame} from '../../../core/types.js';
import type {FindingTable} from '../../../core/session/stores/finding-list.js';
import {fitColumns, formatBytes, formatId, formatLatency, formatMs, formatOffset, SEVERITY_MARK} from '../format.js';
import {severityToken, streamToken} from '../theme.js';
import {ChunksPane} from './chunks-pane.js';
import {HexPane} from './hex-pane.js';
import {JsonPane, type JsonLine} from './json-pane.js';
import {Line, pushSegment, type Segment} from './line.js';
import {RawPane} from './raw-pane.js';

/**
 * The detail pane for the selected frame: a header line (direction, kind, method and id, size, stream
 * offset, time, latency, how many reads), up to two lines naming the frame's findings, then the current
 * tab (hex, JSON, raw, chunks).
 */

/** The content of the current tab, computed by the app (only the visible hex rows are laid out). */
export type DetailContent =
	| {readonly tab: 'hex'; readonly rows: readonly HexRow[]; readonly perRow: number}
	| {readonly tab: 'json'; readonly lines: readonly JsonLine[] | undefined}
	| {readonly tab: 'raw'; readonly lines: readonly string[]}
	| {readonly tab: 'chunks'; readonly lines: readonly string[]};

/** The header segments of a frame: `#3 S→C response #1 initialize (reply to #0) · 143 B @0x001a, CR LF · t 5.0 ms · 4.0ms latency · 1 read`. */
export function detailHeader(frame: Frame, readCount: number): Segment[] {
	const segments: Segment[] = [];
	pushSegment(segments, `#${frame.index} `, 'ui.accent');
	pushSegment(segments, STREAM_LABEL[frame.stream], streamToken(frame.stream));
	pushSegment(segments, ` ${frame.kind}`, 'ui.plain');
	if (frame.method !== undefined) {
		pushSegment(segments, ` ${escapeText(frame.method)}`, 'ui.plain');
	}

	if (frame.id !== undefined) {
		pushSegment(segments, ` ${formatId(frame.id)}`, 'ui.plain');
	}

	if (frame.answers) {
		pushSegment(segments, ` ${escapeText(frame.answers.method)} (reply to #${frame.answers.requestIndex})`, 'ui.plain');
	}

	const terminator = frame.terminator === 'crlf' ? ', CR LF' : frame.terminator === 'none' ? ', no LF' : '';
	pushSegment(
		segments,
		` · ${formatBytes(frame.byteLength)} @${formatOffset(frame.offset)}${terminator} · t ${formatMs(frame.tMs)} ms`,
		'ui.dim',
	);
	if (frame.answers) {
		pushSegment(segments, ` · ${formatLatency(frame.answers.latencyMs)} latency`, 'ui.dim');
	}

	pushSegment(
		segments,
		` · ${readCount} ${readCount === 1 ? 'read' : 'reads'}`,
		readCount > 1 ? 'severity.warning' : 'ui.dim',
	);
	return segments;
}

/** One line naming a finding: `✖ crlf @0x001f (1 B): message`, fitted to `width`. */
export function findingSummarySegments(finding: Finding, width: number): Segment[] {
	const segments: Segment[] = [];
	const head = `${SEVERITY_MARK[finding.severity]} ${finding.code}`;
	pushSegment(segments, head, severityToken(finding.severity));
	const where = isAtSpawn(finding)
		? ' at the spawn: '
		: ` @${formatOffset(finding.offset)}${finding.byteLength > 0 ? ` (${formatBytes(finding.byteLength)})` : ''}: `;
	pushSegment(segments, where, 'ui.dim');
	pushSegment(
		segments,
		fitColumns(escapeText(finding.message), Math.max(0, width - head.length - where.length)),
		'ui.plain',
	);
	return segments;
}

/** Lines the finding summary takes for `count` findings (at most 2). */
export function findingRowsFor(count: number): number {
	return Math.min(2, count);
}

/** Props of {@link DetailPane}. */
export interface DetailPaneProps {
	readonly frame: Frame | undefined;
	readonly findings: readonly Finding[];
	readonly readCount: number;
	readonly content: DetailContent;
	readonly scroll: number;
	readonly width: number;
	/** Total height of the pane (header and finding lines included). */
	readonly height: number;
	/**
	 * The session's findings, shown when no frame is selected: a server that never started (or never
	 * wrote) has findings but no frame, and the pane says what they are instead of only "No frame selected".
	 */
	readonly sessionFindings?: FindingTable;
}

/** Rows left for the tab content of a pane of `height` rows showing `findingCount` findings. */
export function detailContentRows(height: number, findingCount: number): number {
	return Math.max(1, height - 1 - findingRowsFor(findingCount));
}

/** The detail pane. */
export function DetailPane({
	frame,
	findings,
	readCount,
	content,
	scroll,
	width,
	height,
	sessionFindings,
}: DetailPaneProps) {
	if (!frame) {
		const shown: Finding[] = [];
		for (let i = 0; sessionFindings !== undefined && i < Math.min(sessionFindings.length, height - 1); i++) {
			shown.push(sessionFindings.at(i)!);
		}

		return (
			<Box flexDirection="column" height={height} overflow="hidden">
				<Line
					segments={[
						{
							text:
								shown.length === 0
									? 'No frame selected.'
									: 'No frame selected. Findings (Tab: the findings pane has the fix):',
							token: 'ui.dim',
						},
					]}
				/>
				{shown.map((finding, i) => (
					<Line key={i} segments={findingSummarySegments(finding, width)} />
				))}
			</Box>
		);
	}

	const findingLines: Segment[][] = [];
	if (findings.length > 0) {
		findingLines.push(findingSummarySegments(findings[0]!, width));
	}

	if (findings.length === 2) {
		findingLines.push(findingSummarySegments(findings[1]!, width));
	} else if (findings.length > 2) {
		findingLines.push([
			{text: `… and ${findings.length - 1} more findings on this frame (Tab: findings pane)`, token: 'ui.dim'},
		]);
	}

	const rows = detailContentRows(height, findings.length);
	return (
		<Box flexDirection="column" height={height} overflow="hidden">
			<Line segments={detailHeader(frame, readCount)} />
			{findingLines.map((segments, i) => (
				<Line key={i} segments={segments} />
			))}
			{content.tab === 'hex' ? <HexPane rows={content.rows} perRow={content.perRow} height={rows} /> : null}
			{content.tab === 'json' ? <JsonPane lines={content.lines} scroll={scroll} height={rows} /> : null}
			{content.tab === 'raw' ? <RawPane lines={content.lines} scroll={scroll} height={rows} /> : null}
			{content.tab === 'chunks' ? <ChunksPane lines={content.lines} scroll={scroll} height={rows} /> : null}
		</Box>
	);
}
