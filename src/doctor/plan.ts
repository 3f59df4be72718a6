/**
 * From config files to launch plans (docs/cli.md#doctor): every entry of every config file becomes a probe target (command, args, env, cwd,
 * exactly as its client would start it), a skipped entry (HTTP/SSE), or a config problem. Reads the
 * config files; never writes them.
 */
import path from 'node:path';
import {
	expandEntry,
	formatProblem,
	launchCwd,
	launchEnv,
	readServers,
	resolveCommand,
	type ConfigFile,
	type ConfigProblem,
	type LaunchMode,
	type ServerEntry,
} from '../configs/index.js';
import {existsSync} from 'node:fs';
import {projectApproval} from './claude-approval.js';
import {
	programArgument,
	readsStdinMessage,
	relativePathNote,
	relativePathOf,
	type RelativePath,
} from './launch-checks.js';
import {CLIENT_LABEL} from './verdict.js';

/** The machine facts a plan depends on (injectable for tests). */
export interface PlanContext {
	/** The user's environment: what Claude Code and VS Code pass whole, and what GUI apps filter. */
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly home: string;
	readonly cwd: string;
	readonly platform: NodeJS.Platform;
	/**
	 * Variables of `env` the user allows the environment-difference search to pass (`--try-env`), on
	 * top of {@link SEARCHABLE_VARIABLES}. Nothing else of `env` ever reaches a server the client would
	 * not give it.
	 */
	readonly tryEnv?: readonly string[];
}

/**
 * Variables of the user's environment the environment-difference re-probe may pass to a server its
 * client would not give them (docs/cli.md#doctor: never hand a server the user's whole environment): the ones
 * that commonly decide whether a server starts (buffering, PATH folders of version managers,
 * virtualenvs, module paths, locale) and whose values are paths or flags, not secrets. Others only
 * when named with `--try-env`.
 */
export const SEARCHABLE_VARIABLES: readonly string[] = [
	'PATH',
	'HOME',
	'USER',
	'LOGNAME',
	'SHELL',
	'LANG',
	'LC_ALL',
	'LC_CTYPE',
	'TMPDIR',
	'PYTHONUNBUFFERED',
	'PYTHONIOENCODING',
	'PYTHONUTF8',
	'PYTHONDONTWRITEBYTECODE',
	'PYTHONPATH',
	'PYTHONHOME',
	'VIRTUAL_ENV',
	'CONDA_PREFIX',
	'NODE_PATH',
	'NODE_OPTIONS',
	'NODE_ENV',
	'JAVA_HOME',
	'GOPATH',
	// CA bundles and registries (paths and URLs, not secrets): a server behind a corporate network needs them.
	'NODE_EXTRA_CA_CERTS',
	'SSL_CERT_FILE',
	'SSL_CERT_DIR',
	'REQUESTS_CA_BUNDLE',
	'CURL_CA_BUNDLE',
	'NPM_CONFIG_REGISTRY',
	'npm_config_registry',
	'NO_PROXY',
	'no_proxy',
];

/**
 * Whether the client itself starts a server without asking (docs/cli.md#doctor):
 * - user-level files and Claude Code's local scope (the user's own `~/.claude.json`): yes;
 * - a Claude Code project server (`.mcp.json`): only once approved (see `projectApproval`);
 * - Cursor (`.cursor/mcp.json`) and VS Code (`.vscode/mcp.json`) project servers: never assumed,
 *   since mcp-wire cannot read Cursor's per-server switch or VS Code's workspace trust (both live in
 *   the apps' SQLite state). `reason` says why a server is not trusted.
 */
export interface Trust {
	readonly trusted: boolean;
	readonly reason?: string;
}

/** The {@link Trust} of entry `name` of `file` (see there); reads Claude Code's approval settings. */
export function trustOf(file: ConfigFile, name: string, context: PlanContext): Trust {
	if (file.scope !== 'project') return {trusted: true};
	switch (file.client) {
		case 'claude-code': {
			const approval = projectApproval(name, context);
			if (approval === 'approved') return {trusted: true};
			return {
				trusted: false,
				reason:
					approval === 'disabled'
						? 'a project server you rejected in Claude Code'
						: 'a project server not approved in Claude Code',
			};
		}
		case 'cursor':
			return {
				trusted: false,
				reason: 'a Cursor project server (mcp-wire cannot read whether you enabled it in Cursor)',
			};
		case 'vscode':
			return {trusted: false, reason: "a VS Code workspace server (mcp-wire cannot read VS Code's workspace trust)"};
		case 'gemini-cli':
			return {
				trusted: false,
				reason:
					"a Gemini CLI workspace server (Gemini starts it only in a trusted folder; mcp-wire cannot read Gemini's folder trust)",
			};
		default:
			return {trusted: false, reason: 'a project server'};
	}
}

