import {describe, expect, it} from 'vitest';
import {guiMinimalPath, launchCwd, launchEnv} from '../../src/configs/index.js';

const shell = {
	HOME: '/home/ana',
	USER: 'ana',
	LOGNAME: 'ana',
	SHELL: '/bin/zsh',
	TERM: 'xterm-256color',
	PATH: '/home/ana/.nvm/versions/node/v20.1.0/bin:/usr/local/bin:/usr/bin:/bin',
	PYTHONUNBUFFERED: '1',
	NODE_OPTIONS: '--max-old-space-size=4096',
	EDITOR: 'vim',
	UNSET: undefined,
};

describe('launchEnv', () => {
	it('Claude Desktop on macOS: allow-list, minimal GUI PATH, config env on top', () => {
		const result = launchEnv('claude-desktop', {env: {API_KEY: 'k', HOME: '/override'}}, shell, 'darwin');
		expect(result).toEqual({
			mode: 'gui-minimal',
			env: {
				HOME: '/override',
				LOGNAME: 'ana',
				PATH: '/usr/bin:/bin:/usr/sbin:/sbin:/usr/local/bin:/opt/homebrew/bin',
				SHELL: '/bin/zsh',
				TERM: 'xterm-256color',
				USER: 'ana',
				API_KEY: 'k',
			},
			dropped: ['EDITOR', 'NODE_OPTIONS', 'PYTHONUNBUFFERED'],
			notes: [
				'a GUI app passes only HOME, LOGNAME, PATH, SHELL, TERM, USER and the config env',
				"PATH is the minimal GUI PATH /usr/bin:/bin:/usr/sbin:/sbin:/usr/local/bin:/opt/homebrew/bin, not this shell's PATH",
				'the config env sets HOME (different from this shell)',
				'3 variables of this shell are not passed',
			],
		});
	});

	it('Cursor on Linux: the minimal PATH without the macOS additions; a config PATH wins', () => {
		expect(launchEnv('cursor', {env: {}}, shell, 'linux').env['PATH']).toBe('/usr/bin:/bin:/usr/sbin:/sbin');
		expect(launchEnv('cursor', {env: {PATH: '/opt/x/bin'}}, shell, 'linux').env['PATH']).toBe('/opt/x/bin');
		expect(guiMinimalPath('linux')).toBe('/usr/bin:/bin:/usr/sbin:/sbin');
		expect(guiMinimalPath('win32')).toBeUndefined();
	});

	it('Claude Code: the whole environment plus the config env', () => {
		const result = launchEnv('claude-code', {env: {EXTRA: 'x'}}, shell, 'linux');
		expect(result.mode).toBe('client-full');
		expect(result.env).toEqual({
			HOME: '/home/ana',
			USER: 'ana',
			LOGNAME: 'ana',
			SHELL: '/bin/zsh',
			TERM: 'xterm-256color',
			PATH: shell.PATH,
			PYTHONUNBUFFERED: '1',
			NODE_OPTIONS: '--max-old-space-size=4096',
			EDITOR: 'vim',
			EXTRA: 'x',
		});
		expect(result.dropped).toEqual([]);
		expect(result.notes).toEqual(["Claude Code passes its whole environment (here: this shell's) plus the config env"]);
	});

	it('VS Code: process env + config env, null unsets (C6)', () => {
		const result = launchEnv('vscode', {env: {EDITOR: null, N: '1'}}, shell, 'linux');
		expect(result.mode).toBe('client-full');
		expect(result.env['EDITOR']).toBeUndefined();
		expect(result.env['N']).toBe('1');
		expect(result.env['PYTHONUNBUFFERED']).toBe('1');
		expect(result.dropped).toEqual(['EDITOR']);
	});

	it('SDK hosts: the allow-list with this PATH; values starting with () are skipped (C3)', () => {
		const result = launchEnv('sdk', {env: {}}, {...shell, SHELL: '() { :; }'}, 'linux');
		expect(result).toEqual({
			mode: 'sdk-default',
			env: {HOME: '/home/ana', LOGNAME: 'ana', PATH: shell.PATH, TERM: 'xterm-256color', USER: 'ana'},
			dropped: ['EDITOR', 'NODE_OPTIONS', 'PYTHONUNBUFFERED', 'SHELL'],
			notes: [
				'an SDK host passes only HOME, LOGNAME, PATH, SHELL, TERM, USER (getDefaultEnvironment) and the config env',
				'SHELL is skipped: its value starts with "()" (an exported shell function)',
				'4 variables of this shell are not passed',
			],
		});
	});

	it("Windows: the Windows allow-list, names compared without case, the app's own Path", () => {
		const windows = {
			Path: 'C:\\Windows;C:\\node',
			USERPROFILE: 'C:\\Users\\ana',
			SystemRoot: 'C:\\Windows',
			TEMP: 'C:\\Temp',
			FOO: 'x',
		};
		const result = launchEnv('claude-desktop', {env: {path: 'C:\\only'}}, windows, 'win32');
		expect(result.env).toEqual({
			SYSTEMROOT: 'C:\\Windows',
			TEMP: 'C:\\Temp',
			USERPROFILE: 'C:\\Users\\ana',
			path: 'C:\\only',
		});
		expect(result.dropped).toEqual(['FOO']);
		expect(launchEnv('sdk', {env: {}}, windows, 'win32').env['PATH']).toBe('C:\\Windows;C:\\node');
	});
});

describe('launchCwd', () => {
	const where = {home: '/home/ana', cwd: '/home/ana/p', platform: 'darwin' as const};
	it('uses the entry cwd, resolved against the project', () => {
		expect(launchCwd('vscode', {cwd: 'sub', scope: 'project'}, where)).toEqual({
			cwd: '/home/ana/p/sub',
			isAssumed: false,
		});
	});
	it('follows each client otherwise', () => {
		expect(launchCwd('vscode', {scope: 'project'}, where)).toEqual({cwd: '/home/ana', isAssumed: false});
		expect(launchCwd('claude-code', {scope: 'user'}, where)).toEqual({cwd: '/home/ana/p', isAssumed: false});
		expect(launchCwd('claude-desktop', {scope: 'user'}, where)).toEqual({cwd: '/', isAssumed: false});
		expect(launchCwd('claude-desktop', {scope: 'user'}, {...where, platform: 'linux'})).toEqual({
			cwd: '/home/ana',
			isAssumed: true,
		});
		expect(launchCwd('cursor', {scope: 'project'}, where)).toEqual({cwd: '/home/ana/p', isAssumed: true});
		expect(launchCwd('cursor', {scope: 'user'}, where)).toEqual({cwd: '/home/ana', isAssumed: true});
	});
});
