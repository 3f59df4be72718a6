import {
	chmodSync,
	closeSync,
	linkSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	realpathSync,
	rmSync,
	statSync,
	symlinkSync,
	utimesSync,
	writeFileSync,
} from 'node:fs';
import {execFileSync} from 'node:child_process';
import os, {tmpdir} from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {execa} from 'execa';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {
	BINARY_CAPTURE_EXT,
	captureFileName,
	NDJSON_CAPTURE_EXT,
	type CaptureExt,
	captureHomeProblem,
	capturesDir,
	checkPrivateDir,
	openCaptureFile,
	UnsafeDirectoryError,
	defaultName,
	ensurePrivateDir,
	listCaptures,
	parseCaptureFileName,
	parseSocketName,
	pruneCaptures,
	pruneLimitsFromEnv,
	runtimeDir,
	sanitizeName,
	socketPath,
	type PlatformFacts,
} from '../../src/captures/capture-store.js';

const facts = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv = {}): PlatformFacts => ({
	env,
	platform,
	homedir: platform === 'win32' ? 'C:\\Users\\ada' : '/home/ada',
	tmpdir: platform === 'win32' ? 'C:\\Temp' : '/tmp',
	uid: platform === 'win32' ? undefined : 1000,
	user: 'ada',
});

describe('capture and runtime directories', () => {
	it.each([
		['linux', {}, '/home/ada/.local/state/mcp-wire/captures'],
		['linux', {XDG_STATE_HOME: '/xdg/state'}, '/xdg/state/mcp-wire/captures'],
		['linux', {XDG_STATE_HOME: 'relative/state'}, '/home/ada/.local/state/mcp-wire/captures'],
		['darwin', {}, '/home/ada/Library/Logs/mcp-wire/captures'],
		['darwin', {XDG_STATE_HOME: '/xdg/state'}, '/xdg/state/mcp-wire/captures'],
		['freebsd', {}, '/home/ada/.local/state/mcp-wire/captures'],
		['win32', {LOCALAPPDATA: 'D:\\Local'}, 'D:\\Local\\mcp-wire\\captures'],
		['win32', {}, 'C:\\Users\\ada\\AppData\\Local\\mcp-wire\\captures'],
	] as const)('captures on %s with %o → %s', (platform, env, expected) => {
		expect(capturesDir(facts(platform, env))).toBe(expected);
	});

	it.each([
		['linux', {XDG_RUNTIME_DIR: '/run/user/1000'}, '/run/user/1000/mcp-wire'],
		['linux', {}, '/tmp/mcp-wire-1000'],
		['darwin', {XDG_RUNTIME_DIR: ''}, '/tmp/mcp-wire-1000'],
		['win32', {}, '\\\\.\\pipe\\mcp-wire-ada-'],
	] as const)('runtime on %s with %o → %s', (platform, env, expected) => {
		expect(runtimeDir(facts(platform, env))).toBe(expected);
	});

	it.each([
		['linux', {HOME: '/home/ada'}, undefined],
		['linux', {}, '$HOME is not set'],
		['linux', {HOME: ''}, '$HOME is empty'],
		['darwin', {HOME: 'ada'}, '$HOME (ada) is not an absolute path'],
		['linux', {XDG_STATE_HOME: '/xdg/state'}, undefined],
		['linux', {XDG_STATE_HOME: 'relative/state'}, '$HOME is not set'],
		['win32', {}, undefined],
	] as const)('the default capture directory on %s with %o: problem %s', (platform, env, expected) => {
		expect(captureHomeProblem(facts(platform, env))).toBe(expected);
	});

	it('puts sockets in the runtime directory and pipes under \\\\.\\pipe', () => {
		expect(socketPath('fs', 42, facts('linux', {XDG_RUNTIME_DIR: '/run/user/1000'}))).toBe(
			'/run/user/1000/mcp-wire/fs-42.sock',
		);
		expect(socketPath('fs', 42, facts('win32'))).toBe('\\\\.\\pipe\\mcp-wire-ada-fs-42');
		expect(parseSocketName('server-everything-4242.sock')).toEqual({name: 'server-everything', pid: 4242});
		expect(parseSocketName('fs-42')).toEqual({name: 'fs', pid: 42});
		expect(parseSocketName('nopid.sock')).toBeUndefined();
	});
});

