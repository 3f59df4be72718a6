// `report` of a `--json` dump (`view --json CAPTURE > dump.ndjson`) says the capture is incomplete exactly
// as `report CAPTURE` does: a capture cut short (before or after the server's exit record) or with gaps.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
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
} from '../../src/core/capture/binary-codec.js';
import {encodeEvent} from '../../src/core/capture/record-codec.js';
import type {SessionMeta} from '../../src/core/types.js';
import {BIN} from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-wire-report-dump-'));
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
const initialize = Buffer.from(
	'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n',
);
const result = Buffer.from(
	'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}\n',
);
const exit = encodeJsonRecord(RECORD_TYPE.exit, 5, encodeEvent({type: 'exit', exit: {code: 0, signal: null, tMs: 5}}));
const start = [encodeCaptureStart(meta), encodeChunkRecord('stdin', 1, 0, initialize)];

async function run(...args: string[]): Promise<{stdout: string; stderr: string; exitCode: number}> {
	const got = await execa('node', [BIN, ...args], {reject: false, stdin: 'ignore'});
	return {stdout: got.stdout, stderr: got.stderr, exitCode: got.exitCode ?? -1};
}

/** `report CAPTURE` and `report DUMP` (the capture's `view --json`), and the dump's stderr. */
async function bothReports(
	name: string,
	bytes: Buffer,
): Promise<{fromCapture: string; fromDump: string; dumpStderr: string; captureStderr: string}> {
	const capture = join(dir, `${name}.bin`);
	writeFileSync(capture, bytes);
	const dump = join(dir, `${name}.dump.ndjson`);
	writeFileSync(dump, `${(await run('view', '--json', capture)).stdout}\n`);
	const fromCapture = await run('report', capture);
	const fromDump = await run('report', dump);
	expect([fromCapture.exitCode, fromDump.exitCode]).toEqual([0, 0]);
	return {
		fromCapture: fromCapture.stdout,
		fromDump: fromDump.stdout,
		dumpStderr: fromDump.stderr,
		captureStderr: fromCapture.stderr,
	};
}

describe("report of a --json dump carries the capture's incompleteness", () => {
	it("a capture cut short after a request (no exit, no end record): the dump's report says cut short, as the capture's does", async () => {
		const got = await bothReports('cut', Buffer.concat([...start, encodeChunkRecord('stdout', 2, 0, result)]));
		expect(got.fromCapture.split('\n')[0]).toMatch(
			/ · the capture was cut short \(this report covers the bytes before the cut\)$/,
		);
		expect(got.fromDump).toBe(got.fromCapture);
		expect(got.dumpStderr).toContain(
			`${join(dir, 'cut.dump.ndjson')}: the capture is incomplete: it was cut short (no end record: the tap was killed or the file was cut)`,
		);
	});

	it('a capture cut between the exit record and the end record: cut short in both reports (view --json says so in its summary)', async () => {
		const got = await bothReports(
			'cut-after-exit',
			Buffer.concat([...start, encodeChunkRecord('stdout', 2, 0, result), exit]),
		);
		expect(got.fromCapture.split('\n')[0]).toMatch(
			/ · the capture was cut short \(this report covers the bytes before the cut\)$/,
		);
		expect(got.fromDump).toBe(got.fromCapture);
	});

	it('a capture with a gap: both reports give the missing bytes, neither says cut short', async () => {
		const gap = encodeGapRecord({stream: 'stdout', offset: 0, length: 4096, reason: 'lag', tMs: 2});
		const end = encodeEndRecord(
			{
				complete: false,
				recorded: {stdin: initialize.length, stdout: result.length, stderr: 0},
				missing: {stdin: 0, stdout: 4096, stderr: 0},
				gaps: 1,
			},
			6,
		);
		const got = await bothReports(
			'gap',
			Buffer.concat([...start, gap, encodeChunkRecord('stdout', 3, 4096, result), exit, end]),
		);
		expect(got.fromCapture.split('\n')[0]).toMatch(
			/ · the capture is incomplete: 4,096 bytes crossed the wire but were not captured \(1 gap; nothing is concluded from the cut bytes\)$/,
		);
		expect(got.fromDump).toBe(got.fromCapture);
		expect(got.dumpStderr).toBe(got.captureStderr.replaceAll('gap.bin', 'gap.dump.ndjson'));
	});
});
