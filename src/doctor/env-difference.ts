/**
 * "Works in my shell, fails in the client": which variables of the user's environment make the
 * difference (docs/cli.md#doctor, docs/protocol.md C3, O3). The doctor re-probes a
 * failing server once with the variables it may take from the user's shell (harmless ones and --try-env names); when that works, this module narrows the
 * difference down with a bounded number of extra probes.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {resolveCommand} from '../configs/index.js';
import {earlyExit} from '../core/findings/rules/early-exit.js';
import {noResponse} from '../core/findings/rules/no-response.js';
import {spawnFailed} from '../core/findings/rules/spawn-failed.js';
import {unflushedOutput} from '../core/findings/rules/unflushed-output.js';
import type {FindingCode} from '../core/types.js';
import {envValue, normalizeDir} from './plan.js';
import {isShellNoise} from './stderr.js';
import {ENV_THAT_MATTERS} from '../process/spawn.js';
import type {EnvDifference} from './types.js';

/** Extra probes {@link findEnvDifference} may spend by default (after the full-environment re-probe). */
export const DEFAULT_MAX_ENV_PROBES = 6;

/** How many likely single variables are tried one by one before halving the rest. */
const MAX_SINGLES = 3;

/**
 * Variables that commonly decide whether a server works, most likely first, per failure: buffering
 * (`PYTHONUNBUFFERED`, O3), the PATH of a version manager (nvm, pyenv, asdf, volta, ~/.local/bin),
 * an activated virtualenv, Node options and module paths.
 */
const LIKELY: Readonly<Record<'spawn' | 'silent' | 'exit', readonly string[]>> = {
	spawn: ['PATH'],
	silent: ['PYTHONUNBUFFERED', 'PATH', 'VIRTUAL_ENV', 'PYTHONPATH', 'NODE_OPTIONS'],
	exit: [
		'PATH',
		'VIRTUAL_ENV',
		'PYTHONPATH',
		'NODE_OPTIONS',
		'NODE_PATH',
		'PYTHONHOME',
		'CONDA_PREFIX',
		'PYTHONUNBUFFERED',
	],
};

const kindOf = (code: FindingCode | undefined): keyof typeof LIKELY =>
	code === spawnFailed.code ? 'spawn' : code === earlyExit.code ? 'exit' : 'silent';

/**
 * The likely variables for a failure, most likely first: for a server that stalls or exits, the ones known
 * to decide whether it reaches the network (`ENV_THAT_MATTERS`: CA bundles, proxies, registries) come
 * before the buffering and PATH ones, since a client strips them all and a stall on them looks the same.
 */
function likelyFor(code: FindingCode | undefined): readonly string[] {
	const kind = kindOf(code);
	if (kind === 'spawn') return LIKELY.spawn;
	// Output that came only at exit is the evidence of buffering (docs/findings.md#unflushed-output): its
	// variables go first, else the network ones (npm sets npm_config_registry for every script) spend the budget.
	return code === unflushedOutput.code
		? [...LIKELY[kind], ...ENV_THAT_MATTERS]
		: [...ENV_THAT_MATTERS, ...LIKELY[kind]];
}

/** Codes of failures an environment can cause, and so worth a full-environment re-probe. */
export const ENV_SENSITIVE_CODES: ReadonlySet<FindingCode> = new Set([
	spawnFailed.code,
	earlyExit.code,
	noResponse.code,
	unflushedOutput.code,
]);

/** Variables whose values are safe and useful to print ("PYTHONUNBUFFERED=1"); others are named only. */
const SHOWN_VALUES: ReadonlySet<string> = new Set([
	'PYTHONUNBUFFERED',
	'PYTHONIOENCODING',
	'PYTHONUTF8',
	'PYTHONDONTWRITEBYTECODE',
	'VIRTUAL_ENV',
	'CONDA_PREFIX',
	'PYTHONPATH',
	'PYTHONHOME',
	'NODE_PATH',
	'NODE_ENV',
	'LANG',
	'LC_ALL',
	'JAVA_HOME',
	'GOPATH',
]);

/** `NAME=value` for variables in a fixed list of harmless ones (values over 80 chars cut), else `NAME`. */
export function showVariable(name: string, env: Readonly<Record<string, string>>): string {
	const value = env[name];
	if (value === undefined || !SHOWN_VALUES.has(name)) return name;
	return `${name}=${value.length > 80 ? `${value.slice(0, 77)}...` : value}`;
}

