// `mcp-wire doctor` end to end (docs/cli.md#doctor): the real built CLI, run on temporary homes that
// hold a config for each client whose entries point at the example servers.
import {existsSync, readFileSync, statSync, writeFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {execa} from 'execa';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {decodeRecords} from '../../src/core/capture/record-codec.js';
import {makeDoctorHome, NODE, PYTHON, SERVERS, type DoctorHome} from '../doctor/fixtures.js';
import {BIN} from './helpers.js';

async function doctor(home: DoctorHome, args: readonly string[], env: Record<string, string | undefined> = {}) {
	const result = await execa('node', [BIN, 'doctor', ...args], {
		cwd: home.project,
		env: home.env(env),
		extendEnv: false,
		reject: false,
		stdin: 'ignore',
	});
	return {exitCode: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr};
}

/** The table rows of a plain report, each split into its 8 cells (columns are separated by 2+ spaces). */
function tableRows(stdout: string): string[][] {
	const lines = stdout.split('\n');
	const start = lines.findIndex((line) => line.startsWith('CLIENT '));
	const end = lines.indexOf('', start);
	expect(lines[start]).toMatch(/^CLIENT +SCOPE +SERVER +STATUS +STARTUP +TOOLS +FINDING +FIX$/);
	return lines.slice(start + 1, end).map((line) => {
		const cells = line.split(/ {2,}/);
		return [...cells.slice(0, 7), cells.slice(7).join('  ')];
	});
}

const STARTUP = /^\d+ ms$/;
/**
 * --timeout for the runs below (ms, as the CLI takes it). Only the block-buffered `unflushed` entry waits it
 * out; every other server answers on its own, and must have time to start on a loaded 2-core machine
 * (2000 ms turned healthy servers into no-response / unflushed-output under load).
 */
const TIMEOUT = '10000';

let home: DoctorHome;
let before: Record<string, string>;
let run: Awaited<ReturnType<typeof doctor>>;

beforeAll(async () => {
	home = makeDoctorHome();
	before = Object.fromEntries(Object.entries(home.files).map(([name, file]) => [name, readFileSync(file, 'utf8')]));
	run = await doctor(home, ['--timeout', TIMEOUT, '--include-untrusted', '--yes']);
}, 180_000);
afterAll(() => home.cleanup());

describe('doctor on a home with every client', () => {
	it('prints one row per entry with the verdict for its client, the first finding and its fix; exit 1', () => {
		expect(run.exitCode).toBe(1);
		const rows = tableRows(run.stdout);
		const f = home.files;
		// [client, scope, server, status, finding, fix]; startup and tools are checked below.
		expect(rows.map((r) => [r[0], r[1], r[2], r[3], r[6], r[7]])).toEqual([
			['claude-desktop', 'user', 'healthy-node', '✔ ok', '—', ''],
			[
				'claude-desktop',
				'user',
				'unflushed',
				'✘ fail',
				'unflushed-output',
				"works only because your shell sets PYTHONUNBUFFERED=1; add it to the config's env",
			],
			[
				'claude-desktop',
				'user',
				'local-bin',
				'✘ fail',
				'spawn-failed',
				`works only because your shell's PATH has ${home.localBin}; put the absolute path ${home.localBin}/local-mcp-server in "command"`,
			],
			[
				'claude-desktop',
				'user',
				'missing',
				'✘ fail',
				'spawn-failed',
				'`definitely-missing-mcp-server` is not on Claude Desktop\'s PATH /usr/bin:/bin:/usr/sbin:/sbin: install it, fix the name, or put its absolute path in "command"',
			],
			[
				'claude-desktop',
				'user',
				'stray-print',
				'▲ warn',
				'stray-output',
				'Only MCP messages may go to stdout (R5): print to stderr: `print(..., file=sys.stderr)`, and point the logging handler at stderr: `logging.basicConfig(stream=sys.stderr)` or `logging.StreamHandler(sys.stderr)` (a `StreamHandler(sys.stdout)` writes onto the protocol stream). (runtime: Python, inferred from the command `python3`)',
			],
			['claude-code', 'user', 'healthy-py', '✔ ok', '—', ''],
			['claude-code', 'user', 'unflushed', '✔ ok', '—', ''],
			[
				'claude-code',
				'user',
				'remote',
				'– skip',
				'—',
				'HTTP server at https://example.com/mcp: doctor checks stdio servers only',
			],
			[
				'claude-code',
				'local',
				'pretty',
				'✘ fail',
				'multiline-json',
				'Serialize each message on one line: `JSON.stringify(msg)` / `json.dumps(msg)` with no indent.',
			],
			[
				'claude-code',
				'project',
				'no-command',
				'✘ fail',
				'config',
				`${f.mcpJson}:4:5: server "no-command" has neither "command" nor "url"`,
			],
			[
				'claude-code',
				'project',
				'import-error',
				'✘ fail',
				'early-exit',
				"stderr: ModuleNotFoundError: No module named 'demo_weather_sdk'; Read the stderr tail: the server crashed or printed usage. Check the command, its arguments and the environment the client passes.",
			],
			[
				'cursor',
				'user',
				'stray-print',
				'▲ warn',
				'stray-output',
				'Only MCP messages may go to stdout (R5): print to stderr: `console.error(...)` (not `console.log`), and point the logger at stderr: `console.error`, pino `pino(pino.destination(2))`, winston `new transports.Console({stderrLevels: [...all levels]})`. (runtime: Node.js, inferred from the command `node`)',
			],
			[
				'cursor',
				'project',
				'(file)',
				'✘ fail',
				'config',
				`${f.cursorProject}:3:${before['cursorProject']!.split('\n')[2]!.length}: broken JSON: trailing comma (not allowed in JSON) (Cursor loads no server from this file)`,
			],
			[
				'vscode',
				'project',
				'crlf',
				'▲ warn',
				'crlf',
				`Write LF only. Python: \`sys.stdout.reconfigure(newline="\\n")\` or a \`TextIOWrapper\` with \`newline=""\`, since the default text wrapper writes \`os.linesep\` (runtime: Python, inferred from the command \`${path.basename(PYTHON).toLowerCase()}\`). Elsewhere: Node.js: end each message with \`"\\n"\`, not \`os.EOL\` (\`"\\r\\n"\` on Windows) or a literal \`"\\r\\n"\`; Node itself never adds a CR; .NET: write \`"\\n"\` explicitly (\`Console.Out.Write(json + "\\n")\`), not \`WriteLine\`, which writes \`Environment.NewLine\`; JVM: write \`"\\n"\` explicitly (\`out.print(json + "\\n")\`), not \`println\`, which writes \`System.lineSeparator()\`; C/C++: \`_setmode(_fileno(stdout), _O_BINARY)\`.`,
			],
			[
				'vscode',
				'project',
				'events',
				'– skip',
				'—',
				'SSE server at http://localhost:8000/sse: doctor checks stdio servers only',
			],
		]);
		// Startup time (initialize latency) only where the client connects; tools where tools/list answered.
		expect(rows.map((r) => [r[2], STARTUP.test(r[4]!) ? 'ms' : r[4], r[5]])).toEqual([
			['healthy-node', 'ms', '1'],
			['unflushed', '—', '—'],
			['local-bin', '—', '—'],
			['missing', '—', '—'],
			['stray-print', 'ms', '1'],
			['healthy-py', 'ms', '1'],
			['unflushed', 'ms', '1'],
			['remote', '—', '—'],
			['pretty', '—', '1'],
			['no-command', '—', '—'],
			['import-error', '—', '—'],
			['stray-print', 'ms', '1'],
			['(file)', '—', '—'],
			['crlf', 'ms', '1'],
			['events', '—', '—'],
		]);
		expect(run.stdout).toContain('\n15 entries: 3 ✔ ok, 3 ▲ warn, 7 ✘ fail, 2 skipped (');
	});

	it('notes what the table cannot say: a Claude Code project server that is not approved yet', () => {
		const lines = run.stdout.split('\n');
		const start = lines.indexOf('Notes:');
		expect(lines.slice(start, lines.indexOf('', start))).toEqual([
			'Notes:',
			'  claude-code/import-error: not approved in Claude Code yet: it starts .mcp.json servers only once you approve them (and trust the folder) in `claude`; `claude mcp list` shows ⏸ Pending approval',
		]);
	});

	it('lists the config files it read and never writes them', () => {
		expect(
			run.stdout.startsWith(
				`Config files:\n  claude-desktop  ${home.files.claudeDesktop}\n  claude-code     ${home.files.claudeJson}\n`,
			),
		).toBe(true);
		for (const [name, file] of Object.entries(home.files)) expect(readFileSync(file, 'utf8')).toBe(before[name]);
	});

	it("keeps every probe's capture (0600, in XDG_STATE_HOME) as NDJSON that replays, and shows its path", () => {
		const lines = run.stdout.split('\n');
		const start = lines.indexOf('Captures (open with `mcp-wire view FILE` or `mcp-wire report FILE`):');
		expect(start).toBeGreaterThan(0);
		const shown = lines.slice(start + 1, lines.indexOf('', start)).map((line) => line.trim().split(/ {2,}/));
		expect(shown.map(([what]) => what)).toEqual([
			'claude-desktop/healthy-node',
			'claude-desktop/unflushed',
			"claude-desktop/unflushed (your shell's environment)",
			"claude-desktop/local-bin (your shell's environment)",
			'claude-desktop/stray-print',
			'claude-code/healthy-py',
			'claude-code/unflushed',
			'claude-code/pretty',
			'claude-code/import-error',
			'cursor/stray-print',
			'vscode/crlf',
		]);
		const dir = path.join(home.state, 'mcp-wire', 'captures');
		for (const [what, file] of shown) {
			expect(path.dirname(file!)).toBe(dir);
			expect(path.basename(file!)).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-[\w.-]+-\d+\.ndjson$/);
			expect(statSync(file!).mode & 0o777).toBe(0o600);
			const decoded = decodeRecords(readFileSync(file!, 'utf8'));
			expect(decoded.problems).toEqual([]);
			expect(decoded.header?.mode).toBe('probe');
			expect(decoded.header?.envMode).toBe(
				what!.endsWith("(your shell's environment)")
					? 'inherit'
					: what!.startsWith('claude-desktop') || what!.startsWith('cursor')
						? 'gui-minimal'
						: 'client-full',
			);
			expect(decoded.events.at(-1)?.type).toBe('summary');
		}
	});

	it("probes a GUI client's server with the minimal PATH and only the config env", () => {
		const file = run.stdout
			.split('\n')
			.find((line) => line.includes('claude-desktop/healthy-node  '))!
			.trim()
			.split(/ {2,}/)[1]!;
		const header = decodeRecords(readFileSync(file, 'utf8')).header!;
		expect(header.command).toEqual([NODE, path.join(SERVERS, 'node', 'healthy.mjs')]);
		expect(header.cwd).toBe(home.home);
	});
});

