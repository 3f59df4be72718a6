import os from 'node:os';
import path from 'node:path';
import {Command, Option} from 'commander';
import {createInterface} from 'node:readline';
import {CLIENT_NAMES, type ClientName, type ConfigFile} from '../../configs/index.js';
import {
	DEFAULT_JOBS,
	DEFAULT_TOTAL_TIMEOUT_MS,
	DoctorProgress,
	exitCodeOf,
	formatJsonRecords,
	formatReport,
	planTargets,
	runDoctor,
	STATUS_TEXT,
	type ProbeTarget,
} from '../../doctor/index.js';
import {DEFAULT_INITIALIZE_TIMEOUT_MS, DEFAULT_PROTOCOL_VERSION, DEFAULT_TIMEOUT_MS} from '../../probe/probe.js';
import {
	captureHomeProblem,
	capturesDir,
	currentPlatform,
	type PlatformFacts,
	ensurePrivateDir,
	pruneCaptures,
	pruneLimitsFromEnv,
} from '../../captures/capture-store.js';
import {EXIT, UsageError} from '../exit-codes.js';
import {
	collect,
	parseMs,
	parsePositiveInt,
	resolveColor,
	addHandlerOptions,
	handlerPlanOf,
	type HandlerCliOptions,
} from '../options.js';
import {VERSION} from '../version.js';
import {escapeText} from '../../core/bytes/glyphs.js';
import {shellWord} from '../../render/text/plain-log.js';
import {discoverForCli} from '../configs.js';

interface DoctorCliOptions extends HandlerCliOptions {
	readonly client?: ClientName;
	readonly config?: string;
	readonly json?: boolean;
	readonly jobs: number;
	readonly timeout?: number;
	readonly totalTimeout: number;
	readonly protocolVersion: string;
	readonly capture: boolean;
	readonly color: 'auto' | 'always' | 'never';
	readonly verbose?: boolean;
	readonly home?: string;
	readonly cwd?: string;
	readonly includeUntrusted?: boolean;
	readonly yes?: boolean;
	readonly tryEnv: string[];
	readonly progress: 'auto' | 'always' | 'never';
}

const HELP_AFTER = `
Each stdio server is started the way its client starts it: the entry's command, args, env and cwd,
with that client's environment rule (Claude Desktop and Cursor: a minimal PATH and the config env;
Claude Code and VS Code: their whole environment plus the config env). A server that fails there
is probed a few more times with a few harmless variables of your shell (PATH, PYTHONUNBUFFERED,
VIRTUAL_ENV, NODE_OPTIONS, ...; never your whole environment; add others with --try-env NAME) to
name the variables that make the difference.

Trust: project servers (./.mcp.json, ./.cursor/mcp.json, ./.vscode/mcp.json) come with the folder,
so they are started only when their client would start them (a Claude Code project server you
approved); others are listed as skipped unless you name them or pass --include-untrusted. Before
anything runs, the commands are listed on stderr; on a terminal doctor asks once (--yes: do not ask).
Without a terminal and without --yes, only servers their client would start anyway are run.

Status: ${STATUS_TEXT.ok} (no findings), ${STATUS_TEXT.warn} (works; findings this client tolerates),
${STATUS_TEXT.fail} (this client gets no working session), ${STATUS_TEXT.skipped} (HTTP/SSE entry or not
trusted, not probed), ${STATUS_TEXT['not-checked']} (--total-timeout elapsed first: no verdict).
Every probe's capture is kept: open it with \`mcp-wire view FILE\` or \`mcp-wire report FILE\`.
Config files are only read, never written.

Exit code: 0 when no entry fails, 1 when one does (not-checked entries do not), 2 on a usage error.`;

/**
 * `mcp-wire doctor [--client NAME] [--config FILE] [--json]` (docs/cli.md#doctor): find every MCP client config,
 * probe each stdio server as its client launches it, and print a table with the verdict, startup time,
 * tools count and the first finding with its fix (or one NDJSON record per server and a summary with
 * `--json`). Exit code 1 when any entry fails, 0 otherwise, 2 on a usage error.
 */
