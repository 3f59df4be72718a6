import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {describe, expect, it} from 'vitest';
import {BIN, ROOT} from './tap-helpers.js';

/** What bench/tap-concurrent.mjs reports per tap. */
interface TapOutcome {
	readonly code: number | null;
	readonly received: number;
	readonly captured: {readonly stdin: number; readonly stdout: number};
	readonly missing: {readonly stdin: number; readonly stdout: number};
	readonly unaccounted: number;
	readonly mismatched: number;
	readonly hasHeader: boolean;
	readonly hasEnd: boolean;
	readonly problems: number;
	readonly stderr: string;
}

type Run = (options: {taps: number; bytes: number; bin: string; root: string}) => Promise<TapOutcome[]>;

describe('taps at once: captures never lie (real processes)', () => {
	it(
		'6 taps × 2 MiB each way: every capture has its header and end record, and every byte is captured or inside a gap of exact length',
		{timeout: 300_000},
		async () => {
			// The same check as `node bench/tap-concurrent.mjs` (20 taps × 8 MiB), small enough for the suite.
			const {runConcurrentTaps} = (await import(
				pathToFileURL(path.join(ROOT, 'bench', 'tap-concurrent.mjs')).href
			)) as {runConcurrentTaps: Run};
			const bytes = 2 * 1024 * 1024;
			const results = await runConcurrentTaps({taps: 6, bytes, bin: BIN, root: ROOT});
			expect(results).toHaveLength(6);
			for (const result of results) {
				expect(result.code, result.stderr).toBe(0);
				expect(result.received).toBe(bytes);
				expect(result.hasHeader).toBe(true);
				expect(result.hasEnd).toBe(true);
				expect(result.problems).toBe(0);
				expect(result.mismatched).toBe(0);
				expect(result.unaccounted).toBe(0);
				expect(result.captured.stdin + result.missing.stdin).toBe(bytes);
				expect(result.captured.stdout + result.missing.stdout).toBe(bytes);
				// A gap is said on stderr; a complete capture says nothing.
				const isComplete = result.missing.stdin + result.missing.stdout === 0;
				expect(result.stderr.includes('the capture is incomplete')).toBe(!isComplete);
			}
		},
	);
});
