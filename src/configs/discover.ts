/**
 * Where each MCP client keeps its server list (docs/cli.md#doctor, docs/cli.md#wrap-and-unwrap). Everything the answer
 * depends on (home, cwd, platform, environment) is passed in, so tests can point it at a temp home.
 */
import {statSync} from 'node:fs';
import path from 'node:path';
import {CLIENT_NAMES, ConfigError, type ClientName, type ConfigFile, type ConfigScope} from './types.js';

/**
 * Inputs of {@link discoverConfigs}.
 * - `home`, `cwd`: absolute directories (the user's home; the project the client is opened in).
 * - `platform`: decides the per-OS locations and path separators.
 * - `env`: read for `APPDATA` (Windows), `XDG_CONFIG_HOME` (Linux, when absolute) and
 *   `CLAUDE_CONFIG_DIR` (Claude Code keeps `.claude.json` there when it is set).
 * - `client`: only this client's files. `config`: only this file (relative to `cwd`); its client is
 *   `client` when given, otherwise told from the file name.
 */
export interface DiscoverOptions {
	readonly home: string;
	readonly cwd: string;
	readonly platform: NodeJS.Platform;
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly client?: ClientName;
	readonly config?: string;
}

type Candidate = Omit<ConfigFile, 'exists'>;

function pathApi(platform: NodeJS.Platform): path.PlatformPath {
	return platform === 'win32' ? path.win32 : path.posix;
}

/** The per-user application-data folder an Electron app (Claude Desktop, VS Code) uses on `platform`. */
function appDataDir(options: DiscoverOptions): string {
	const p = pathApi(options.platform);
	if (options.platform === 'darwin') {
		return p.join(options.home, 'Library', 'Application Support');
	}
	if (options.platform === 'win32') {
		const appData = options.env['APPDATA'];
		return appData !== undefined && appData !== '' ? appData : p.join(options.home, 'AppData', 'Roaming');
	}
	const xdg = options.env['XDG_CONFIG_HOME'];
	return xdg !== undefined && p.isAbsolute(xdg) ? xdg : p.join(options.home, '.config');
}

function claudeJsonPath(options: DiscoverOptions): string {
	const p = pathApi(options.platform);
	const dir = options.env['CLAUDE_CONFIG_DIR'];
	return p.join(dir !== undefined && dir !== '' ? dir : options.home, '.claude.json');
}

function candidates(options: DiscoverOptions, client: ClientName): Candidate[] {
	const p = pathApi(options.platform);
	const json = 'json' as const;
	const jsonc = 'jsonc' as const;
	switch (client) {
		case 'claude-desktop':
			return [
				{
					client,
					scope: 'user',
					path: p.join(appDataDir(options), 'Claude', 'claude_desktop_config.json'),
					serversPath: ['mcpServers'],
					format: json,
				},
			];
		case 'claude-code': {
			const claudeJson = claudeJsonPath(options);
			return [
				{client, scope: 'user', path: claudeJson, serversPath: ['mcpServers'], format: json},
				{client, scope: 'local', path: claudeJson, serversPath: ['projects', options.cwd, 'mcpServers'], format: json},
				{client, scope: 'project', path: p.join(options.cwd, '.mcp.json'), serversPath: ['mcpServers'], format: json},
			];
		}
		case 'cursor': {
			const user = p.join(options.home, '.cursor', 'mcp.json');
			const project = p.join(options.cwd, '.cursor', 'mcp.json');
			const list: Candidate[] = [{client, scope: 'user', path: user, serversPath: ['mcpServers'], format: json}];
			if (project !== user) {
				list.push({client, scope: 'project', path: project, serversPath: ['mcpServers'], format: json});
			}
			return list;
		}
		case 'vscode': {
			const userDir = p.join(appDataDir(options), 'Code', 'User');
			return [
				{client, scope: 'user', path: p.join(userDir, 'mcp.json'), serversPath: ['servers'], format: jsonc},
				{client, scope: 'user', path: p.join(userDir, 'settings.json'), serversPath: ['mcp', 'servers'], format: jsonc},
				{
					client,
					scope: 'project',
					path: p.join(options.cwd, '.vscode', 'mcp.json'),
					serversPath: ['servers'],
					format: jsonc,
				},
			];
		}
	}
}

