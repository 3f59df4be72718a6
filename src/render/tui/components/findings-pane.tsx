import {isAtSpawn} from '../../../core/findings/support/at-spawn.js';
import {Box, Text} from 'ink';
import {CLIENT_FAMILY_LABEL, REACTION_WORDS} from '../../../core/findings/support/catalog.js';
import {escapeText} from '../../../core/bytes/glyphs.js';
import {CLIENT_SHORT_LABEL, outcomesLine} from '../../../core/clients/outcome.js';
import {STREAM_LABEL, type ClientOutcome, type Finding} from '../../../core/types.js';
import {fitColumns, formatBytes, formatOffset, SEVERITY_MARK, wrapText} from '../format.js';
import type {FindingTable} from '../../../core/session/stores/finding-list.js';
import type {FindingsLayout} from '../state/selectors.js';
import {severityToken, useTheme} from '../theme.js';
import {Line, pushSegment, type Segment} from './line.js';

/**
 * The findings pane: findings grouped by code (errors first), one line each; below the list, the
 * finding under the cursor in full: message, hint (the fix), and what each client family does with it
 * (docs/protocol.md "Client reactions"). Enter jumps to the finding's frame with its bytes highlighted in the hex tab.
 */

/** Splits the pane: rows for the list and rows for the selected finding's details. */
export function findingsSplit(height: number): {readonly listRows: number; readonly detailRows: number} {
	const listRows = Math.max(2, Math.min(height - 3, Math.floor(height * 0.45)));
	return {listRows, detailRows: Math.max(0, height - listRows - 1)};
}

/** The line of a group header: `✖ crlf ×3`. */
export function groupLineSegments(code: string, severity: Finding['severity'], count: number): Segment[] {
	return [{text: `${SEVERITY_MARK[severity]} ${code} ×${count}`, token: severityToken(severity)}];
}

/** The line of one finding: `    #12 S→C @0x001f 1 B  message` (`#–` when it points at no frame). */
export function findingItemSegments(finding: Finding, width: number): Segment[] {
	const segments: Segment[] = [];
	const frame = finding.frameIndex === undefined ? '#–' : `#${finding.frameIndex}`;
	const size = finding.byteLength > 0 ? ` ${formatBytes(finding.byteLength)}` : '';
	const head = `    ${frame} ${isAtSpawn(finding) ? 'at the spawn' : `${STREAM_LABEL[finding.stream]} @${formatOffset(finding.offset)}`}${size}  `;
	pushSegment(segments, head, 'ui.dim');
	pushSegment(segments, fitColumns(escapeText(finding.message), Math.max(0, width - head.length)), 'ui.plain');
	return segments;
}

/**
 * The lines describing one finding in full, wrapped to `width`: the headline (code, severity, rules,
 * message), the fix, then one paragraph per client family (`reaction, note`, the reaction in
 * {@link REACTION_WORDS}: `skip+log`, `not established`).
 */
export function findingDetailLines(finding: Finding, width: number): Segment[][] {
	const headline = `${SEVERITY_MARK[finding.severity]} ${finding.code} (${finding.severity}${finding.rules.length > 0 ? `, ${finding.rules.join(' ')}` : ''}): ${escapeText(finding.message)}`;
	const lines: Segment[][] = wrapText(headline, width, 2).map((text) => [
		{text, token: severityToken(finding.severity)},
	]);
	for (const text of wrapText(`fix: ${escapeText(finding.hint)}`, width, 5)) {
		lines.push([{text, token: 'ui.plain'}]);
	}

	for (const impact of finding.impact) {
		const label = `  ${CLIENT_FAMILY_LABEL[impact.client]}: `;
		// The reaction in the words the plain log and the report use (skip+log, not established), the note unless it only repeats them.
		const word = REACTION_WORDS[impact.reaction];
		const said = impact.note === '' || impact.note === word ? word : `${word}, ${escapeText(impact.note)}`;
		wrapText(`${label}${said}`, width, 4).forEach((text, i) => {
			lines.push(
				i === 0 && text.startsWith(label)
					? [
							{text: label, token: 'ui.dim'},
							{text: text.slice(label.length), token: 'ui.plain'},
						]
					: [{text, token: 'ui.plain'}],
			);
		});
	}

	return lines;
}

/** Props of {@link FindingsPane}. */
export interface FindingsPaneProps {
	readonly findings: FindingTable;
	readonly layout: FindingsLayout;
	/** Cursor (ordinal in grouped order) and first visible line. */
	readonly cursor: number;
	readonly scroll: number;
	readonly width: number;
	readonly height: number;
	readonly isFocused: boolean;
	/** What each client family does with the session (`summary.clients`): one line above the list. */
	readonly clients?: readonly ClientOutcome[];
}

/** The clients line: `clients: ✘ fails: Python SDK (invalid-utf8) · ▲ degraded: TS SDK v1 …`, cut to `width`. */
export function clientsLineSegments(clients: readonly ClientOutcome[], width: number): Segment[] {
	const token = clients.some((o) => o.outcome === 'fails')
		? 'severity.error'
		: clients.some((o) => o.outcome === 'degraded')
			? 'severity.warning'
			: 'ui.dim';
	return [
		{text: fitColumns(`clients: ${outcomesLine(clients, (client) => CLIENT_SHORT_LABEL[client])}`, width), token},
	];
}

/** The findings pane. */
export function FindingsPane({findings, layout, cursor, scroll, width, height, isFocused, clients}: FindingsPaneProps) {
	const theme = useTheme();
	const hasClients = clients !== undefined && clients.length > 0;
	const {listRows, detailRows} = findingsSplit(hasClients ? height - 1 : height);
	const clientsLine = hasClients ? <Line segments={clientsLineSegments(clients, width)} /> : null;
	if (findings.length === 0) {
		return (
			<Box flexDirection="column" height={height}>
				{clientsLine}
				<Text {...theme.tokens['ui.dim']}>No findings: nothing on the wire breaks a known client.</Text>
			</Box>
		);
	}

	// Only the lines on screen are made, and only their findings built (docs/performance.md#tui-on-big-captures).
	const selectedLine = layout.lineOf(cursor);
	const visible = layout.lines(scroll, scroll + listRows);
	const current = findings.at(layout.findingAt(cursor) ?? -1);
	return (
		<Box flexDirection="column" height={height} overflow="hidden">
			{clientsLine}
			<Box flexDirection="column" height={listRows} overflow="hidden">
				{visible.map((line, i) => {
					const lineNumber = scroll + i;
					if (line.type === 'group') {
						return <Line key={`g${lineNumber}`} segments={groupLineSegments(line.code, line.severity, line.count)} />;
					}

					return (
						<Line
							key={`f${line.finding}`}
							segments={findingItemSegments(findings.at(line.finding)!, width)}
							isSelected={isFocused && lineNumber === selectedLine}
						/>
					);
				})}
			</Box>
			<Text {...theme.tokens['ui.dim']}>{'─'.repeat(Math.max(0, width))}</Text>
			<Box flexDirection="column" height={detailRows} overflow="hidden">
				{current
					? findingDetailLines(current, width)
							.slice(0, detailRows)
							.map((segments, i) => <Line key={i} segments={segments} />)
					: null}
			</Box>
		</Box>
	);
}