describe('names', () => {
	it('names captures <ISO time>-<name>-<pid><ext> without colons, by format, and parses both back', () => {
		const date = new Date('2026-05-01T12:30:45.123Z');
		const name = captureFileName(date, 'server everything', 4242, BINARY_CAPTURE_EXT);
		expect(name).toBe('2026-05-01T12-30-45.123Z-server-everything-4242.mcpcap');
		expect(parseCaptureFileName(name)).toEqual({startedAt: date, name: 'server-everything', pid: 4242});
		const records = captureFileName(date, 'claude-code-fs', 7, NDJSON_CAPTURE_EXT);
		expect(records).toBe('2026-05-01T12-30-45.123Z-claude-code-fs-7.ndjson');
		expect(parseCaptureFileName(records)).toEqual({startedAt: date, name: 'claude-code-fs', pid: 7});
		expect(parseCaptureFileName('2026-05-01T12-30-45.123Z-server-4242.json')).toBeUndefined();
		expect(parseCaptureFileName('notes.ndjson')).toBeUndefined();
		expect(parseCaptureFileName('2026-05-01T12-30-45.123Z-x.ndjson')).toBeUndefined();
	});

	it('sanitizes names for file names and socket paths', () => {
		expect(sanitizeName('my server/v2:beta')).toBe('my-server-v2-beta');
		expect(sanitizeName('../..')).toBe('server');
		expect(sanitizeName('')).toBe('server');
		expect(sanitizeName('x'.repeat(60))).toBe('x'.repeat(40));
	});

	it.each([
		[['npx', '-y', '@modelcontextprotocol/server-everything'], 'server-everything'],
		[['npx', '-y', '@modelcontextprotocol/server-filesystem@2026.1.0', '/home'], 'server-filesystem'],
		[['node', 'node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio'], 'server-everything'],
		[['node', 'build/index.js'], 'build'],
		[['python3.12', '-u', 'weather.py'], 'weather'],
		[['uvx', 'mcp-server-git'], 'mcp-server-git'],
		[['/usr/local/bin/my-server', '--port', '1'], 'my-server'],
		[['docker', 'run', '-i', '--rm', 'mcp/fetch'], 'fetch'],
		[['sh', '-c', 'exec server'], 'sh'],
		[['cat'], 'cat'],
	])('default name of %j is %s', (command, expected) => {
		expect(defaultName(command)).toBe(expected);
	});
});

describe('on disk', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-store-'));
	});
	afterEach(() => {
		rmSync(dir, {recursive: true, force: true});
	});

	it('creates private directories 0700 and tightens an existing one of ours', () => {
		const nested = path.join(dir, 'a', 'b');
		ensurePrivateDir(nested);
		expect(statSync(nested).mode & 0o777).toBe(0o700);
		chmodSync(nested, 0o755);
		ensurePrivateDir(nested);
		expect(statSync(nested).mode & 0o777).toBe(0o700);
	});

	it('refuses a directory owned by another uid', () => {
		const uid = process.getuid!();
		expect(() => ensurePrivateDir(dir, uid + 1)).toThrow(/owned by uid/);
	});

	// Node 20's recursive mkdir loops forever under /proc/self (a parent that exists but cannot hold a
	// directory). In a child process with a timeout, so a loop fails this test instead of hanging the worker.
	it.skipIf(process.platform !== 'linux').each(['/proc/self/mcp-wire-test', '/proc/self/mcp-wire/captures'])(
		'throws ENOENT for %s at once instead of looping (built dist)',
		async (target) => {
			const storeModule = path.join(import.meta.dirname, '..', '..', 'dist', 'captures', 'capture-store.js');
			const script = [
				`import {ensurePrivateDir} from ${JSON.stringify(pathToFileURL(storeModule).href)};`,
				'try {',
				`  ensurePrivateDir(${JSON.stringify(target)});`,
				"  console.log('created');",
				'} catch (error) {',
				'  console.log(error.code);',
				'}',
			].join('\n');
			const result = await execa(process.execPath, ['--input-type=module', '-e', script], {
				reject: false,
				timeout: 5000,
			});
			expect(result.timedOut).toBe(false);
			expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, 'ENOENT', '']);
		},
	);

	const make = (
		minute: number,
		name: string,
		pid: number,
		bytes: number,
		ext: CaptureExt = BINARY_CAPTURE_EXT,
	): string => {
		const file = path.join(dir, captureFileName(new Date(Date.UTC(2026, 0, 1, 0, minute)), name, pid, ext));
		writeFileSync(file, Buffer.alloc(bytes, 0x61));
		utimesSync(file, new Date(Date.UTC(2026, 0, 1, 0, minute)), new Date(Date.UTC(2026, 0, 1, 0, minute)));
		return file;
	};

	it('lists our captures newest first and ignores other files', () => {
		make(1, 'a', 11, 10, NDJSON_CAPTURE_EXT);
		make(3, 'b', 12, 20);
		make(2, 'c', 13, 30, NDJSON_CAPTURE_EXT);
		writeFileSync(path.join(dir, 'notes.txt'), 'x');
		mkdirSync(path.join(dir, `${captureFileName(new Date(0), 'dir', 1, BINARY_CAPTURE_EXT)}`));
		expect(listCaptures(dir).map((entry) => [entry.name, entry.pid, entry.bytes])).toEqual([
			['b', 12, 20],
			['c', 13, 30],
			['a', 11, 10],
		]);
		expect(listCaptures(path.join(dir, 'missing'))).toEqual([]);
	});

	it('prunes the oldest captures beyond the file count, keeping the current one and live taps', () => {
		const oldest = make(1, 'a', 101, 10, NDJSON_CAPTURE_EXT);
		const live = make(2, 'b', 102, 10);
		const middle = make(3, 'c', 103, 10);
		const newest = make(4, 'd', 104, 10);
		const current = make(0, 'now', 105, 10);
		const result = pruneCaptures(dir, {maxFiles: 3, maxBytes: 1e9}, current, (pid) => pid === 102);
		expect([...result.removed].sort()).toEqual([middle, oldest].sort());
		expect(readdirSync(dir).sort()).toEqual(
			[path.basename(current), path.basename(live), path.basename(newest)].sort(),
		);
		expect(result).toMatchObject({kept: 3, keptBytes: 30, problems: []});
	});

	it('prunes by total size, newest kept first', () => {
		const a = make(1, 'a', 201, 100);
		const b = make(2, 'b', 202, 100);
		const c = make(3, 'c', 203, 100);
		const result = pruneCaptures(dir, {maxFiles: 50, maxBytes: 250}, undefined, () => false);
		expect([...result.removed].sort()).toEqual([a].sort());
		expect(readdirSync(dir).sort()).toEqual([path.basename(b), path.basename(c)].sort());
	});

	it('reads the limits from MCP_WIRE_MAX_CAPTURES and MCP_WIRE_MAX_CAPTURE_MB', () => {
		expect(pruneLimitsFromEnv({})).toEqual({maxFiles: 50, maxBytes: 200 * 1024 * 1024, problems: []});
		expect(pruneLimitsFromEnv({MCP_WIRE_MAX_CAPTURES: '5', MCP_WIRE_MAX_CAPTURE_MB: '1.5'})).toEqual({
			maxFiles: 5,
			maxBytes: 1572864,
			problems: [],
		});
		// 0 is "no limit", not "keep nothing" (which would delete the capture just written).
		expect(pruneLimitsFromEnv({MCP_WIRE_MAX_CAPTURES: '0', MCP_WIRE_MAX_CAPTURE_MB: '0'})).toEqual({
			maxFiles: Infinity,
			maxBytes: Infinity,
			problems: [],
		});
		expect(pruneLimitsFromEnv({MCP_WIRE_MAX_CAPTURES: 'lots'})).toEqual({
			maxFiles: 50,
			maxBytes: 200 * 1024 * 1024,
			problems: ['MCP_WIRE_MAX_CAPTURES="lots" is not a non-negative number; using 50'],
		});
	});
});

