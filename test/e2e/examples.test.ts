import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {ROOT, runJson} from './helpers.js';

interface ManifestEntry {
	readonly name: string;
	readonly command: string[];
	readonly fault: string;
	readonly expect: {code: string; stream: string; offset: number | null}[];
	readonly verdict: 'ok' | 'warn' | 'fail';
	readonly timeoutMs?: number;
	readonly note?: string;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'examples', 'servers', 'manifest.json'), 'utf8')) as ManifestEntry[];

// Every bundled example server, probed by the real CLI as a child process: exact codes at exact offsets.
describe.concurrent('probe of each example server', () => {
	it.each(manifest.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
		const timeout = entry.timeoutMs ?? 2500;
		const run = await runJson(['probe', '--json', '--timeout', String(timeout), '--', ...entry.command]);
		expect(run.problems).toEqual([]);
		const found = run.findings.map((f) => ({code: f.code, stream: f.stream, offset: f.offset}));
		const expected = entry.expect.map((e) => {
			if (e.offset !== null) return e;
			const match = found.find((f) => f.code === e.code && f.stream === e.stream);
			return {...e, offset: match?.offset ?? -1};
		});
		const key = (f: {code: string; stream: string; offset: number | null}) => `${f.code}@${f.stream}:${f.offset}`;
		expect(found.map(key).sort()).toEqual(expected.map(key).sort());
		expect(run.summary?.verdict).toBe(entry.verdict);
		expect(run.exitCode).toBe(entry.verdict === 'fail' ? 1 : 0);
	});
});
