/**
 * Exit codes of every mcp-wire command (documented in docs/cli.md#exit-codes).
 * - 0: verdict not `fail` and no findings at or above the `--fail-on` severity (default: error; under
 *   `--fail-on client`: no client fails)
 * - 1: verdict `fail`, or findings at or above it (for `tap`: the server's own exit code is mirrored instead)
 * - 2: a usage error (bad option, missing command, unreadable file)
 * - 130: verdict `stopped`: the user stopped the probe (the TUI's quit, Ctrl-C) before its exchange was
 *   over, with no finding at or above `--fail-on` (no verdict: 128 + SIGINT, as a shell reports an
 *   interrupted command); `view` of such a dump too
 */
export const EXIT = {ok: 0, findings: 1, usage: 2, stopped: 130} as const;

/** A user mistake: printed as one line on stderr, never with a stack trace, exit code 2. */
export class UsageError extends Error {
	override readonly name = 'UsageError';
	readonly exitCode: number;
	constructor(message: string, exitCode: number = EXIT.usage) {
		super(message);
		this.exitCode = exitCode;
	}
}
