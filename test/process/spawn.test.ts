import {chmodSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {createClock} from '../../src/process/clock.js';
import {
	EnvOptionError,
	SDK_DEFAULT_ENV_KEYS,
	buildEnv,
	spawnServer,
	type SpawnEvent,
	type SpawnedServer,
} from '../../src/process/spawn.js';
import {testEnv, writeServers} from '../helpers/servers.js';

const servers = writeServers();
afterAll(() => servers.cleanup());

const PARENT: NodeJS.ProcessEnv = {
	HOME: '/home/ada',
	LOGNAME: 'ada',
	PATH: '/usr/bin:/bin',
	SHELL: '/bin/zsh',
	TERM: 'xterm-256color',
	USER: 'ada',
	PYTHONUNBUFFERED: '1',
	NODE_OPTIONS: '--inspect',
	SECRET_TOKEN: 's3cr3t',
};

describe('buildEnv', () => {
	it('passes only the MCP SDK allow-list by default (C3)', () => {
		const built = buildEnv({inheritEnv: false, env: [], parentEnv: PARENT, platform: 'linux'});
		expect(built).toEqual({
			env: {
				HOME: '/home/ada',
				LOGNAME: 'ada',
				PATH: '/usr/bin:/bin',
				SHELL: '/bin/zsh',
				TERM: 'xterm-256color',
				USER: 'ada',
			},
			mode: 'sdk-default',
			keys: [],
			missing: [],
		});
	});

	it('skips exported shell functions (values starting with "()") like the SDK', () => {
		const built = buildEnv({
			inheritEnv: false,
			env: [],
			parentEnv: {PATH: '/bin', SHELL: '() { :; }'},
			platform: 'darwin',
		});
		expect(built.env).toEqual({PATH: '/bin'});
	});

	it('adds --env KEY=VALUE and --env KEY (copied from the parent); later entries win; unknown KEY is reported missing', () => {
		const built = buildEnv({
			inheritEnv: false,
			env: ['PYTHONUNBUFFERED', 'API_URL=http://x/?a=b', 'TERM=dumb', 'NOPE', 'API_URL=second', 'EMPTY='],
			parentEnv: PARENT,
			platform: 'linux',
		});
		expect(built.env).toEqual({
			HOME: '/home/ada',
			LOGNAME: 'ada',
			PATH: '/usr/bin:/bin',
			SHELL: '/bin/zsh',
			TERM: 'dumb',
			USER: 'ada',
			PYTHONUNBUFFERED: '1',
			API_URL: 'second',
			EMPTY: '',
		});
		expect(built.keys).toEqual(['PYTHONUNBUFFERED', 'API_URL', 'TERM', 'NOPE', 'EMPTY']);
		expect(built.missing).toEqual(['NOPE']);
		expect(built.mode).toBe('sdk-default');
	});

	it('passes everything with --inherit-env, plus --env', () => {
		const built = buildEnv({inheritEnv: true, env: ['EXTRA=1'], parentEnv: PARENT, platform: 'linux'});
		expect(built.env).toEqual({...PARENT, EXTRA: '1'});
		expect(built.mode).toBe('inherit');
		expect(built.keys).toEqual(['EXTRA']);
	});

	it('uses the win32 allow-list with case-insensitive names on Windows', () => {
		const built = buildEnv({
			inheritEnv: false,
			env: ['path=C:\\override'],
			parentEnv: {
				Path: 'C:\\Windows',
				SystemRoot: 'C:\\Windows',
				APPDATA: 'C:\\Users\\a\\AppData\\Roaming',
				HOME: '/ignored',
				Foo: 'bar',
			},
			platform: 'win32',
		});
		expect(built.env).toEqual({
			APPDATA: 'C:\\Users\\a\\AppData\\Roaming',
			path: 'C:\\override',
			SYSTEMROOT: 'C:\\Windows',
		});
		expect(SDK_DEFAULT_ENV_KEYS.win32).toHaveLength(12);
	});

	it('rejects an --env entry with an empty name', () => {
		expect(() => buildEnv({inheritEnv: false, env: ['=x'], parentEnv: PARENT, platform: 'linux'})).toThrow(
			EnvOptionError,
		);
		expect(() => buildEnv({inheritEnv: false, env: [''], parentEnv: PARENT, platform: 'linux'})).toThrow(
			'--env "": expected KEY=VALUE or KEY',
		);
	});
});

/** Collect a server's events until it exited and both output streams ended. */
function collect(server: SpawnedServer, onEvent?: (events: readonly SpawnEvent[]) => void): Promise<SpawnEvent[]> {
	return new Promise((resolve) => {
		const events: SpawnEvent[] = [];
		let exited = false;
		const check = (): void => {
			if ((exited && server.ended.stdout && server.ended.stderr) || events.some((e) => e.type === 'spawn-error'))
				resolve(events);
		};
		server.listen((event) => {
			events.push(event);
			onEvent?.(events);
			if (event.type === 'exit') exited = true;
			check();
		});
	});
}

const concat = (events: readonly SpawnEvent[], stream: 'stdout' | 'stderr'): string =>
	Buffer.concat(
		events.flatMap((e) => (e.type === 'data' && e.stream === stream ? [Buffer.from(e.bytes)] : [])),
	).toString('utf8');

describe('spawnServer', () => {
	it('delivers raw stdout/stderr Buffers, EOFs and the exit, stamped with a monotonic clock', async () => {
		const clock = createClock();
		const server = spawnServer(['node', servers.path('healthy')], {env: testEnv(), clock});
		expect(server.pid).toBeTypeOf('number');
		expect(await server.started).toEqual({ok: true, pid: server.pid});
		const done = collect(server);
		expect(server.write(Buffer.from('{"jsonrpc":"2.0","id":0,"method":"ping"}\n'))).toBe(true);
		await new Promise((r) => setTimeout(r, 200));
		expect(server.closeStdin()).toBe(true);
		expect(server.closeStdin()).toBe(false);
		const events = await done;
		expect(concat(events, 'stdout')).toBe('{"jsonrpc":"2.0","id":0,"result":{}}\n');
		expect(concat(events, 'stderr')).toBe('');
		for (const e of events) if (e.type === 'data') expect(Buffer.isBuffer(e.bytes)).toBe(true);
		const exit = events.find((e) => e.type === 'exit');
		expect(exit?.type === 'exit' && {code: exit.exit.code, signal: exit.exit.signal}).toEqual({code: 0, signal: null});
		expect(
			events
				.filter((e) => e.type === 'end')
				.map((e) => e.type === 'end' && e.stream)
				.sort(),
		).toEqual(['stderr', 'stdout']);
		const times = events.map((e) => (e.type === 'exit' ? e.exit.tMs : e.tMs));
		expect([...times].sort((a, b) => a - b)).toEqual(times);
		expect(times[0]).toBeGreaterThan(0);
		expect(server.write(Buffer.from('late\n'))).toBe(false);
		expect(await server.exited).toEqual(server.exitInfo);
	});

	it('gives the child exactly the env it was handed (no extendEnv)', async () => {
		const server = spawnServer(['node', servers.path('envPrinter')], {
			env: {PATH: process.env['PATH'] ?? '', ONLY_ME: 'x'},
			clock: createClock(),
		});
		const done = collect(server);
		server.closeStdin();
		const events = await done;
		expect(JSON.parse(concat(events, 'stderr').split('\n')[0]!)).toEqual(['ONLY_ME', 'PATH']);
	});

	it('always drains stderr: 300 KiB of stderr before the reply does not deadlock (O6)', async () => {
		const server = spawnServer(['node', servers.path('chattyStderr')], {env: testEnv(), clock: createClock()});
		const done = collect(server);
		server.write(Buffer.from('{"jsonrpc":"2.0","id":7,"method":"ping"}\n'));
		setTimeout(() => server.closeStdin(), 300);
		const events = await done;
		expect(concat(events, 'stderr').length).toBe(300 * 1024);
		expect(concat(events, 'stdout')).toBe('{"jsonrpc":"2.0","id":7,"result":{}}\n');
	});

	it('runs arguments without a shell: metacharacters reach the program verbatim', async () => {
		const server = spawnServer(
			['node', '-e', 'process.stdout.write(JSON.stringify(process.argv.slice(1)))', '$HOME', '; echo hi', '`id`'],
			{
				env: testEnv(),
				clock: createClock(),
			},
		);
		const events = await collect(server);
		expect(JSON.parse(concat(events, 'stdout'))).toEqual(['$HOME', '; echo hi', '`id`']);
	});

	it('runs in the given cwd', async () => {
		const server = spawnServer(['node', '-e', 'process.stdout.write(process.cwd())'], {
			env: testEnv(),
			cwd: servers.dir,
			clock: createClock(),
		});
		const events = await collect(server);
		expect(concat(events, 'stdout')).toBe(servers.dir);
	});

	it.each([
		[
			['mcp-wire-no-such-command-xyz'],
			undefined,
			{code: 'ENOENT', message: 'cannot start "mcp-wire-no-such-command-xyz": command not found (ENOENT)'},
		],
		[[], undefined, {code: 'EINVAL', message: 'cannot start: the command is empty (EINVAL)'}],
	] as const)('reports %j as a clean spawn error', async (command, cwd, expected) => {
		const server = spawnServer(command, {env: testEnv(), ...(cwd ? {cwd} : {}), clock: createClock()});
		expect(server.pid).toBeUndefined();
		const outcome = await server.started;
		expect(outcome.ok).toBe(false);
		if (outcome.ok) return;
		expect({code: outcome.error.code, message: outcome.error.message}).toEqual(expected);
		const events = await collect(server);
		expect(events.map((e) => e.type)).toEqual(['spawn-error']);
		expect(await server.exited).toBeUndefined();
		expect(server.write(Buffer.from('x'))).toBe(false);
		expect(server.kill('SIGKILL')).toBe(false);
	});

	it('reports a file that is not executable as EACCES', async () => {
		const file = path.join(servers.dir, 'not-executable.sh');
		writeFileSync(file, '#!/bin/sh\necho hi\n');
		chmodSync(file, 0o644);
		const outcome = await spawnServer([file], {env: testEnv(), clock: createClock()}).started;
		expect(outcome).toEqual({
			ok: false,
			error: {
				code: 'EACCES',
				file,
				reason: 'permission denied (not executable?) (EACCES)',
				message: `cannot start ${JSON.stringify(file)}: permission denied (not executable?) (EACCES)`,
			},
		});
	});

	it('says a directory given as the command is a directory (absolute, or relative to the cwd), not "chmod +x"', async () => {
		const absolute = await spawnServer([servers.dir, '--stdio'], {env: testEnv(), clock: createClock()}).started;
		const reason = 'is a directory, not a program (EISDIR)';
		expect(absolute).toEqual({
			ok: false,
			error: {
				code: 'EISDIR',
				file: servers.dir,
				reason,
				message: `cannot start ${JSON.stringify(servers.dir)}: ${reason}`,
			},
		});
		const relative = await spawnServer(['./' + path.basename(servers.dir)], {
			env: testEnv(),
			cwd: path.dirname(servers.dir),
			clock: createClock(),
		}).started;
		expect(relative.ok === false && relative.error.code).toBe('EISDIR');
	});

	it('blames a bad cwd, not the command', async () => {
		const missing = path.join(servers.dir, 'no-such-dir');
		const a = await spawnServer(['node', '-v'], {env: testEnv(), cwd: missing, clock: createClock()}).started;
		expect(a).toEqual({
			ok: false,
			error: {
				code: 'ENOENT',
				file: 'node',
				cwd: missing,
				reason: `working directory ${JSON.stringify(missing)} does not exist (ENOENT)`,
				message: `cannot start "node": working directory ${JSON.stringify(missing)} does not exist (ENOENT)`,
			},
		});
		const file = servers.path('healthy');
		const b = await spawnServer(['node', '-v'], {env: testEnv(), cwd: file, clock: createClock()}).started;
		expect(b).toEqual({
			ok: false,
			error: {
				code: 'ENOTDIR',
				file: 'node',
				cwd: file,
				reason: `working directory ${JSON.stringify(file)} is not a directory (ENOTDIR)`,
				message: `cannot start "node": working directory ${JSON.stringify(file)} is not a directory (ENOTDIR)`,
			},
		});
	});

	it('kills with the signal asked for, and reports it in the exit', async () => {
		const server = spawnServer(['node', servers.path('stubborn')], {env: testEnv(), clock: createClock()});
		// Signal only once the server answered (its SIGTERM handler is installed by then) and once it said it
		// ignored SIGTERM: fixed sleeps lose that race on a loaded machine, where node takes seconds to start.
		let answered!: () => void;
		let ignored!: () => void;
		const hasAnswered = new Promise<void>((resolve) => (answered = resolve));
		const hasIgnored = new Promise<void>((resolve) => (ignored = resolve));
		const done = collect(server, (events) => {
			if (concat(events, 'stdout').includes('\n')) answered();
			if (concat(events, 'stderr').includes('SIGTERM ignored\n')) ignored();
		});
		server.write(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n'));
		await hasAnswered;
		expect(server.kill('SIGTERM')).toBe(true);
		await hasIgnored;
		expect(server.exitInfo).toBeUndefined();
		expect(server.kill('SIGKILL')).toBe(true);
		const events = await done;
		expect(concat(events, 'stderr')).toBe('SIGTERM ignored\n');
		expect(server.exitInfo && {code: server.exitInfo.code, signal: server.exitInfo.signal}).toEqual({
			code: null,
			signal: 'SIGKILL',
		});
		expect(server.kill('SIGKILL')).toBe(false);
	});
});
