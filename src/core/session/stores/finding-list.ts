import type {Finding, FindingCode, Severity} from '../../types.js';

// How a session's findings are kept for the TUI (docs/performance.md#tui-on-big-captures): a plain list
// (RetainedFindings, the reference) or columns of numbers with the finding's text materialised only when it
// is shown (CompactFindings, compact-findings.ts). Both answer the same (test/core/session/stores/finding-list.test.ts).

/**
 * The findings of a snapshot as the TUI reads them: a `readonly Finding[]` satisfies it, and so does a
 * compact store, which answers the optional column reads without building the finding.
 */
export interface FindingTable {
	readonly length: number;
	/** The finding at position `index` (in the order found), or undefined outside `[0, length)`. */
	at(index: number): Finding | undefined;
	/** Its code, without building the finding. */
	codeAt?(index: number): FindingCode;
	/** Its severity, without building the finding. */
	severityAt?(index: number): Severity;
	/** The frame it points at (undefined for none), without building the finding. */
	frameIndexAt?(index: number): number | undefined;
}

/** The code of finding `index` (`0 <= index < length`) of a table, from its column when it has one. */
export function codeAt(findings: FindingTable, index: number): FindingCode {
	return findings.codeAt ? findings.codeAt(index) : findings.at(index)!.code;
}

/** The severity of finding `index` (`0 <= index < length`) of a table, from its column when it has one. */
export function severityAt(findings: FindingTable, index: number): Severity {
	return findings.severityAt ? findings.severityAt(index) : findings.at(index)!.severity;
}

/** The frame finding `index` (`0 <= index < length`) points at, from its column when it has one. */
export function frameIndexAt(findings: FindingTable, index: number): number | undefined {
	return findings.frameIndexAt ? findings.frameIndexAt(index) : findings.at(index)!.frameIndex;
}

/** An append-only list of findings in the order found, with a count per code. */
export interface FindingList extends Required<FindingTable> {
	/** Append a finding (kept as given: {@link FindingTable.at} returns an equal object). */
	add(finding: Finding): void;
	/** How many findings of `code` were added. */
	countOf(code: FindingCode): number;
	/** The first `length` findings as a table that does not change when more are added (no copy). */
	view(length?: number): Required<FindingTable>;
}

/** The reference {@link FindingList}: every finding object kept as it is. */
export class RetainedFindings implements FindingList {
	private readonly list: Finding[] = [];
	private readonly counts = new Map<FindingCode, number>();

	get length(): number {
		return this.list.length;
	}

	add(finding: Finding): void {
		this.list.push(finding);
		this.counts.set(finding.code, (this.counts.get(finding.code) ?? 0) + 1);
	}

	at(index: number): Finding | undefined {
		return Number.isInteger(index) && index >= 0 ? this.list[index] : undefined;
	}

	codeAt(index: number): FindingCode {
		return this.list[index]!.code;
	}

	severityAt(index: number): Severity {
		return this.list[index]!.severity;
	}

	frameIndexAt(index: number): number | undefined {
		return this.list[index]!.frameIndex;
	}

	countOf(code: FindingCode): number {
		return this.counts.get(code) ?? 0;
	}

	view(length = this.length): Required<FindingTable> {
		return viewOf(this, length);
	}
}

/** The first `length` findings of `list` as a fixed table (see {@link FindingList.view}). */
export function viewOf(list: Required<FindingTable>, length: number): Required<FindingTable> {
	const n = Math.min(length, list.length);
	return {
		length: n,
		at: (i) => (Number.isInteger(i) && i >= 0 && i < n ? list.at(i) : undefined),
		codeAt: (i) => list.codeAt(i),
		severityAt: (i) => list.severityAt(i),
		frameIndexAt: (i) => list.frameIndexAt(i),
	};
}