/** `env` cut down to {@link SEARCHABLE_VARIABLES} and `extra` (names compared case-insensitively on Windows). */
export function searchableEnv(
	env: Readonly<Record<string, string | undefined>>,
	extra: readonly string[],
	platform: NodeJS.Platform,
): Record<string, string> {
	const allowed = new Set(
		[...SEARCHABLE_VARIABLES, ...extra].map((name) => (platform === 'win32' ? name.toUpperCase() : name)),
	);
	const out: Record<string, string> = {};
	for (const [key, value] of Object.entries(env)) {
		if (value !== undefined && allowed.has(platform === 'win32' ? key.toUpperCase() : key)) out[key] = value;
	}
	return out;
}

/**
 * A stdio server, ready to probe as its client launches it.
 * - `entry`: the entry with the client's variable expansion applied.
 * - `command`: `[command, ...args]`; `cwd`: the launch directory (`cwdAssumed` when the client's
 *   choice is not documented, see `launchCwd`).
 * - `env`: the exact environment the client gives it; `mode`: the client's rule.
 * - `fullEnv`: what the env-difference re-probe may use: the config `env` plus, of the user's
 *   environment, only {@link SEARCHABLE_VARIABLES} and the `--try-env` names (never the whole of it).
 * - `resolved`: the file the command resolves to on the client's PATH, or null when it is not there
 *   (the probe then reports `spawn-failed` without spawning).
 * - `clientPath`: the PATH the client gives the server ('' when none).
 * - `notes`: launch facts worth showing (unresolved `${...}` references; a Claude Code project server
 *   that is not approved, which Claude Code does not start at all; a relative script or command path).
 * - `relativePath`: the relative command or interpreter script the launch depends on (`node
 *   build/index.js`), resolved against `cwd`, with whether that file exists.
 */
export interface ProbeTarget {
	readonly kind: 'probe';
	readonly file: ConfigFile;
	readonly entry: ServerEntry;
	readonly command: readonly string[];
	readonly cwd: string;
	readonly cwdAssumed: boolean;
	readonly env: Readonly<Record<string, string>>;
	readonly mode: LaunchMode;
	readonly fullEnv: Readonly<Record<string, string>>;
	readonly resolved: string | null;
	readonly clientPath: string;
	readonly notes: readonly string[];
	readonly relativePath?: RelativePath & {readonly exists: boolean};
	/** Whether the client starts it without asking (see {@link Trust}). */
	readonly trust: Trust;
}

/** An HTTP/SSE entry: listed, not probed. */
export interface SkippedTarget {
	readonly kind: 'skipped';
	readonly file: ConfigFile;
	readonly entry: ServerEntry;
	readonly reason: string;
}

/** A problem in a config file: of one entry (`problem.server`) or of the whole file. */
export interface ProblemTarget {
	readonly kind: 'problem';
	readonly file: ConfigFile;
	readonly problem: ConfigProblem;
}

/** One row-to-be of the doctor's table. */
export type DoctorTarget = ProbeTarget | SkippedTarget | ProblemTarget;

/** What {@link planTargets} returns: the targets in discovery order and notes that are not rows. */
export interface Plan {
	readonly targets: DoctorTarget[];
	/** `file:line:column: message` lines (a server name defined twice). */
	readonly notes: string[];
}

/** The value of `key` in `env`; case-insensitive on Windows (`Path`). */
export function envValue(
	env: Readonly<Record<string, string | undefined>>,
	key: string,
	platform: NodeJS.Platform,
): string | undefined {
	if (platform !== 'win32') return env[key];
	const upper = key.toUpperCase();
	const found = Object.keys(env).find((name) => name.toUpperCase() === upper);
	return found === undefined ? undefined : env[found];
}

