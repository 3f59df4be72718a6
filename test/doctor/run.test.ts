import {mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {discoverConfigs, type ConfigFile} from '../../src/configs/index.js';
import {exitCodeOf, runDoctor} from '../../src/doctor/run.js';

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
	const entries = Object.fromEntries(
		Object.entries(servers).map(([name, {delayMs}]) => [
			name,
			{command: process.execPath, args: ['-e', SERVER, log, String(delayMs)]},
		]),
	);
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
		expect(report.totals).toEqual({servers: 5, ok: 5, warn: 0, fail: 0, skipped: 0, notChecked: 0});
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
			// Generous so that the slow server has started (its log says `+`) even on a loaded machine.
			totalTimeoutMs: 3000,
			jobs: 1,
			toolVersion: '0.0.0',
			includeUntrusted: true,
		});
		expect(Date.now() - started).toBeLessThan(20_000);
		expect(report.timedOut).toBe(true);
		expect(report.rows.map((row) => [row.name, row.status, row.reason])).toEqual([
			['slow', 'not-checked', 'stopped: --total-timeout (3000 ms) elapsed'],
			['next', 'not-checked', 'not probed: --total-timeout (3000 ms) elapsed'],
		]);
		expect(report.totals).toEqual({servers: 2, ok: 0, warn: 0, fail: 0, skipped: 0, notChecked: 2});
		expect(exitCodeOf(report)).toBe(0);
		expect(readFileSync(log, 'utf8')).toBe('+');
	});
});

describe("runDoctor: a variable named by the server's stderr", () => {
	// Fails like a Python server reading os.environ['WEATHER_API_KEY'] unless the variable is set, and
	// records every environment it was started with; with the variable it runs the healthy SERVER.
	function weatherConfig(): ConfigFile[] {
		// As a file, SERVER's arguments come one later than with `node -e`.
		writeFileSync(path.join(dir, 'server.cjs'), `process.argv.splice(1, 1);\n${SERVER}`);
		const script = path.join(dir, 'weather.sh');
		writeFileSync(
			script,
			[
				`env >> ${JSON.stringify(path.join(dir, 'env.log'))}`,
				'if [ -z "$WEATHER_API_KEY" ]; then',
				"  printf '%s\\n' 'Traceback (most recent call last):' '  File \"/srv/weather.py\", line 3, in <module>' \"    KEY = os.environ['WEATHER_API_KEY']\" \"KeyError: 'WEATHER_API_KEY'\" >&2",
				'  exit 1',
				'fi',
				`exec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(dir, 'server.cjs'))} ${JSON.stringify(log)} 0`,
				'',
			].join('\n'),
		);
		const file = path.join(dir, 'claude_desktop_config.json');
		writeFileSync(file, JSON.stringify({mcpServers: {weather: {command: '/bin/sh', args: [script]}}}));
		return [
			{client: 'claude-desktop', scope: 'user', path: file, exists: true, serversPath: ['mcpServers'], format: 'json'},
		];
	}
	const shell = () => ({
		PATH: process.env['PATH'] ?? '/usr/bin:/bin',
		HOME: dir,
		WEATHER_API_KEY: 'secret-weather-key',
		SHLVL: '2',
		OLDPWD: '/tmp',
	});

	it('reports it as the likely missing variable for the config entry, without passing the secret', async () => {
		const files = weatherConfig();
		const report = await runDoctor({
			files,
			context: {env: shell(), home: dir, cwd: dir, platform: process.platform},
			timeoutMs: 10_000,
			totalTimeoutMs: 60_000,
			jobs: 1,
			toolVersion: '0.0.0',
		});
		const row = report.rows[0]!;
		expect([row.status, row.finding?.code, row.likelyMissing, row.envDifference]).toEqual([
			'fail',
			'early-exit',
			['WEATHER_API_KEY'],
			undefined,
		]);
		expect(row.fix).toBe(
			`stderr: KeyError: 'WEATHER_API_KEY'; the server's stderr names WEATHER_API_KEY as missing and Claude Desktop does not give it: add it to "env" of "weather" in ${files[0]!.path} (your shell sets WEATHER_API_KEY; doctor passes a variable to a server only with --try-env WEATHER_API_KEY)`,
		);
		const seen = readFileSync(path.join(dir, 'env.log'), 'utf8');
		expect(seen).not.toContain('secret-weather-key');
		expect(seen).not.toContain('SHLVL');
	});

	it('with --try-env, proves it with one extra probe and lists every candidate', async () => {
		const files = weatherConfig();
		const report = await runDoctor({
			files,
			context: {
				env: shell(),
				home: dir,
				cwd: dir,
				platform: process.platform,
				tryEnv: ['WEATHER_API_KEY', 'SHLVL', 'OLDPWD'],
			},
			timeoutMs: 10_000,
			totalTimeoutMs: 60_000,
			jobs: 1,
			toolVersion: '0.0.0',
		});
		const row = report.rows[0]!;
		expect([row.status, row.finding?.code, row.likelyMissing]).toEqual(['fail', 'early-exit', ['WEATHER_API_KEY']]);
		expect(row.envDifference?.variables).toEqual(['WEATHER_API_KEY']);
		expect([row.envDifference?.minimal, row.envDifference?.probes]).toEqual([true, 1]);
		const candidates = row.envDifference!.candidates;
		expect(candidates[0]).toBe('WEATHER_API_KEY');
		expect(candidates.slice(-2)).toEqual(['OLDPWD', 'SHLVL']);
		expect(row.fix).toBe("works only because your shell sets WEATHER_API_KEY; add it to the config's env");
	});
});

