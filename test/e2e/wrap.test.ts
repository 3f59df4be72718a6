// `mcp-wire wrap` / `mcp-wire unwrap` end to end (docs/cli.md#wrap-and-unwrap): the real built CLI on a temporary home.
import {chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {createHash} from 'node:crypto';
import path from 'node:path';
import {execa} from 'execa';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {makeDoctorHome, NODE, PYTHON, SERVERS, type DoctorHome} from '../doctor/fixtures.js';
import {BIN, ROOT} from './helpers.js';

/** The launcher a wrapped entry runs, absolute (GUI clients get a minimal PATH). */
const LAUNCHER = path.join(ROOT, 'bin', 'mcp-wire.js');

let home: DoctorHome;
let childNode: string;
beforeEach(async () => {
	home = makeDoctorHome();
	childNode = (await execa('node', ['-p', 'process.execPath'], {env: home.env(), extendEnv: false})).stdout;
});
afterEach(() => home.cleanup());

async function cli(args: readonly string[]) {
	const result = await execa('node', [BIN, ...args], {
		cwd: home.project,
		env: home.env(),
		extendEnv: false,
		reject: false,
		stdin: 'ignore',
	});
	return {exitCode: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr};
}

const read = (file: string): string => readFileSync(file, 'utf8');
const sha16 = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);
/** The trailing comma of the broken Cursor config ends line 3 (its length depends on the repo path). */
const brokenColumn = (): number => read(home.files.cursorProject).split('\n')[2]!.length;

describe('wrap', () => {
	it('--dry-run prints the change as a unified diff and writes nothing', async () => {
		const before = read(home.files.claudeDesktop);
		const run = await cli(['wrap', 'healthy-node', '--client', 'claude-desktop', '--dry-run']);
		expect(run.exitCode).toBe(0);
		const file = home.files.claudeDesktop;
		const lines = run.stdout.split('\n');
		expect(lines.slice(0, 2)).toEqual([`--- ${file}`, `+++ ${file}`]);
		expect(lines[2]).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@$/);
		// The changed lines only: the command (when this node is not the one in the entry) and the tap arguments.
		expect(lines.slice(3).filter((line) => line.startsWith('+') || line.startsWith('-'))).toEqual([
			...(childNode === NODE
				? []
				: [`-      "command": ${JSON.stringify(NODE)},`, `+      "command": ${JSON.stringify(childNode)},`]),
			`+        ${JSON.stringify(LAUNCHER)},`,
			'+        "tap",',
			'+        "--name",',
			'+        "healthy-node",',
			'+        "--",',
			`+        ${JSON.stringify(NODE)},`,
		]);
		expect(run.stderr).toBe(`mcp-wire: dry run: ${file} was not changed`);
		expect(read(file)).toBe(before);
		expect(existsSync(`${file}.mcp-wire.bak`)).toBe(false);
	});

	it('rewrites one entry to run through the tap with absolute paths, keeps a backup, and is idempotent', async () => {
		const file = home.files.claudeDesktop;
		const before = read(file);
		const run = await cli(['wrap', 'healthy-node', '--client', 'claude-desktop']);
		expect(run.exitCode).toBe(0);
		expect(run.stdout.split('\n')).toEqual([
			`wrapped "healthy-node" in claude-desktop user config ${file}`,
			`backup: ${file}.mcp-wire.bak`,
			'Restart Claude Desktop (or reconnect the server) so it starts through the tap; watch it with `mcp-wire attach healthy-node`, undo with `mcp-wire unwrap healthy-node`.',
		]);
		const after = JSON.parse(read(file)) as {mcpServers: Record<string, {command: string; args: string[]}>};
		expect(after.mcpServers['healthy-node']).toEqual({
			command: childNode,
			args: [LAUNCHER, 'tap', '--name', 'healthy-node', '--', NODE, path.join(SERVERS, 'node', 'healthy.mjs')],
		});
		const original = JSON.parse(before) as {mcpServers: Record<string, unknown>};
		for (const name of ['unflushed', 'local-bin', 'missing', 'stray-print'])
			expect(after.mcpServers[name]).toEqual(original.mcpServers[name]);
		expect(read(`${file}.mcp-wire.bak`)).toBe(before);

		const wrapped = read(file);
		const again = await cli(['wrap', 'healthy-node', '--client', 'claude-desktop']);
		expect([again.exitCode, again.stdout]).toEqual([
			0,
			`"healthy-node" in claude-desktop user config ${file} already runs through mcp-wire tap; nothing to do`,
		]);
		expect(read(file)).toBe(wrapped);
	});

	it('prints the attach and unwrap commands with a name that needs quoting shell-quoted, ready to paste', async () => {
		const file = path.join(home.home, 'quoted', 'claude_desktop_config.json');
		mkdirSync(path.dirname(file), {recursive: true});
		writeFileSync(
			file,
			`${JSON.stringify({mcpServers: {'py healthy': {command: NODE, args: [path.join(SERVERS, 'node', 'healthy.mjs')]}}}, null, 2)}\n`,
		);
		const run = await cli(['wrap', 'py healthy', '--config', file, '--client', 'claude-desktop']);
		expect(run.exitCode).toBe(0);
		expect(run.stdout.split('\n')).toEqual([
			`wrapped "py healthy" in claude-desktop user config ${file}`,
			`backup: ${file}.mcp-wire.bak`,
			"Restart Claude Desktop (or reconnect the server) so it starts through the tap; watch it with `mcp-wire attach 'py healthy'`, undo with `mcp-wire unwrap 'py healthy'`.",
		]);
		const after = JSON.parse(read(file)) as {mcpServers: Record<string, {command: string; args: string[]}>};
		expect(after.mcpServers['py healthy']).toEqual({
			command: childNode,
			args: [LAUNCHER, 'tap', '--name', 'py healthy', '--', NODE, path.join(SERVERS, 'node', 'healthy.mjs')],
		});
	});

	it('the wrapped entry still works when started the way Claude Desktop starts it (minimal PATH), and the tap records it', async () => {
		await cli(['wrap', 'healthy-node', '--client', 'claude-desktop']);
		const run = await cli(['doctor', '--client', 'claude-desktop', '--json', '--timeout', '10000']);
		const row = run.stdout
			.split('\n')
			.map((line) => JSON.parse(line) as Record<string, unknown>)
			.find((record) => record['name'] === 'healthy-node')!;
		expect([row['status'], row['envMode'], row['command']]).toEqual([
			'ok',
			'gui-minimal',
			[childNode, LAUNCHER, 'tap', '--name', 'healthy-node', '--', NODE, path.join(SERVERS, 'node', 'healthy.mjs')],
		]);
		// The tap gets Claude Desktop's minimal environment (no XDG_STATE_HOME), so its capture is under HOME.
		const captures = readdirSync(path.join(home.home, '.local', 'state', 'mcp-wire', 'captures'));
		expect(captures.filter((name) => /Z-healthy-node-\d+\.mcpcap$/.test(name))).toHaveLength(1);
	});
});