export function doctorCommand(): Command {
	const command = new Command('doctor')
		.summary('check every MCP server in your client configs, the way each client starts it')
		.description(
			'Find the MCP client configs on this machine (Claude Desktop, Claude Code, Cursor, VS Code), probe every stdio server the way its client launches it, and say for each whether it works and why not.',
		)
		.argument(
			'[servers...]',
			'only these server names (a named project server is probed even when its client has not approved it)',
		)
		.option(
			'--include-untrusted',
			'also probe project servers their client has not approved (they come with the folder: read them first)',
		)
		.option('-y, --yes', 'do not ask before running the listed servers (scripts, CI)')
		.option(
			'--try-env <name>',
			'a variable of your environment the env-difference search may pass to a failing server (repeatable)',
			collect,
			[],
		)
		.addOption(new Option('--client <name>', "only this client's configs").choices([...CLIENT_NAMES]))
		.option('--config <file>', 'only this config file (its client is told from the name, or give --client)')
		.option('--json', 'write one NDJSON record per server and a summary record, nothing else')
		.option(
			'--jobs <n>',
			'probes running at the same time (they mostly wait, so more than your cores is fine)',
			parsePositiveInt('--jobs'),
			DEFAULT_JOBS,
		)
		.option(
			'--timeout <ms>',
			`how long each probe waits for each response, initialize too (default: ${DEFAULT_TIMEOUT_MS} ms per request, ${DEFAULT_INITIALIZE_TIMEOUT_MS} ms for initialize)`,
			parseMs('--timeout'),
		)
		.option(
			'--total-timeout <ms>',
			'the whole run; probes still running then are stopped',
			parseMs('--total-timeout'),
			DEFAULT_TOTAL_TIMEOUT_MS,
		)
		.option('--protocol-version <version>', 'the protocol version offered in initialize', DEFAULT_PROTOCOL_VERSION)
		.option('--no-capture', "do not keep the probes' captures")
		.addOption(new Option('--color <when>', 'colour output').choices(['auto', 'always', 'never']).default('auto'))
		.option('--verbose', 'log what each probe does to stderr')
		.addOption(new Option('--home <dir>', 'the home directory to look in (default: yours)').hideHelp())
		.addOption(new Option('--cwd <dir>', 'the project folder to look in (default: the current directory)').hideHelp())
		.addOption(
			new Option('--progress <when>', 'the progress line on stderr (auto: when stderr is a terminal)')
				.choices(['auto', 'always', 'never'])
				.default('auto')
				.hideHelp(),
		)
		.addHelpText('after', HELP_AFTER);
	return addHandlerOptions(command).action(async (servers: string[], options: DoctorCliOptions) => {
		process.exitCode = await runDoctorCommand(options, servers);
	});
}

function discover(options: DoctorCliOptions, home: string, cwd: string): ConfigFile[] {
	return discoverForCli('doctor: ', {
		home,
		cwd,
		...(options.client === undefined ? {} : {client: options.client}),
		...(options.config === undefined ? {} : {config: options.config}),
	});
}

/**
 * The private capture directory, created and pruned; undefined (with a warning through `warn`) when the
 * process has no home (`$HOME` unset, empty or relative, and no `$XDG_STATE_HOME`) or it cannot be used.
 */
export function prepareCaptureDir(
	facts: PlatformFacts = currentPlatform(),
	warn: (line: string) => void = (line) => process.stderr.write(line),
): string | undefined {
	// Without a home, keep nothing rather than guess one (os.homedir() would take the passwd entry), as tap
	// and sessions do.
	const homeProblem = captureHomeProblem(facts);
	if (homeProblem !== undefined) {
		warn(`mcp-wire: doctor keeps no captures: ${homeProblem} (set HOME or XDG_STATE_HOME)\n`);
		return undefined;
	}
	const dir = capturesDir(facts);
	try {
		ensurePrivateDir(dir, facts.uid);
	} catch (error) {
		warn(`mcp-wire: cannot use the capture directory ${dir} (${(error as Error).message}); captures are not kept\n`);
		return undefined;
	}
	const limits = pruneLimitsFromEnv(facts.env);
	for (const problem of limits.problems) warn(`mcp-wire: ${problem}\n`);
	for (const problem of pruneCaptures(dir, limits).problems) warn(`mcp-wire: ${problem}\n`);
	return dir;
}

/** How {@link approveRun} asks and writes; injectable for tests. */
export interface ApproveIo {
	/** `--yes`. */
	readonly yes: boolean;
	/** stdin and stderr are both terminals, so the user can be asked. */
	readonly isTerminal: boolean;
	/** Writes a line (with its newline) to stderr. */
	readonly write: (text: string) => void;
	/** Asks `question` on the terminal and resolves to the answer line. */
	readonly ask: (question: string) => Promise<string>;
}

/**
 * `client/name: command args (in cwd)` for the list shown before anything runs: exactly what will run,
 * each word shell-quoted ({@link shellWord}) and the whole line escaped ({@link escapeText}), so a name,
 * command or cwd from a project's config cannot print a harmless-looking line over the real one
 * (an ESC, CR or BS shows as `␛`, `←`, `\x08`).
 */
export function runLine(target: ProbeTarget): string {
	const untrusted = target.trust.trusted ? '' : `  [${target.trust.reason ?? 'not trusted'}]`;
	const command = target.command.map((word) => shellWord(word)).join(' ');
	return escapeText(
		`  ${target.file.client}/${target.entry.name}: ${command} (in ${shellWord(target.cwd)})${untrusted}`,
	);
}

/**
 * The doctor's consent step (docs/cli.md#doctor): lists every command about to run on stderr, one line each,
 * then: `--yes` runs them all; on a terminal asks once (y/yes runs them all, anything else runs
 * none); without a terminal and without `--yes` runs only those their client starts without asking
 * (trusted), and the others are skipped with the reason.
 */
