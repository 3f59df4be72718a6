import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {ConfigError, clientFromPath, discoverConfigs, type ConfigFile} from '../../src/configs/index.js';
import {makeTempHome, type TempHome} from './fixtures.js';

let t: TempHome;
const FOUR: readonly string[] = ['claude-desktop', 'claude-code', 'cursor', 'vscode'];
beforeEach(() => {
	t = makeTempHome();
});
afterEach(() => {
	t.cleanup();
});

describe('discoverConfigs on a Linux home', () => {
	it('lists every client file in order, with exists flags', () => {
		const files = discoverConfigs({home: t.home, cwd: t.project, platform: 'linux', env: {}});
		const expected: ConfigFile[] = [
			{
				client: 'claude-desktop',
				scope: 'user',
				path: t.files.claudeDesktop,
				exists: true,
				serversPath: ['mcpServers'],
				format: 'json',
			},
			{
				client: 'claude-code',
				scope: 'user',
				path: t.files.claudeJson,
				exists: true,
				serversPath: ['mcpServers'],
				format: 'json',
			},
			{
				client: 'claude-code',
				scope: 'local',
				path: t.files.claudeJson,
				exists: true,
				serversPath: ['projects', t.project, 'mcpServers'],
				format: 'json',
			},
			{
				client: 'claude-code',
				scope: 'project',
				path: t.files.mcpJson,
				exists: true,
				serversPath: ['mcpServers'],
				format: 'json',
			},
			{
				client: 'cursor',
				scope: 'user',
				path: t.files.cursorUser,
				exists: true,
				serversPath: ['mcpServers'],
				format: 'json',
			},
			{
				client: 'cursor',
				scope: 'project',
				path: t.files.cursorProject,
				exists: true,
				serversPath: ['mcpServers'],
				format: 'json',
			},
			{
				client: 'vscode',
				scope: 'user',
				path: path.join(t.home, '.config', 'Code', 'User', 'mcp.json'),
				exists: false,
				serversPath: ['servers'],
				format: 'jsonc',
			},
			{
				client: 'vscode',
				scope: 'user',
				path: t.files.vscodeSettings,
				exists: true,
				serversPath: ['mcp', 'servers'],
				format: 'jsonc',
			},
			{
				client: 'vscode',
				scope: 'project',
				path: t.files.vscodeProject,
				exists: true,
				serversPath: ['servers'],
				format: 'jsonc',
			},
		];
		const other = (
			client: ConfigFile['client'],
			scope: ConfigFile['scope'],
			file: string,
			serversPath: string[],
			format: ConfigFile['format'],
			unsupported?: string,
		): ConfigFile => ({
			client,
			scope,
			path: file,
			exists: false,
			serversPath,
			format,
			...(unsupported ? {unsupported} : {}),
		});
		const h = (...parts: string[]) => path.join(t.home, ...parts);
		expected.push(
			other('gemini-cli', 'user', h('.gemini', 'settings.json'), ['mcpServers'], 'jsonc'),
			other('gemini-cli', 'project', path.join(t.project, '.gemini', 'settings.json'), ['mcpServers'], 'jsonc'),
			other('codex', 'user', h('.codex', 'config.toml'), ['mcp_servers'], 'toml'),
			other('windsurf', 'user', h('.codeium', 'windsurf', 'mcp_config.json'), ['mcpServers'], 'json'),
			other(
				'cline',
				'user',
				h('.config', 'Code', 'User', 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'),
				['mcpServers'],
				'json',
			),
			other(
				'zed',
				'user',
				h('.config', 'zed', 'settings.json'),
				['context_servers'],
				'jsonc',
				"Zed's context_servers is not supported yet",
			),
			other(
				'zed',
				'project',
				path.join(t.project, '.zed', 'settings.json'),
				['context_servers'],
				'jsonc',
				"Zed's context_servers is not supported yet",
			),
			other('continue', 'user', h('.continue', 'config.yaml'), ['mcpServers'], 'yaml', 'YAML is not supported yet'),
			other('goose', 'user', h('.config', 'goose', 'config.yaml'), ['extensions'], 'yaml', 'YAML is not supported yet'),
			other('lm-studio', 'user', h('.lmstudio', 'mcp.json'), ['mcpServers'], 'json'),
		);
		expect(files).toEqual(expected);
	});

	it('narrows to one client with --client', () => {
		const files = discoverConfigs({home: t.home, cwd: t.project, platform: 'linux', env: {}, client: 'cursor'});
		expect(files.map((file) => [file.client, file.scope, file.path])).toEqual([
			['cursor', 'user', t.files.cursorUser],
			['cursor', 'project', t.files.cursorProject],
		]);
	});

	it('honours XDG_CONFIG_HOME (absolute only) and CLAUDE_CONFIG_DIR', () => {
		const env = {XDG_CONFIG_HOME: '/xdg', CLAUDE_CONFIG_DIR: '/cc'};
		const files = discoverConfigs({home: t.home, cwd: t.project, platform: 'linux', env}).filter((file) =>
			FOUR.includes(file.client),
		);
		expect(files.map((file) => file.path)).toEqual([
			'/xdg/Claude/claude_desktop_config.json',
			'/cc/.claude.json',
			'/cc/.claude.json',
			t.files.mcpJson,
			t.files.cursorUser,
			t.files.cursorProject,
			'/xdg/Code/User/mcp.json',
			'/xdg/Code/User/settings.json',
			t.files.vscodeProject,
		]);
		const relative = discoverConfigs({
			home: t.home,
			cwd: t.project,
			platform: 'linux',
			env: {XDG_CONFIG_HOME: 'rel'},
			client: 'claude-desktop',
		});
		expect(relative[0]?.path).toBe(t.files.claudeDesktop);
	});

	it('lists the project Cursor file once when cwd is the home', () => {
		const files = discoverConfigs({home: t.home, cwd: t.home, platform: 'linux', env: {}, client: 'cursor'});
		expect(files.map((file) => [file.scope, file.path])).toEqual([['user', t.files.cursorUser]]);
	});
});

describe('discoverConfigs per platform', () => {
	it('uses ~/Library/Application Support on macOS', () => {
		const files = discoverConfigs({home: '/Users/ana', cwd: '/Users/ana/p', platform: 'darwin', env: {}});
		expect(files.map((file) => file.path).slice(9)).toEqual([
			'/Users/ana/.gemini/settings.json',
			'/Users/ana/p/.gemini/settings.json',
			'/Users/ana/.codex/config.toml',
			'/Users/ana/.codeium/windsurf/mcp_config.json',
			'/Users/ana/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
			'/Users/ana/.config/zed/settings.json',
			'/Users/ana/p/.zed/settings.json',
			'/Users/ana/.continue/config.yaml',
			'/Users/ana/.config/goose/config.yaml',
			'/Users/ana/.lmstudio/mcp.json',
		]);
		expect(files.map((file) => file.path).slice(0, 9)).toEqual([
			'/Users/ana/Library/Application Support/Claude/claude_desktop_config.json',
			'/Users/ana/.claude.json',
			'/Users/ana/.claude.json',
			'/Users/ana/p/.mcp.json',
			'/Users/ana/.cursor/mcp.json',
			'/Users/ana/p/.cursor/mcp.json',
			'/Users/ana/Library/Application Support/Code/User/mcp.json',
			'/Users/ana/Library/Application Support/Code/User/settings.json',
			'/Users/ana/p/.vscode/mcp.json',
		]);
		expect(files.every((file) => !file.exists)).toBe(true);
	});

	it('uses %APPDATA% on Windows, and AppData\\Roaming without it', () => {
		const files = discoverConfigs({
			home: 'C:\\Users\\ana',
			cwd: 'C:\\src\\p',
			platform: 'win32',
			env: {APPDATA: 'D:\\Roaming'},
		});
		expect(files.map((file) => file.path).slice(9)).toEqual([
			'C:\\Users\\ana\\.gemini\\settings.json',
			'C:\\src\\p\\.gemini\\settings.json',
			'C:\\Users\\ana\\.codex\\config.toml',
			'C:\\Users\\ana\\.codeium\\windsurf\\mcp_config.json',
			'D:\\Roaming\\Code\\User\\globalStorage\\saoudrizwan.claude-dev\\settings\\cline_mcp_settings.json',
			'C:\\src\\p\\.zed\\settings.json',
			'C:\\Users\\ana\\.continue\\config.yaml',
			'D:\\Roaming\\Block\\goose\\config\\config.yaml',
			'C:\\Users\\ana\\.lmstudio\\mcp.json',
		]);
		expect(files.map((file) => file.path).slice(0, 9)).toEqual([
			'D:\\Roaming\\Claude\\claude_desktop_config.json',
			'C:\\Users\\ana\\.claude.json',
			'C:\\Users\\ana\\.claude.json',
			'C:\\src\\p\\.mcp.json',
			'C:\\Users\\ana\\.cursor\\mcp.json',
			'C:\\src\\p\\.cursor\\mcp.json',
			'D:\\Roaming\\Code\\User\\mcp.json',
			'D:\\Roaming\\Code\\User\\settings.json',
			'C:\\src\\p\\.vscode\\mcp.json',
		]);
		expect(files[2]?.serversPath).toEqual(['projects', 'C:\\src\\p', 'mcpServers']);
		const noAppData = discoverConfigs({
			home: 'C:\\Users\\ana',
			cwd: 'C:\\src\\p',
			platform: 'win32',
			env: {},
			client: 'claude-desktop',
		});
		expect(noAppData[0]?.path).toBe('C:\\Users\\ana\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
	});
});

describe('discoverConfigs with --config', () => {
	it('tells the client from the file name', () => {
		const one = (config: string): Array<[string, string, readonly string[]]> =>
			discoverConfigs({home: t.home, cwd: t.project, platform: 'linux', env: {}, config}).map((file) => [
				file.client,
				file.scope,
				file.serversPath,
			]);
		expect(one(t.files.claudeDesktop)).toEqual([['claude-desktop', 'user', ['mcpServers']]]);
		expect(one(t.files.claudeJson)).toEqual([
			['claude-code', 'user', ['mcpServers']],
			['claude-code', 'local', ['projects', t.project, 'mcpServers']],
		]);
		expect(one('.mcp.json')).toEqual([['claude-code', 'project', ['mcpServers']]]);
		expect(one(t.files.cursorUser)).toEqual([['cursor', 'user', ['mcpServers']]]);
		expect(one('.cursor/mcp.json')).toEqual([['cursor', 'project', ['mcpServers']]]);
		expect(one('.vscode/mcp.json')).toEqual([['vscode', 'project', ['servers']]]);
		expect(one(t.files.vscodeSettings)).toEqual([['vscode', 'user', ['mcp', 'servers']]]);
	});

	it('resolves a relative --config against cwd and reports a missing one as exists: false', () => {
		const files = discoverConfigs({home: t.home, cwd: t.project, platform: 'linux', env: {}, config: 'nope/.mcp.json'});
		expect(files).toEqual([
			{
				client: 'claude-code',
				scope: 'project',
				path: path.join(t.project, 'nope', '.mcp.json'),
				exists: false,
				serversPath: ['mcpServers'],
				format: 'json',
			},
		]);
	});

	it('takes the client from --client for an unknown name, and throws unknown-client without it', () => {
		const config = path.join(t.home, 'my-servers.json');
		expect(
			discoverConfigs({home: t.home, cwd: t.project, platform: 'linux', env: {}, config, client: 'claude-desktop'}),
		).toEqual([
			{
				client: 'claude-desktop',
				scope: 'user',
				path: config,
				exists: false,
				serversPath: ['mcpServers'],
				format: 'json',
			},
		]);
		expect(
			discoverConfigs({home: t.home, cwd: t.project, platform: 'linux', env: {}, config, client: 'vscode'})[0]?.format,
		).toBe('jsonc');
		let error: unknown;
		try {
			discoverConfigs({home: t.home, cwd: t.project, platform: 'linux', env: {}, config});
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(ConfigError);
		expect((error as ConfigError).code).toBe('unknown-client');
		expect((error as ConfigError).message).toBe(
			`${config}: cannot tell which client reads this file from its name; pass --client (claude-desktop, claude-code, cursor, vscode, gemini-cli, codex, windsurf, cline, zed, continue, goose, lm-studio)`,
		);
	});
});

describe('clientFromPath', () => {
	it.each([
		['/a/claude_desktop_config.json', 'claude-desktop'],
		['/a/.claude.json', 'claude-code'],
		['/a/.mcp.json', 'claude-code'],
		['/a/.cursor/mcp.json', 'cursor'],
		['/a/.vscode/mcp.json', 'vscode'],
		['/a/Code/User/settings.json', 'vscode'],
		['/a/Code/User/mcp.json', 'vscode'],
		['/a/mcp.json', undefined],
		['/a/settings.json', undefined],
	])('%s → %s', (file, client) => {
		expect(clientFromPath(file, 'linux')).toBe(client);
	});
});