describe('doctor --json', () => {
	it('writes one doctor-server record per entry and a doctor-summary record', async () => {
		const result = await doctor(home, ['--json', '--timeout', TIMEOUT, '--client', 'claude-desktop']);
		expect(result.exitCode).toBe(1);
		const records = result.stdout.split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
		const servers = records.filter((r) => r['type'] === 'doctor-server');
		expect(
			servers.map((r) => [
				r['name'],
				r['status'],
				r['connected'],
				(r['finding'] as {code?: string} | undefined)?.code ?? null,
				r['envMode'],
			]),
		).toEqual([
			['healthy-node', 'ok', true, null, 'gui-minimal'],
			['unflushed', 'fail', false, 'unflushed-output', 'gui-minimal'],
			['local-bin', 'fail', false, 'spawn-failed', 'gui-minimal'],
			['missing', 'fail', false, 'spawn-failed', 'gui-minimal'],
			['stray-print', 'warn', true, 'stray-output', 'gui-minimal'],
		]);
		const detail = (name: string) =>
			(servers.find((r) => r['name'] === name)!['finding'] as {detail: Record<string, unknown>}).detail;
		expect(detail('unflushed')['envDifference']).toEqual({variables: ['PYTHONUNBUFFERED'], minimal: true});
		expect(detail('local-bin')['envDifference']).toEqual({
			variables: ['PATH'],
			pathEntries: [home.localBin],
			minimal: true,
		});
		expect(detail('local-bin')['path']).toBe('/usr/bin:/bin:/usr/sbin:/sbin');
		expect(detail('missing')['envDifference']).toBeUndefined();
		expect(detail('missing')['errno']).toBe('ENOENT');
		const summary = records.at(-1)!;
		expect(summary['type']).toBe('doctor-summary');
		expect([
			summary['servers'],
			summary['ok'],
			summary['warn'],
			summary['fail'],
			summary['skipped'],
			summary['exitCode'],
			summary['timedOut'],
		]).toEqual([5, 1, 1, 3, 0, 1, false]);
		expect(records).toHaveLength(6);
	});

	it('under Claude Code (whole environment) a block-buffered server fails once PYTHONUNBUFFERED is not set, with no env difference to name', async () => {
		const result = await doctor(home, ['--json', '--timeout', TIMEOUT, '--client', 'claude-code'], {
			PYTHONUNBUFFERED: undefined,
		});
		const servers = result.stdout
			.split('\n')
			.map((line) => JSON.parse(line) as Record<string, unknown>)
			.filter((r) => r['type'] === 'doctor-server');
		const unflushed = servers.find((r) => r['name'] === 'unflushed')!;
		expect([unflushed['status'], (unflushed['finding'] as {code: string}).code, unflushed['envMode']]).toEqual([
			'fail',
			'unflushed-output',
			'client-full',
		]);
		expect((unflushed['finding'] as {detail: Record<string, unknown>}).detail['envDifference']).toBeUndefined();
		expect(unflushed['fix']).toBe((unflushed['finding'] as {hint: string}).hint);
		expect(unflushed['fix']).toContain('PYTHONUNBUFFERED=1');
	});
});