/** Launch plan of one stdio entry (see {@link ProbeTarget}). */
export function planProbe(file: ConfigFile, written: ServerEntry, context: PlanContext): ProbeTarget {
	const {entry, unresolved} = expandEntry(written, {
		env: context.env,
		home: context.home,
		cwd: context.cwd,
		platform: context.platform,
	});
	const launch = launchEnv(file.client, entry, context.env, context.platform);
	const full = launchEnv(
		'claude-code',
		entry,
		searchableEnv(context.env, context.tryEnv ?? [], context.platform),
		context.platform,
	);
	const where = launchCwd(file.client, entry, {home: context.home, cwd: context.cwd, platform: context.platform});
	const command = [entry.command ?? '', ...entry.args];
	const clientPath = envValue(launch.env, 'PATH', context.platform) ?? '';
	const resolved = resolveCommand(command[0] ?? '', clientPath, where.cwd, {
		platform: context.platform,
		...(envValue(launch.env, 'PATHEXT', context.platform) === undefined
			? {}
			: {pathExt: envValue(launch.env, 'PATHEXT', context.platform)!}),
	});
	const notes: string[] = [];
	if (file.client === 'claude-code' && file.scope === 'project') {
		const approval = projectApproval(entry.name, context);
		if (approval === 'pending')
			notes.push(
				'not approved in Claude Code yet: it starts .mcp.json servers only once you approve them (and trust the folder) in `claude`; `claude mcp list` shows ⏸ Pending approval',
			);
		if (approval === 'disabled') notes.push('Claude Code does not start it: rejected in disabledMcpjsonServers');
	}
	if (unresolved.length > 0)
		notes.push(
			`unresolved variable reference${unresolved.length === 1 ? '' : 's'} left as written: ${unresolved.map((name) => `\${${name}}`).join(', ')}`,
		);
	const relative = relativePathOf(command, where.cwd, context.platform);
	const relativePath = relative === undefined ? undefined : {...relative, exists: existsSync(relative.resolved)};
	if (relativePath !== undefined)
		notes.push(
			relativePathNote(relativePath, relativePath.exists, where.cwd, where.isAssumed, CLIENT_LABEL[file.client]),
		);
	return {
		kind: 'probe',
		file,
		entry,
		command,
		cwd: where.cwd,
		cwdAssumed: where.isAssumed,
		env: launch.env,
		mode: launch.mode,
		fullEnv: full.env,
		resolved,
		clientPath,
		notes,
		...(relativePath === undefined ? {} : {relativePath}),
		trust: trustOf(file, entry.name, context),
	};
}

/**
 * Reads every existing file of `files` and plans each entry, in order: a file's problems first (broken
 * JSON, an entry without command, a field of the wrong type: each names file:line:column), then its
 * entries; an interpreter with no program (`"command": "node"` alone reads its program from stdin) is
 * a `no-program` problem of its entry, never started. Problems of the same file and position reported by two scopes of one file (Claude Code's
 * `~/.claude.json` user and local scopes) appear once. A name defined twice is a note, not a row (the
 * client uses the later definition, which gets its own row).
 */
export function planTargets(files: readonly ConfigFile[], context: PlanContext): Plan {
	const targets: DoctorTarget[] = [];
	const notes: string[] = [];
	const seen = new Set<string>();
	for (const file of files) {
		if (!file.exists) continue;
		let result;
		try {
			result = readServers(file);
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			targets.push({
				kind: 'problem',
				file,
				problem: {kind: 'broken-json', file: file.path, line: 1, column: 1, message},
			});
			continue;
		}
		for (const problem of result.problems) {
			const key = `${problem.file}:${problem.line}:${problem.column}:${problem.message}`;
			if (seen.has(key)) continue;
			seen.add(key);
			if (problem.kind === 'duplicate-name') notes.push(formatProblem(problem));
			else targets.push({kind: 'problem', file, problem});
		}
		for (const entry of result.servers) {
			if (entry.transport === 'stdio') {
				const target = planProbe(file, entry, context);
				const program = programArgument(target.command, context.platform);
				if (program?.readsStdin === true) {
					// Not started: whatever it does, it reads the client's messages as its program.
					const message = readsStdinMessage(program, entry.command ?? '');
					targets.push({
						kind: 'problem',
						file,
						problem: {
							kind: 'no-program',
							file: file.path,
							line: entry.position.line,
							column: entry.position.column,
							message,
							server: entry.name,
						},
					});
				} else {
					targets.push(target);
				}
			} else {
				targets.push({
					kind: 'skipped',
					file,
					entry,
					reason: `${entry.transport === 'sse' ? 'SSE' : 'HTTP'} server${entry.url === undefined ? '' : ` at ${entry.url}`}: doctor checks stdio servers only`,
				});
			}
		}
	}
	return {targets, notes};
}

/** The `.` / `..`-free absolute form of a directory, for comparing PATH entries. */
export function normalizeDir(dir: string, platform: NodeJS.Platform): string {
	const p = platform === 'win32' ? path.win32 : path.posix;
	const resolved = p.resolve(dir);
	return platform === 'win32' ? resolved.toLowerCase() : resolved;
}