/** Names whose values differ between the two environments (set in `fullEnv` only, or set differently). */
export function differingVariables(
	baseEnv: Readonly<Record<string, string>>,
	fullEnv: Readonly<Record<string, string>>,
): string[] {
	return Object.keys(fullEnv).filter((key) => fullEnv[key] !== baseEnv[key]);
}

/**
 * Orders candidate names: the variables the server's stderr names as missing (`named`, in
 * their order) first, then the likely ones for `code` (in their order of likelihood), then the rest
 * sorted by name, with interactive-shell noise (`SHLVL`, `_`, `OLDPWD`, `SSL_*`…, see `isShellNoise`)
 * last.
 */
export function orderCandidates(
	candidates: readonly string[],
	code: FindingCode | undefined,
	named: readonly string[] = [],
): string[] {
	const present = new Set(candidates);
	const fromStderr = named.filter((name, index) => present.has(name) && named.indexOf(name) === index);
	const likely = likelyFor(code).filter((name) => present.has(name) && !fromStderr.includes(name));
	const first = [...fromStderr, ...likely];
	const rest = candidates.filter((name) => !first.includes(name)).sort();
	return [...first, ...rest.filter((name) => !isShellNoise(name)), ...rest.filter(isShellNoise)];
}

/** The interpreter a script names in a `#!/usr/bin/env NAME` line (`-S` flags allowed), if any. */
export function envInterpreter(file: string): string | undefined {
	let head: string;
	try {
		head = readFileSync(file, {encoding: 'latin1'}).slice(0, 256);
	} catch {
		return undefined;
	}
	const match = /^#!\s*\S*\/env\s+(?:-S\s+)?(?:-\S+\s+)*([^\s-][^\s]*)/.exec(head);
	return match?.[1];
}

/**
 * The folders of `fullPath` that `clientPath` lacks and from which the shell takes the command (a bare
 * name) or the `#!/usr/bin/env NAME` interpreter of the file the command resolves to: the
 * version-manager folders (nvm, pyenv, asdf, volta, ~/.local/bin …) a server silently depends on. A
 * name counts when its first match on `fullPath` is in such a folder, including when the client's PATH
 * finds a different file of that name (a system `python3` instead of the pyenv one). In `fullPath`
 * order, each folder once.
 */
export function pathEntriesFor(
	command: string,
	clientPath: string,
	fullPath: string,
	cwd: string,
	platform: NodeJS.Platform,
): string[] {
	const delimiter = platform === 'win32' ? ';' : ':';
	const have = new Set(
		clientPath
			.split(delimiter)
			.filter((dir) => dir !== '')
			.map((dir) => normalizeDir(dir, platform)),
	);
	const extra = [
		...new Set(fullPath.split(delimiter).filter((dir) => dir !== '' && !have.has(normalizeDir(dir, platform)))),
	];
	const hasSeparator = platform === 'win32' ? /[/\\]/.test(command) : command.includes('/');
	const names: string[] = hasSeparator ? [] : [command];
	const target = resolveCommand(command, fullPath, cwd, {platform});
	const interpreter = target === null ? undefined : envInterpreter(target);
	if (interpreter !== undefined && !interpreter.includes('/')) names.push(interpreter);
	const found: string[] = [];
	for (const name of names) {
		const onFull = resolveCommand(name, fullPath, cwd, {platform});
		if (onFull === null) continue;
		const home = normalizeDir((platform === 'win32' ? path.win32 : path.posix).dirname(onFull), platform);
		const dir = extra.find((candidate) => normalizeDir(candidate, platform) === home);
		if (dir !== undefined && !found.includes(dir)) found.push(dir);
	}
	return found;
}

/** Inputs of {@link findEnvDifference}. */
export interface EnvDifferenceOptions {
	/** The environment the client gives the server (where it fails). */
	readonly baseEnv: Readonly<Record<string, string>>;
	/** The user's environment plus the config env (where it was seen working). */
	readonly fullEnv: Readonly<Record<string, string>>;
	/** The code of the failure under `baseEnv` (orders the guesses). */
	readonly code: FindingCode | undefined;
	/** Variables the server's stderr names as missing (`variablesNamedIn`): tried first, one by one. */
	readonly named?: readonly string[];
	/** `[command, ...args]` and the launch directory, to name PATH folders. */
	readonly command: readonly string[];
	readonly cwd: string;
	readonly platform: NodeJS.Platform;
	/**
	 * Probes the server with `env`: true when it works (status not fail), false when not, undefined when
	 * the run must stop (the overall deadline passed).
	 */
	readonly works: (env: Record<string, string>) => Promise<boolean | undefined>;
	/** Extra probes allowed (default {@link DEFAULT_MAX_ENV_PROBES}). */
	readonly maxProbes?: number;
}

