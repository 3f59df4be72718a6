/**
 * The one-line advice of a doctor row (the FIX column): the environment difference when there is one,
 * otherwise the finding's fix from the catalog. Pure.
 */
import {resolveCommand} from '../configs/index.js';
import {spawnFailedDraft} from '../core/findings/rules/spawn-failed.js';
import {unansweredRequest} from '../core/findings/rules/unanswered-request.js';
import {dressFinding} from '../core/findings/support/catalog.js';
import type {Finding} from '../core/types.js';
import {showVariable} from './env-difference.js';
import {informativeLine} from './stderr.js';
import {envValue, type ProbeTarget} from './plan.js';
import type {EnvDifference} from './types.js';
import {CLIENT_LABEL} from './verdict.js';

/** How many variable names a sentence lists before "and N more". */
const MAX_NAMED = 4;

function listNames(names: readonly string[]): string {
	if (names.length <= MAX_NAMED) return names.join(', ');
	return `${names.slice(0, MAX_NAMED).join(', ')} and ${names.length - MAX_NAMED} more`;
}

/**
 * The sentence for an environment difference, e.g. `works only because your shell sets
 * PYTHONUNBUFFERED=1; add it to the config's env`, or for a PATH folder `works only because your
 * shell's PATH has /home/me/.nvm/versions/node/v22.1.0/bin; put the absolute path … in "command"`.
 */
export function explainEnvDifference(
	difference: EnvDifference,
	target: ProbeTarget,
	platform: NodeJS.Platform,
): string {
	const label = CLIENT_LABEL[target.file.client];
	const vars = difference.variables;
	if (!difference.minimal) {
		return `works with your shell's environment but not with ${label}'s; the difference is among ${vars.length} variables (${listNames(vars)}): add the ones the server needs to the config's env`;
	}
	const others = vars.filter((name) => name !== 'PATH');
	const shownOthers = others.map((name) => showVariable(name, target.fullEnv));
	if (vars.includes('PATH')) {
		const entries = difference.pathEntries ?? [];
		const fullPath = envValue(target.fullEnv, 'PATH', platform) ?? '';
		const program = target.command[0] ?? '';
		const absolute = resolveCommand(program, fullPath, target.cwd, {platform});
		const where = entries.length > 0 ? `your shell's PATH has ${entries.join(', ')}` : `of your shell's PATH`;
		const also = others.length > 0 ? ` and sets ${shownOthers.join(', ')}` : '';
		const commandInEntry = absolute !== null && entries.some((entry) => absolute.startsWith(entry));
		const fix = commandInEntry
			? `put the absolute path ${absolute} in "command"${others.length > 0 ? ` and add ${others.join(', ')} to the config's env` : ''}`
			: `add ${entries.length > 0 ? 'that folder to PATH' : 'PATH'}${others.length > 0 ? ` and ${others.join(', ')}` : ''} in the config's env`;
		return `works only because ${where}${also}; ${fix}`;
	}
	return `works only because your shell sets ${shownOthers.join(', ')}; add ${others.length === 1 ? 'it' : 'them'} to the config's env`;
}

/**
 * The FIX text for a finding: its catalog hint, preceded for a crash or a silent server by the most
 * informative line of the server's stderr (`detail.stderrTail`, chosen by `informativeLine`: the
 * exception or `npm error 404 Not Found …`, never a log-file pointer, blank line or stack frame), which
 * usually names the real cause (`ModuleNotFoundError: No module named 'x'`, cut to 160 characters). For `unanswered-request` (a
 * consequence), the message and the first other error of the probe (`others`) as the likely cause.
 */
export function explainFinding(finding: Finding, others: readonly Finding[] = []): string {
	if (finding.code === unansweredRequest.code) {
		const cause = others.find(
			(other) => other !== finding && other.severity === 'error' && other.code !== unansweredRequest.code,
		);
		if (cause !== undefined) return `${finding.message}; likely cause ${cause.code}: ${cause.hint}`;
	}
	const tail = finding.detail?.['stderrTail'];
	const text = Array.isArray(tail)
		? informativeLine(tail.filter((line): line is string => typeof line === 'string'))
		: undefined;
	if (text === undefined) return finding.hint;
	return `stderr: ${text.length > 160 ? `${text.slice(0, 157)}...` : text}; ${finding.hint}`;
}