describe('wrap on a project config (a file teams commit)', () => {
	it('writes no path of this machine and no file into the project; unwrap restores it byte for byte', async () => {
		const file = home.files.mcpJson;
		const before = read(file);
		const listing = (): string[] => readdirSync(home.project).sort();
		const inProject = listing();
		// `mcp-wire` is not on this PATH (only ~/.local/bin): the wrap says so.
		const run = await execa(process.execPath, [BIN, 'wrap', 'import-error', '--client', 'claude-code'], {
			cwd: home.project,
			env: home.env({PATH: home.localBin}),
			extendEnv: false,
			reject: false,
			stdin: 'ignore',
		});
		const backup = path.join(home.state, 'mcp-wire', 'backups', `mcp.json-${sha16(file)}.bak`);
		expect([run.exitCode, run.stderr, run.stdout.split('\n')]).toEqual([
			0,
			'',
			[
				`wrapped "import-error" in claude-code project config ${file}`,
				'it runs `mcp-wire` from PATH: a project file is shared, so it holds no path of this machine; it is not on your PATH now: put it there (`npm link` in a checkout of mcp-wire, see its README#install) or the client cannot start this server',
				`backup: ${backup}`,
				'Restart Claude Code (or reconnect the server) so it starts through the tap; watch it with `mcp-wire attach import-error`, undo with `mcp-wire unwrap import-error`.',
			],
		]);
		const after = read(file);
		expect(JSON.parse(after).mcpServers['import-error']).toEqual({
			command: 'mcp-wire',
			args: ['tap', '--name', 'import-error', '--', PYTHON, path.join(SERVERS, 'python', 'import-error.py')],
		});
		// Only the original server's own paths remain (they were there before); none of mcp-wire's.
		expect(after.includes(ROOT) && !before.includes(ROOT)).toBe(false);
		expect(after).not.toContain(process.execPath);
		expect(listing()).toEqual(inProject);
		expect(read(backup)).toBe(before);

		// With `mcp-wire` on PATH there is no warning.
		writeFileSync(path.join(home.localBin, 'mcp-wire'), '#!/bin/sh\n');
		chmodSync(path.join(home.localBin, 'mcp-wire'), 0o755);
		writeFileSync(file, before);
		const quiet = await cli(['wrap', 'import-error', '--client', 'claude-code']);
		expect(quiet.stdout.split('\n')[1]).toBe(
			'it runs `mcp-wire` from PATH: a project file is shared, so it holds no path of this machine',
		);

		const undo = await cli(['unwrap', 'import-error', '--client', 'claude-code']);
		expect(undo.exitCode).toBe(0);
		expect(undo.stdout).toContain('(restored exactly from the backup)');
		expect(read(file)).toBe(before);
		expect(listing()).toEqual(inProject);
	});
});

