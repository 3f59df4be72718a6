import {CLIENTS} from '../clients/registry.js';
import type {ClientTextId} from '../clients/profile.js';
import type {FindingCode} from '../types.js';
import type {ClientErrorModule} from './explain.js';
import {RULES} from './registry.js';

/**
 * The codes each client text points at: every rule that claims the text (its `clientTexts`), ordered by the
 * claim's rank (then registry order).
 * @returns text id to codes, most likely first; a text no rule claims is absent
 */
export function codesByClientText(): ReadonlyMap<ClientTextId, readonly FindingCode[]> {
	const claims = new Map<ClientTextId, {code: FindingCode; rank: number}[]>();
	for (const rule of RULES) {
		for (const claim of rule.clientTexts ?? []) {
			const list = claims.get(claim.text) ?? [];
			list.push({code: rule.code, rank: claim.rank});
			claims.set(claim.text, list);
		}
	}
	return new Map(
		[...claims].map(([text, list]) => [text, list.sort((a, b) => a.rank - b.rank).map((claim) => claim.code)]),
	);
}

const CODES = codesByClientText();

/**
 * The client modules whose own error texts `mcp-wire explain` walks after the rules' ({@link ClientErrorModule}:
 * any module with `errors: readonly ClientErrorText[]`). Every host and SDK family of the client registry
 * (src/core/clients, docs/clients.md#the-clients) brings the texts its module lists (`errorTexts`): Cursor's
 * `Client closed`, VS Code's `Connection state: Error Process exited with code 1`, Gemini CLI's `Error connecting
 * to MCP server`, Codex's ``MCP client for `x` failed to start``. The codes of a text are the rules that claim
 * its id (`clientTexts`, {@link codesByClientText}): a text one rule claims points at it (`likely`); one that
 * several claim lists each as `possible`.
 */
export const CLIENT_ERROR_MODULES: readonly ClientErrorModule[] = CLIENTS.map((profile) => ({
	// A text the rules already explain (through support/pasted.ts) is not added twice.
	errors: profile.errorTexts
		.filter((text) => text.explainedBy === undefined)
		.map((text) => {
			const codes = CODES.get(text.id) ?? [];
			return {
				pattern: new RegExp(text.pattern, 'i'),
				client: profile.displayName,
				meaning: `${text.means.charAt(0).toUpperCase()}${text.means.slice(1)}.`,
				codes,
				likelihood: codes.length === 1 ? ('likely' as const) : ('possible' as const),
			};
		}),
}));
