import {InvalidArgumentError, type Command} from 'commander';
import type {HandlerPlan, NamedRequest} from '../probe/handler-requests.js';
import {FINDING_CODES, type FindingCode, type Summary} from '../core/types.js';
import {resolveColor as resolveColorFor} from '../render/text/theme.js';
import {EXIT, UsageError} from './exit-codes.js';

/**
 * `--fail-on` values: the lowest finding severity that makes the exit code 1 (`error`, `warning`), or
 * `client`: exit 1 only when a client fails (some client's outcome is `fails`), whatever the findings.
 */
export type FailOn = 'error' | 'warning' | 'client';

/** The `--fail-on` levels, for commander's `choices` and the early probe's check. */
export const FAIL_ON_LEVELS: readonly FailOn[] = ['error', 'warning', 'client'];

/** `--fail-on`'s help text, shared by every command that takes it. */
export const FAIL_ON_HELP = 'exit 1 on findings at or above this severity, or (client) only when a client fails';

/** commander reducer for repeatable options (`--env A --env B`). */
export function collect(value: string, previous: string[]): string[] {
	return [...previous, value];
}

/** commander parser for a positive integer option; a bad value is a usage error (exit 2). */
export function parsePositiveInt(name: string): (value: string) => number {
	return (value) => {
		const n = Number(value);
		if (!Number.isInteger(n) || n <= 0)
			throw new InvalidArgumentError(`${name} takes a positive whole number, got "${value}"`);
		return n;
	};
}

/** Parses `--max-lines` (`report`, `probe --report`): a whole number of lines, at least 10. */
export function parseMaxLines(value: string): number {
	const lines = Number(value);
	if (!Number.isInteger(lines) || lines < 10) {
		throw new InvalidArgumentError('expected a whole number of lines, at least 10');
	}

	return lines;
}

/** The longest wait Node's timers take (ms): a larger delay fires after 1 ms instead (Node's TimeoutOverflowWarning). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * commander parser for a duration in ms (`--timeout`, `--total-timeout`): a positive whole number no larger
 * than {@link MAX_TIMER_MS}; anything else is a usage error (exit 2), never a wait that silently becomes 1 ms.
 */
export function parseMs(name: string): (value: string) => number {
	const positive = parsePositiveInt(name);
	return (value) => {
		const n = positive(value);
		if (n > MAX_TIMER_MS)
			throw new InvalidArgumentError(`${name} takes at most ${MAX_TIMER_MS} ms (about 24.8 days), got "${value}"`);
		return n;
	};
}

/**
 * Options that need a value must not take the `--` that starts the server command as their value
 * (`probe --env -- node server.js` would pass a variable named `--` and run `node server.js`). Scans
 * `args` (the words after the command name) up to the first `--` that is not an option's value.
 * @param options the command's options (commander `Option`s: `long`, `short`, `required` = takes `<value>`)
 * @throws UsageError naming the option, when an option that takes a value is followed directly by `--`
 */
export function checkValuesBeforeDashDash(
	command: string,
	options: readonly {
		readonly long?: string | undefined;
		readonly short?: string | undefined;
		readonly required: boolean;
	}[],
	args: readonly string[],
): void {
	for (let i = 0; i < args.length; i++) {
		const word = args[i]!;
		if (word === '--') return;
		const option = options.find((o) => o.long === word || o.short === word);
		if (option === undefined || !option.required) continue;
		if (args[i + 1] === '--')
			throw new UsageError(`${command}: ${word} needs a value before "--" (the server command starts after "--")`);
		i += 1;
	}
}

/**
 * Validate `--ignore` codes against the stable catalog (docs/findings.md); an unknown code is a usage
 * error that lists the known ones, so a typo never silently ignores nothing.
 */
export function parseIgnore(values: readonly string[]): FindingCode[] {
	const known = new Set<string>(FINDING_CODES);
	const codes = values
		.flatMap((v) => v.split(','))
		.map((v) => v.trim())
		.filter((v) => v !== '');
	for (const code of codes) {
		if (!known.has(code))
			throw new UsageError(`--ignore: unknown finding code "${code}" (known: ${FINDING_CODES.join(', ')})`);
	}
	return codes as FindingCode[];
}

/** Validate `--fail-on`. */
export function parseFailOn(value: string): FailOn {
	if ((FAIL_ON_LEVELS as readonly string[]).includes(value)) return value as FailOn;
	throw new UsageError(`--fail-on takes "error", "warning" or "client", got "${value}"`);
}

