import {mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {discoverConfigs} from '../../src/configs/index.js';
import {runDoctor} from '../../src/doctor/run.js';

// A healthy server that logs `+` when it starts and `-` when it exits, after a delay before answering
// initialize, so the log shows how many ran at the same time.
const SERVER = `
const fs = require('node:fs');
const log = process.argv[1];
fs.appendFileSync(log, '+');
process.on('exit', () => fs.appendFileSync(log, '-'));
let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\\n')) !== -1) {
    const msg = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    if (msg.id === undefined) continue;
    const result = msg.method === 'initialize'
      ? {protocolVersion: msg.params.protocolVersion, capabilities: {}, serverInfo: {name: 't', version: '1'}}
      : {};
    setTimeout(() => process.stdout.write(JSON.stringify({jsonrpc: '2.0', id: msg.id, result}) + '\\n'), Number(process.argv[2]));
  }
});
process.stdin.on('end', () => process.exit(0));
`;

let dir: string;
let log: string;
beforeEach(() => {
	dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-run-')));
	log = path.join(dir, 'log');
	writeFileSync(log, '');
});
afterEach(() => rmSync(dir, {recursive: true, force: true}));

function config(servers: Record<string, {delayMs: number}>) {
	const file = path.join(dir, '.mcp.json');
	const entries = Object.fromEntries(Object.entries(servers).map(([name, {delayMs}]) => [name, {command: process.execPath, args: ['-e', SERVER, log, String(delayMs)]}]));
	writeFileSync(file, JSON.stringify({mcpServers: entries}));
	return discoverConfigs({home: dir, cwd: dir, platform: process.platform, env: {}, config: file});
}

/** The most `+` not yet matched by a `-` at any point of the log. */
function maxConcurrent(text: string): number {
	let running = 0;
	let max = 0;
	for (const c of text) {
		running += c === '+' ? 1 : -1;
		max = Math.max(max, running);
	}
	return max;
}

const context = () => ({env: {PATH: process.env['PATH'] ?? ''}, home: dir, cwd: dir, platform: process.platform});

describe('runDoctor', () => {
	it('runs at most --jobs probes at a time and keeps the rows in config order', async () => {
		const done: string[] = [];
		const report = await runDoctor({
			files: config({a: {delayMs: 300}, b: {delayMs: 0}, c: {delayMs: 300}, d: {delayMs: 0}, e: {delayMs: 0}}),
			context: context(),
			timeoutMs: 5000,
			totalTimeoutMs: 30_000,
			jobs: 2,
			toolVersion: '0.0.0',
			includeUntrusted: true,
			onRow: (row, count, total) => done.push(`${row.name}:${count}/${total}`),
		});
		expect(report.rows.map((row) => [row.name, row.status, row.connected])).toEqual([
			['a', 'ok', true],
			['b', 'ok', true],
			['c', 'ok', true],
			['d', 'ok', true],
			['e', 'ok', true],
		]);
		expect(report.totals).toEqual({servers: 5, ok: 5, warn: 0, fail: 0, skipped: 0});
		const text = readFileSync(log, 'utf8');
		expect(text.length).toBe(10);
		expect(maxConcurrent(text)).toBe(2);
		expect(done.map((entry) => entry.split(':')[1])).toEqual(['1/5', '2/5', '3/5', '4/5', '5/5']);
		expect(report.rows.every((row) => row.capture === undefined)).toBe(true);
	});

	it('stops everything at the total timeout: running servers are killed, the rest not started', async () => {
		const started = Date.now();
		const report = await runDoctor({
			files: config({slow: {delayMs: 60_000}, next: {delayMs: 0}}),
			context: context(),
			timeoutMs: 30_000,
			totalTimeoutMs: 500,
			jobs: 1,
			toolVersion: '0.0.0',
			includeUntrusted: true,
		});
		expect(Date.now() - started).toBeLessThan(5000);
		expect(report.timedOut).toBe(true);
		expect(report.rows.map((row) => [row.name, row.status, row.reason])).toEqual([
			['slow', 'fail', 'stopped: --total-timeout (500 ms) elapsed'],
			['next', 'fail', 'not probed: --total-timeout (500 ms) elapsed'],
		]);
		expect(readFileSync(log, 'utf8')).toBe('+');
	});
});
