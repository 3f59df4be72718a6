import {mkdtempSync, readdirSync, rmSync} from 'node:fs';
import module from 'node:module';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {ROOT, runCli, runJson} from './helpers.js';

const everything = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const filesystem = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

/**
 * --timeout for servers that answer on their own (ms, as the CLI takes it): no start-up on a loaded 2-core
 * machine reaches it, so no verdict here comes from a timeout firing. The tests run one at a time.
 */
const LONG = '60000';

describe('probe against real MCP servers from npm', () => {
	it('@modelcontextprotocol/server-everything comes out clean, with its lists counted', async () => {
		const run = await runJson(['probe', '--json', '--timeout', LONG, '--', 'node', everything, 'stdio']);
		expect(run.findings.map((f) => f.code)).toEqual([]);
		expect(run.summary?.verdict).toBe('ok');
		expect(run.exitCode).toBe(0);
		expect(run.frames.filter((f) => f.stream === 'stdin').map((f) => f.method)).toEqual([
			'initialize',
			'notifications/initialized',
			'tools/list',
			'prompts/list',
			'resources/list',
			'ping',
			// The same ping with a string id (string-id-unanswered, J2).
			'ping',
		]);
		expect(run.summary?.serverInfo?.name).toBe('mcp-servers/everything');
		expect(run.summary?.tools).toBeGreaterThan(0);
	});

	it('@modelcontextprotocol/server-filesystem comes out clean', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'mcp-wire-fs-'));
		const run = await runJson(['probe', '--json', '--timeout', LONG, '--', 'node', filesystem, dir]).finally(() =>
			rmSync(dir, {recursive: true, force: true}),
		);
		expect(run.findings.map((f) => f.code)).toEqual([]);
		expect(run.summary?.verdict).toBe('ok');
		expect(run.summary?.serverInfo?.name).toBe('secure-filesystem-server');
		expect(run.exitCode).toBe(0);
	});
});