export async function approveRun(
	targets: readonly ProbeTarget[],
	io: ApproveIo,
): Promise<{run: readonly ProbeTarget[]; declined: string}> {
	io.write(
		`mcp-wire: doctor will run ${targets.length} server${targets.length === 1 ? '' : 's'} (each possibly several times):\n`,
	);
	for (const target of targets) io.write(`${runLine(target)}\n`);
	if (io.yes) return {run: targets, declined: ''};
	if (io.isTerminal) {
		const answer = (await io.ask('mcp-wire: run them? [y/N] ')).trim().toLowerCase();
		if (answer === 'y' || answer === 'yes') return {run: targets, declined: ''};
		return {run: [], declined: 'not started: you said no'};
	}
	const run = targets.filter((target) => target.trust.trusted);
	if (run.length < targets.length)
		io.write(
			`mcp-wire: no terminal to ask and no --yes: running only the ${run.length} server${run.length === 1 ? '' : 's'} their client starts without asking\n`,
		);
	return {run, declined: 'not started: no terminal to ask; pass --yes to run it'};
}

function askOnTerminal(question: string): Promise<string> {
	const rl = createInterface({input: process.stdin, output: process.stderr, terminal: true});
	return new Promise((resolve) => {
		let answered = false;
		rl.on('close', () => {
			if (!answered) resolve('');
		});
		rl.question(question, (answer) => {
			answered = true;
			rl.close();
			resolve(answer);
		});
	});
}

async function runDoctorCommand(options: DoctorCliOptions, servers: readonly string[] = []): Promise<number> {
	const home = path.resolve(options.home ?? os.homedir());
	const cwd = path.resolve(options.cwd ?? process.cwd());
	const files = discover(options, home, cwd);
	const context = {
		env: process.env,
		home,
		cwd,
		platform: process.platform,
		tryEnv: options.tryEnv.flatMap((name) => name.split(',')).filter((name) => name !== ''),
	};
	const plan = planTargets(files, context);
	const known = new Set(
		plan.targets.flatMap((target) =>
			target.kind === 'problem'
				? target.problem.server === undefined
					? []
					: [target.problem.server]
				: [target.entry.name],
		),
	);
	const unknown = servers.filter((name) => !known.has(name));
	if (unknown.length > 0)
		throw new UsageError(
			escapeText(
				`doctor: no server named ${unknown.map((name) => JSON.stringify(name)).join(', ')} in the configs read (known: ${[...known].join(', ') || 'none'})`,
			),
		);
	const captureDir = options.capture ? prepareCaptureDir() : undefined;
	// The progress line: stderr only, on a terminal, not mixed with --verbose lines.
	const showProgress =
		options.progress === 'always' || (options.progress === 'auto' && process.stderr.isTTY === true && !options.verbose);
	let progress: DoctorProgress | undefined;
	let ticker: NodeJS.Timeout | undefined;
	const progressOf = (total: number): DoctorProgress => {
		if (progress !== undefined) return progress;
		progress = new DoctorProgress(total, {
			write: (text) => process.stderr.write(text),
			columns: process.stderr.columns ?? 80,
			limitMs: options.totalTimeout,
		});
		// A probe can take its whole --timeout: the elapsed seconds keep moving meanwhile.
		const shown = progress;
		ticker = setInterval(() => shown.tick(), 1000).unref();
		return progress;
	};
	const isTerminal = process.stdin.isTTY === true && process.stderr.isTTY === true;
	const report = await runDoctor({
		files,
		plan,
		...(servers.length > 0 ? {names: servers} : {}),
		includeUntrusted: options.includeUntrusted === true,
		approve: (targets) =>
			approveRun(targets, {
				yes: options.yes === true,
				isTerminal,
				write: (text) => process.stderr.write(text),
				ask: askOnTerminal,
			}),
		context,
		...(options.timeout === undefined ? {} : {timeoutMs: options.timeout}),
		handlers: handlerPlanOf(options, 'doctor'),
		totalTimeoutMs: options.totalTimeout,
		jobs: options.jobs,
		protocolVersion: options.protocolVersion,
		toolVersion: VERSION,
		...(captureDir === undefined ? {} : {captureDir}),
		...(options.verbose ? {onLog: (line: string) => process.stderr.write(`mcp-wire: ${escapeText(line)}\n`)} : {}),
		...(showProgress
			? {
					onStart: (label: string, total: number) => progressOf(total).started(escapeText(label)),
					onRow: (_row: unknown, _done: number, total: number, label: string | undefined) =>
						progressOf(total).finished(label === undefined ? undefined : escapeText(label)),
				}
			: {}),
	});
	clearInterval(ticker);
	progress?.clear();
	const exitCode = exitCodeOf(report);
	let isClosed = false;
	process.stdout.on('error', (error: NodeJS.ErrnoException) => {
		if (error.code === 'EPIPE') isClosed = true;
		else throw error;
	});
	const lines = options.json
		? formatJsonRecords(report, exitCode)
		: formatReport(report, {
				color: resolveColor(options.color, process.stdout),
				// On a terminal the FIX cells and notes wrap at words (the terminal would cut them mid-word).
				...(process.stdout.isTTY === true && process.stdout.columns > 0 ? {columns: process.stdout.columns} : {}),
			});
	if (!isClosed) process.stdout.write(`${lines.join('\n')}\n`);
	return exitCode === 1 ? EXIT.findings : EXIT.ok;
}