/** Tells the client from a config file's name and folder, or undefined when the name says nothing. */
export function clientFromPath(file: string, platform: NodeJS.Platform): ClientName | undefined {
	const p = pathApi(platform);
	const base = p.basename(file);
	const parent = p.basename(p.dirname(file));
	if (base === 'claude_desktop_config.json') {
		return 'claude-desktop';
	}
	if (base === '.claude.json' || base === '.mcp.json') {
		return 'claude-code';
	}
	if (base === 'mcp.json' && parent === '.cursor') {
		return 'cursor';
	}
	if (
		(base === 'mcp.json' && (parent === '.vscode' || parent === 'User')) ||
		(base === 'settings.json' && parent === 'User')
	) {
		return 'vscode';
	}
	return undefined;
}

function explicitFile(options: DiscoverOptions, file: string): Candidate[] {
	const p = pathApi(options.platform);
	const client = options.client ?? clientFromPath(file, options.platform);
	if (client === undefined) {
		throw new ConfigError(
			'unknown-client',
			file,
			`${file}: cannot tell which client reads this file from its name; pass --client (${CLIENT_NAMES.join(', ')})`,
		);
	}
	const base = p.basename(file);
	const parent = p.basename(p.dirname(file));
	const json = 'json' as const;
	switch (client) {
		case 'claude-desktop':
			return [{client, scope: 'user', path: file, serversPath: ['mcpServers'], format: json}];
		case 'claude-code':
			return base === '.claude.json'
				? [
						{client, scope: 'user', path: file, serversPath: ['mcpServers'], format: json},
						{client, scope: 'local', path: file, serversPath: ['projects', options.cwd, 'mcpServers'], format: json},
					]
				: [{client, scope: 'project', path: file, serversPath: ['mcpServers'], format: json}];
		case 'cursor': {
			const scope: ConfigScope = file === p.join(options.home, '.cursor', 'mcp.json') ? 'user' : 'project';
			return [{client, scope, path: file, serversPath: ['mcpServers'], format: json}];
		}
		case 'vscode': {
			if (base === 'settings.json') {
				return [{client, scope: 'user', path: file, serversPath: ['mcp', 'servers'], format: 'jsonc'}];
			}
			return [
				{
					client,
					scope: parent === '.vscode' ? 'project' : 'user',
					path: file,
					serversPath: ['servers'],
					format: 'jsonc',
				},
			];
		}
	}
}

function isFile(file: string): boolean {
	try {
		return statSync(file).isFile();
	} catch {
		return false;
	}
}

/**
 * Lists the config files (and, for `~/.claude.json`, the scopes inside it) that MCP clients read on
 * this machine, whether or not they exist. Order: Claude Desktop; Claude Code user, local, project;
 * Cursor user, project; VS Code user `mcp.json`, user `settings.json` (`mcp.servers`), project.
 *
 * Locations (docs/cli.md#doctor; `<appdata>` is `~/Library/Application Support` on macOS, `%APPDATA%` on
 * Windows, `$XDG_CONFIG_HOME` or `~/.config` elsewhere):
 * - Claude Desktop: `<appdata>/Claude/claude_desktop_config.json`, key `mcpServers`.
 * - Claude Code: `~/.claude.json` (or `$CLAUDE_CONFIG_DIR/.claude.json`) key `mcpServers` (user) and
 *   `projects[<cwd>].mcpServers` (local); `<cwd>/.mcp.json` key `mcpServers` (project).
 * - Cursor: `~/.cursor/mcp.json` (user, Cursor's "global") and `<cwd>/.cursor/mcp.json`, key `mcpServers`.
 * - VS Code (JSONC): `<appdata>/Code/User/mcp.json` key `servers`, `<appdata>/Code/User/settings.json`
 *   key `mcp` → `servers`, `<cwd>/.vscode/mcp.json` key `servers`.
 *
 * Throws ConfigError `unknown-client` when `config` is given without `client` and its name is not one
 * of the names above. A `config` that does not exist is returned with `exists: false`.
 */
export function discoverConfigs(options: DiscoverOptions): ConfigFile[] {
	const p = pathApi(options.platform);
	const list =
		options.config !== undefined
			? explicitFile(options, p.resolve(options.cwd, options.config))
			: CLIENT_NAMES.filter((client) => options.client === undefined || options.client === client).flatMap((client) =>
					candidates(options, client),
				);
	return list.map((candidate) => ({...candidate, exists: isFile(candidate.path)}));
}
