import {Command, CommanderError} from 'commander';
import type {StartTui, WatchHooks} from './commands/view.js';
import {escapeText} from '../core/bytes/glyphs.js';
import type {FirstScreen, FirstScreenInfo} from '../render/tui/first-screen.js';
import {checkValuesBeforeDashDash, exitCodeFor, resolveColor} from './options.js';
import {EXIT, UsageError} from './exit-codes.js';
import {VERSION} from './version.js';

const hooks: WatchHooks = {loadTui};
/** The plain first screen of `view` until the TUI takes over; left before an error is printed. */
let firstScreen: FirstScreen | undefined;

/**
 * Every command, loaded lazily: a run loads only the module of the command it names, so `mcp-wire tap`
 * (which stays up for a whole client session) starts fast and small; `--version` loads none, `--help` all.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
	probe: async () => (await import('./commands/probe.js')).probeCommand(),
	tap: async () => (await import('./commands/tap.js')).tapCommand(),
	view: async () => (await import('./commands/view.js')).viewCommand(hooks),
	attach: async () => (await import('./commands/attach.js')).attachCommand(hooks),
	sessions: async () => (await import('./commands/sessions.js')).sessionsCommand(),
	report: async () => (await import('./commands/report.js')).reportCommand(),
	explain: async () => (await import('./commands/explain.js')).explainCommand(),
	doctor: async () => (await import('./commands/doctor.js')).doctorCommand(),
	wrap: async () => (await import('./commands/wrap.js')).wrapCommand(),
	unwrap: async () => (await import('./commands/wrap.js')).unwrapCommand(),
	// `mcp-wire version`, as `--version` (a word many CLIs take: npm, go, docker).
	version: async () =>
		new Command('version')
			.description('print the version (as --version)')
			.action(() => void process.stdout.write(`${VERSION}\n`)),
};

/**
 * Build the `mcp-wire` program: one commander `Command` per file in ./commands (shadcn's layout).
 * Every command writes its results to stdout and its logs to stderr.
 * @param argv as `process.argv`; when it names a command, only that command is loaded
 */
export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
	const program = new Command('mcp-wire')
		.description(
			'xxd for MCP: every byte on an MCP stdio transport, frame by frame, and the faults that break real clients',
		)
		.version(VERSION)
		.enablePositionalOptions()
		.showHelpAfterError('(run with --help for usage)')
		.exitOverride()
		.configureOutput({
			writeOut: (s) => process.stdout.write(s),
			writeErr: (s) => process.stderr.write(s),
			// commander's own usage errors get the same `mcp-wire:` prefix as ours.
			outputError: (s, write) => write(`mcp-wire: ${s.replace(/^error: /, '')}`),
		});
	const named = argv[2];
	// `--version` needs no command; a command name loads that one; anything else (`--help`, a typo) all of them.
	const names =
		named === '--version' || named === '-V'
			? []
			: named !== undefined && Object.hasOwn(COMMANDS, named)
				? [named]
				: Object.keys(COMMANDS);
	for (const name of names) program.addCommand((await COMMANDS[name]!()).copyInheritedSettings(program));
	return program;
}

/**
 * The TUI for `view` and `attach`, loaded lazily (style.md §1.5: only the CLI loads render/tui, and
 * only through `import()`). After the user quits, the summary is printed and the exit code follows it.
 */
async function loadTui(first?: FirstScreenInfo): Promise<StartTui> {
	process.env['NODE_ENV'] ??= 'production';
	// `view`: a plain first screen at once, while ink and React load (they take most of the first second; docs/performance.md#tui-on-big-captures).
	if (first !== undefined && process.stdin.isTTY === true) {
		const {paintFirstScreen} = await import('../render/tui/first-screen.js');
		firstScreen = paintFirstScreen(process.stdout, {...first, title: escapeText(first.title)});
	}

	// Before ink and the capture load: the TUI's process collects its garbage sooner (RSS, docs/performance.md#tui-on-big-captures).
	(await import('./tui-heap.js')).tuneHeapForTui();
	// Loaded before the capture is read: reading it meanwhile (5 MB frames) slows the loading down more than it gains.
	const [{startTui}, {formatSummary}] = await Promise.all([
		import('../render/tui/start-tui.js'),
		import('../render/text/plain-log.js'),
	]);
	return async (store, {session, loading}) => {
		const isColor = resolveColor('auto', process.stdout);
		// The TUI takes the alternate screen over (and leaves it when it quits).
		firstScreen?.release();
		firstScreen = undefined;
		await startTui({
			store,
			stdin: process.stdin,
			stdout: process.stdout,
			color: isColor,
			...(loading === undefined ? {} : {loading}),
		});
		const summary = session.getSnapshot().summary;
		for (const line of formatSummary(summary, {color: isColor})) process.stdout.write(`${line}\n`);
		return exitCodeFor(summary, 'error');
	};
}

/**
 * Run the CLI with `argv` (as `process.argv`) and resolve to the exit code. All errors pass through
 * here: user mistakes become one line on stderr and exit code 2, never a stack trace.
 */
export async function main(argv: readonly string[]): Promise<number> {
	// A reader that stops early (`| head`) closes our stdout: end quietly, keeping the exit code. Not for
	// `tap`, whose stdout is the client's wire and which handles its closing itself.
	if (argv[2] !== 'tap') {
		process.stdout.on('error', (error: NodeJS.ErrnoException) => {
			if (error.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok);
		});
	}
	try {
		const program = await buildProgram(argv);
		const command = program.commands.find((c) => c.name() === argv[2]);
		if (command !== undefined) checkValuesBeforeDashDash(command.name(), command.options, argv.slice(3));
		await program.parseAsync(argv as string[]);
		return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
	} catch (error) {
		return handleError(error);
	}
}

/** Map an error to an exit code, printing one clear line for user mistakes. */
export function handleError(error: unknown): number {
	// An error before the TUI took over: printed on the shell's screen, not on a screen about to vanish.
	firstScreen?.leave();
	firstScreen = undefined;
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
