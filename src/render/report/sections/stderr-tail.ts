import {escapeText} from '../../../core/bytes/glyphs.js';
import {details, fence, html, plural} from '../md.js';
import {block, PROCESS_CODES, type ReportContext, type SectionOutput} from './context.js';

/** Stderr lines shown unfolded when the process itself is at fault (early exit, no response…). */
const VISIBLE_STDERR = 10;

/**
 * The stderr tail: the last `plan.stderrLines` lines (escaped, each cut at 200 columns) in a ```` ```text ````
 * fence. Shown unfolded (at most 10 lines) when the process itself is at fault, where stderr is the
 * evidence (early exit, no response, spawn failure); folded otherwise. An empty stderr is said in one line.
 */
export function stderrSection(context: ReportContext): SectionOutput {
	const total = context.snapshot.summary.streams.stderr.frames;
	if (total === 0) {
		return {blocks: [block(26, 'the stderr note', ['**stderr:** empty (the server wrote nothing to stderr).'])], leftOut: []};
	}

	const isEvidence = context.findings.some((finding) => PROCESS_CODES.has(finding.code));
	const limit = Math.min(context.plan.stderrLines, isEvidence ? VISIBLE_STDERR : Infinity);
	if (limit <= 0) {
		return {blocks: [], leftOut: [`the stderr tail (${plural(total, 'line')})`]};
	}

	const lines = context.snapshot.stderrTail(limit).map((line) => escapeText(line, 200));
	const title = lines.length < total ? `stderr: the last ${lines.length} of ${plural(total, 'line')}` : `stderr: ${plural(total, 'line')}`;
	const leftOut = lines.length < total ? [`${plural(total - lines.length, 'earlier stderr line')}`] : [];
	if (isEvidence) {
		return {blocks: [block(80, 'the stderr tail', [`**${title}**`, '', ...fence(lines)])], leftOut};
	}

	return {blocks: [block(25, 'the stderr tail', details(html(title), fence(lines)))], leftOut};
}
