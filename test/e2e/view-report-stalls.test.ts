// A tap capture whose end record has `stalls` (the tap paused reading a source while its capture ring was
// full, `tap --capture-wait`): `view --json` puts them in the summary record (`stalls`, the end record's
// shape), `view --no-tui` in a `capture` line of its summary, `report` in a `- capture:` line of its
// environment list, and `report` of a `view --json` dump says it as `report` of the capture does. A capture
// without stalls has none of these.
import {mkdtempSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {execa} from 'execa';
import {afterAll, describe, expect, it} from 'vitest';
import {
	encodeCaptureStart,
	encodeChunkRecord,
	encodeEndRecord,
	encodeGapRecord,
	encodeJsonRecord,
	RECORD_TYPE,
	type CaptureStalls,
} from '../../src/core/capture/binary-codec.js';
import {encodeEvent} from '../../src/core/capture/record-codec.js';
import type {SessionMeta} from '../../src/core/types.js';
import {LiveSocketServer} from '../../src/tap/live-socket.js';
import {BIN} from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-wire-stalls-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));

const meta: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.1.0'},
	node: 'v20.0.0',
	platform: 'linux',
	command: ['node', 'server.mjs'],
	envMode: 'inherit',
	startedAt: '2026-11-30T00:00:00.000Z',
	mode: 'tap',
};
const request = Buffer.from(
	'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n',
);
const response = Buffer.from(
	'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}\n',
);
// The client closes stdin, then the server exits: a whole, healthy session (verdict ok, exit code 0).
const stdinClosed = encodeJsonRecord(
	RECORD_TYPE.mark,
	800,
	encodeEvent({type: 'mark', mark: {type: 'stdin-closed', tMs: 800}}),
);
const exit = encodeJsonRecord(
	RECORD_TYPE.exit,
	900,
	encodeEvent({type: 'exit', exit: {code: 0, signal: null, tMs: 900}}),
);

/** A whole capture (initialize, its result, exit) with `stalls` in its end record (none when undefined). */
function wholeCapture(name: string, stalls: CaptureStalls | undefined): string {
	const file = join(dir, `${name}.bin`);
	const end = encodeEndRecord(
		{
			complete: true,
			recorded: {stdin: request.length, stdout: response.length, stderr: 0},
			missing: {stdin: 0, stdout: 0, stderr: 0},
			gaps: 0,
			...(stalls === undefined ? {} : {stalls}),
		},
		901,
	);
	writeFileSync(
		file,
		Buffer.concat([
			encodeCaptureStart(meta),
			encodeChunkRecord('stdin', 1, 0, request),
			encodeChunkRecord('stdout', 420, 0, response),
			stdinClosed,
			exit,
			end,
		]),
	);
	return file;
}

async function run(...args: string[]): Promise<{stdout: string; stderr: string; exitCode: number}> {
	const got = await execa('node', [BIN, ...args], {reject: false, stdin: 'ignore'});
	return {stdout: got.stdout, stderr: got.stderr, exitCode: got.exitCode ?? -1};
}

/** The summary record (the last line) of `view --json FILE`, as JSON text and parsed. */
async function summaryOf(file: string): Promise<{line: string; summary: Record<string, unknown>}> {
	const view = await run('view', '--json', file);
	expect(view.exitCode).toBe(0);
	const line = view.stdout.trimEnd().split('\n').at(-1)!;
	return {line, summary: JSON.parse(line) as Record<string, unknown>};
}

/** The `- capture:` lines of `report FILE`. */
async function captureLines(file: string): Promise<string[]> {
	const report = await run('report', file);
	expect(report.exitCode).toBe(0);
	return report.stdout.split('\n').filter((line) => line.startsWith('- capture:'));
}

