import {chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {findEnvDifference, orderCandidates, pathEntriesFor, showVariable} from '../../src/doctor/env-difference.js';
import {searchWaitMs} from '../../src/doctor/run.js';

const BASE = {HOME: '/home/u', PATH: '/usr/bin:/bin', USER: 'u'};

/** A `works` double: the server works when `needs` returns true for the env; records every env tried. */
function probeDouble(needs: (env: Record<string, string>) => boolean) {
	const tried: Record<string, string>[] = [];
	return {
		tried,
		works: async (env: Record<string, string>) => {
			tried.push(env);
			return needs(env);
		},
	};
}

/** The names each probe added to BASE (or changed), in probe order. */
const added = (tried: readonly Record<string, string>[]) =>
	tried.map((env) =>
		Object.keys(env)
			.filter((key) => env[key] !== (BASE as Record<string, string>)[key])
			.sort(),
	);

describe('findEnvDifference', () => {
	it('names PYTHONUNBUFFERED with one probe when it alone makes a silent server work', async () => {
		const full = {
			...BASE,
			PATH: '/home/u/.pyenv/shims:/usr/bin:/bin',
			PYTHONUNBUFFERED: '1',
			EDITOR: 'vim',
			LANG: 'C.UTF-8',
		};
		const double = probeDouble((env) => env['PYTHONUNBUFFERED'] === '1');
		const result = await findEnvDifference({
			baseEnv: BASE,
			fullEnv: full,
			code: 'unflushed-output',
			command: ['python3', 's.py'],
			cwd: '/',
			platform: 'linux',
			works: double.works,
		});
		expect(result).toEqual({
			variables: ['PYTHONUNBUFFERED'],
			minimal: true,
			probes: 1,
			candidates: ['PYTHONUNBUFFERED', 'PATH', 'LANG', 'EDITOR'],
		});
		expect(added(double.tried)).toEqual([['PYTHONUNBUFFERED']]);
	});

	it('halves the rest when no likely variable works alone, within the 6-probe budget', async () => {
		const full = {...BASE, PYTHONUNBUFFERED: '1', PATH: '/opt/x:/usr/bin:/bin', A: 'a', B: 'b', C: 'c', MY_TOKEN: 't'};
		const double = probeDouble((env) => env['MY_TOKEN'] === 't');
		const result = await findEnvDifference({
			baseEnv: BASE,
			fullEnv: full,
			code: 'no-response',
			command: ['srv'],
			cwd: '/',
			platform: 'linux',
			works: double.works,
		});
		expect(result).toEqual({
			variables: ['MY_TOKEN'],
			minimal: true,
			probes: 6,
			candidates: ['PYTHONUNBUFFERED', 'PATH', 'A', 'B', 'C', 'MY_TOKEN'],
		});
		expect(added(double.tried)).toEqual([
			['PYTHONUNBUFFERED'],
			['PATH'],
			['A', 'PATH', 'PYTHONUNBUFFERED'],
			['B', 'C', 'MY_TOKEN'],
			['B', 'C'],
			['MY_TOKEN'],
		]);
	});

	it('stops at a set whose halves are both needed, and calls it minimal', async () => {
		const full = {...BASE, A: 'a', B: 'b', C: 'c', D: 'd'};
		const double = probeDouble((env) => env['A'] === 'a' && env['D'] === 'd');
		const result = await findEnvDifference({
			baseEnv: BASE,
			fullEnv: full,
			code: 'early-exit',
			command: ['srv'],
			cwd: '/',
			platform: 'linux',
			works: double.works,
		});
		expect(result).toEqual({
			variables: ['A', 'B', 'C', 'D'],
			minimal: true,
			probes: 2,
			candidates: ['A', 'B', 'C', 'D'],
		});
	});

	it('reports the smallest working set seen, not minimal, when the budget runs out', async () => {
		const letters = 'ABCDEFGHIJKLMNOP'.split('');
		const full = {...BASE, ...Object.fromEntries(letters.map((l) => [l, l]))};
		const double = probeDouble((env) => env['P'] === 'P');
		const result = await findEnvDifference({
			baseEnv: BASE,
			fullEnv: full,
			code: 'early-exit',
			command: ['srv'],
			cwd: '/',
			platform: 'linux',
			works: double.works,
			maxProbes: 3,
		});
		// 16 → fails [A..H] (1), works [I..P] (2), fails [I..L] (3): budget spent at [I..P].
		expect(result).toEqual({
			variables: ['I', 'J', 'K', 'L', 'M', 'N', 'O', 'P'],
			minimal: false,
			probes: 3,
			candidates: letters,
		});
	});

	it('tries the variable the stderr names first: one probe, even among 40 candidates', async () => {
		const noise = {
			SHLVL: '2',
			_: '/usr/bin/env',
			OLDPWD: '/tmp',
			PWD: '/home/u',
			TERM: 'xterm',
			SSH_AUTH_SOCK: '/tmp/agent',
		};
		const others = Object.fromEntries(Array.from({length: 33}, (_, i) => [`V${String(i).padStart(2, '0')}`, 'x']));
		const full = {...BASE, ...noise, ...others, WEATHER_API_KEY: 'k'};
		const double = probeDouble((env) => env['WEATHER_API_KEY'] === 'k');
		const result = await findEnvDifference({
			baseEnv: BASE,
			fullEnv: full,
			code: 'early-exit',
			named: ['WEATHER_API_KEY'],
			command: ['srv'],
			cwd: '/',
			platform: 'linux',
			works: double.works,
		});
		expect(result?.candidates).toHaveLength(40);
		expect(result).toEqual({
			variables: ['WEATHER_API_KEY'],
			minimal: true,
			probes: 1,
			candidates: ['WEATHER_API_KEY', ...Object.keys(others), 'OLDPWD', 'PWD', 'SHLVL', 'SSH_AUTH_SOCK', 'TERM', '_'],
		});
		expect(added(double.tried)).toEqual([['WEATHER_API_KEY']]);
	});

	it('gives up (undefined) when the run is stopped by the overall deadline', async () => {
		const full = {...BASE, PYTHONUNBUFFERED: '1'};
		const result = await findEnvDifference({
			baseEnv: BASE,
			fullEnv: full,
			code: 'no-response',
			command: ['srv'],
			cwd: '/',
			platform: 'linux',
			works: async () => undefined,
		});
		expect(result).toBeUndefined();
	});

	it('returns undefined when nothing differs', async () => {
		const result = await findEnvDifference({
			baseEnv: BASE,
			fullEnv: {...BASE},
			code: 'early-exit',
			command: ['srv'],
			cwd: '/',
			platform: 'linux',
			works: async () => true,
		});
		expect(result).toBeUndefined();
	});
});

describe('PATH folders', () => {
	let dir: string;
	beforeEach(() => {
		dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-envdiff-')));
	});
	afterEach(() => rmSync(dir, {recursive: true, force: true}));

	function executable(file: string, text: string): void {
		mkdirSync(path.dirname(file), {recursive: true});
		writeFileSync(file, text);
		chmodSync(file, 0o755);
	}

	it('names the version-manager folder that holds the command, checked with one more probe', async () => {
		const local = path.join(dir, '.local', 'bin');
		executable(path.join(local, 'srv'), '#!/bin/sh\nexit 0\n');
		const full = {...BASE, PATH: `${path.join(dir, 'other')}:${local}:/usr/bin:/bin`, VIRTUAL_ENV: '/v'};
		const double = probeDouble((env) => (env['PATH'] ?? '').split(':').includes(local));
		const result = await findEnvDifference({
			baseEnv: BASE,
			fullEnv: full,
			code: 'spawn-failed',
			command: ['srv', '--stdio'],
			cwd: dir,
			platform: 'linux',
			works: double.works,
		});
		expect(result).toEqual({
			variables: ['PATH'],
			pathEntries: [local],
			minimal: true,
			probes: 2,
			candidates: ['PATH', 'VIRTUAL_ENV'],
		});
		expect(double.tried[1]!['PATH']).toBe(`/usr/bin:/bin:${local}`);
	});

	it('names the folder of a `#!/usr/bin/env` interpreter that only the shell PATH has', () => {
		const nvm = path.join(dir, '.nvm', 'versions', 'node', 'v22.1.0', 'bin');
		const tools = path.join(dir, 'tools');
		executable(path.join(nvm, 'mynode'), '#!/bin/sh\n');
		executable(path.join(tools, 'tool'), '#!/usr/bin/env mynode\nconsole.log(1)\n');
		const fullPath = `${tools}:${nvm}:/usr/bin:/bin`;
		expect(pathEntriesFor('tool', '/usr/bin:/bin', fullPath, dir, 'linux')).toEqual([tools, nvm]);
		expect(pathEntriesFor(path.join(tools, 'tool'), '/usr/bin:/bin', fullPath, dir, 'linux')).toEqual([nvm]);
		expect(pathEntriesFor('tool', `/usr/bin:/bin:${tools}`, fullPath, dir, 'linux')).toEqual([nvm]);
	});
});

describe('helpers', () => {
	it('orders the likely variables for the failure first, the rest by name', () => {
		expect(orderCandidates(['Z', 'PATH', 'A', 'PYTHONUNBUFFERED', 'VIRTUAL_ENV'], 'unflushed-output')).toEqual([
			'PYTHONUNBUFFERED',
			'PATH',
			'VIRTUAL_ENV',
			'A',
			'Z',
		]);
		expect(orderCandidates(['Z', 'PATH', 'A', 'PYTHONUNBUFFERED', 'VIRTUAL_ENV'], 'early-exit')).toEqual([
			'PATH',
			'VIRTUAL_ENV',
			'PYTHONUNBUFFERED',
			'A',
			'Z',
		]);
		expect(orderCandidates(['Z', 'PATH', 'A'], 'spawn-failed')).toEqual(['PATH', 'A', 'Z']);
	});

	it('ranks the names from stderr first and shell noise last', () => {
		expect(
			orderCandidates(['SHLVL', '_', 'OLDPWD', 'SSH_AUTH_SOCK', 'TERM', 'PWD', 'API_KEY', 'PATH', 'A'], 'early-exit', [
				'API_KEY',
				'NOT_THERE',
			]),
		).toEqual(['API_KEY', 'PATH', 'A', 'OLDPWD', 'PWD', 'SHLVL', 'SSH_AUTH_SOCK', 'TERM', '_']);
	});

	it('shows values only of harmless variables', () => {
		const env = {PYTHONUNBUFFERED: '1', GITHUB_TOKEN: 'ghp_secret', VIRTUAL_ENV: '/home/u/.venv'};
		expect(showVariable('PYTHONUNBUFFERED', env)).toBe('PYTHONUNBUFFERED=1');
		expect(showVariable('VIRTUAL_ENV', env)).toBe('VIRTUAL_ENV=/home/u/.venv');
		expect(showVariable('GITHUB_TOKEN', env)).toBe('GITHUB_TOKEN');
	});
});

describe('the variables that matter behind a corporate network go first', () => {
	it('a stalled or exiting server: NODE_EXTRA_CA_CERTS and HTTPS_PROXY before PYTHONUNBUFFERED and PATH', () => {
		const candidates = ['PATH', 'PYTHONUNBUFFERED', 'HTTPS_PROXY', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'ZED'];
		expect(orderCandidates(candidates, 'no-response')).toEqual([
			'NODE_EXTRA_CA_CERTS',
			'SSL_CERT_FILE',
			'HTTPS_PROXY',
			'PYTHONUNBUFFERED',
			'PATH',
			'ZED',
		]);
		expect(orderCandidates(candidates, 'early-exit').slice(0, 4)).toEqual([
			'NODE_EXTRA_CA_CERTS',
			'SSL_CERT_FILE',
			'HTTPS_PROXY',
			'PATH',
		]);
	});

	it('a command not found: PATH alone first', () => {
		expect(orderCandidates(['NODE_EXTRA_CA_CERTS', 'PATH'], 'spawn-failed')).toEqual(['PATH', 'NODE_EXTRA_CA_CERTS']);
	});

	it('a stall found with one probe, where the old order spent three failing ones first', async () => {
		const tried: string[][] = [];
		const found = await findEnvDifference({
			baseEnv: {PATH: '/usr/bin'},
			fullEnv: {
				PATH: '/usr/bin:/opt/node/bin',
				PYTHONUNBUFFERED: '1',
				VIRTUAL_ENV: '/v',
				NODE_EXTRA_CA_CERTS: '/ca.pem',
			},
			code: 'no-response',
			command: ['npx', '-y', 'corp-mcp'],
			cwd: '/',
			platform: 'linux',
			works: async (env) => {
				tried.push(Object.keys(env).filter((key) => key !== 'PATH' || env[key] !== '/usr/bin'));
				return env['NODE_EXTRA_CA_CERTS'] !== undefined;
			},
		});
		expect(found).toMatchObject({variables: ['NODE_EXTRA_CA_CERTS'], minimal: true, probes: 1});
		expect(tried).toEqual([['NODE_EXTRA_CA_CERTS']]);
	});
});

describe('searchWaitMs: a failing candidate costs a short wait, not the 30 s start-up wait', () => {
	it('3× the start-up seen under the shell, at least 5 s, at most --timeout', () => {
		expect(searchWaitMs(400, undefined)).toBe(5000);
		expect(searchWaitMs(2500, undefined)).toBe(7500);
		expect(searchWaitMs(2500, 6000)).toBe(6000);
		expect(searchWaitMs(undefined, undefined)).toBeUndefined();
		expect(searchWaitMs(undefined, 8000)).toBe(8000);
	});
});
