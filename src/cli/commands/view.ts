import {statSync} from 'node:fs';
import {Command, Option} from 'commander';
import type {DecodeProblem} from '../../core/capture/record-codec.js';
import {SDK_SCHEMAS} from '../../core/jsonrpc/sdk-schemas.js';
import {createReplay, type Replay} from '../../core/session/replay.js';
import type {Session} from '../../core/session/session.js';
import type {FindingCode, SessionStore} from '../../core/types.js';
import {readRecordFile} from '../../tap/attach.js';
import {UsageError} from '../exit-codes.js';
import {collect, exitCodeFor, parseFailOn, parseIgnore, resolveColor, type FailOn} from '../options.js';
import {createPresenter, type Presenter} from '../present.js';

/**
 * The TUI entry the lead wires in (style.md §1.5: `render/tui` only through a dynamic `import()` in
 * cli/). It takes over the terminal for a session that is replayed (`view`) or followed live
 * (`attach`), and resolves with the exit code once the user quits.
 */
export type StartTui = (store: SessionStore, options: {readonly title: string; readonly isLive: boolean; readonly session: Session}) => Promise<number>;

/** Hooks of the watch commands (`view`, `attach`). */
export interface WatchHooks {
	/**
	 * Load the TUI, e.g. `async () => (await import('../render/tui/start-tui.js')).startTui`. Used when
	 * stdout is a terminal and `--no-tui` is not given; without it the plain frame log is used.
	 */
	readonly loadTui?: () => Promise<StartTui>;
}

/** Options shared by `view` and `attach`. */
export interface WatchCliOptions {
	readonly json?: boolean;
	readonly hex?: boolean;
	readonly tui?: boolean;
	readonly ignore: string[];
	readonly failOn: FailOn;
	readonly color: 'auto' | 'always' | 'never';
}

/** Add the options shared by `view` and `attach` (same names and meanings as `probe`). */
export function addWatchOptions(command: Command): Command {
	return command
		.option('--json', 'write NDJSON records to stdout (the capture format, with derived frames and findings)')
		.option('--hex', 'add an xxd-layout hex dump of every frame')
		.option('--no-tui', 'keep the plain frame log even when stdout is a terminal')
		.option('--ignore <code>', 'drop findings with this code (repeatable)', collect, [])
		.addOption(new Option('--fail-on <severity>', 'exit 1 on findings at or above this severity').choices(['error', 'warning']).default('error'))
		.addOption(new Option('--color <when>', 'colour output').choices(['auto', 'always', 'never']).default('auto'));
}

/** What a watch command presents through: the TUI (when wired and wanted) or the plain/json presenter. */
export interface WatchOutput {
	readonly ignore: FindingCode[];
	readonly failOn: FailOn;
	/** The TUI to start, when it takes over. */
	readonly tui?: StartTui;
	readonly presenter: Presenter;
}

/**
 * Resolve the shared options: `--json` → NDJSON; a terminal without `--no-tui` → the TUI when the hook
 * is wired; otherwise the plain frame log (the same presenter a live probe uses, cli/present.ts).
 */
export async function watchOutput(options: WatchCliOptions, hooks: WatchHooks): Promise<WatchOutput> {
	const ignore = parseIgnore(options.ignore);
	const failOn = parseFailOn(options.failOn);
	const isTuiWanted = options.json !== true && options.tui !== false && process.stdout.isTTY === true && hooks.loadTui !== undefined;
	const tui = isTuiWanted ? await hooks.loadTui!() : undefined;
	const presenter = createPresenter({
		mode: options.json === true ? 'json' : 'plain',
		isColor: resolveColor(options.color, process.stdout),
		hex: options.hex === true,
		redact: false,
		redactPayloads: false,
		out: process.stdout,
	});
	return {ignore, failOn, ...(tui === undefined ? {} : {tui}), presenter};
}

/** Print record problems on stderr (at most `max`, then a count). */
export function reportProblems(source: string, problems: readonly DecodeProblem[], max = 20): void {
	for (const problem of problems.slice(0, max)) process.stderr.write(`mcp-wire: ${source}:${problem.line}: ${problem.message}\n`);
	if (problems.length > max) process.stderr.write(`mcp-wire: ${source}: … and ${problems.length - max} more problems\n`);
}

/**
 * `mcp-wire view FILE`: open a saved capture (from `mcp-wire tap`) or a `--json` dump (issue 3 item 4).
 * The records are replayed through the Session (live = replay) and presented like a live probe: the
 * frame log (`--hex` adds hex), `--json`, or the TUI on a terminal. A capture cut short (a tap killed
 * with SIGKILL) opens: the cut last line is reported on stderr and skipped. Exit code 0, or 1 with
 * findings at or above `--fail-on`, 2 when the file cannot be read or is not a capture.
 */
export function viewCommand(hooks: WatchHooks = {}): Command {
	const command = new Command('view')
		.description('open a saved capture (mcp-wire tap) or a --json dump, and show it like a live probe')
		.argument('<file>', 'capture file (.ndjson)');
	return addWatchOptions(command).action(async (file: string, options: WatchCliOptions) => {
		process.exitCode = await viewAction(file, options, hooks);
	});
}

async function viewAction(file: string, options: WatchCliOptions, hooks: WatchHooks): Promise<number> {
	try {
		if (!statSync(file).isFile()) throw new UsageError(`view: ${file} is not a file`);
	} catch (error) {
		if (error instanceof UsageError) throw error;
		throw new UsageError(`view: cannot open ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
	}

	const output = await watchOutput(options, hooks);
	// Records are fed to the session as they are read (no list of every decoded record, issue 12).
	let replay: Replay | undefined;
	let replayError: Error | undefined;
	let reader;
	try {
		reader = await readRecordFile(file, {
			onHeader: (header) => {
				replay = createReplay(header, {
					schemas: SDK_SCHEMAS,
					ignore: output.ignore,
					onProblem: (message) => process.stderr.write(`mcp-wire: ${file}: ${message}\n`),
					...(output.tui === undefined ? {onSession: (s: Session) => output.presenter.attach(s)} : {}),
				});
			},
			onEvent: (event) => {
				if (replayError !== undefined) return;
				try {
					replay!.feed(event);
				} catch (error) {
					replayError = error as Error;
				}
			},
		});
	} catch (error) {
		throw new UsageError(`view: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
	}

	if (replay === undefined) throw new UsageError(`view: ${file} is not an mcp-wire capture (no session header)`);
	reportProblems(file, reader.problems);
	if (reader.isTruncated) process.stderr.write(`mcp-wire: ${file}: the capture was cut short (its last record is incomplete); showing everything before it\n`);
	if (replayError !== undefined) throw new UsageError(`view: ${file} cannot be replayed: ${replayError.message}`);
	const session = replay.finish();

	if (output.tui !== undefined) return output.tui(session, {title: file, isLive: false, session});
	await output.presenter.finish(session);
	return exitCodeFor(session.getSnapshot().summary, output.failOn);
}
