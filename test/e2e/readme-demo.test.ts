// The README's demo excerpt is what `npm run demo` prints: its finding block (message to fix) must be the
// lines the plain log prints for the recorded stray-print capture, with no line left out unmarked.
import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {BIN, ROOT} from './helpers.js';

/** The lines from the one starting with `first` to the one starting with `last`, both included. */
function block(lines: readonly string[], first: string, last: string): string[] {
	const start = lines.findIndex((line) => line.startsWith(first));
	const end = lines.findIndex((line, i) => i > start && line.startsWith(last));
	return start < 0 || end < 0 ? [] : lines.slice(start, end + 1);
}

describe('README demo excerpt', () => {
	it('shows the stray-output finding block exactly as the plain log prints it', () => {
		const run = spawnSync(
			process.execPath,
			[BIN, 'view', '--hex', join(ROOT, 'test/fixtures/captures/stray-print-python.ndjson')],
			{encoding: 'utf8', env: {...process.env, NO_COLOR: '1'}, stdio: ['ignore', 'pipe', 'ignore']},
		);
		expect(run.status).toBe(1); // an error finding: exit 1
		const printed = run.stdout.split('\n');
		const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
		const expected = block(printed, '  stdout carries a banner line', '  fix: ');
		expect(expected).toHaveLength(11);
		expect(block(readme, '  stdout carries a banner line', '  fix: ')).toEqual(expected);
	}, 60_000);
});
