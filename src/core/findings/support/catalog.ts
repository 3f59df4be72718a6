import type {ClientFamily, ClientImpact, Finding, FindingCode, FindingDraft, Reaction} from '../../types.js';
import type {CatalogEntry} from './meta.js';
import {RULES} from '../registry.js';

export type {CatalogEntry, ExampleStep, FindingDoc, FindingExample} from './meta.js';

/** Reactions from worst to best (docs/protocol.md "Client reactions" legend), the order in which client summaries list them. */
export const REACTION_ORDER: readonly Reaction[] = [
	'fatal',
	'hang',
	'corrupt',
	'drop-log',
	'skip-log',
	'skip',
	'ok',
	'unknown',
];

/** Words for the reactions in prose (reports, `explain`). */
export const REACTION_WORDS: Readonly<Record<Reaction, string>> = {
	fatal: 'fatal',
	hang: 'hang',
	corrupt: 'corrupt',
	'drop-log': 'drop+log',
	'skip-log': 'skip+log',
	skip: 'skip',
	ok: 'ok',
	unknown: 'not established',
};

/**
 * The client impact in one line, worst first: `fatal: Cursor · skip+log: TS SDK v1 (…), Python SDK`.
 * Says at a glance which clients a fault breaks (docs/findings.md, "how a finding is shown").
 */
export function clientsSummary(impact: readonly ClientImpact[]): string {
	return REACTION_ORDER.map((reaction) => {
		const clients = impact
			.filter((entry) => entry.reaction === reaction)
			.map((entry) => CLIENT_FAMILY_LABEL[entry.client]);
		return clients.length === 0 ? '' : `${REACTION_WORDS[reaction]}: ${clients.join(', ')}`;
	})
		.filter((group) => group !== '')
		.join(' · ');
}

/** Human names of the client families, as shown in reports and the TUI. */
export const CLIENT_FAMILY_LABEL: Readonly<Record<ClientFamily, string>> = {
	'ts-sdk-v1': 'TS SDK v1 (Claude Desktop, Claude Code, MCP Inspector)',
	'ts-sdk-v2': 'TS SDK v2',
	'python-sdk': 'Python SDK',
	vscode: 'VS Code',
	rmcp: 'rmcp (Rust SDK)',
	cursor: 'Cursor',
};

/** The catalog, one entry per code: each rule module's `meta` (`rules/<code>.ts`). */
export const CATALOG: Readonly<Record<FindingCode, CatalogEntry>> = Object.fromEntries(
	RULES.map((rule) => [rule.code, rule.meta]),
) as Record<FindingCode, CatalogEntry>;

/** True when the code's rule marks it a consequence of another fault (`meta.consequenceOf`). */
export function isConsequence(code: FindingCode): boolean {
	return CATALOG[code].consequenceOf !== undefined;
}

/**
 * Dress a detector's draft as a presentable finding: severity (the draft's override or the catalog
 * default), message, hint, rules and client impact from {@link CATALOG}.
 */
export function dressFinding(draft: FindingDraft): Finding {
	const entry = CATALOG[draft.code];
	return {
		...draft,
		severity: draft.severity ?? entry.severity,
		message: draft.message ?? entry.message(draft),
		hint: entry.hint(draft),
		impact: entry.impact(draft),
		rules: entry.rules,
	};
}
