import type {Finding, FindingCode, SessionSnapshot, Severity} from '../../../core/types.js';
import type {RedactionCounts} from '../../redact/index.js';
import type {KeptFacts} from '../keep.js';

/**
 * What every report section reads: the (redacted) session, the findings in report order, the facts
 * about the capture file, and the current {@link ReportPlan} (how much detail fits in the line budget).
 */
export interface ReportContext {
	/** The session as shown: redacted unless redaction is off. */
	readonly snapshot: SessionSnapshot;
	/** Findings in report order ({@link orderFindings}); the kept ones only when the session kept few (keep.ts). */
	readonly findings: readonly Finding[];
	/**
	 * The number of each of `findings` (same index): its place, from 1, in the report order of all the
	 * session's findings. Stable: the same finding has the same number whatever the report leaves out; the
	 * numbers skip findings not kept in memory (keep.ts), and the sections say so where they skip.
	 */
	readonly numbers: readonly number[];
	/** Redaction counts; undefined when redaction is off. */
	readonly redactions: RedactionCounts | undefined;
	/** True when `--redact-payloads` masked JSON string values. */
	readonly isPayloadRedacted: boolean;
	/** The version of mcp-wire rendering the report (may differ from the one that recorded the capture). */
	readonly toolVersion: string;
	/** The command that made the report (`mcp-wire report`, `mcp-wire probe --report`), named in the footer. */
	readonly command: string;
	/** Facts about the capture file the session was replayed from, if any. */
	readonly source: ReportSource;
	readonly plan: ReportPlan;
	/** Set when the session kept only what the report prints (keep.ts): what it left out of memory. */
	readonly kept?: KeptFacts;
}

/** Facts about a capture file (from `decodeRecords`). */
export interface ReportSource {
	/** The capture ended inside a record (cut short). */
	readonly isTruncated?: boolean;
	/** Lines of the capture that could not be read. */
	readonly problems?: number;
}

/**
 * How much detail the report shows; {@link PLAN_LADDER} lowers it step by step until the report fits in
 * its line budget. `Infinity` means all.
 */
export interface ReportPlan {
	/** Findings table rows shown before the rest is folded. */
	readonly tableRows: number;
	/** Rows of the folded rest of the findings table (the others are only counted). */
	readonly foldedTableRows: number;
	/** Codes that get a full block (hex excerpt, client table); the others get a one-paragraph block. */
	readonly fullBlocks: number;
	/** Rows of each hex excerpt, context included. */
	readonly hexRows: number;
	/** Fold a per-client table (reaction and note) under each full block. */
	readonly hasImpactTables: boolean;
	/** Further findings of the same code listed (one line each) under the code's block. */
	readonly moreFindings: number;
	/** Frames in the timeline. */
	readonly timelineFrames: number;
	/** Lines of the stderr tail. */
	readonly stderrLines: number;
}

/** The plan with everything the report shows by default. */
export const FULL_PLAN: ReportPlan = {
	tableRows: 10,
	foldedTableRows: Infinity,
	fullBlocks: Infinity,
	hexRows: 6,
	hasImpactTables: true,
	moreFindings: 20,
	timelineFrames: 20,
	stderrLines: 20,
};

/**
 * Steps from `full` (usually {@link FULL_PLAN}) down to the least a report shows, applied in order until the report fits:
 * first the folded parts shrink (timeline, stderr, lists of repeated findings), then per-client tables go,
 * then codes beyond the first lose their hex excerpt (they keep the bytes inline), and last the first
 * code's excerpt narrows. The first finding's bytes stay visible at every step.
 */
export function planLadder(full: ReportPlan, codes: number): ReportPlan[] {
	const steps: Array<Partial<ReportPlan>> = [
		{timelineFrames: 10},
		{stderrLines: 10},
		{moreFindings: 5},
		{foldedTableRows: 20},
		{hasImpactTables: false},
		{timelineFrames: 5, stderrLines: 5},
		{moreFindings: 0},
		{foldedTableRows: 0},
	];
	for (let keep = codes - 1; keep >= 1; keep--) {
		steps.push({fullBlocks: keep});
	}

	steps.push({hexRows: 4}, {timelineFrames: 0, stderrLines: 3}, {tableRows: 5}, {stderrLines: 0, hexRows: 3});
	const plans: ReportPlan[] = [full];
	for (const step of steps) {
		const previous = plans.at(-1)!;
		const next: Record<string, number | boolean> = {...previous};
		for (const [key, value] of Object.entries(step)) {
			const current = previous[key as keyof ReportPlan];
			next[key] = typeof value === 'number' && typeof current === 'number' ? Math.min(current, value) : value;
		}

		plans.push(next as unknown as ReportPlan);
	}

	return plans;
}

const SEVERITY_RANK: Readonly<Record<Severity, number>> = {error: 0, warning: 1, info: 2};

/**
 * Where a code sits in the usual chain of cause and effect: faults in the bytes or messages first (0),
 * then what the process did (1: it exited, never started, never answered), then symptoms that follow
 * from either (2: a request left unanswered).
 */
const CAUSE_RANK: Readonly<Partial<Record<FindingCode, number>>> = {
	'early-exit': 1,
	'spawn-failed': 1,
	'no-response': 1,
	'shutdown-timeout': 1,
	'unanswered-request': 2,
};

/**
 * Findings in report order: errors, then warnings, then infos; within a severity, causes before
 * consequences ({@link CAUSE_RANK}: a stray line or a cut message before the early exit it led to, and
 * that before the request it left unanswered), then in the order found.
 */
export function orderFindings(findings: readonly Finding[]): Finding[] {
	return orderFindingIndices(findings).map((index) => findings[index]!);
}

/** The indices of `findings` in report order ({@link orderFindings}). */
export function orderFindingIndices(findings: readonly Finding[]): number[] {
	return findings
		.map((finding, index) => ({order: orderClass(finding), index}))
		.sort((a, b) => a.order - b.order || a.index - b.index)
		.map(({index}) => index);
}

/**
 * A finding's class in report order ({@link orderFindings}): severity first, then {@link CAUSE_RANK};
 * findings of one class are in the order found. A lower class comes first (0 … 8).
 */
export function orderClass(finding: Pick<Finding, 'code' | 'severity'>): number {
	return SEVERITY_RANK[finding.severity] * 3 + (CAUSE_RANK[finding.code] ?? 0);
}

/** Codes whose evidence is the process itself (the stderr tail is then shown unfolded). */
export const PROCESS_CODES: ReadonlySet<string> = new Set([
	'early-exit',
	'no-response',
	'spawn-failed',
	'shutdown-timeout',
	'unflushed-output',
]);

/**
 * Lines that stay together (a fence, a table, a `<details>`), with how much the report needs them: when
 * even the leanest {@link ReportPlan} is over budget, blocks go lowest `priority` first (the verdict is
 * 1000, the first finding's heading, bytes and fix are in the 90s, folded parts are below 20).
 */
export interface Block {
	readonly lines: readonly string[];
	readonly priority: number;
	/** What the block is, for the footer's "left out" list when it is dropped. */
	readonly what: string;
}

/** A {@link Block}. */
export function block(priority: number, what: string, lines: readonly string[]): Block {
	return {lines, priority, what};
}

/** A section's output: blocks (never split; separated by a blank line) and what it left out. */
export interface SectionOutput {
	readonly blocks: readonly Block[];
	/** What this section left out, as short phrases for the footer (`the 25 frames after frame 19 in the timeline`). */
	readonly leftOut: readonly string[];
}