describe('doctor narrowing and errors', () => {
	it('--config FILE checks that file only; exit 0 when nothing fails', async () => {
		const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-doctor-ok-')));
		try {
			const file = path.join(dir, '.mcp.json');
			writeFileSync(
				file,
				JSON.stringify({
					mcpServers: {
						node: {command: NODE, args: [path.join(SERVERS, 'node', 'healthy.mjs')]},
						py: {command: PYTHON, args: [path.join(SERVERS, 'python', 'healthy.py')]},
					},
				}),
			);
			const result = await doctor(home, ['--config', file, '--no-capture', '--include-untrusted', '--yes']);
			expect(result.exitCode).toBe(0);
			expect(tableRows(result.stdout).map((r) => [r[0], r[1], r[2], r[3], r[6]])).toEqual([
				['claude-code', 'project', 'node', '✔ ok', '—'],
				['claude-code', 'project', 'py', '✔ ok', '—'],
			]);
			expect(result.stdout).not.toContain('Captures');
		} finally {
			rmSync(dir, {recursive: true, force: true});
		}
	});

	it('--client cursor with broken JSON in one of its files: the file and line:column are named', async () => {
		const result = await doctor(home, ['--client', 'cursor', '--timeout', TIMEOUT]);
		expect(result.exitCode).toBe(1);
		expect(tableRows(result.stdout).map((r) => [r[0], r[1], r[2], r[3], r[6]])).toEqual([
			['cursor', 'user', 'stray-print', '▲ warn', 'stray-output'],
			['cursor', 'project', '(file)', '✘ fail', 'config'],
		]);
	});

	it('usage errors exit 2 with one line', async () => {
		const unknownClient = await doctor(home, ['--client', 'notepad']);
		expect(unknownClient.exitCode).toBe(2);
		expect(unknownClient.stderr).toContain(
			"mcp-wire: option '--client <name>' argument 'notepad' is invalid. Allowed choices are claude-desktop, claude-code, cursor, vscode, gemini-cli, codex, windsurf, cline, zed, continue, goose, lm-studio.",
		);
		const missing = await doctor(home, ['--config', 'nope.json', '--client', 'cursor']);
		expect(missing.exitCode).toBe(2);
		expect(missing.stderr).toBe(
			`mcp-wire: doctor: --config nope.json: no such file (${path.join(home.project, 'nope.json')})`,
		);
		const anonymous = await doctor(home, ['--config', home.files.claudeJson.replace('.claude.json', 'servers.json')]);
		expect(anonymous.exitCode).toBe(2);
		expect(anonymous.stderr).toContain('cannot tell which client reads this file from its name; pass --client');
		const jobs = await doctor(home, ['--jobs', '0']);
		expect(jobs.exitCode).toBe(2);
		expect(jobs.stderr).toContain('--jobs takes a positive whole number, got "0"');
	});

	it('says where it looked when there is no config at all; exit 0', async () => {
		const empty = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-doctor-empty-')));
		try {
			mkdirSync(path.join(empty, 'p'));
			const result = await execa('node', [BIN, 'doctor', '--home', empty, '--cwd', path.join(empty, 'p')], {
				env: {...home.env(), HOME: empty},
				extendEnv: false,
				reject: false,
			});
			expect(result.exitCode).toBe(0);
			expect(result.stdout.split('\n').slice(0, 3)).toEqual([
				'No MCP client config file found. Looked in:',
				`  ${path.join(empty, '.config', 'Claude', 'claude_desktop_config.json')}`,
				`  ${path.join(empty, '.claude.json')}`,
			]);
		} finally {
			rmSync(empty, {recursive: true, force: true});
		}
	});

	it('--total-timeout stops a server that never answers and says so: not checked, exit 0', async () => {
		const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-doctor-slow-')));
		try {
			const file = path.join(dir, '.mcp.json');
			writeFileSync(
				file,
				JSON.stringify({
					mcpServers: {silent: {command: PYTHON, args: [path.join(SERVERS, 'python', 'no-response.py')]}},
				}),
			);
			const startedAt = Date.now();
			const result = await doctor(home, [
				'--config',
				file,
				'--timeout',
				'20000',
				'--total-timeout',
				'1500',
				'silent',
				'--yes',
			]);
			// It did not wait out the 20 s --timeout (a loaded machine may take seconds to start the run).
			expect(Date.now() - startedAt).toBeLessThan(20_000);
			// No verdict for a server the run stopped: "not checked", not ✘, and no exit code 1.
			expect(result.exitCode).toBe(0);
			const [row] = tableRows(result.stdout);
			expect([row![2], row![3], row![6]]).toEqual(['silent', '○ not checked', '—']);
			expect(row![7]).toBe(
				`stopped: --total-timeout (1500 ms) elapsed; probe it alone: mcp-wire probe --timeout 20000 -- ${PYTHON} ${path.join(SERVERS, 'python', 'no-response.py')}`,
			);
			expect(result.stdout).toContain('— stopped at --total-timeout');
		} finally {
			rmSync(dir, {recursive: true, force: true});
		}
	});
});