describe('unwrap', () => {
	it('puts the entry back byte for byte, and is idempotent', async () => {
		const file = home.files.vscodeProject;
		const backup = path.join(home.state, 'mcp-wire', 'backups', `mcp.json-${sha16(file)}.bak`);
		const before = read(file);
		expect((await cli(['wrap', 'crlf', '--config', file])).exitCode).toBe(0);
		expect(read(file)).not.toBe(before);
		const run = await cli(['unwrap', 'crlf', '--config', file]);
		// It says what it restored and that the backup stays.
		expect([run.exitCode, run.stdout]).toEqual([
			0,
			[
				`unwrapped "crlf" in vscode project config ${file} (restored exactly from the backup)`,
				`it runs again without the tap: ${PYTHON} ${path.join(SERVERS, 'python', 'crlf.py')}`,
				`backup kept: ${backup} (delete it when you no longer need it)`,
				'Restart VS Code (or reconnect the server) to apply it.',
			].join('\n'),
		]);
		expect(existsSync(backup)).toBe(true);
		expect(read(file)).toBe(before);
		const again = await cli(['unwrap', 'crlf', '--config', file]);
		expect([again.exitCode, again.stdout]).toEqual([
			0,
			`"crlf" in vscode project config ${file} is not wrapped; nothing to do`,
		]);
		expect(read(file)).toBe(before);
	});
});

describe('wrap errors leave every file untouched (exit 2)', () => {
	const snapshot = () => Object.fromEntries(Object.values(home.files).map((file) => [file, read(file)]));
	const backups = () => Object.values(home.files).filter((file) => existsSync(`${file}.mcp-wire.bak`));

	it('an unknown name lists the known ones and the files that could not be read', async () => {
		const before = snapshot();
		const run = await cli(['wrap', 'nope', '--client', 'cursor']);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toBe(
			`mcp-wire: no server "nope" in the client configs (known: stray-print (cursor user)); not readable: ${home.files.cursorProject}:3:${brokenColumn()}: broken JSON: trailing comma (not allowed in JSON)`,
		);
		expect(snapshot()).toEqual(before);
		expect(backups()).toEqual([]);
	});

	it('a name in two clients asks which one', async () => {
		const run = await cli(['wrap', 'unflushed']);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toBe(
			`mcp-wire: server "unflushed" is in 2 configs: claude-desktop user config ${home.files.claudeDesktop}; claude-code user config ${home.files.claudeJson}. Choose one with --client, --config or --scope`,
		);
	});

	it('an HTTP entry cannot run through the tap', async () => {
		const before = snapshot();
		const run = await cli(['wrap', 'remote']);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(
			new RegExp(
				`^mcp-wire: ${home.files.claudeJson.replaceAll('.', '\\.')}:\\d+:5: server "remote" is an HTTP server \\(https://example\\.com/mcp\\); only stdio servers can run through the tap; the file is unchanged$`,
			),
		);
		expect(snapshot()).toEqual(before);
	});

	it('broken JSON is named with its line and column', async () => {
		const before = snapshot();
		const run = await cli(['wrap', 'x', '--config', home.files.cursorProject]);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toBe(
			`mcp-wire: ${home.files.cursorProject}:3:${brokenColumn()}: broken JSON: trailing comma (not allowed in JSON); not editing it; the file is unchanged`,
		);
		expect(snapshot()).toEqual(before);
		expect(backups()).toEqual([]);
	});
});

describe('wrap safety (docs/cli.md#wrap-and-unwrap)', () => {
	it(
		'two concurrent runs on one file never lose an edit: both servers end up wrapped, every time',
		{timeout: 120_000},
		async () => {
			const file = home.files.claudeDesktop;
			const original = read(file);
			let lost = 0;
			for (let round = 0; round < 6; round++) {
				writeFileSync(file, original);
				const [a, b] = await Promise.all([
					cli(['wrap', 'healthy-node', '--client', 'claude-desktop']),
					cli(['wrap', 'stray-print', '--client', 'claude-desktop']),
				]);
				expect([a.exitCode, a.stderr, b.exitCode, b.stderr]).toEqual([0, '', 0, '']);
				const servers = (JSON.parse(read(file)) as {mcpServers: Record<string, {args: string[]}>}).mcpServers;
				if (!servers['healthy-node']!.args.includes('tap') || !servers['stray-print']!.args.includes('tap')) lost++;
			}
			expect(lost).toBe(0);
			expect(existsSync(`${file}.mcp-wire.lock`)).toBe(false);
		},
	);

	it('refuses a read-only config with a clear message and leaves it as it was', async () => {
		const file = home.files.claudeDesktop;
		const before = read(file);
		chmodSync(file, 0o444);
		const run = await cli(['wrap', 'healthy-node', '--client', 'claude-desktop']);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toBe(
			`mcp-wire: ${file} is read-only (mode 0444); mcp-wire does not change a read-only config: make it writable (chmod u+w) if you mean it`,
		);
		expect(read(file)).toBe(before);
		expect(existsSync(`${file}.mcp-wire.bak`)).toBe(false);
	});
});
