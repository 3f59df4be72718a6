/**
 * The tap inside real clients (docs/clients.md "Checked against the real clients"): `mcp-wire wrap` edits a
 * Gemini CLI `settings.json` (JSONC, with a comment) and a Codex `config.toml` (with comments) in a fresh
 * HOME, the real client's own health check (`gemini mcp list`, Codex's `mcpServerStatus/list`) then starts
 * the server through `mcp-wire tap`, and:
 * - the client's verdict is the same as without the tap (the tap forwards every byte; docs/cli.md#tap);
 * - the capture holds the client's own `initialize` (its `clientInfo`), so `view` shows that client's session;
 * - `unwrap` restores the file byte for byte.
 */
import {execFile} from 'node:child_process';
import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {promisify} from 'node:util';
import {describe, expect, it} from 'vitest';
import {runCodexIn} from './codex-driver.js';
import {ROOT} from './ground-truth.js';
import {freshHome, installedPackage} from './real-clients.js';

const run = promisify(execFile);
const CLI = join(ROOT, 'bin', 'mcp-wire.js');
const HEALTHY = join(ROOT, 'examples', 'servers', 'node', 'healthy.mjs');
const CRLF = join(ROOT, 'examples', 'servers', 'node', 'crlf.mjs');

/** Runs `mcp-wire ARGS` with HOME (and CODEX_HOME) set to `home`; resolves to its stdout. */
async function mcpWire(home: string, args: readonly string[]): Promise<string> {
	const {stdout} = await run(process.execPath, [CLI, ...args], {
		env: {PATH: process.env['PATH'] ?? '', HOME: home, CODEX_HOME: join(home, 'codex'), LANG: 'C.UTF-8'},
		timeout: 60_000,
	});
	return stdout;
}

/** The `clientInfo.name` of the `initialize` request in each capture the taps wrote under `home`. */
async function capturedClients(home: string): Promise<string[]> {
	const dir = join(home, '.local', 'state', 'mcp-wire', 'captures');
	const names: string[] = [];
	for (const file of readdirSync(dir).sort()) {
		const dump = await mcpWire(home, ['view', '--json', join(dir, file)]);
		for (const line of dump.split('\n')) {
			if (!line.includes('"initialize"')) continue;
			const record = JSON.parse(line) as {
				type?: string;
				message?: {method?: string; params?: {clientInfo?: {name?: string}}};
			};
			if (record.type === 'frame' && record.message?.method === 'initialize')
				names.push(record.message.params?.clientInfo?.name ?? '?');
		}
	}
	return names;
}

describe('the tap wrapped into real clients', () => {
	it('gemini mcp list connects through the tap exactly as without it, and unwrap restores settings.json', async () => {
		const home = freshHome('gemini-wrap');
		try {
			const settings = join(home.dir, '.gemini', 'settings.json');
			mkdirSync(join(home.dir, '.gemini'));
			const original = [
				'{',
				'  // the servers this user runs',
				'  "mcpServers": {',
				`    "ok": {"command": "node", "args": [${JSON.stringify(HEALTHY)}], "timeout": 60000},`,
				`    "crlf": {"command": "node", "args": [${JSON.stringify(CRLF)}], "timeout": 60000}`,
				'  }',
				'}',
				'',
			].join('\n');
			writeFileSync(settings, original);
			const gemini = async (): Promise<string> => {
				const bin = join(installedPackage('gemini'), 'bundle', 'gemini.js');
				const {stdout, stderr} = await run(process.execPath, [bin, 'mcp', 'list'], {
					cwd: home.dir,
					env: {PATH: process.env['PATH'] ?? '', HOME: home.dir, GEMINI_CLI_TRUST_WORKSPACE: 'true', LANG: 'C.UTF-8'},
					timeout: 300_000,
				});
				return `${stdout}\n${stderr}`;
			};
			const status = (text: string, name: string): string | undefined =>
				/ - (Connected|Disconnected)\s*$/.exec(text.split('\n').find((l) => l.includes(` ${name}: `)) ?? '')?.[1];
			const bare = await gemini();
			await mcpWire(home.dir, ['wrap', 'ok', '--client', 'gemini-cli']);
			await mcpWire(home.dir, ['wrap', 'crlf', '--client', 'gemini-cli']);
			expect(readFileSync(settings, 'utf8')).toContain('"tap", "--name", "ok"');
			const wrapped = await gemini();
			expect([status(wrapped, 'ok'), status(wrapped, 'crlf')]).toEqual([status(bare, 'ok'), status(bare, 'crlf')]);
			expect(status(wrapped, 'ok')).toBe('Connected');
			expect(await capturedClients(home.dir)).toEqual(['mcp-test-client', 'mcp-test-client']);
			await mcpWire(home.dir, ['unwrap', 'ok', '--client', 'gemini-cli']);
			await mcpWire(home.dir, ['unwrap', 'crlf', '--client', 'gemini-cli']);
			expect(readFileSync(settings, 'utf8')).toBe(original);
		} finally {
			home.dispose();
		}
	}, 600_000);

	it("Codex's mcpServerStatus/list lists the tools through the tap, and unwrap restores config.toml", async () => {
		const home = freshHome('codex-wrap');
		try {
			const codexHome = join(home.dir, 'codex');
			mkdirSync(codexHome);
			const config = join(codexHome, 'config.toml');
			const original = [
				'# Codex settings of this user',
				'model = "o3" # kept as written',
				'',
				'[mcp_servers.ok]',
				'command = "node"',
				`args = [${JSON.stringify(HEALTHY)}]`,
				'startup_timeout_sec = 60',
				'',
			].join('\n');
			writeFileSync(config, original);
			const bare = await runCodexIn(home.dir, ['ok'], 120);
			await mcpWire(home.dir, ['wrap', 'ok', '--client', 'codex']);
			expect(readFileSync(config, 'utf8')).toContain('"tap", "--name", "ok"');
			const wrapped = await runCodexIn(home.dir, ['ok'], 120, 5_000);
			expect(wrapped.get('ok')).toEqual(bare.get('ok'));
			expect(wrapped.get('ok')?.tools).toBeGreaterThan(0);
			expect(await capturedClients(home.dir)).toEqual(['codex-mcp-client']);
			await mcpWire(home.dir, ['unwrap', 'ok', '--client', 'codex']);
			expect(readFileSync(config, 'utf8')).toBe(original);
		} finally {
			home.dispose();
		}
	}, 600_000);
});
