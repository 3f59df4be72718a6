// `attach` rebuilds a tap's session as `view` does its capture (live = replay, captures/open-capture.ts): a
// tap that ends before the server's exit (detached, or the tap died) leaves a session cut short, and the
// --json summary of `attach` is the one `view --json` gives for the same capture.
import {mkdtempSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {execa} from 'execa';
import {afterAll, describe, expect, it} from 'vitest';
import {encodeCaptureStart, encodeChunkRecord} from '../../src/core/capture/binary-codec.js';
import {LiveSocketServer} from '../../src/tap/live-socket.js';
import {makeMeta} from '../helpers/factories.js';
import {BIN} from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-wire-attach-replay-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));

const meta = makeMeta({mode: 'tap', startedAt: '2026-11-30T00:00:00.000Z'});
const request = Buffer.from(
	'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n',
);

describe('attach replays like view (real processes)', () => {
	it(
		'a tap gone before the server answered or exited: cut short, as view says of its capture',
		{timeout: 60_000},
		async () => {
			const file = join(dir, 'cut.bin');
			// The tap died after the client's initialize: no answer, no exit, no end record.
			writeFileSync(file, Buffer.concat([encodeCaptureStart(meta), encodeChunkRecord('stdin', 1, 0, request)]));
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
			const attached = await attach;
			const viewed = await execa('node', [BIN, 'view', '--json', file], {reject: false, stdin: 'ignore'});
			const summaryOf = (stdout: string) => JSON.parse(stdout.trimEnd().split('\n').at(-1)!) as Record<string, unknown>;
			const summary = summaryOf(attached.stdout);
			expect(summary['type']).toBe('summary');
			expect(summary['incomplete']).toEqual({cutShort: true, missingBytes: 0, gaps: 0});
			// Nothing is blamed on an end that never came (no unanswered-request for the initialize in flight).
			expect(summary['findings']).toEqual(summaryOf(viewed.stdout)['findings']);
			expect(summary).toEqual(summaryOf(viewed.stdout));
			expect(attached.exitCode).toBe(viewed.exitCode);
		},
	);
});
