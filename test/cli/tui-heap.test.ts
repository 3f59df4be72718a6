import {execFile} from 'node:child_process';
import {promisify} from 'node:util';
import {describe, expect, it} from 'vitest';
import {TUI_V8_FLAGS, tuneHeapForTui} from '../../src/cli/tui-heap.js';

const execFileAsync = promisify(execFile);

// A child Node that sets `flags` at run time (as the TUI's process does), then makes garbage that outlives
// young-generation GCs (a ring of 50,000 objects, each replaced after 50,000 more were made: the shape of
// the detectors' id windows while a capture loads), and reports the young generation's size before and
// its largest size after, and the old space's largest size (bytes).
const CHURN = `
import v8 from 'node:v8';
const space = (name) => v8.getHeapSpaceStatistics().find((s) => s.space_name === name).space_size;
const youngBefore = space('new_space');
for (const flag of JSON.parse(process.argv[1])) v8.setFlagsFromString(flag);
const ring = new Array(50000);
let young = 0;
let old = 0;
for (let i = 0; i < 1000000; i++) {
	ring[i % ring.length] = {i, key: 'key-' + i + '-' + 'x'.repeat(i % 64), pair: [i, i + 1]};
	if (i % 10000 === 0) {
		young = Math.max(young, space('new_space'));
		old = Math.max(old, space('old_space'));
	}
}
process.stdout.write(JSON.stringify({youngBefore, young, old}));
`;

/** Runs CHURN under `flags` in a child; asynchronous, so the worker stays free to answer vitest meanwhile. */
async function churn(flags: readonly string[]): Promise<{youngBefore: number; young: number; old: number}> {
	const {stdout} = await execFileAsync(process.execPath, ['--input-type=module', '-e', CHURN, JSON.stringify(flags)], {
		encoding: 'utf8',
		timeout: 60_000,
	});
	return JSON.parse(stdout) as {youngBefore: number; young: number; old: number};
}

describe('tuneHeapForTui', () => {
	it('sets the growth rate of the old generation and freezes the young one, and nothing else (no heap limit)', () => {
		const set: string[] = [];
		tuneHeapForTui((flags) => set.push(flags));
		expect(set).toEqual(['--heap-growing-percent=50', '--semi-space-growth-factor=1']);
		expect(set.some((flag) => /max-old-space|max-heap|max-semi-space/.test(flag))).toBe(false);
	});

	it('takes effect when set in a running process on this Node: the young generation stays as it was, the old space peaks far lower', async () => {
		const defaults = await churn([]);
		const tuned = await churn(TUI_V8_FLAGS);
		// V8's defaults grow the young generation (to 32 MiB on Node 20) and let the old space reach ~4× what is live.
		expect(defaults.young).toBeGreaterThan(2 * defaults.youngBefore);
		expect(tuned.young).toBeLessThanOrEqual(2 * tuned.youngBefore);
		expect(tuned.old).toBeLessThan(0.6 * defaults.old);
	}, 120_000);
});