/**
 * Finds the smallest set of the user's variables that makes the server work, spending at most
 * `maxProbes` probes (the full-environment probe that showed it working is not counted):
 * 1. the variables the server's stderr names (`named`), then the likely variables for the failure, alone,
 *    one by one (at most 3 in all; e.g. `WEATHER_API_KEY` after `KeyError: 'WEATHER_API_KEY'`,
 *    `PYTHONUNBUFFERED` for a silent or unflushed server, `PATH` for a command that was not found);
 * 2. then halving: of the differing variables, keep whichever half works alone, until one variable is
 *    left, both halves are needed (the set is then minimal at this granularity), or the budget is spent
 *    (`minimal: false`);
 * 3. when `PATH` is in the set, the folders it adds that hold the command or its interpreter are named
 *    and checked with one more probe (the client's PATH plus only those folders) when budget is left.
 * Returns undefined when nothing differs or the run was stopped before an answer.
 */
export async function findEnvDifference(options: EnvDifferenceOptions): Promise<EnvDifference | undefined> {
	const max = options.maxProbes ?? DEFAULT_MAX_ENV_PROBES;
	const ordered = orderCandidates(differingVariables(options.baseEnv, options.fullEnv), options.code, options.named);
	if (ordered.length === 0) return undefined;
	let probes = 0;
	const envWith = (names: readonly string[]): Record<string, string> => {
		const env = {...options.baseEnv};
		for (const name of names) {
			const value = options.fullEnv[name];
			if (value !== undefined) env[name] = value;
		}
		return env;
	};
	const attempt = async (names: readonly string[]): Promise<boolean | undefined> => {
		probes += 1;
		return options.works(envWith(names));
	};

	let set: string[] | undefined;
	let minimal = false;
	const likely = new Set([...(options.named ?? []), ...likelyFor(options.code)]);
	for (const name of ordered.filter((candidate) => likely.has(candidate)).slice(0, MAX_SINGLES)) {
		if (probes >= max) break;
		const outcome = await attempt([name]);
		if (outcome === undefined) return undefined;
		if (outcome) {
			set = [name];
			minimal = true;
			break;
		}
	}
	if (set === undefined) {
		let current = ordered;
		while (current.length > 1 && probes < max) {
			const half = Math.ceil(current.length / 2);
			const first = current.slice(0, half);
			const second = current.slice(half);
			const firstWorks = await attempt(first);
			if (firstWorks === undefined) break;
			if (firstWorks) {
				current = first;
				continue;
			}
			if (probes >= max) break;
			const secondWorks = await attempt(second);
			if (secondWorks === undefined) break;
			if (secondWorks) {
				current = second;
				continue;
			}
			minimal = true;
			break;
		}
		set = current;
		if (current.length === 1) minimal = true;
	}

	let pathEntries: string[] | undefined;
	if (set.includes('PATH')) {
		const clientPath = envValue(options.baseEnv, 'PATH', options.platform) ?? '';
		const fullPath = envValue(options.fullEnv, 'PATH', options.platform) ?? '';
		const found = pathEntriesFor(options.command[0] ?? '', clientPath, fullPath, options.cwd, options.platform);
		if (found.length > 0 && probes < max) {
			const env = envWith(set.filter((name) => name !== 'PATH'));
			const key =
				Object.keys(env).find((name) =>
					options.platform === 'win32' ? name.toUpperCase() === 'PATH' : name === 'PATH',
				) ?? 'PATH';
			env[key] = [clientPath, ...found].filter((part) => part !== '').join(options.platform === 'win32' ? ';' : ':');
			probes += 1;
			const outcome = await options.works(env);
			if (outcome) pathEntries = found;
		}
	}
	return {variables: set, ...(pathEntries ? {pathEntries} : {}), minimal, probes, candidates: ordered};
}