/**
 * The FIX text when the server's stderr names variables as missing (`names`, from
 * `variablesNamedIn`, none of them set in the environment the client gives) and no environment
 * difference was proven: which variables, which config entry would need them and for which client,
 * e.g. `the server's stderr names WEATHER_API_KEY as missing and Claude Desktop does not give it: add
 * it to "env" of "weather" in /h/claude_desktop_config.json (your shell sets it; doctor passes it to a
 * server only with --try-env WEATHER_API_KEY)`. `line` is the stderr line shown first, if any. Never
 * shows a value.
 */
export function explainMissingVariables(
	names: readonly string[],
	target: ProbeTarget,
	shellEnv: Readonly<Record<string, string | undefined>>,
	platform: NodeJS.Platform,
	line?: string,
): string {
	const label = CLIENT_LABEL[target.file.client];
	const them = names.length === 1 ? 'it' : 'them';
	const head = line === undefined ? '' : `stderr: ${line.length > 160 ? `${line.slice(0, 157)}...` : line}; `;
	const text = `${head}the server's stderr names ${listNames(names)} as missing and ${label} does not give ${them}: add ${them} to "env" of "${target.entry.name}" in ${target.file.path}`;
	const inShell = names.filter((name) => (envValue(shellEnv, name, platform) ?? '') !== '');
	if (inShell.length === 0)
		return target.mode === 'client-full' ? text : `${text} (your shell does not set ${them} either)`;
	const untried = inShell.filter((name) => envValue(target.fullEnv, name, platform) === undefined);
	if (untried.length === 0)
		return `${text} (your shell sets ${inShell.length === names.length ? them : listNames(inShell)})`;
	return `${text} (your shell sets ${listNames(inShell)}; doctor passes a variable to a server only with --try-env ${untried.join(',')})`;
}

/** `finding` with `detail.envDifference` set to `difference` (the code and everything else unchanged). */
export function withEnvDifference(finding: Finding, difference: EnvDifference): Finding {
	return {
		...finding,
		detail: {
			...finding.detail,
			envDifference: {
				variables: [...difference.variables],
				...(difference.pathEntries ? {pathEntries: [...difference.pathEntries]} : {}),
				minimal: difference.minimal,
			},
		},
	};
}

/**
 * The `spawn-failed` finding for a command that is not on the PATH the client gives the server, made
 * without spawning (docs/cli.md#doctor). `detail` has the usual
 * `{file, errno, reason, command, cwd}` plus `path`: the PATH searched.
 */
export function notOnPathFinding(target: ProbeTarget): Finding {
	const label = CLIENT_LABEL[target.file.client];
	const where = target.mode === 'client-full' ? 'your PATH' : `the PATH ${label} gives it`;
	return dressFinding(
		spawnFailedDraft({
			file: target.command[0] ?? '',
			errno: 'ENOENT',
			reason: `not found on ${where} (ENOENT)`,
			command: [...target.command],
			cwd: target.cwd,
			path: target.clientPath,
		}),
	);
}

/** The FIX text for a `spawn-failed` without an environment difference (not on any PATH, or broken anyway). */
export function explainNotOnPath(target: ProbeTarget, platform: NodeJS.Platform): string {
	const program = target.command[0] ?? '';
	const fullPath = envValue(target.fullEnv, 'PATH', platform) ?? '';
	const elsewhere = resolveCommand(program, fullPath, target.cwd, {platform});
	const label = CLIENT_LABEL[target.file.client];
	const pathText = target.clientPath === '' ? 'no PATH' : `PATH ${target.clientPath}`;
	if (target.mode === 'client-full')
		return `\`${program}\` is not on your PATH: install it, fix the name, or put its absolute path in "command"`;
	if (elsewhere !== null)
		return `\`${program}\` is ${elsewhere} in your shell but ${label} searches ${pathText}; put the absolute path in "command"`;
	return `\`${program}\` is not on ${label}'s ${pathText}: install it, fix the name, or put its absolute path in "command"`;
}
