import {Command, CommanderError} from 'commander';
import {probeCommand} from './commands/probe.js';
import {EXIT, UsageError} from './exit-codes.js';
import {VERSION} from './version.js';

/**
 * Build the `mcp-wire` program: one commander `Command` per file in ./commands (shadcn's layout).
 * Every command writes its results to stdout and its logs to stderr.
 */
export function buildProgram(): Command {
	const program = new Command('mcp-wire')
		.description('xxd for MCP: every byte on an MCP stdio transport, frame by frame, and the faults that break real clients')
		.version(VERSION)
		.enablePositionalOptions()
		.showHelpAfterError('(run with --help for usage)')
		.exitOverride()
		.configureOutput({
			writeOut: (s) => process.stdout.write(s),
			writeErr: (s) => process.stderr.write(s),
		});
	for (const command of [probeCommand()]) {
		program.addCommand(command.exitOverride());
	}
	return program;
}

/**
 * Run the CLI with `argv` (as `process.argv`) and resolve to the exit code. All errors pass through
 * here: user mistakes become one line on stderr and exit code 2, never a stack trace.
 */
export async function main(argv: readonly string[]): Promise<number> {
	const program = buildProgram();
	try {
		await program.parseAsync(argv as string[]);
		return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
	} catch (error) {
		return handleError(error);
	}
}

/** Map an error to an exit code, printing one clear line for user mistakes. */
export function handleError(error: unknown): number {
	if (error instanceof CommanderError) {
		// commander already printed its message (help, version, or a usage error).
		return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
	}
	if (error instanceof UsageError) {
		process.stderr.write(`mcp-wire: ${error.message}\n`);
		return error.exitCode;
	}
	const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
	process.stderr.write(`mcp-wire: internal error (please report it): ${message}\n`);
	return 70;
}
