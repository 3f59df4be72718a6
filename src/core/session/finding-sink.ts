import type {Finding, FindingCode, FindingDraft, Severity, Summary} from '../types.js';

/** What the summary says of the findings: one row per code, and the count of each severity. */
export interface FindingTally {
	/** One row per code: errors first, then warnings, then infos; within a severity, in the order first found. */
	readonly findings: Summary['findings'];
	readonly errors: number;
	readonly warnings: number;
	readonly infos: number;
}

/**
 * Where a session's findings end: counts each one by code and by severity (a code's row takes the
 * highest severity it was reported with), and remembers where the live-only ones (`origin: 'probe'`)
 * were, so that a dump replayed with its `observed` marks, which derives the same finding again, does not
 * add a copy of one a live probe reported. Keeps no finding itself (the session's store does). Pure.
 */
export class FindingSink {
	/** `code@stream:offset` of the live-only findings recorded so far. */
	private readonly probeKeys = new Set<string>();
	private readonly byCode = new Map<FindingCode, {severity: Severity; count: number}>();
	private readonly bySeverity: Record<Severity, number> = {error: 0, warning: 0, info: 0};

	/** True when a live-only finding with `draft`'s code, stream and byte offset was recorded already. */
	hasProbe(draft: FindingDraft): boolean {
		return this.probeKeys.has(`${draft.code}@${draft.stream}:${draft.offset}`);
	}

	/** Count a finding the engine dressed (and remember it when it is live-only). */
	record(finding: Finding): void {
		if (finding.origin === 'probe') this.probeKeys.add(`${finding.code}@${finding.stream}:${finding.offset}`);
		const counted = this.byCode.get(finding.code);
		if (counted) {
			counted.count += 1;
			if (rank(finding.severity) > rank(counted.severity)) counted.severity = finding.severity;
		} else {
			this.byCode.set(finding.code, {severity: finding.severity, count: 1});
		}
		this.bySeverity[finding.severity] += 1;
	}

	/** The counts so far, as the summary shows them (a new object each call). */
	tally(): FindingTally {
		const {error: errors, warning: warnings, info: infos} = this.bySeverity;
		// Array.prototype.sort is stable: within a severity the rows keep the order first found.
		const findings = [...this.byCode.entries()]
			.map(([code, {severity, count}]) => ({code, severity, count}))
			.sort((a, b) => rank(b.severity) - rank(a.severity));
		return {findings, errors, warnings, infos};
	}
}

const rank = (s: Severity): number => (s === 'error' ? 2 : s === 'warning' ? 1 : 0);
