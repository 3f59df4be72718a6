/**
 * The environment and working directory each client gives a stdio server it launches (docs/cli.md#doctor;
 * docs/protocol.md C3, C6, C8). `doctor` probes a server with exactly this, so a server
 * that only works thanks to a variable of the user's shell is caught.
 */
import path from 'node:path';
import type {ClientName, ServerEntry} from './types.js';
import {SDK_DEFAULT_ENV_KEYS} from '../process/spawn.js';
import {isEstablished} from '../core/clients/profile.js';
import {clientProfile} from '../core/clients/registry.js';

/** A client name, or `sdk` for any host built on the MCP SDK's StdioClientTransport. */
export type LaunchClient = ClientName | 'sdk';

/**
 * How the environment is built.
 * - `gui-minimal`: a GUI app started from the desktop (Claude Desktop, Cursor): the SDK allow-list, with
 *   PATH replaced by the minimal GUI PATH (on Windows the app's own PATH), plus the config `env`.
 * - `client-full`: the client's whole environment plus the config `env` (Claude Code; VS Code, C6).
 * - `sdk-default`: the SDK allow-list (`getDefaultEnvironment()`, C3) plus the config `env`.
 * - `client-allowlist`: the client's own allow-list (Codex, docs/clients.md#codex) plus the config `env`.
 */
export type LaunchMode = 'gui-minimal' | 'client-full' | 'sdk-default' | 'client-allowlist';

/** The variables `getDefaultEnvironment()` of the TS SDK copies on POSIX (C3); one list, kept in process/spawn.ts. */
export const SDK_ENV_ALLOWLIST_POSIX: readonly string[] = SDK_DEFAULT_ENV_KEYS.posix;

/** The variables `getDefaultEnvironment()` of the TS SDK copies on Windows (C3). */
export const SDK_ENV_ALLOWLIST_WIN32: readonly string[] = SDK_DEFAULT_ENV_KEYS.win32;

/**
 * The PATH a GUI app started by the desktop (launchd on macOS) has: `/usr/bin:/bin:/usr/sbin:/sbin`,
 * plus `/usr/local/bin` and `/opt/homebrew/bin` on macOS. Undefined on Windows, where GUI apps get the
 * user's full PATH from the registry. Version-manager folders (nvm, pyenv, ~/.local/bin) are never in it.
 */
export function guiMinimalPath(platform: NodeJS.Platform): string | undefined {
	if (platform === 'win32') {
		return undefined;
	}
	const base = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];
	return (platform === 'darwin' ? [...base, '/usr/local/bin', '/opt/homebrew/bin'] : base).join(':');
}

/**
 * The result of {@link launchEnv}.
 * - `env`: the exact environment the server gets (no undefined values).
 * - `dropped`: names of `parentEnv` variables the server does NOT get, sorted (for "works only because
 *   your shell has X" findings).
 * - `notes`: one-line explanations for people, in a fixed order.
 */
export interface LaunchEnv {
	readonly env: Record<string, string>;
	readonly mode: LaunchMode;
	readonly dropped: string[];
	readonly notes: string[];
}

/** The environment rule of `client`, from its module (docs/clients.md#the-clients). */
interface Rule {
	readonly mode: LaunchMode;
	readonly variables?: readonly string[];
	/** The note for a `client-full` rule: who passes what, and what is not established. */
	readonly note?: string;
}

function ruleOf(client: LaunchClient): Rule {
	if (client === 'sdk') return {mode: 'sdk-default'};
	const profile = clientProfile(client);
	const rule = profile.launch.environment.value;
	const name = profile.displayName;
	if (!isEstablished(rule)) {
		// Not established: probe with everything, so a verdict never blames a variable the client may well pass.
		return {
			mode: 'client-full',
			note: `which variables ${name} passes is not established; probed with this shell's whole environment plus the config env`,
		};
	}
	switch (rule.mode) {
		case 'gui-minimal':
			return {mode: 'gui-minimal'};
		case 'sdk-allowlist':
			return {mode: 'sdk-default'};
		case 'allowlist':
			return {mode: 'client-allowlist', variables: rule.variables ?? []};
		case 'full':
			return {
				mode: 'client-full',
				note: `${name} passes its whole environment (here: this shell's) plus the config env`,
			};
		case 'full-without-secrets':
			return {
				mode: 'client-full',
				note: `${name} passes its whole environment (here: this shell's) less the variables that look secret, plus the config env; a server that needs a token must get it from the config env`,
			};
	}
}

function lookup(
	env: Readonly<Record<string, string | undefined>>,
	key: string,
	isWindows: boolean,
): string | undefined {
	if (!isWindows) {
		return env[key];
	}
	const upper = key.toUpperCase();
	const found = Object.keys(env).find((candidate) => candidate.toUpperCase() === upper);
	return found === undefined ? undefined : env[found];
}

/**
 * The environment `client` gives the server of `entry` (docs/cli.md#doctor).
 * - Claude Desktop, Cursor (`gui-minimal`): on macOS/Linux the SDK allow-list HOME, LOGNAME, SHELL,
 *   TERM, USER taken from `parentEnv` and PATH = {@link guiMinimalPath}; on Windows the Windows
 *   allow-list with `parentEnv`'s PATH; then the config `env` on top.
 * - Claude Code (`client-full`, C8): all of `parentEnv`, then the config `env`.
 * - VS Code (`client-full`, C6 `{...process.env, ...env}`): all of `parentEnv`, then the config `env`;
 *   a `null` value removes the variable.
 * - `sdk` (`sdk-default`, C3): the allow-list for `platform` from `parentEnv`, then the config `env`.
 * Allow-listed values that start with `()` (exported shell functions) are skipped, as the SDK does.
 * On Windows names compare case-insensitively (a config `PATH` replaces the parent's `Path`).
 * `parentEnv` stands for the client's own environment; for GUI apps it is the user's shell, which
 * usually has more than the app really has (TERM in particular is often unset in a GUI app).
 */
