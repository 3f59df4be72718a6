// `mcp-wire sessions` lists each capture by a path a user can paste: the whole path, shell-quoted when
// it needs quoting (a state directory with a space or a quote), so `mcp-wire view <pasted>` opens it.
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {execa} from 'execa';
import {afterAll, describe, expect, it} from 'vitest';
import {
	encodeCaptureStart,
	encodeChunkRecord,
	encodeEndRecord,
	encodeJsonRecord,
	RECORD_TYPE,
} from '../../src/core/capture/binary-codec.js';
import {encodeEvent} from '../../src/core/capture/record-codec.js';
import type {SessionMeta} from '../../src/core/types.js';
import {BIN} from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-wire-sessions-paths-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));

const meta: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.1.0'},
	node: 'v20.0.0',
	platform: 'linux',
	command: ['node', 'server.mjs'],
	envMode: 'inherit',
	startedAt: '2026-11-30T00:00:00.000Z',
	mode: 'tap',
	name: 'demo',
};
const request = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
const response = Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}\n');

describe.skipIf(process.platform === 'win32')('sessions: capture paths to paste', () => {
	it.each([
		['plain', 'state'],
		['with a space and a quote', "my state's dir"],
	])(
		'state directory %s: the FILE column is the whole path; pasted after `mcp-wire view` it opens the capture',
		async (_, stateName) => {
			const state = join(dir, stateName);
			const captures = join(state, 'mcp-wire', 'captures');
			mkdirSync(captures, {recursive: true, mode: 0o700});
			const file = join(captures, '2026-11-30T00-00-00.000Z-demo-4242.ndjson');
			const exit = encodeJsonRecord(
				RECORD_TYPE.exit,
				5,
				encodeEvent({type: 'exit', exit: {code: 0, signal: null, tMs: 5}}),
			);
			const end = encodeEndRecord(
				{
					complete: true,
					recorded: {stdin: request.length, stdout: response.length, stderr: 0},
					missing: {stdin: 0, stdout: 0, stderr: 0},
					gaps: 0,
				},
				6,
			);
			writeFileSync(
				file,
				Buffer.concat([
					encodeCaptureStart(meta),
					encodeChunkRecord('stdin', 1, 0, request),
					encodeChunkRecord('stdout', 2, 0, response),
					exit,
					end,
				]),
				{mode: 0o600},
			);
			const run = join(dir, 'run');
			mkdirSync(run, {recursive: true, mode: 0o700});
			const env = {...process.env, XDG_STATE_HOME: state, XDG_RUNTIME_DIR: run};
			const sessions = await execa('node', [BIN, 'sessions'], {env, reject: false, stdin: 'ignore'});
			expect(sessions.exitCode).toBe(0);
			const lines = sessions.stdout.split('\n');
			expect(lines.at(-3)).toBe(`captures (1) in ${captures} · open with \`mcp-wire view FILE\``);
			const row = lines.at(-1)!;
			expect(row).toMatch(/ demo {2}4242 /);
			const pasted = row.trim().split(/ {2,}/).at(-1)!;
			expect(pasted).toBe(stateName === 'state' ? file : `'${file.replaceAll("'", `'\\''`)}'`);
			// What a user does with it: paste it into a shell after `mcp-wire view`.
			const view = await execa('sh', ['-c', `node ${JSON.stringify(BIN)} view --json ${pasted}`], {
				env,
				reject: false,
				stdin: 'ignore',
			});
			expect(view.stderr).toBe('');
			const summary = JSON.parse(view.stdout.trimEnd().split('\n').at(-1)!) as {
				type: string;
				streams: {stdin: {bytes: number}};
			};
			expect([summary.type, summary.streams.stdin.bytes]).toEqual(['summary', request.length]);
		},
	);
});
