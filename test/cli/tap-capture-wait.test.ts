import {spawnSync} from 'node:child_process';
import path from 'node:path';
import {InvalidArgumentError} from 'commander';
import {describe, expect, it} from 'vitest';
import {parseCaptureWait} from '../../src/cli/commands/tap.js';

const BIN = path.join(import.meta.dirname, '..', '..', 'bin', 'mcp-wire.js');

describe('tap --capture-wait', () => {
	it('takes a whole number of ms from 0 (never wait) to the largest timer delay', () => {
		expect(parseCaptureWait('0')).toBe(0);
		expect(parseCaptureWait('2000')).toBe(2000);
		expect(parseCaptureWait(String(2 ** 31 - 1))).toBe(2 ** 31 - 1);
		for (const bad of ['', ' ', '-1', '1.5', 'abc', String(2 ** 31), 'Infinity']) {
			expect(() => parseCaptureWait(bad), bad).toThrow(InvalidArgumentError);
		}

		expect(() => parseCaptureWait('-1')).toThrow(
			'--capture-wait takes a whole number of ms from 0 (never wait) to 2147483647, got "-1"',
		);
	});

	it(
		"a bad value is a usage error (exit 2, the CLI's usual two lines, no stack) and nothing is started",
		{timeout: 60_000},
		() => {
			const result = spawnSync(
				'node',
				[BIN, 'tap', '--capture-wait', 'soon', '--', 'node', '-e', 'process.stderr.write("started")'],
				{encoding: 'utf8'},
			);
			expect(result.status).toBe(2);
			expect(result.stdout).toBe('');
			expect(result.stderr).toContain(
				'--capture-wait takes a whole number of ms from 0 (never wait) to 2147483647, got "soon"',
			);
			expect(result.stderr).not.toContain('started');
			expect(result.stderr).toBe(
				`mcp-wire: option '--capture-wait <ms>' argument 'soon' is invalid. --capture-wait takes a whole number of ms from 0 (never wait) to 2147483647, got "soon"\n(run with --help for usage)\n`,
			);
		},
	);
});