describe('doctor --jobs (docs/performance.md#doctor)', () => {
	it('runs 8 probes at a time by default', async () => {
		const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-doctor-jobs-')));
		try {
			// Each server logs `+` when it starts and `-` when it exits, and answers initialize only once 8
			// servers have started (or after 20 s), so the log shows how many ran at once, whatever the speed.
			const log = path.join(dir, 'log');
			writeFileSync(log, '');
			const server = path.join(dir, 'server.cjs');
			writeFileSync(
				server,
				`const fs = require('node:fs');
const log = ${JSON.stringify(log)};
fs.appendFileSync(log, '+');
process.on('exit', () => fs.appendFileSync(log, '-'));
const started = Date.now();
const ready = (then) => { const text = fs.readFileSync(log, 'utf8'); if (text.split('+').length - 1 >= 8 || Date.now() - started > 20000) then(); else setTimeout(() => ready(then), 20); };
let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\\n')) !== -1) {
    const msg = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    if (msg.id === undefined) continue;
    const result = msg.method === 'initialize' ? {protocolVersion: msg.params.protocolVersion, capabilities: {}, serverInfo: {name: 't', version: '1'}} : {};
    ready(() => process.stdout.write(JSON.stringify({jsonrpc: '2.0', id: msg.id, result}) + '\\n'));
  }
});
process.stdin.on('end', () => process.exit(0));
`,
			);
			const file = path.join(dir, '.mcp.json');
			writeFileSync(
				file,
				JSON.stringify({
					mcpServers: Object.fromEntries(Array.from({length: 9}, (_, i) => [`s${i}`, {command: NODE, args: [server]}])),
				}),
			);
			const result = await doctor(home, [
				'--config',
				file,
				'--no-capture',
				'--include-untrusted',
				'--yes',
				'--timeout',
				'30000',
			]);
			expect(result.exitCode).toBe(0);
			const text = readFileSync(log, 'utf8');
			let running = 0;
			let most = 0;
			for (const c of text) {
				running += c === '+' ? 1 : -1;
				most = Math.max(most, running);
			}
			expect([text.length, most]).toEqual([18, 8]);
		} finally {
			rmSync(dir, {recursive: true, force: true});
		}
	}, 120_000);
});

