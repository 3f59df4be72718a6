/**
 * `probe --as` for real (docs/clients.md#one-client-as-itself): the CLI plays each distinct opening against
 * an example server of its own and judges each client. Few and generous: each run spawns real servers.
 */
import {execFile} from 'node:child_process';
import {join} from 'node:path';
import {promisify} from 'node:util';
import {describe, expect, it} from 'vitest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin', 'mcp-wire.js');

interface Row {
	type: string;
	client: string;
	outcome: string;
	connects: boolean | null;
	firstFailure?: {code: string};
}

async function asJson(names: string, server: string): Promise<{rows: Row[]; code: number}> {
	const result = await run(process.execPath, [BIN, 'probe', '--as', names, '--json', '--', 'node', server], {
		cwd: ROOT,
	}).then(
		(r) => ({stdout: r.stdout, code: 0}),
		(error: {stdout: string; code: number}) => ({stdout: error.stdout, code: error.code}),
	);
	return {
		rows: result.stdout
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as Row),
		code: result.code,
	};
}

describe('probe --as', () => {
	it('rejects-version: Codex and Gemini offer 2025-06-18 and connect; the TS SDKs offer 2025-11-25 and fail', async () => {
		const {rows, code} = await asJson('all', 'examples/servers/node/rejects-version.mjs');
		const by = new Map(rows.map((row) => [row.client, row]));
		expect(rows.every((row) => row.type === 'client-run')).toBe(true);
		expect(by.get('codex')).toMatchObject({outcome: 'works', connects: true});
		expect(by.get('gemini-cli')).toMatchObject({outcome: 'works', connects: true});
		expect(by.get('ts-sdk-v2')).toMatchObject({
			outcome: 'fails',
			connects: false,
			firstFailure: {code: 'protocol-version'},
		});
		expect(code).toBe(1);
	});

	it('fixed-version answers 2024-01-01: Gemini fails on its own version check', async () => {
		const {rows} = await asJson('gemini-cli', 'examples/servers/node/fixed-version.mjs');
		expect(rows).toHaveLength(1);
		expect(rows[0]).toMatchObject({client: 'gemini-cli', outcome: 'fails', firstFailure: {code: 'protocol-version'}});
	});

	it('an unknown client is a one-line usage error', async () => {
		const error = (await run(process.execPath, [BIN, 'probe', '--as', 'nope', '--', 'node', '-v'], {cwd: ROOT}).catch(
			(e: unknown) => e,
		)) as {code: number; stderr: string};
		expect(error.code).toBe(2);
		expect(error.stderr.trim().split('\n')).toHaveLength(1);
		expect(error.stderr).toContain('probe --as: unknown client nope');
	});
});