describe('runDoctor: what the command line says', () => {
	it('does not start node with no script (it would read the messages as its program); names a relative script and the folder used', async () => {
		const file = path.join(dir, 'claude_desktop_config.json');
		writeFileSync(
			file,
			JSON.stringify({
				mcpServers: {bare: {command: 'node'}, relative: {command: process.execPath, args: ['build/index.js']}},
			}),
		);
		const files: ConfigFile[] = [
			{client: 'claude-desktop', scope: 'user', path: file, exists: true, serversPath: ['mcpServers'], format: 'json'},
		];
		const asked: string[] = [];
		const report = await runDoctor({
			files,
			context: {env: {PATH: process.env['PATH'] ?? '', HOME: dir}, home: dir, cwd: dir, platform: 'linux'},
			timeoutMs: 10_000,
			totalTimeoutMs: 60_000,
			jobs: 1,
			toolVersion: '0.0.0',
			approve: async (targets) => {
				asked.push(...targets.map((target) => target.entry.name));
				return {run: targets, declined: ''};
			},
		});
		expect(asked).toEqual(['relative']);
		const [bare, relative] = report.rows;
		expect([bare!.name, bare!.status, bare!.problem?.kind, bare!.problem?.line]).toEqual([
			'bare',
			'fail',
			'no-program',
			1,
		]);
		expect(bare!.fix).toBe(
			`${file}:1:16: "command": "node" has no script in "args": node then reads a program from stdin, so it would take the client's JSON-RPC messages as JavaScript and no client gets an answer; put the server's program in "args" ("args": ["/path/to/server.js"])`,
		);
		expect([relative!.status, relative!.finding?.code, relative!.cwd]).toEqual(['fail', 'early-exit', dir]);
		expect(relative!.fix).toBe(
			`"build/index.js" is relative to the folder the client starts the server in, and there is no ${dir}/build/index.js (doctor used ${dir} for Claude Desktop; clients differ): put the absolute path in "args"`,
		);
		expect(relative!.notes).toContain(
			`"build/index.js" in "args" is relative: doctor resolved it against ${dir} (→ ${dir}/build/index.js, no such file), the folder Claude Desktop is assumed to start it in; clients start servers in different folders (Claude Desktop on macOS in /, VS Code in your home folder, Claude Code in the folder you start it from): put the absolute path in "args"`,
		);
	});
});

describe('runDoctor: a server that needs a variable the client strips (NODE_EXTRA_CA_CERTS)', () => {
	// Exits like an npx server whose download fails on a corporate CA unless NODE_EXTRA_CA_CERTS is set; with it,
	// it runs the healthy SERVER. The shell also sets the variables the search used to try first.
	function caConfig(): ConfigFile[] {
		writeFileSync(path.join(dir, 'server.cjs'), `process.argv.splice(1, 1);\n${SERVER}`);
		const script = path.join(dir, 'corp.sh');
		writeFileSync(
			script,
			[
				'if [ -z "$NODE_EXTRA_CA_CERTS" ]; then',
				"  printf '%s\\n' 'npm error code UNABLE_TO_GET_ISSUER_CERT_LOCALLY' >&2",
				'  exit 1',
				'fi',
				`exec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(dir, 'server.cjs'))} ${JSON.stringify(log)} 0`,
				'',
			].join('\n'),
		);
		const file = path.join(dir, 'claude_desktop_config.json');
		writeFileSync(file, JSON.stringify({mcpServers: {corp: {command: '/bin/sh', args: [script]}}}));
		return [
			{client: 'claude-desktop', scope: 'user', path: file, exists: true, serversPath: ['mcpServers'], format: 'json'},
		];
	}

	it('takes NODE_EXTRA_CA_CERTS from the shell (a path, not a secret) and pins it with one search probe', async () => {
		const report = await runDoctor({
			files: caConfig(),
			context: {
				env: {
					PATH: process.env['PATH'] ?? '/usr/bin:/bin',
					HOME: dir,
					NODE_EXTRA_CA_CERTS: path.join(dir, 'corp-ca.pem'),
					PYTHONUNBUFFERED: '1',
					VIRTUAL_ENV: path.join(dir, 'venv'),
					NODE_OPTIONS: '--max-old-space-size=4096',
				},
				home: dir,
				cwd: dir,
				platform: process.platform,
			},
			timeoutMs: 10_000,
			totalTimeoutMs: 60_000,
			jobs: 1,
			toolVersion: '0.0.0',
		});
		const row = report.rows[0]!;
		expect([row.status, row.finding?.code]).toEqual(['fail', 'early-exit']);
		expect(row.envDifference?.variables).toEqual(['NODE_EXTRA_CA_CERTS']);
		expect([row.envDifference?.minimal, row.envDifference?.probes]).toEqual([true, 1]);
		expect(row.envDifference?.candidates[0]).toBe('NODE_EXTRA_CA_CERTS');
	});
});
