import type {ClientFamily, ClientImpact, FindingDraft, Reaction, Severity} from '../types.js';

/**
 * A finding code's metadata, like an ESLint rule's `meta`: its default severity, one-line message, fix,
 * the rule ids it comes from (`docs/`), and how each client family reacts. Detectors only say what and
 * where ({@link FindingDraft}); `dressFinding` in `catalog.ts` adds the rest from this entry.
 */
export interface CatalogEntry {
	readonly severity: Severity;
	readonly title: string;
	readonly message: (draft: FindingDraft) => string;
	readonly hint: (draft: FindingDraft) => string;
	readonly rules: readonly string[];
	readonly impact: (draft: FindingDraft) => readonly ClientImpact[];
}

/** One reaction and its note per client family: a row of the impact table. */
export type ImpactRow = Readonly<Record<ClientFamily, readonly [Reaction, string]>>;

/** The client families in table order. */
export const FAMILIES: readonly ClientFamily[] = ['ts-sdk-v1', 'ts-sdk-v2', 'python-sdk', 'vscode', 'rmcp', 'cursor'];

/** An impact function that always returns the same row (most codes: the reaction does not depend on the draft). */
export function row(r: ImpactRow): () => readonly ClientImpact[] {
	const impact = FAMILIES.map((client) => ({client, reaction: r[client][0], note: r[client][1]}));
	return () => impact;
}

/** A cell for a client whose reaction nobody has checked: shown as "not established", never invented. */
export const UNKNOWN: readonly [Reaction, string] = ['unknown', 'not established'];

/** `draft.detail[key]` when it is a string. */
export const detailString = (draft: FindingDraft, key: string): string | undefined => {
	const value = draft.detail?.[key];
	return typeof value === 'string' ? value : undefined;
};

/** `draft.detail[key]` when it is a number. */
export const detailNumber = (draft: FindingDraft, key: string): number | undefined => {
	const value = draft.detail?.[key];
	return typeof value === 'number' ? value : undefined;
};
