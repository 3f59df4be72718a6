import {InvalidArgumentError} from 'commander';
import {FINDING_CODES, type FindingCode, type Summary} from '../core/types.js';
import {resolveColor as resolveColorFor} from '../render/text/theme.js';
import {EXIT, UsageError} from './exit-codes.js';

/** `--fail-on` values: the lowest severity that makes the exit code 1. */
export type FailOn = 'error' | 'warning';

/** commander reducer for repeatable options (`--env A --env B`). */
export function collect(value: string, previous: string[]): string[] {
	return [...previous, value];
}

/** commander parser for a positive integer option; a bad value is a usage error (exit 2). */
export function parsePositiveInt(name: string): (value: string) => number {
	return (value) => {
		const n = Number(value);
		if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError(`${name} takes a positive whole number, got "${value}"`);
		return n;
	};
}

/**
 * Validate `--ignore` codes against the stable catalog (docs/findings.md); an unknown code is a usage
 * error that lists the known ones, so a typo never silently ignores nothing.
 */
export function parseIgnore(values: readonly string[]): FindingCode[] {
	const known = new Set<string>(FINDING_CODES);
	const codes = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
	for (const code of codes) {
		if (!known.has(code)) throw new UsageError(`--ignore: unknown finding code "${code}" (known: ${FINDING_CODES.join(', ')})`);
	}
	return codes as FindingCode[];
}

/** Validate `--fail-on`. */
export function parseFailOn(value: string): FailOn {
	if (value === 'error' || value === 'warning') return value;
	throw new UsageError(`--fail-on takes "error" or "warning", got "${value}"`);
}

/** Whether to paint `stream` for `--color when` (the shared rule in render/text/theme.ts, with this process's env). */
export function resolveColor(when: 'auto' | 'always' | 'never', stream: {readonly isTTY?: boolean}): boolean {
	return resolveColorFor(when, process.env, stream.isTTY === true);
}

/**
 * Exit code for a finished session: 1 when the verdict is `fail` (a mainstream client fails, even with
 * no error finding: a server that speaks only 2026-07-28) or findings reach `failOn`, else 0.
 */
export function exitCodeFor(summary: Summary, failOn: FailOn): number {
	if (summary.verdict === 'fail' || summary.errors > 0) return EXIT.findings;
	if (failOn === 'warning' && summary.warnings > 0) return EXIT.findings;
	return EXIT.ok;
}
