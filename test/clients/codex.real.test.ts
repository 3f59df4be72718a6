/**
 * Ground truth: every example server under the real Codex CLI (`codex app-server` + `mcpServerStatus/list`,
 * its MCP client is rmcp; installed by scripts/install-clients.mjs). mcp-wire's own run of Codex's opening,
 * `probe --as codex` (2025-06-18 with elicitation, its limits, the rmcp reading), must match what Codex did
 * (docs/clients.md "Checked against the real clients").
 */
import {describe, expect, it} from 'vitest';
import {compareAll, disagreements, EXAMPLES} from './ground-truth.js';
import {runCodex} from './codex-driver.js';
import {asOutcome, probeAs, REAL_CLIENTS} from './real-clients.js';

/**
 * Each server's `startup_timeout_sec` and `tool_timeout_sec`: Codex's default is 30 s for both; on a loaded
 * machine 40 interpreters starting together take longer than that, and no example's start (20 s at most,
 * by design) comes near it. The hanging examples wait this long, together.
 */
const LIMIT_SEC = 60;

/**
 * Where Codex does not do what mcp-wire's rmcp model says, and why (docs/protocol.md §10). Empty: every cell
 * Codex settled is in the model (docs/clients.md#codex); an entry comes back only with its reason.
 */
const KNOWN: Readonly<Record<string, string>> = {};

describe(`the real Codex CLI (${REAL_CLIENTS.codex.version}) on every example server`, () => {
	it('does what mcp-wire predicts for rmcp', async () => {
		const [reals, runs] = await Promise.all([
			runCodex(EXAMPLES, LIMIT_SEC),
			probeAs('codex', EXAMPLES, () => LIMIT_SEC * 1000, 8),
		]);
		const {table, problems} = compareAll(
			'Codex (rmcp)',
			reals,
			(name) => asOutcome(runs.get(name)!, 'rmcp'),
			KNOWN,
			(name, p, r) => disagreements(`rmcp/${name}`, p, r),
		);
		console.log(table);
		expect(problems).toEqual([]);
		// Where Codex differs from the TS SDKs: it strips a BOM, so the bom example works.
		expect(reals.get('bom')).toEqual({connected: true, tools: 1, logged: []});
	}, 600_000);
});
