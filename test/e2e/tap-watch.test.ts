import {existsSync, mkdirSync, readdirSync, statSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {decodeRecords} from '../../src/core/capture/record-codec.js';
import type {StreamName} from '../../src/core/types.js';
import {HANG_MS, BIN, readCapture, scratch, waitFor, type Scratch} from './tap-helpers.js';

const INIT =
	'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n';
const LIST = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n';

describe('sessions, attach and view (real processes)', () => {
	let box: Scratch;
	beforeEach(() => {
		box = scratch();
	});
	afterEach(() => box.remove());

	const cli = (args: string[], env: Record<string, string> = {}) =>
		execa('node', [BIN, ...args], {env: {...box.env, ...env}, extendEnv: false, reject: false});

	/** A live tap around the echoing `signals` fixture, named `echo`. */
	async function liveTap() {
		const child = execa('node', [BIN, 'tap', '--name', 'echo', '--', 'node', box.server('signals')], {
			env: box.env,
			extendEnv: false,
			reject: false,
			buffer: false,
		});
		let stderr = '';
		child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
		child.stdout.resume();
		await waitFor(() => (stderr.includes('ready') ? true : undefined), HANG_MS, 'ready');
		const socket = await waitFor(
			() => (existsSync(box.runtimeDir) ? readdirSync(box.runtimeDir).find((f) => f.endsWith('.sock')) : undefined),
			HANG_MS,
			'the socket',
		);
		return {child, socket: path.join(box.runtimeDir, socket)};
	}

	it('lists a live tap and its capture, with private permissions, then only the capture once it ended', async () => {
		const tap = await liveTap();
		expect(statSync(box.runtimeDir).mode & 0o777).toBe(0o700);
		expect(statSync(tap.socket).mode & 0o777).toBe(0o600);
		expect(statSync(box.capturesDir).mode & 0o777).toBe(0o700);
		const [capture] = box.captures();
		expect(statSync(capture!).mode & 0o777).toBe(0o600);
		expect(path.basename(capture!)).toMatch(
			new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d\\.\\d{3}Z-echo-${tap.child.pid}\\.mcpcap$`),
		);

		const live = await cli(['sessions', '--json']);
		expect(live.exitCode).toBe(0);
		const records = live.stdout.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
		expect(records[0]).toMatchObject({
			type: 'live',
			name: 'echo',
			pid: tap.child.pid,
			state: 'live',
			address: tap.socket,
			command: ['node', box.server('signals')],
		});
		expect(typeof records[0]!['serverPid']).toBe('number');
		expect(records[1]).toMatchObject({type: 'capture', path: capture, name: 'echo', pid: tap.child.pid, isLive: true});

		const plain = await cli(['sessions']);
		expect(plain.stdout).toMatch(/^live taps \(1\)/);
		expect(plain.stdout).toContain(`echo  ${tap.child.pid}`);

		tap.child.stdin.end();
		expect((await tap.child).exitCode).toBe(0);
		expect(readdirSync(box.runtimeDir)).toEqual([]);
		const after = await cli(['sessions']);
		expect(after.stdout.split('\n')[0]).toBe('no live taps');
		expect(after.stdout).toContain(path.basename(capture!));
	});

	it('removes the socket of a tap that died without cleaning up, and leaves a planted non-socket file alone', async () => {
		mkdirSync(box.runtimeDir, {mode: 0o700});
		// A real Unix socket left behind: its process was SIGKILLed while listening, so nothing unlinked it.
		const ghost = path.join(box.runtimeDir, 'ghost-2147483646.sock');
		await execa(
			'node',
			[
				'-e',
				`require('node:net').createServer().listen(${JSON.stringify(ghost)}, () => process.kill(process.pid, 'SIGKILL'))`,
			],
			{reject: false},
		);
		expect(readdirSync(box.runtimeDir)).toEqual(['ghost-2147483646.sock']);
		writeFileSync(path.join(box.runtimeDir, 'planted-2147483645.sock'), '');
		const result = await cli(['sessions', '--json']);
		expect(result.stdout).toBe('');
		expect(readdirSync(box.runtimeDir)).toEqual(['planted-2147483645.sock']);
	});

	it('attach follows a live tap from its first byte, then live, and ends with it', {timeout: 120_000}, async () => {
		const tap = await liveTap();
		tap.child.stdin.write(INIT);
		await new Promise((resolve) => setTimeout(resolve, 200));
		const attach = execa('node', [BIN, 'attach', 'echo', '--json'], {env: box.env, extendEnv: false, reject: false});
		let attachErr = '';
		attach.stderr?.on('data', (d: Buffer) => (attachErr += d.toString()));
		await waitFor(() => (attachErr.includes('attached to echo') ? true : undefined), HANG_MS, 'attach');
		tap.child.stdin.write(LIST);
		await new Promise((resolve) => setTimeout(resolve, 200));
		tap.child.stdin.end();
		await tap.child;
		const result = await attach;
		const followed = decodeRecords(result.stdout);
		expect(followed.problems).toEqual([]);
		const summary = followed.events.at(-1);
		expect(summary?.type).toBe('summary');
		expect(result.exitCode).toBe(
			summary?.type === 'summary' && (summary.summary.verdict === 'fail' || summary.summary.errors > 0) ? 1 : 0,
		);
		const [capture] = box.captures();
		const recorded = readCapture(capture!);
		const bytesOf = (events: typeof followed.events, stream: StreamName): string =>
			Buffer.concat(
				events.flatMap((e) => (e.type === 'chunk' && e.chunk.stream === stream ? [Buffer.from(e.chunk.bytes)] : [])),
			).toString();
		for (const stream of ['stdin', 'stdout', 'stderr'] as const)
			expect(bytesOf(followed.events, stream)).toBe(recorded.streams[stream].toString());
		expect(bytesOf(followed.events, 'stdin')).toBe(INIT + LIST);
		const frames = followed.events.flatMap((e) =>
			e.type === 'frame' ? [`${e.frame.stream} ${e.frame.kind} ${e.frame.method ?? ''}`] : [],
		);
		expect(frames).toEqual([
			'stderr text ',
			'stdin request initialize',
			'stdout request initialize',
			'stdin request tools/list',
			'stdout request tools/list',
			'stderr text ',
		]);
	});

	it('attach explains what is live when the target matches nothing', async () => {
		const none = await cli(['attach']);
		expect(none.exitCode).toBe(2);
		expect(none.stderr).toBe(
			'mcp-wire: attach: no live taps (start one with `mcp-wire tap -- <command>`; `mcp-wire sessions` lists them)',
		);
		const tap = await liveTap();
		const wrong = await cli(['attach', 'nope']);
		expect(wrong.exitCode).toBe(2);
		expect(wrong.stderr).toMatch(/^mcp-wire: attach: no live tap named "nope" \(live: echo \(pid \d+, server \d+\)\)$/);
		tap.child.stdin.end();
		await tap.child;
	});

	it('view replays a capture as a live probe presents it (plain, --hex, --json)', async () => {
		const tap = await liveTap();
		tap.child.stdin.write(INIT);
		tap.child.stdin.end();
		await tap.child;
		const [capture] = box.captures();
		const plain = await cli(['view', '--no-tui', '--color', 'never', capture!]);
		expect(plain.stderr).toBe('');
		const lines = plain.stdout.split('\n');
		expect(lines[0]).toMatch(/^mcp-wire \S+ \(tap\) · Node v\d+/);
		expect(lines).toContain(`command  node ${box.server('signals')}`);
		expect(lines.filter((l) => / ms {2}(C→S|S→C|ERR) /.test(l)).map((l) => l.replace(/^ *[\d.]+ ms {2}/, ''))).toEqual([
			'ERR     6 B  text         "ready"',
			`C→S   ${INIT.length} B  request      id=0 initialize`,
			`S→C   ${INIT.length} B  request      id=0 initialize`,
			'ERR    13 B  text         "stdin closed"',
		]);
		// The verdict is the Session's business; the exit code follows it and the errors (--fail-on error).
		const verdict = /^verdict (OK|WARN|FAIL): ([\d,]+) error/m.exec(plain.stdout);
		expect(verdict).not.toBeNull();
		expect(plain.exitCode).toBe(verdict![1] === 'FAIL' || verdict![2] !== '0' ? 1 : 0);

		const hex = await cli(['view', '--no-tui', '--hex', '--color', 'never', capture!]);
		expect(hex.stdout).toContain('  00000000: 7b22 6a73 6f6e 7270 6322 3a22 322e 3022  {"jsonrpc":"2.0"');

		const json = await cli(['view', '--json', capture!]);
		const decoded = decodeRecords(json.stdout);
		expect(decoded.problems).toEqual([]);
		expect(decoded.header).toMatchObject({mode: 'tap', name: 'echo'});
		expect(decoded.events.filter((e) => e.type === 'frame')).toHaveLength(4);
		// A --json dump replays too.
		const dump = path.join(box.dir, 'dump.ndjson');
		writeFileSync(dump, json.stdout);
		const again = await cli(['view', '--json', dump]);
		expect(decodeRecords(again.stdout).events.filter((e) => e.type === 'frame')).toEqual(
			decoded.events.filter((e) => e.type === 'frame'),
		);
	});

	it('view refuses a missing file, stdin (-) and a file that is not a capture (exit 2, one line)', async () => {
		const missing = await cli(['view', path.join(box.dir, 'nope.ndjson')]);
		expect(missing.exitCode).toBe(2);
		expect(missing.stderr).toBe(
			`mcp-wire: view: cannot open ${path.join(box.dir, 'nope.ndjson')}: no such file (ENOENT)`,
		);
		const stdin = await cli(['view', '-']);
		expect(stdin.exitCode).toBe(2);
		expect(stdin.stderr).toBe(
			'mcp-wire: view: reads a capture FILE, not stdin; save the capture to a file (or use `mcp-wire report -`)',
		);
		const other = path.join(box.dir, 'other.ndjson');
		writeFileSync(other, '{"hello":1}\n');
		const bad = await cli(['view', other]);
		expect(bad.exitCode).toBe(2);
		expect(bad.stderr.split('\n').at(-1)).toBe(
			`mcp-wire: view: ${other} is not an mcp-wire capture (no session header)`,
		);
	});

	it('prunes old captures by MCP_WIRE_MAX_CAPTURES', {timeout: 120_000}, async () => {
		for (let i = 0; i < 4; i++) {
			const result = await execa(
				'node',
				[BIN, 'tap', '--name', `run${i}`, '--', 'node', box.server('exit'), '0', 'now'],
				{
					env: {...box.env, MCP_WIRE_MAX_CAPTURES: '2'},
					extendEnv: false,
					reject: false,
				},
			);
			expect(result.exitCode).toBe(0);
		}

		expect(box.captures().map((f) => path.basename(f).replace(/^.*Z-(run\d)-\d+\.mcpcap$/, '$1'))).toEqual([
			'run2',
			'run3',
		]);
	});

	it('records nothing and serves no socket with --no-capture', async () => {
		const result = await execa('node', [BIN, 'tap', '--no-capture', '--', 'node', box.server('exit'), '5', 'now'], {
			env: box.env,
			extendEnv: false,
			reject: false,
		});
		expect(result.exitCode).toBe(5);
		expect(box.captures()).toEqual([]);
	});
});
