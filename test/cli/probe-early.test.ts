import {afterEach, describe, expect, it} from 'vitest';
import {
	discardEarlyProbe,
	earlyProbeExchanged,
	earlySpawnRequest,
	noteProbeExchanged,
	startEarlyProbe,
	takeEarlyProbe,
} from '../../src/cli/probe-early.js';
import {DEFAULT_PROTOCOL_VERSION} from '../../src/probe/probe-start.js';
import {buildEnv} from '../../src/process/spawn.js';
import {VERSION} from '../../src/cli/version.js';

const parentEnv = {PATH: '/usr/bin:/bin', HOME: '/home/u', SECRET: 'x', TERM: 'dumb'};
const io = {stdinIsTTY: false, stdoutIsTTY: false, env: parentEnv, platform: 'linux' as NodeJS.Platform};
const argv = (...words: string[]): string[] => ['/usr/bin/node', '/x/bin/mcp-wire.js', ...words];

describe('earlySpawnRequest: the command lines the CLI starts a probe server for before commander loads', () => {
	it('probe, plain flags, --, a command: the command and the SDK allow-list environment', () => {
		expect(earlySpawnRequest(argv('probe', '--json', '--', 'node', 'server.js', '--port', '1'), io)).toEqual({
			command: ['node', 'server.js', '--port', '1'],
			env: {PATH: '/usr/bin:/bin', HOME: '/home/u', TERM: 'dumb'},
			inheritEnv: false,
			protocolVersion: DEFAULT_PROTOCOL_VERSION,
		});
		expect(earlySpawnRequest(argv('probe', '--', 'python3', 's.py'), io)?.command).toEqual(['python3', 's.py']);
		// The environment is the one the probe command builds for the same flags.
		expect(earlySpawnRequest(argv('probe', '--hex', '--verbose', '--no-redact', '--', 'x'), io)?.env).toEqual(
			buildEnv({inheritEnv: false, env: [], parentEnv, platform: 'linux'}).env,
		);
		expect(earlySpawnRequest(argv('probe', '--inherit-env', '--report', '--', 'x'), io)).toEqual({
			command: ['x'],
			env: parentEnv,
			inheritEnv: true,
			protocolVersion: DEFAULT_PROTOCOL_VERSION,
		});
	});

	it('value options whose values the probe command takes: the ones that change neither spawn nor initialize are read past; --env and --protocol-version go into the request', () => {
		const plain = {
			command: ['node', 's.js'],
			env: {PATH: '/usr/bin:/bin', HOME: '/home/u', TERM: 'dumb'},
			inheritEnv: false,
			protocolVersion: DEFAULT_PROTOCOL_VERSION,
		};
		expect(
			earlySpawnRequest(
				argv(
					'probe',
					'--json',
					'--timeout',
					'5000',
					'--fail-on',
					'warning',
					'--color',
					'never',
					'--max-lines',
					'40',
					'--ignore',
					'stray-output,crlf',
					'--ignore',
					'bom',
					'--',
					'node',
					's.js',
				),
				io,
			),
		).toEqual(plain);
		expect(
			earlySpawnRequest(
				argv('probe', '--timeout=5000', '--fail-on=error', '--color=always', '--json', '--', 'node', 's.js'),
				io,
			),
		).toEqual(plain);
		expect(
			earlySpawnRequest(argv('probe', '--json', '--env', 'A=1', '--env=SECRET', '--', 'node', 's.js'), io),
		).toEqual({...plain, env: buildEnv({inheritEnv: false, env: ['A=1', 'SECRET'], parentEnv, platform: 'linux'}).env});
		expect(earlySpawnRequest(argv('probe', '--json', '--env', 'A=1', '--', 'node', 's.js'), io)?.env).toEqual({
			...plain.env,
			A: '1',
		});
		// commander keeps the last of a repeated option.
		expect(
			earlySpawnRequest(
				argv(
					'probe',
					'--json',
					'--protocol-version',
					'2024-11-05',
					'--protocol-version=2025-06-18',
					'--',
					'node',
					's.js',
				),
				io,
			),
		).toEqual({...plain, protocolVersion: '2025-06-18'});
	});

	it('a value the probe command would reject (a usage error) or cannot be sure of: no early start, commander says what is wrong', () => {
		for (const words of [
			['--timeout', 'abc'],
			['--timeout', '0'],
			['--timeout', '1e3'],
			['--timeout', String(2 ** 31)],
			['--timeout'],
			['--timeout='],
			['--max-lines', '-1'],
			['--fail-on', 'info'],
			['--color', 'maybe'],
			['--ignore', 'no-such-code'],
			['--ignore', 'stray-output,typo'],
			['--env', '=x'],
			['--env', '-x'],
			['--protocol-version='],
			['--json=1'],
		]) {
			expect(earlySpawnRequest(argv('probe', '--json', ...words, '--', 'node'), io), words.join(' ')).toBeUndefined();
		}
	});

	it('anything else is left to commander: other commands, value options, unknown or short flags, no --, no command', () => {
		for (const words of [
			['tap', '--', 'node', 's.js'],
			['probe', '--cwd', '/tmp', '--', 'node'],
			['probe', '--cwd=/tmp', '--', 'node'],
			['probe', '--jsn', '--', 'node'],
			['probe', '-h', '--', 'node'],
			['probe', '--help', '--', 'node'],
			['probe', '--json', 'node', 's.js'],
			['probe', '--json', '--'],
			['probe', '--json', '--', ''],
			['--json', 'probe', '--', 'node'],
		]) {
			expect(earlySpawnRequest(argv(...words), io), words.join(' ')).toBeUndefined();
		}
	});

	it('not for a run that will be a usage error (--json with --report), the TUI, or Windows', () => {
		expect(earlySpawnRequest(argv('probe', '--json', '--report', '--', 'node'), io)).toBeUndefined();
		const terminal = {...io, stdinIsTTY: true, stdoutIsTTY: true};
		expect(earlySpawnRequest(argv('probe', '--', 'node'), terminal)).toBeUndefined();
		expect(earlySpawnRequest(argv('probe', '--verbose', '--', 'node'), terminal)).toBeUndefined();
		// An output asked for, or --no-tui: no TUI, so the server starts early on a terminal too.
		for (const flag of ['--json', '--report', '--hex', '--no-tui'])
			expect(earlySpawnRequest(argv('probe', flag, '--', 'node'), terminal)?.command).toEqual(['node']);
		expect(earlySpawnRequest(argv('probe', '--json', '--', 'node'), {...io, stdinIsTTY: true})?.command).toEqual([
			'node',
		]);
		expect(earlySpawnRequest(argv('probe', '--json', '--', 'node'), {...io, platform: 'win32'})).toBeUndefined();
	});
});

