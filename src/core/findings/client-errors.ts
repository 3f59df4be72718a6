import {CLIENTS} from '../clients/registry.js';
import type {ClientErrorModule} from './explain.js';

/**
 * The client modules whose own error texts `mcp-wire explain` walks after the rules' ({@link ClientErrorModule}:
 * any module with `errors: readonly ClientErrorText[]`). Every host and SDK family of the client registry
 * (src/core/clients, docs/clients.md#the-clients) brings the texts its module lists (`errorTexts`): Cursor's
 * `Client closed`, VS Code's `Connection state: Error Process exited with code 1`, Gemini CLI's `Error connecting
 * to MCP server`, Codex's ``MCP client for `x` failed to start``. A text that names one finding points at it
 * (`likely`); one that several findings can cause lists each as `possible`.
 */
export const CLIENT_ERROR_MODULES: readonly ClientErrorModule[] = CLIENTS.map((profile) => ({
	// A text the rules already explain (through support/pasted.ts) is not added twice.
	errors: profile.errorTexts
		.filter((text) => text.explainedBy === undefined)
		.map((text) => ({
			pattern: new RegExp(text.pattern, 'i'),
			client: profile.displayName,
			meaning: `${text.means.charAt(0).toUpperCase()}${text.means.slice(1)}.`,
			codes: text.findings,
			likelihood: text.findings.length === 1 ? ('likely' as const) : ('possible' as const),
		})),
}));