describe("openCaptureFile: never through a symlink, never another user's file", () => {
	let dir: string;
	beforeEach(() => {
		dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-open-')));
	});
	afterEach(() => rmSync(dir, {recursive: true, force: true}));

	it('refuses a symlink planted at the path and leaves its target as it was', () => {
		const victim = path.join(dir, 'victim');
		writeFileSync(victim, 'precious');
		symlinkSync(victim, path.join(dir, 'c.ndjson'));
		expect(() => openCaptureFile(path.join(dir, 'c.ndjson'), {exclusive: false})).toThrow(/ELOOP/);
		expect(() => openCaptureFile(path.join(dir, 'c.ndjson'), {exclusive: true})).toThrow(/EEXIST/);
		expect(readFileSync(victim, 'utf8')).toBe('precious');
	});

	it('creates 0600; reuses (truncates) an own regular file; refuses one with another owner, hard links, or a FIFO', () => {
		const file = path.join(dir, 'c.ndjson');
		closeSync(openCaptureFile(file, {exclusive: true}));
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(() => openCaptureFile(file, {exclusive: true})).toThrow(/EEXIST/);
		writeFileSync(file, 'old');
		closeSync(openCaptureFile(file, {exclusive: false}));
		expect(readFileSync(file, 'utf8')).toBe('');
		expect(() => openCaptureFile(file, {exclusive: false, uid: 4242})).toThrow(
			`owned by uid ${process.getuid!()}, not 4242`,
		);
		linkSync(file, path.join(dir, 'second-name'));
		expect(() => openCaptureFile(file, {exclusive: false})).toThrow('it has 2 hard links');
		const fifo = path.join(dir, 'fifo');
		execFileSync('mkfifo', [fifo]);
		expect(() => openCaptureFile(fifo, {exclusive: false})).toThrow(/ENXIO|not a regular file/);
	});

	it('checkPrivateDir: absent is false; a symlink, another owner, group/other-writable throw; own 0700 is true', () => {
		const own = path.join(dir, 'own');
		expect(checkPrivateDir(own)).toBe(false);
		mkdirSync(own, {mode: 0o700});
		expect(checkPrivateDir(own)).toBe(true);
		expect(() => checkPrivateDir(own, 4242)).toThrow(UnsafeDirectoryError);
		symlinkSync(own, path.join(dir, 'link'));
		expect(() => checkPrivateDir(path.join(dir, 'link'))).toThrow('is a symlink');
		chmodSync(own, 0o770);
		expect(() => checkPrivateDir(own)).toThrow('is writable by others (mode 770)');
	});
});
