import {CLIENT_FAMILY_LABEL} from '../../../core/findings/support/catalog.js';
import {
	isCutBeforeAnyFrame,
	OUTCOME_MARK,
	OUTCOME_ORDER,
	OUTCOME_WORD,
	STOPPED_MEANING,
} from '../../../core/clients/outcome.js';
import {code, plural, prose} from '../md.js';
import {exercisedLine} from '../../../core/session/exercised.js';
import {groupDigits} from '../../../core/bytes/glyphs.js';
import {USER_STOP_PHASE, type Mark} from '../../../core/types.js';
import type {ReportContext} from './context.js';

/** The `stopped-by-user` phase mark: the user stopped the probe before its exchange was over. */
function isUserStop(mark: Mark): boolean {
	return mark.type === 'phase' && mark.name === USER_STOP_PHASE;
}

/**
 * The one-line verdict that opens the report, e.g.
 * `**mcp-wire: FAIL** · 1 error, 1 warning · first: `stray-output` at stdout offset 0 — stdout carries a
 * banner line before any message, not an MCP message`.
 * OK reports say how many frames crossed; a capture cut short or a session still running says so. A probe
 * the user stopped before its exchange was over says so in the words of every output (`STOPPED` when it
 * would have been OK: `**mcp-wire: STOPPED** · stopped by the user before the exchange was over: …`).
 */
export function verdictLine(context: ReportContext): string {
	const {summary} = context.snapshot;
	const parts = [`**mcp-wire: ${summary.verdict.toUpperCase()}**`];
	const counts: string[] = [];
	if (summary.errors > 0) {
		counts.push(plural(summary.errors, 'error'));
	}

	if (summary.warnings > 0) {
		counts.push(plural(summary.warnings, 'warning'));
	}

	if (summary.infos > 0) {
		counts.push(`${summary.infos} info`);
	}

	const first = context.findings[0];
	if (first === undefined && isCutBeforeAnyFrame(summary)) {
		parts.push('the capture was cut before any frame: nothing was exercised');
	} else if (summary.verdict === 'stopped') {
		if (counts.length > 0) parts.push(counts.join(', '));
		parts.push(STOPPED_MEANING);
	} else if (first === undefined) {
		const frames = summary.streams.stdin.frames + summary.streams.stdout.frames;
		parts.push(`no wire faults in ${plural(frames, 'frame')}`);
	} else {
		parts.push(counts.join(', '));
		const where = first.byteLength > 0 ? ` at ${first.stream} offset ${groupDigits(first.offset)}` : '';
		parts.push(`${code(first.code)}${where}: ${prose(first.message)}`);
	}

	// A finding seen before the stop keeps its verdict; the stop is still said.
	if (summary.verdict !== 'stopped' && context.snapshot.marks.some(isUserStop))
		parts.push('stopped by the user before the exchange was over');

	const gaps = context.snapshot.marks.filter((mark) => mark.type === 'gap');
	if (gaps.length > 0) {
		const missing = gaps.reduce((sum, gap) => sum + gap.length, 0);
		parts.push(
			`the capture is incomplete: ${groupDigits(missing)} bytes crossed the wire but were not captured (${plural(gaps.length, 'gap')}; nothing is concluded from the cut bytes)`,
		);
	}

	if (context.source.isTruncated === true) {
		parts.push('the capture was cut short (this report covers the bytes before the cut)');
	}

	if (!context.snapshot.isEnded) {
		parts.push('session still running');
	}

	return parts.join(' · ');
}

/**
 * What each client family does with the session, worst first, one line (core/clients/outcome.ts):
 * `**Outcome per client:** ✘ fails: Python SDK — connects; the connection closes (`invalid-utf8`) · ▲ degraded: …`.
 * A failing client gets its note, the others their names; clients with the same note and codes are listed
 * together before them. Empty when the summary has no outcomes.
 */
export function clientsLine(context: ReportContext): string[] {
	const outcomes = context.snapshot.summary.clients ?? [];
	if (outcomes.length === 0) return [];
	const parts = OUTCOME_ORDER.map((kind) => {
		const of = outcomes.filter((o) => o.outcome === kind);
		if (of.length === 0) return '';
		// Clients with the same note and codes share them, said once after their names (six clients that all
		// fail the same way are one list, not six copies of the same words).
		const groups = new Map<string, string[]>();
		for (const o of of) {
			const codes =
				o.decidedBy.length > 0 && kind !== 'works' && kind !== 'degraded'
					? ` (${o.decidedBy.map((c) => code(c)).join(', ')})`
					: '';
			const note = kind === 'fails' ? ` — ${prose(o.note.split(': ')[0] ?? o.note)}` : '';
			const names = groups.get(`${note}${codes}`) ?? [];
			names.push(CLIENT_FAMILY_LABEL[o.client]);
			groups.set(`${note}${codes}`, names);
		}
		const said = [...groups].map(([suffix, names]) => `${names.join('; ')}${suffix}`);
		return `${OUTCOME_MARK[kind]} ${OUTCOME_WORD[kind]}: ${said.join('; ')}`;
	}).filter((part) => part !== '');
	return ['', `**Outcome per client:** ${parts.join(' · ')}`];
}

/**
 * What the session exercised, one line (core/session/exercised.ts): `**Exercised:** initialize, tools/list,
 * ping · 3 tools listed, none called: faults inside handlers are not seen; use --call`. Empty without it.
 */
export function exercisedLines(context: ReportContext): string[] {
	const {summary, meta} = context.snapshot;
	const line = exercisedLine(summary, {hint: meta.mode === 'probe'});
	return line === undefined ? [] : ['', `**Exercised:** ${prose(line)}`];
}