describe('doctor progress', () => {
	it('writes its progress line to stderr only, erases it at the end, and leaves stdout as it is without it', async () => {
		const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-doctor-progress-')));
		try {
			const file = path.join(dir, '.mcp.json');
			writeFileSync(
				file,
				JSON.stringify({
					mcpServers: {
						a: {command: NODE, args: [path.join(SERVERS, 'node', 'healthy.mjs')]},
						b: {command: NODE, args: [path.join(SERVERS, 'node', 'healthy.mjs')]},
					},
				}),
			);
			const args = ['--config', file, '--no-capture', '--include-untrusted', '--yes', '--timeout', TIMEOUT];
			const on = await doctor(home, [...args, '--progress', 'always']);
			// Not a terminal: auto is off.
			const off = await doctor(home, args);
			// Times vary between the two runs, and the table pads its columns to the widest time.
			const times = (text: string) => text.replaceAll(/ *\d+ ms */g, ' N ms ').replaceAll(/\(\d+\.\d s\)/g, '(N s)');
			expect([on.exitCode, off.exitCode]).toEqual([0, 0]);
			expect(times(on.stdout)).toBe(times(off.stdout));
			expect(on.stdout).not.toMatch(/\r|\u001B|mcp-wire: doctor/);
			expect(tableRows(on.stdout).map((r) => [r[2], r[3]])).toEqual([
				['a', '✔ ok'],
				['b', '✔ ok'],
			]);
			const progress = on.stderr.slice(on.stderr.indexOf('\r'));
			expect(progress).toMatch(/^\r\u001B\[Kmcp-wire: doctor 0\/2 checked · \d+ s of 120 s · running claude-code\/a/);
			expect(progress).toContain('\r\u001B[Kmcp-wire: doctor 2/2 checked');
			expect(progress.endsWith('\r\u001B[K')).toBe(true);
			expect(off.stderr).not.toContain('\r');
			expect(off.stderr).not.toContain('checked');
		} finally {
			rmSync(dir, {recursive: true, force: true});
		}
	});
});

describe('doctor trust (docs/cli.md#doctor)', () => {
	it('in a cloned folder runs nothing of its project configs unless asked, and lists what it runs on stderr', async () => {
		const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-doctor-clone-')));
		try {
			const dump = path.join(dir, 'dump');
			const clone = path.join(dir, 'clone');
			mkdirSync(path.join(clone, '.cursor'), {recursive: true});
			const command = ['/bin/sh', '-c', `env >> ${dump}; exit 1`];
			writeFileSync(
				path.join(clone, '.cursor', 'mcp.json'),
				JSON.stringify({mcpServers: {evil: {command: command[0], args: command.slice(1)}}}),
			);
			const args = ['--home', dir, '--cwd', clone, '--no-capture', '--timeout', '3000'];
			const env = {...home.env(), HOME: dir, OPENAI_API_KEY: 'sk-secret-do-not-leak'};
			const cli = (extra: string[]) =>
				execa('node', [BIN, 'doctor', ...args, ...extra], {
					cwd: clone,
					env,
					extendEnv: false,
					reject: false,
					stdin: 'ignore',
				});

			const plain = await cli([]);
			expect(plain.exitCode).toBe(0);
			expect(existsSync(dump)).toBe(false);
			expect(tableRows(plain.stdout).map((r) => [r[0], r[1], r[2], r[3]])).toEqual([
				['cursor', 'project', 'evil', '– skip'],
			]);
			expect(plain.stderr).toBe('');

			const named = await cli(['evil']);
			expect(existsSync(dump)).toBe(false);
			expect(named.stderr).toContain(
				'mcp-wire: doctor will run 1 server (each possibly several times):\n  cursor/evil: /bin/sh -c',
			);
			expect(named.stderr).toContain('no terminal to ask and no --yes');

			const yes = await cli(['evil', '--yes']);
			expect(yes.exitCode).toBe(1);
			expect(readFileSync(dump, 'utf8')).not.toContain('sk-secret-do-not-leak');
			expect(readFileSync(dump, 'utf8')).toContain('PATH=');

			const unknown = await cli(['nope']);
			expect(unknown.exitCode).toBe(2);
			expect(unknown.stderr).toBe('mcp-wire: doctor: no server named "nope" in the configs read (known: evil)');
		} finally {
			rmSync(dir, {recursive: true, force: true});
		}
	});
});
