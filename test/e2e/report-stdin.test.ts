import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {BIN, ROOT} from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-wire-report-stdin-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));

describe('report - (a capture piped into stdin)', () => {
	it(
		'reads a binary (format 2) tap capture from stdin as bytes: the same report as from the file',
		{timeout: 120_000},
		() => {
			const capture = join(dir, 'tap.cap');
			const tap = spawnSync(
				process.execPath,
				[
					BIN,
					'tap',
					'--capture',
					capture,
					'--',
					'python3',
					join(ROOT, 'examples', 'servers', 'python', 'stray-print.py'),
				],
				{input: '', encoding: 'utf8', timeout: 110_000},
			);
			expect(tap.status).toBe(0);
			const bytes = readFileSync(capture);
			expect(bytes.subarray(0, 19).toString('latin1')).toBe('mcp-wire capture 2\n');
			const fromFile = spawnSync(process.execPath, [BIN, 'report', capture], {encoding: 'utf8'});
			const fromStdin = spawnSync(process.execPath, [BIN, 'report', '-'], {input: bytes, encoding: 'utf8'});
			expect(fromStdin.stderr).toBe('');
			expect(fromStdin.stdout.split('\n')[0]).toMatch(
				/^\*\*mcp-wire: WARN\*\* · 1 error · `stray-output` at stdout offset 0: /,
			);
			expect(fromStdin.stdout).toBe(fromFile.stdout.replaceAll(capture, 'stdin'));
			expect(fromStdin.status).toBe(fromFile.status);
		},
	);
});
