/**
 * Where each MCP client keeps its server list (docs/cli.md#doctor, docs/cli.md#wrap-and-unwrap), read from the
 * client modules of the registry (src/core/clients, docs/clients.md#the-clients). Everything the answer depends
 * on (home, cwd, platform, environment) is passed in, so tests can point it at a temp home.
 */
import {statSync} from 'node:fs';
import path from 'node:path';
import type {ConfigLocation, Os} from '../core/clients/profile.js';
import {HOSTS} from '../core/clients/registry.js';
import {CLIENT_NAMES, ConfigError, type ClientName, type ConfigFile} from './types.js';

/**
 * Inputs of {@link discoverConfigs}.
 * - `home`, `cwd`: absolute directories (the user's home; the project the client is opened in).
 * - `platform`: decides the per-OS locations and path separators.
 * - `env`: read for `APPDATA` (Windows), `XDG_CONFIG_HOME` (when absolute), and the variables a client
 *   module names as overriding its folder (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`).
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

function osOf(platform: NodeJS.Platform): Os {
	return platform === 'darwin' || platform === 'win32' ? platform : 'linux';
}

function xdgConfigDir(options: DiscoverOptions): string {
	const p = pathApi(options.platform);
	const xdg = options.env['XDG_CONFIG_HOME'];
	return xdg !== undefined && p.isAbsolute(xdg) ? xdg : p.join(options.home, '.config');
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
	return xdgConfigDir(options);
}

/** The absolute path of `location`: its base, or the folder its override variable names, then its segments. */
function locationPath(options: DiscoverOptions, location: ConfigLocation): string {
	const p = pathApi(options.platform);
	const override = location.envOverride === undefined ? undefined : options.env[location.envOverride];
	if (override !== undefined && override !== '') {
		return p.join(override, location.segments[location.segments.length - 1] ?? '');
	}
	const base = {
		home: options.home,
		appdata: appDataDir(options),
		'xdg-config': xdgConfigDir(options),
		cwd: options.cwd,
	}[location.base];
	return p.join(base, ...location.segments);
}

/** The config file `location` stands for, at `file`. */
function candidateOf(client: ClientName, location: ConfigLocation, file: string, cwd: string): Candidate {
	const format = location.format;
	return {
		client,
		scope: location.scope,
		path: file,
		serversPath: location.servers.path.map((key) => (key === '<cwd>' ? cwd : key)),
		format,
		...(location.editable ? {} : {unsupported: unsupportedReason(client, location)}),
	};
}

/** Why mcp-wire reads but does not edit a file: `YAML is not supported yet`. */
function unsupportedReason(client: ClientName, location: ConfigLocation): string {
	if (location.format === 'yaml') return 'YAML is not supported yet';
	if (location.format === 'toml') return 'TOML is not supported yet';
	const host = HOSTS.find((profile) => profile.id === client);
	return `${host?.displayName ?? client}'s ${location.servers.path.join('.')} is not supported yet`;
}

function locationsOf(client: ClientName, platform: NodeJS.Platform): readonly ConfigLocation[] {
	const os = osOf(platform);
	const host = HOSTS.find((profile) => profile.id === client);
	return (host?.configs ?? []).filter((location) => location.os === undefined || location.os.includes(os));
}

function candidates(options: DiscoverOptions, client: ClientName): Candidate[] {
	const list: Candidate[] = [];
	for (const location of locationsOf(client, options.platform)) {
		const candidate = candidateOf(client, location, locationPath(options, location), options.cwd);
		// A project file that is the user file (cwd is the home) is listed once.
		const same = list.some(
			(other) => other.path === candidate.path && other.serversPath.join('\0') === candidate.serversPath.join('\0'),
		);
		if (!same) list.push(candidate);
	}
	return list;
}

/** The locations of `client` whose file name (and, when they have one, folder name) match `file`. */
function matchingLocations(client: ClientName, file: string, platform: NodeJS.Platform): ConfigLocation[] {
	const p = pathApi(platform);
	const base = p.basename(file);
	const parent = p.basename(p.dirname(file));
	const byName = locationsOf(client, platform).filter(
		(location) => location.segments[location.segments.length - 1] === base,
	);
	const byFolder = byName.filter((location) => location.segments[location.segments.length - 2] === parent);
	return byFolder.length > 0 ? byFolder : byName;
}

/**
 * Tells the client from a config file's name and folder, or undefined when the name says nothing: the file name
 * of one of a client's locations, and its folder name when the location has one (`.gemini/settings.json`,
 * `Code/User/settings.json`); a file name only one client uses (`config.toml`, `claude_desktop_config.json`)
 * is enough alone.
 */
export function clientFromPath(file: string, platform: NodeJS.Platform): ClientName | undefined {
	const p = pathApi(platform);
	const base = p.basename(file);
	const parent = p.basename(p.dirname(file));
	const owners = (strict: boolean): ClientName[] =>
		CLIENT_NAMES.filter((client) =>
			locationsOf(client, platform).some((location) => {
				const segments = location.segments;
				if (segments[segments.length - 1] !== base) return false;
				return !strict || segments.length < 2 || segments[segments.length - 2] === parent;
			}),
		);
	const strict = owners(true);
	if (strict.length === 1) return strict[0];
	const loose = owners(false);
	return strict.length === 0 && loose.length === 1 ? loose[0] : undefined;
}

function explicitFile(options: DiscoverOptions, file: string): Candidate[] {
	const client = options.client ?? clientFromPath(file, options.platform);
	if (client === undefined) {
		throw new ConfigError(
			'unknown-client',
			file,
			`${file}: cannot tell which client reads this file from its name; pass --client (${CLIENT_NAMES.join(', ')})`,
		);
	}
	const all = locationsOf(client, options.platform);
	// The file is one the client reads at its usual place: all the scopes kept there (~/.claude.json: user, local).
	const atHome = all.filter((location) => locationPath(options, location) === file);
	if (atHome.length > 0) return atHome.map((location) => candidateOf(client, location, file, options.cwd));
	const matching = matchingLocations(client, file, options.platform);
	// A project file elsewhere is that project's (`.cursor/mcp.json`); `.claude.json` elsewhere keeps both its scopes.
	const project = matching.find((location) => location.scope === 'project');
	const chosen =
		project !== undefined && !matching.some((location) => location.scope === 'local') ? [project] : matching;
	if (chosen.length > 0) return chosen.map((location) => candidateOf(client, location, file, options.cwd));
	const fallback = all.find((location) => location.scope === 'project') ?? all[0];
	return fallback === undefined ? [] : [candidateOf(client, fallback, file, options.cwd)];
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
 * this machine, whether or not they exist, in the registry's order (docs/clients.md#the-clients): Claude Desktop;
 * Claude Code user, local, project; Cursor user, project; VS Code user `mcp.json`, user `settings.json`
 * (`mcp.servers`), project; Gemini CLI user, project; Codex; Windsurf; Cline; Zed; Continue; Goose; LM Studio.
 * A file mcp-wire reads but cannot edit carries `unsupported` (`YAML is not supported yet`).
 *
 * Throws ConfigError `unknown-client` when `config` is given without `client` and its name is not one
 * a client uses. A `config` that does not exist is returned with `exists: false`.
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
