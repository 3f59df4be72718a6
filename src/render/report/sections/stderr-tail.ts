import {escapeText} from '../../../core/bytes/glyphs.js';
import {details, fence, html, plural} from '../md.js';
import {block, PROCESS_CODES, type ReportContext, type SectionOutput} from './context.js';

/** Stderr lines shown unfolded when the process itself is at fault (early exit, no response…). */
const VISIBLE_STDERR = 10;

/**
 * The stderr tail: the last `plan.stderrLines` lines (escaped, each cut at 200 columns) in a ```` ```text ````
 * fence, so `--max-lines` decides how many are shown (the plan scales with it). When the process itself is
 * at fault (early exit, no response, spawn failure), stderr is the evidence: its last 10 lines are shown
 * unfolded, and the earlier ones of the tail follow folded. Folded as a whole otherwise. An empty stderr is
 * said in one line.
 */
export function stderrSection(context: ReportContext): SectionOutput {
	const total = context.snapshot.summary.streams.stderr.frames;
	if (total === 0) {
		return {
			blocks: [block(26, 'the stderr note', ['**stderr:** empty (the server wrote nothing to stderr).'])],
			leftOut: [],
		};
	}

	const isEvidence = context.findings.some((finding) => PROCESS_CODES.has(finding.code));
	const limit = context.plan.stderrLines;
	if (limit <= 0) {
		return {blocks: [], leftOut: [`the stderr tail (${plural(total, 'line')})`]};
	}

	const lines = context.snapshot.stderrTail(limit).map((line) => escapeText(line, 200));
	const leftOut = lines.length < total ? [`${plural(total - lines.length, 'earlier stderr line')}`] : [];
	if (isEvidence) {
		const visible = lines.slice(-VISIBLE_STDERR);
		const earlier = lines.slice(0, lines.length - visible.length);
		const title =
			visible.length < total
				? `stderr: the last ${visible.length} of ${plural(total, 'line')}`
				: `stderr: ${plural(total, 'line')}`;
		const blocks = [block(80, 'the stderr tail', [`**${title}**`, '', ...fence(visible)])];
		if (earlier.length > 0)
			blocks.push(
				block(
					24,
					'the earlier stderr lines',
					details(html(`stderr: the ${plural(earlier.length, 'line')} before those`), fence(earlier)),
				),
			);
		return {blocks, leftOut};
	}

	const title =
		lines.length < total
			? `stderr: the last ${lines.length} of ${plural(total, 'line')}`
			: `stderr: ${plural(total, 'line')}`;
	return {blocks: [block(25, 'the stderr tail', details(html(title), fence(lines)))], leftOut};
}