export function launchEnv(
	client: LaunchClient,
	entry: Pick<ServerEntry, 'env'>,
	parentEnv: Readonly<Record<string, string | undefined>>,
	platform: NodeJS.Platform,
): LaunchEnv {
	const isWindows = platform === 'win32';
	const rule = ruleOf(client);
	const mode = rule.mode;
	const notes: string[] = [];
	const env: Record<string, string> = {};
	const skipped: string[] = [];
	if (mode === 'client-full') {
		for (const [key, value] of Object.entries(parentEnv)) {
			if (value !== undefined) {
				env[key] = value;
			}
		}
		notes.push(rule.note ?? "the client passes its whole environment (here: this shell's) plus the config env");
	} else {
		const allowList = rule.variables ?? (isWindows ? SDK_ENV_ALLOWLIST_WIN32 : SDK_ENV_ALLOWLIST_POSIX);
		const minimalPath = mode === 'gui-minimal' ? guiMinimalPath(platform) : undefined;
		for (const key of allowList) {
			if (key === 'PATH' && minimalPath !== undefined) {
				env[key] = minimalPath;
				continue;
			}
			const value = lookup(parentEnv, key, isWindows);
			if (value === undefined) {
				continue;
			}
			if (value.startsWith('()')) {
				skipped.push(key);
				continue;
			}
			env[key] = value;
		}
		notes.push(
			mode === 'gui-minimal'
				? `a GUI app passes only ${allowList.join(', ')} and the config env`
				: mode === 'client-allowlist'
					? `${client === 'sdk' ? 'the client' : clientProfile(client).displayName} passes only ${allowList.join(', ')} and the config env`
					: `an SDK host passes only ${allowList.join(', ')} (getDefaultEnvironment) and the config env`,
		);
		if (minimalPath !== undefined) {
			notes.push(`PATH is the minimal GUI PATH ${minimalPath}, not this shell's PATH`);
		}
		for (const key of skipped) {
			notes.push(`${key} is skipped: its value starts with "()" (an exported shell function)`);
		}
	}
	const overridden: string[] = [];
	for (const [key, value] of Object.entries(entry.env)) {
		if (isWindows) {
			for (const existing of Object.keys(env)) {
				if (existing !== key && existing.toUpperCase() === key.toUpperCase()) {
					delete env[existing];
				}
			}
		}
		if (value === null) {
			delete env[key];
		} else {
			if (lookup(parentEnv, key, isWindows) !== undefined && lookup(parentEnv, key, isWindows) !== value) {
				overridden.push(key);
			}
			env[key] = value;
		}
	}
	if (overridden.length > 0) {
		notes.push(`the config env sets ${overridden.join(', ')} (different from this shell)`);
	}
	const kept = new Set(Object.keys(env).map((key) => (isWindows ? key.toUpperCase() : key)));
	const dropped = Object.keys(parentEnv)
		.filter((key) => parentEnv[key] !== undefined && !kept.has(isWindows ? key.toUpperCase() : key))
		.sort();
	if (dropped.length > 0 && mode !== 'client-full') {
		notes.push(
			`${dropped.length} variable${dropped.length === 1 ? '' : 's'} of this shell ${dropped.length === 1 ? 'is' : 'are'} not passed`,
		);
	}
	return {env, mode, dropped, notes};
}

/**
 * The working directory `client` starts the server in: the entry's `cwd` when it has one (resolved
 * against `cwd`), else
 * - VS Code: the user's home (`extHostMcpNode.ts`: `launch.cwd ?? homedir()`);
 * - Claude Code and SDK hosts: the client's own working directory, here `cwd`;
 * - Claude Desktop: `/` on macOS (apps started by launchd run in `/`), else `home` (assumed);
 * - Cursor: `cwd` for a project config, `home` for the user config (assumed).
 * Returns the directory and whether it is an assumption (`isAssumed`).
 */
export function launchCwd(
	client: LaunchClient,
	entry: Pick<ServerEntry, 'cwd' | 'scope'>,
	options: {readonly home: string; readonly cwd: string; readonly platform: NodeJS.Platform},
): {cwd: string; isAssumed: boolean} {
	const p = options.platform === 'win32' ? path.win32 : path.posix;
	if (entry.cwd !== undefined && entry.cwd !== '') {
		return {cwd: p.resolve(options.cwd, entry.cwd), isAssumed: false};
	}
	switch (client) {
		case 'vscode':
			return {cwd: options.home, isAssumed: false};
		case 'claude-code':
		case 'sdk':
			return {cwd: options.cwd, isAssumed: false};
		case 'claude-desktop':
			return options.platform === 'darwin' ? {cwd: '/', isAssumed: false} : {cwd: options.home, isAssumed: true};
		case 'cursor':
			return {cwd: entry.scope === 'project' ? options.cwd : options.home, isAssumed: true};
		default:
			// Not established for the other hosts: the folder the CLI runs in, which is where a CLI host starts.
			return {cwd: options.cwd, isAssumed: true};
	}
}