/** Whether to paint `stream` for `--color when` (the shared rule in render/text/theme.ts, with this process's env). */
export function resolveColor(when: 'auto' | 'always' | 'never', stream: {readonly isTTY?: boolean}): boolean {
	return resolveColorFor(when, process.env, stream.isTTY === true);
}

/**
 * Exit code for a finished session: 1 when the verdict is `fail` (a mainstream client fails, even with
 * no error finding: a server that speaks only 2026-07-28) or findings reach `failOn`; else 130 when the
 * verdict is `stopped` (the user stopped the probe before its exchange was over: no verdict, never 0);
 * else 0. Under `failOn` `client`: 1 only when some client's outcome is `fails` (so a WARN whose clients
 * all connect passes CI).
 */
export function exitCodeFor(summary: Summary, failOn: FailOn): number {
	if (reachesFailOn(summary, failOn)) return EXIT.findings;
	return summary.verdict === 'stopped' ? EXIT.stopped : EXIT.ok;
}

/** Whether a session's outcome reaches `failOn` (see {@link exitCodeFor}). */
export function reachesFailOn(summary: Summary, failOn: FailOn): boolean {
	if (summary.verdict === 'fail') return true;
	if (failOn === 'client') return (summary.clients ?? []).some((o) => o.outcome === 'fails');
	return summary.errors > 0 || (failOn === 'warning' && summary.warnings > 0);
}

// `--call`, `--call-read-only`, `--read`, `--get-prompt`: the requests that run a server's handlers
// (docs/protocol.md R23–R25, docs/cli.md). Shared by `probe` and `doctor`. Only types come from the probe
// here: this module loads at start-up, before the probe (docs/performance.md#probe-start-up).

/** The options as commander parses them. */
export interface HandlerCliOptions {
	readonly call: string[];
	readonly callReadOnly?: boolean;
	readonly read: string[];
	readonly getPrompt: string[];
}

/**
 * Adds the handler options to `command`. The help says what `--call-read-only` trusts: the server's own
 * annotations, which are hints, not guarantees.
 */
export function addHandlerOptions(command: Command): Command {
	return command
		.option(
			'--call <NAME[=JSON]>',
			"call this tool after the lists (repeatable); without =JSON its arguments are generated from its inputSchema and shown. Nothing is called unless asked: a call runs the server's code",
			collect,
			[],
		)
		.option(
			'--call-read-only',
			'call every tool whose annotations say readOnlyHint: true and not destructiveHint: true, with generated arguments. Annotations come from the server: hints, not guarantees',
		)
		.option('--read <URI>', 'read this resource after the lists (resources/read; repeatable)', collect, [])
		.option(
			'--get-prompt <NAME[=JSON]>',
			'get this prompt after the lists (prompts/get; repeatable); without =JSON its required arguments are ""',
			collect,
			[],
		);
}

/**
 * `NAME` or `NAME=JSON`: the name, and the arguments when given (a JSON object).
 * @param option the option's name, for the message
 * @throws UsageError (one line) for an empty name, or JSON that does not parse or is not an object
 */
export function parseNamedRequest(text: string, option: string): NamedRequest {
	const at = text.indexOf('=');
	const name = at === -1 ? text : text.slice(0, at);
	if (name === '') throw new UsageError(`${option}: no name in ${JSON.stringify(text)} (use NAME or NAME=JSON)`);
	if (at === -1) return {name};
	let value: unknown;
	try {
		value = JSON.parse(text.slice(at + 1));
	} catch {
		throw new UsageError(
			`${option} ${name}: the arguments after '=' are not JSON: ${JSON.stringify(text.slice(at + 1))}`,
		);
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value))
		throw new UsageError(`${option} ${name}: the arguments after '=' must be a JSON object, like {"city":"Paris"}`);
	return {name, arguments: value as Record<string, unknown>};
}

/**
 * The {@link HandlerPlan} of the parsed options. `--read` takes any non-empty string (a URI is the server's).
 * @param prefix the command, for messages (`probe`)
 * @throws UsageError for a malformed `--call`, `--get-prompt` or an empty `--read`
 */
export function handlerPlanOf(options: HandlerCliOptions, prefix: string): HandlerPlan {
	const reads = options.read;
	if (reads.some((uri) => uri === '')) throw new UsageError(`${prefix}: --read needs a URI`);
	return {
		calls: options.call.map((text) => parseNamedRequest(text, `${prefix}: --call`)),
		callReadOnly: options.callReadOnly === true,
		reads,
		prompts: options.getPrompt.map((text) => parseNamedRequest(text, `${prefix}: --get-prompt`)),
	};
}
