/**
 * Ground truth: every example server under the real Gemini CLI (`gemini mcp list`, installed by
 * scripts/install-clients.mjs). `mcp list` judges the handshake only (`initialize`, then a `ping` whose
 * failure it ignores), so what is compared is whether it connects (docs/clients.md "Checked against the
 * real clients"), against mcp-wire's own run of Gemini's opening: `probe --as gemini-cli` (its 2025-06-18
 * offer, its 5 s limit or the entry's `timeout`, its unread stderr; the TS SDK v1 reading of SDK 1.23.0).
 */
import {describe, expect, it} from 'vitest';
import {compareAll, EXAMPLES} from './ground-truth.js';
import {runGeminiGroups} from './gemini-driver.js';
import {asOutcome, probeAs, REAL_CLIENTS} from './real-clients.js';

/**
 * `mcp list` waits 5 s per server by default; on a loaded two-core machine a healthy interpreter has taken
 * 22 s to answer, so each entry gets `timeout` 60 s (as Codex's entries do), far from any start that is not
 * a fault, except the two examples whose start (11 s, 20 s by design) is the fact under test: they keep
 * Gemini's default, and stay far from it the other way.
 */
const DEFAULT_LIMIT_KEPT = new Set(['slow-start', 'first-start-download']);
const TIMEOUT_MS = 60_000;

/** Where Gemini does not do what `probe --as gemini-cli` says, and why. */
const KNOWN: Readonly<Record<string, string>> = {};

describe(`the real Gemini CLI (${REAL_CLIENTS.gemini.version}) on every example server`, () => {
	it('connects exactly where mcp-wire says', async () => {
		const timeout = (name: string): number | undefined => (DEFAULT_LIMIT_KEPT.has(name) ? undefined : TIMEOUT_MS);
		const [reals, runs] = await Promise.all([
			runGeminiGroups(EXAMPLES, timeout, 8),
			probeAs('gemini-cli', EXAMPLES, timeout, 8),
		]);
		const {table, problems} = compareAll(
			'Gemini CLI (mcp list)',
			reals,
			(name) => asOutcome(runs.get(name)!, 'ts-sdk-v1'),
			KNOWN,
			(_name, prediction, real) =>
				prediction.connects === real.connected
					? []
					: [
							`predicted connects=${String(prediction.connects)} (${prediction.note}), Gemini connected=${real.connected}`,
						],
		);
		console.log(table);
		expect(problems).toEqual([]);
		// Where Gemini differs from Claude Code's 30 s: a server that starts in 11 s is disconnected.
		expect(reals.get('slow-start')).toEqual({connected: false, error: 'Disconnected', logged: []});
	}, 900_000);
});