describe("the capture's stalls in view and report", () => {
	it('3 waits, none ran out: view --json summary has `stalls` last (the other fields as without), report and view --no-tui say what they mean', async () => {
		const stalls = {count: 3, totalMs: 412, longestMs: 260, timedOut: 0};
		const file = wholeCapture('stalled', stalls);
		const plain = wholeCapture('plain', undefined);
		const {line, summary} = await summaryOf(file);
		expect(summary['stalls']).toEqual(stalls);
		expect(line.endsWith(',"stalls":{"count":3,"totalMs":412,"longestMs":260,"timedOut":0}}')).toBe(true);
		// Additive: without it the summary is the same record as a capture without stalls gives.
		const {line: plainLine, summary: plainSummary} = await summaryOf(plain);
		expect('stalls' in plainSummary).toBe(false);
		expect(line.replace(',"stalls":{"count":3,"totalMs":412,"longestMs":260,"timedOut":0}', '')).toBe(plainLine);
		expect('incomplete' in summary).toBe(false);

		expect(await captureLines(file)).toEqual([
			'- capture: the tap held back the source 3 times, 412 ms in all (longest 260 ms), so that the capture could keep every byte; times in the capture include these waits',
		]);
		expect(await captureLines(plain)).toEqual([]);

		const log = await run('view', '--no-tui', '--color', 'never', file);
		expect(log.stdout.split('\n').filter((l) => l.startsWith('capture '))).toEqual([
			'capture  the tap held back the source 3 times, 412 ms in all (longest 260 ms), so that the capture could keep every byte; times in the capture include these waits',
		]);
		const plainLog = await run('view', '--no-tui', '--color', 'never', plain);
		expect(
			log.stdout
				.split('\n')
				.filter((l) => !l.startsWith('capture '))
				.join('\n')
				.replaceAll('stalled.bin', 'plain.bin'),
		).toBe(plainLog.stdout);
	});

	it('a wait that ran out: its read is a gap; the summary has `incomplete` and `stalls`, the report line says the read became a gap, and a --json dump reports the same', async () => {
		const stalls = {count: 2, totalMs: 2_300, longestMs: 2_000, timedOut: 1};
		const file = join(dir, 'timed-out.bin');
		const gap = encodeGapRecord({stream: 'stdout', offset: 0, length: 65_536, reason: 'lag', tMs: 2_100});
		const end = encodeEndRecord(
			{
				complete: false,
				recorded: {stdin: request.length, stdout: response.length, stderr: 0},
				missing: {stdin: 0, stdout: 65_536, stderr: 0},
				gaps: 1,
				stalls,
			},
			2_500,
		);
		writeFileSync(
			file,
			Buffer.concat([
				encodeCaptureStart(meta),
				encodeChunkRecord('stdin', 1, 0, request),
				gap,
				encodeChunkRecord('stdout', 2_200, 65_536, response),
				stdinClosed,
				exit,
				end,
			]),
		);
		const {summary} = await summaryOf(file);
		expect([summary['incomplete'], summary['stalls']]).toEqual([
			{cutShort: false, missingBytes: 65_536, gaps: 1},
			stalls,
		]);
		const line =
			'- capture: the tap held back the source 2 times, 2,300 ms in all (longest 2,000 ms), so that the capture could keep every byte; times in the capture include these waits; 1 wait reached --capture-wait and its read became a gap';
		expect(await captureLines(file)).toEqual([line]);

		const dump = join(dir, 'timed-out.dump.ndjson');
		writeFileSync(dump, `${(await run('view', '--json', file)).stdout}\n`);
		expect((await summaryOf(dump)).summary['stalls']).toEqual(stalls);
		const fromCapture = await run('report', file);
		const fromDump = await run('report', dump);
		expect(fromDump.stdout).toBe(fromCapture.stdout);
	});

	it(
		'attach following a tap (its socket sends the capture, end record last) puts the stalls in its --json summary',
		{timeout: 60_000},
		async () => {
			const stalls = {count: 5, totalMs: 1_234, longestMs: 700, timedOut: 0};
			const file = wholeCapture('attached', stalls);
			const live = new LiveSocketServer(
				join(dir, 'tap.sock'),
				{path: file, size: () => statSync(file).size},
				() => undefined,
			);
			expect(await live.listen()).toBe(true);
			const attach = execa('node', [BIN, 'attach', live.address, '--json'], {reject: false, stdin: 'ignore'});
			for (let waited = 0; live.clientCount === 0 && waited < 30_000; waited += 50)
				await new Promise((resolve) => setTimeout(resolve, 50));
			expect(live.clientCount).toBe(1);
			await live.close(30_000);
			const result = await attach;
			expect(result.exitCode).toBe(0);
			const summary = JSON.parse(result.stdout.trimEnd().split('\n').at(-1)!) as Record<string, unknown>;
			expect([summary['type'], summary['stalls']]).toEqual(['summary', stalls]);
		},
	);
});