describe('probe CLI', () => {
	it('a plain probe keeps no cache of its own: two runs with an empty cache and temp directory write nothing there and give the same record', async () => {
		const home = mkdtempSync(join(tmpdir(), 'mcp-wire-home-'));
		try {
			const env = {HOME: home, XDG_CACHE_HOME: join(home, 'cache'), TMPDIR: join(home, 'tmp')};
			const args = ['probe', '--json', '--timeout', LONG, '--', 'node', 'examples/servers/node/healthy.mjs'];
			const first = await runJson(args, {env});
			const second = await runJson(args, {env});
			for (const run of [first, second]) {
				expect(run.exitCode).toBe(0);
				expect(run.stderr).toBe('');
				expect(run.findings).toEqual([]);
				expect(run.summary?.verdict).toBe('ok');
			}
			// Node 20 has no compile cache, and mcp-wire writes none (docs/performance.md#probe-start-up).
			if (typeof (module as {enableCompileCache?: unknown}).enableCompileCache !== 'function') {
				expect(readdirSync(home)).toEqual([]);
			}
			const shape = (run: typeof first) =>
				run.frames.map((f) => [f.stream, f.kind, f.method ?? null, f.id ?? null, f.byteLength]);
			expect(shape(second)).toEqual(shape(first));
			expect(
				shape(first)
					.filter(([stream]) => stream === 'stdin')
					.map(([, , method]) => method),
			).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'ping', 'ping']);
		} finally {
			rmSync(home, {recursive: true, force: true});
		}
	});

	// Node >= 22.1 only (absent on Node 20): the CLI turns on Node's own compile cache (bin/mcp-wire.js).
	it.skipIf(typeof (module as {enableCompileCache?: unknown}).enableCompileCache !== 'function')(
		"uses Node's compile cache where Node has one",
		async () => {
			const dir = mkdtempSync(join(tmpdir(), 'mcp-wire-ccache-'));
			try {
				const run = await runJson(['--version'], {env: {TMPDIR: dir}});
				expect(run.exitCode).toBe(0);
				expect(readdirSync(dir)).toEqual(['node-compile-cache']);
			} finally {
				rmSync(dir, {recursive: true, force: true});
			}
		},
	);

	it('early-exit quotes stderr written after the exit (a child holds stderr and writes 0.03 s later)', async () => {
		// The exit comes before the last stderr line on the wire: the session gets the exit once stderr ends.
		// 0.03 s leaves nearly all of the probe's hold after an exit (EXIT_HOLD_MS) to a loaded machine, where
		// 0.1 s plus a slow fork of `echo` once outran it; the hold itself is tested with a clock in session-feed.
		const run = await runJson([
			'probe',
			'--json',
			'--timeout',
			LONG,
			'--',
			'sh',
			'-c',
			'(sleep 0.03; echo "ModuleNotFoundError: late" >&2) & exit 1',
		]);
		const early = run.findings.find((f) => f.code === 'early-exit');
		expect(early?.message).toBe(
			'the process exited (code 1) before the handshake completed; stderr ends: ModuleNotFoundError: late',
		);
		expect(run.exitCode).toBe(1);
	});

	it('--json writes only NDJSON records to stdout: session header first, summary last', async () => {
		const run = await runJson([
			'probe',
			'--json',
			'--verbose',
			'--timeout',
			LONG,
			'--',
			'node',
			'examples/servers/node/healthy.mjs',
		]);
		// --verbose logs the process's life to stderr on a healthy run too.
		expect(run.stderr).toMatch(/^mcp-wire: spawned pid \d+: node examples\/servers\/node\/healthy\.mjs$/m);
		expect(run.stderr).toMatch(/^mcp-wire: closed the server's stdin at [\d.]+ ms$/m);
		expect(run.stderr).toMatch(/^mcp-wire: the server exited with code 0 at [\d.]+ ms$/m);
		const lines = run.stdout.trim().split('\n');
		const types = lines.map((l) => (JSON.parse(l) as {type: string}).type);
		expect(types[0]).toBe('session');
		expect(types.at(-1)).toBe('summary');
		expect(new Set(types)).toEqual(new Set(['session', 'chunk', 'frame', 'mark', 'exit', 'summary']));
		const summary = JSON.parse(lines.at(-1)!) as {verdict: string; findings: unknown[]};
		expect(summary.verdict).toBe('ok');
		expect(summary.findings).toEqual([]);
		// Every byte the probe wrote is recorded: stdin chunks decode to the exact handshake.
		const stdin = run.events.flatMap((e) =>
			e.type === 'chunk' && e.chunk.stream === 'stdin' ? [Buffer.from(e.chunk.bytes).toString('utf8')] : [],
		);
		expect(stdin[0]).toBe(
			'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp-wire","version":"0.1.0"}}}\n',
		);
		// `initialized` and `tools/list` go out in one write, as back-to-back writes of a real client often land (R1).
		expect(stdin[1]).toBe(
			'{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n',
		);
	});

	it('prints the frame log, the finding with its bytes and fix, and exits 1 on an error finding', async () => {
		const run = await runCli([
			'probe',
			'--color',
			'never',
			'--timeout',
			LONG,
			'--',
			'node',
			'examples/servers/node/stray-print.mjs',
		]);
		expect(run.exitCode).toBe(1);
		expect(run.stdout).toContain('S→C    25 B  text         "STDIO MCP Server started"');
		expect(run.stdout).toContain('ERROR stray-output · stdout S→C · offset 0 (0x0) · frame 1');
		expect(run.stdout).toContain('00000000: 5354 4449 4f20 4d43 5020 5365 7276 6572  STDIO MCP Server');
		expect(run.stdout).toContain('fix: Only MCP messages may go to stdout (R5): print to stderr: `console.error(...)`');
		expect(run.stdout).toContain('(runtime: Node.js, inferred from the command `node`)');
		// An error finding that no mainstream client fails on: the verdict is WARN, the exit code still 1.
		expect(run.stdout).toContain(
			'verdict WARN: 1 error, 0 warnings, 0 info · no client fails; 3 are degraded (connect, but log the fault or lose a message)',
		);
		expect(run.stdout).toMatch(
			/^clients {2}▲ degraded {9}TS SDK v1 \(Claude Desktop\/Code\) {2}connects and lists tools \(1 tool\); stray-output: logs `Unexpected token …`/m,
		);
		expect(run.stdout).toMatch(
			/^ {9}\? not established {2}Cursor {27}whether it connects is not established: stray-output$/m,
		); // --fail-on client gates on the clients: none fails, so exit 0 for the same server.
		const gated = await runCli([
			'probe',
			'--no-tui',
			'--fail-on',
			'client',
			'--',
			'node',
			'examples/servers/node/stray-print.mjs',
		]);
		expect(gated.stdout).toContain('ERROR stray-output');
		expect(gated.exitCode).toBe(0);
	});

	it('--hex adds an xxd dump under every frame', async () => {
		const run = await runCli([
			'probe',
			'--hex',
			'--color',
			'never',
			'--timeout',
			LONG,
			'--',
			'node',
			'examples/servers/node/crlf.mjs',
		]);
		expect(run.stdout).toMatch(/^ {2}00000000: 7b22 6a73 6f6e 7270 6322 3a22 322e 3022 {2}\{"jsonrpc":"2\.0"$/m);
		expect(run.exitCode).toBe(0);
	});

	it('--fail-on warning turns a warning-only verdict into exit 1; --ignore drops the code', async () => {
		const warn = await runCli([
			'probe',
			'--fail-on',
			'warning',
			'--timeout',
			LONG,
			'--',
			'node',
			'examples/servers/node/crlf.mjs',
		]);
		expect(warn.exitCode).toBe(1);
		const ignored = await runCli([
			'probe',
			'--fail-on',
			'warning',
			'--ignore',
			'crlf',
			'--timeout',
			LONG,
			'--',
			'node',
			'examples/servers/node/crlf.mjs',
		]);
		expect(ignored.stdout).toContain('verdict OK');
		expect(ignored.exitCode).toBe(0);
	});

	it('a missing command is one clear finding, not a stack trace', async () => {
		const run = await runCli(['probe', '--color', 'never', '--', 'no-such-server-xyz']);
		expect(run.exitCode).toBe(1);
		expect(run.stdout).toContain('ERROR spawn-failed');
		expect(run.stdout + run.stderr).not.toMatch(/\n\s+at /);
		// Its report, as the maintainer who gets it reads it: placed at the spawn, and the footer names the command that made it.
		const report = await runCli(['probe', '--report', '--', 'no-such-server-xyz']);
		expect(report.exitCode).toBe(1);
		expect(report.stdout).toContain('| 1 | `spawn-failed` | error | the spawn | – | – |');
		expect(report.stdout.trimEnd().split('\n').at(-1)).toMatch(
			/^Generated by mcp-wire \S+ \(`mcp-wire probe --report`\)\. Redaction: on; /,
		);
	});

	it('usage errors exit 2 with one line: no command, an unknown --ignore code, a bad --timeout', async () => {
		const none = await runCli(['probe']);
		expect(none.exitCode).toBe(2);
		const code = await runCli(['probe', '--ignore', 'not-a-code', '--', 'node', 'x.js']);
		expect(code.exitCode).toBe(2);
		expect(code.stderr).toContain('--ignore: unknown finding code "not-a-code"');
		const timeout = await runCli(['probe', '--timeout', 'soon', '--', 'node', 'x.js']);
		expect(timeout.exitCode).toBe(2);
		expect(timeout.stderr).toContain('--timeout takes a positive whole number, got "soon"');
		const huge = await runCli(['probe', '--timeout', '3000000000', '--', 'node', 'x.js']);
		expect([huge.exitCode, huge.stdout]).toEqual([2, '']);
		expect(huge.stderr).toContain('--timeout takes at most 2147483647 ms');
		const swallowed = await runCli(['probe', '--env', '--', 'node', 'x.js']);
		expect([swallowed.exitCode, swallowed.stdout, swallowed.stderr]).toEqual([
			2,
			'',
			'mcp-wire: probe: --env needs a value before "--" (the server command starts after "--")',
		]);
	});
});
