// `view --json` on a capture that is cut short, empty or has gaps: the summary record says the capture
// is incomplete (`incomplete`), as the report's verdict line and view's stderr line do; a whole capture
// has no such field.
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

const dir = mkdtempSync(join(tmpdir(), 'mcp-wire-view-incomplete-'));
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
const request = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
const response = Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}\n');
const exit = encodeJsonRecord(RECORD_TYPE.exit, 5, encodeEvent({type: 'exit', exit: {code: 0, signal: null, tMs: 5}}));
const streams = (stdout: number, missing = 0) => ({
	recorded: {stdin: request.length, stdout, stderr: 0},
	missing: {stdin: 0, stdout: missing, stderr: 0},
});

/** The summary record (the last line) of `view --json FILE`. */
async function summaryOf(file: string): Promise<{summary: Record<string, unknown>}> {
	const view = await execa('node', [BIN, 'view', '--json', file], {reject: false, stdin: 'ignore'});
	const lines = view.stdout.trimEnd().split('\n');
	return {summary: JSON.parse(lines.at(-1)!) as Record<string, unknown>};
}

describe('view --json: the summary says when a capture is incomplete', () => {
	it('a whole capture: no `incomplete`', async () => {
		const file = join(dir, 'whole.bin');
		writeFileSync(
			file,
			Buffer.concat([
				encodeCaptureStart(meta),
				encodeChunkRecord('stdin', 1, 0, request),
				encodeChunkRecord('stdout', 2, 0, response),
				exit,
				encodeEndRecord({complete: true, ...streams(response.length), gaps: 0}, 6),
			]),
		);
		const {summary} = await summaryOf(file);
		expect([summary['type'], 'incomplete' in summary]).toEqual(['summary', false]);
	});

	it('an empty capture (header only, no end record): `incomplete` with cutShort', async () => {
		const file = join(dir, 'empty.bin');
		writeFileSync(file, encodeCaptureStart(meta));
		const {summary} = await summaryOf(file);
		expect(summary['incomplete']).toEqual({cutShort: true, missingBytes: 0, gaps: 0});
	});

	it('a capture cut short after a request: `incomplete` with cutShort, and so is a --json dump of it viewed again', async () => {
		const file = join(dir, 'cut.bin');
		writeFileSync(
			file,
			Buffer.concat([
				encodeCaptureStart(meta),
				encodeChunkRecord('stdin', 1, 0, request),
				encodeChunkRecord('stdout', 2, 0, response),
			]),
		);
		const {summary} = await summaryOf(file);
		expect([summary['verdict'], summary['incomplete']]).toEqual(['ok', {cutShort: true, missingBytes: 0, gaps: 0}]);
		const dump = join(dir, 'cut.ndjson');
		writeFileSync(dump, (await execa('node', [BIN, 'view', '--json', file], {stdin: 'ignore'})).stdout + '\n');
		expect((await summaryOf(dump)).summary['incomplete']).toEqual({cutShort: true, missingBytes: 0, gaps: 0});
	});

	it('a capture with a gap (it ends normally): `incomplete` with the missing bytes, not cut short', async () => {
		const file = join(dir, 'gap.bin');
		const gap = encodeGapRecord({stream: 'stdout', offset: 0, length: 4096, reason: 'lag', tMs: 2});
		writeFileSync(
			file,
			Buffer.concat([
				encodeCaptureStart(meta),
				encodeChunkRecord('stdin', 1, 0, request),
				gap,
				encodeChunkRecord('stdout', 3, 4096, response),
				exit,
				encodeEndRecord({complete: false, ...streams(response.length, 4096), gaps: 1}, 6),
			]),
		);
		const {summary} = await summaryOf(file);
		expect(summary['incomplete']).toEqual({cutShort: false, missingBytes: 4096, gaps: 1});
	});
});
