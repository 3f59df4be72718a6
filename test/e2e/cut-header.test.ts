// A tap capture (format 2) cut inside its session header (found by a newcomer pass): one clear line,
// exit 2, from `view` and `report`, not "is incomplete … everything before the cut is shown" followed by
// "is not an mcp-wire capture".
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {execa} from 'execa';
import {afterAll, describe, expect, it} from 'vitest';
import {encodeCaptureStart} from '../../src/core/capture/binary-codec.js';
import type {SessionMeta} from '../../src/core/types.js';
import {BIN} from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-wire-cut-header-'));
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

describe('a capture cut inside its session header', () => {
	const start = encodeCaptureStart(meta);
	it.each([19, 40, start.length - 2])('cut at %i bytes: view and report say so in one line and exit 2', async (cut) => {
		const file = join(dir, `cut-${cut}.bin`);
		writeFileSync(file, start.subarray(0, cut));
		const view = await execa('node', [BIN, 'view', '--no-tui', file], {reject: false, stdin: 'ignore'});
		expect([view.exitCode, view.stdout, view.stderr]).toEqual([
			2,
			'',
			`mcp-wire: view: ${file} is an mcp-wire capture cut short inside its session header: there is nothing to show`,
		]);
		const report = await execa('node', [BIN, 'report', file], {reject: false, stdin: 'ignore'});
		expect([report.exitCode, report.stdout, report.stderr]).toEqual([
			2,
			'',
			`mcp-wire: ${file} is an mcp-wire capture cut short inside its session header: there is nothing to report`,
		]);
	});
});
