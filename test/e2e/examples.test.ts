// Real probes of a few example servers, one at a time. Every example server is covered by its
// recorded capture, replayed through the session with exact codes at exact offsets, in
// test/render/report/example-goldens.test.ts ("replays to the manifest findings"); a verdict that hangs on
// timing (no-response, unflushed-output, slow-healthy, ignores-shutdown) is tested there and on synthetic
// chunk streams, never by racing a real interpreter on a loaded machine.
//
// The ones probed here answer on their own: their verdict never comes from a timeout firing, so the probe
// gets a generous --timeout (a 2-core machine under load with a python3 shim that takes seconds to start
// must not turn a healthy server into `no-response`). They run sequentially, never all at once.
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {ROOT, runJson} from './helpers.js';

interface ManifestEntry {
	readonly name: string;
	readonly command: string[];
	/** The probe options the entry needs (`--call get_weather` to reach a handler). */
	readonly args?: string[];
	readonly expect: {code: string; stream: string; offset: number | null}[];
	readonly verdict: 'ok' | 'warn' | 'fail';
}

const manifest = JSON.parse(
	readFileSync(join(ROOT, 'examples', 'servers', 'manifest.json'), 'utf8'),
) as ManifestEntry[];

/** One per interpreter and verdict: node/python3/sh, ok/warn/fail, one- and multi-frame faults, a handler fault. */
const PROBED = [
	'healthy-python',
	'stray-print-node',
	'venv-banner',
	'crlf-node',
	'pretty-json-python',
	// A print() inside a tool handler, which only --call reaches (stray-output in the call's reply window).
	'handler-print',
];
/** A --timeout no healthy start-up reaches, even python3 through a version-manager shim on a busy machine. */
const GENEROUS_TIMEOUT_MS = 60_000;

describe('real probe of a few example servers (sequential)', () => {
	it('probes only manifest entries, and every entry has a recorded capture that the replay test checks', () => {
		const names = manifest.map((entry) => entry.name);
		expect(names).toEqual(expect.arrayContaining(PROBED));
		for (const name of names) {
			expect(() => readFileSync(join(ROOT, 'test', 'fixtures', 'captures', `${name}.ndjson`)), name).not.toThrow();
		}
	});

	it.each(PROBED)(
		'%s: exact codes at exact offsets, verdict and exit code',
		async (name) => {
			const entry = manifest.find((item) => item.name === name)!;
			const run = await runJson([
				'probe',
				'--json',
				'--timeout',
				String(GENEROUS_TIMEOUT_MS),
				...(entry.args ?? []),
				'--',
				...entry.command,
			]);
			expect(run.problems).toEqual([]);
			const key = (f: {code: string; stream: string; offset: number | null}) => `${f.code}@${f.stream}:${f.offset}`;
			expect(run.findings.map(key).sort()).toEqual(entry.expect.map(key).sort());
			expect(run.summary?.verdict).toBe(entry.verdict);
			expect(run.exitCode).toBe(entry.verdict === 'fail' || (run.summary?.errors ?? 0) > 0 ? 1 : 0);
			// The verdict agrees with the client outcomes: fail exactly when a mainstream client fails.
			const mainstream = new Set(['ts-sdk-v1', 'python-sdk', 'vscode', 'cursor']);
			expect(run.summary?.clients?.some((o) => o.outcome === 'fails' && mainstream.has(o.client))).toBe(
				entry.verdict === 'fail',
			);
		},
		180_000,
	);
});

describe('real probe of a Node server that calls process.exit(0) after a large write (O4)', () => {
	it('the line is cut, the exit is code 0, and both findings name the exit before drain', async () => {
		const entry = manifest.find((item) => item.name === 'exit-after-initialize')!;
		const run = await runJson(['probe', '--json', '--timeout', String(GENEROUS_TIMEOUT_MS), '--', ...entry.command]);
		expect(run.problems).toEqual([]);
		const cut = run.findings.find((f) => f.code === 'missing-newline')!;
		const exit = run.findings.find((f) => f.code === 'early-exit')!;
		// The socket pair takes some hundreds of KB before the exit; never the whole ~780 KB line.
		expect(cut.offset).toBe(0);
		expect(cut.byteLength).toBeGreaterThanOrEqual(65_536);
		expect(cut.byteLength).toBeLessThan(780_000);
		expect(cut.detail).toMatchObject({isTruncatedJson: true, exitBeforeDrain: true, runtime: 'node'});
		expect(cut.hint).toMatch(/^Do not call `process\.exit\(\)` right after writing: set `process\.exitCode`/);
		expect(exit.offset).toBe(cut.byteLength);
		expect(exit.detail).toMatchObject({exitCode: 0, signal: null, cutWriteBytes: cut.byteLength});
		expect(run.summary?.verdict).toBe('fail');
		expect(run.exitCode).toBe(1);
	}, 180_000);
});