describe('the early server is handed over only for exactly the spawn the probe command wants', () => {
	afterEach(() => discardEarlyProbe());
	const sleeper = ['node', '-e', 'setInterval(() => {}, 1000)'];
	const initialize = {protocolVersion: DEFAULT_PROTOCOL_VERSION, clientVersion: VERSION};
	const wanted = (env: Record<string, string>) => ({command: sleeper, env, initialize});

	it('the same command and environment: the started server, once; it got initialize at the spawn', async () => {
		const server = startEarlyProbe(argv('probe', '--json', '--', ...sleeper));
		expect(server?.server.pid).toBeGreaterThan(0);
		expect(startEarlyProbe(argv('probe', '--json', '--', ...sleeper))).toBeUndefined();
		const env = buildEnv({inheritEnv: false, env: [], parentEnv: process.env, platform: process.platform}).env;
		// Started, not yet taken: bin/mcp-wire.js would not store the code cache after this run.
		expect(earlyProbeExchanged()).toBe(false);
		expect(takeEarlyProbe(wanted(env))).toBe(server);
		// Taken, but no answer to initialize yet: still no code cache stored after such a run.
		expect(earlyProbeExchanged()).toBe(false);
		noteProbeExchanged();
		expect(earlyProbeExchanged()).toBe(true);
		expect(takeEarlyProbe(wanted(env))).toBeUndefined();
		expect(new TextDecoder().decode(server!.initialize!.bytes)).toBe(
			`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"${DEFAULT_PROTOCOL_VERSION}","capabilities":{},"clientInfo":{"name":"mcp-wire","version":"${VERSION}"}}}\n`,
		);
		server!.server.kill('SIGKILL');
		expect((await server!.server.exited)?.signal).toBe('SIGKILL');
	});

	it('anything different (env, cwd, protocol version, command): not handed over, and the early server is killed', async () => {
		const env = buildEnv({inheritEnv: false, env: [], parentEnv: process.env, platform: process.platform}).env;
		for (const other of [
			{...wanted({...env, EXTRA: '1'})},
			{...wanted(env), cwd: '/'},
			{...wanted(env), initialize: {...initialize, protocolVersion: '2024-11-05'}},
			{...wanted(env), command: [...sleeper, 'x']},
		]) {
			const server = startEarlyProbe(argv('probe', '--json', '--', ...sleeper));
			expect(takeEarlyProbe(other)).toBeUndefined();
			expect((await server!.server.exited)?.signal).toBe('SIGKILL');
		}
	});

	it('--protocol-version: initialize at the spawn offers it, and the server is handed over only to a probe that offers the same', async () => {
		const env = buildEnv({inheritEnv: false, env: [], parentEnv: process.env, platform: process.platform}).env;
		const server = startEarlyProbe(argv('probe', '--json', '--protocol-version', '2024-11-05', '--', ...sleeper));
		expect(new TextDecoder().decode(server!.initialize!.bytes)).toContain('"protocolVersion":"2024-11-05"');
		expect(takeEarlyProbe({...wanted(env), initialize: {...initialize, protocolVersion: '2024-11-05'}})).toBe(server);
		server!.server.kill('SIGKILL');
		await server!.server.exited;
		const other = startEarlyProbe(argv('probe', '--json', '--protocol-version', '2024-11-05', '--', ...sleeper));
		expect(takeEarlyProbe(wanted(env))).toBeUndefined();
		expect((await other!.server.exited)?.signal).toBe('SIGKILL');
	});

	it('discardEarlyProbe ends a server nobody took (a command line that turned out to be --help or a usage error)', async () => {
		const server = startEarlyProbe(argv('probe', '--hex', '--', ...sleeper));
		discardEarlyProbe();
		expect((await server!.server.exited)?.signal).toBe('SIGKILL');
		discardEarlyProbe();
	});
});
