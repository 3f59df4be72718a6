import {Command, Option} from 'commander';
import type {Session} from '../../core/session/session.js';
import {USER_STOP_PHASE, type SessionMeta} from '../../core/types.js';
import {createWaitProgress} from '../wait-progress.js';
import type {ProbeOptions, ProbeResult, SessionInit} from '../../probe/probe.js';
import {
	DEFAULT_INITIALIZE_TIMEOUT_MS,
	DEFAULT_PROTOCOL_VERSION,
	DEFAULT_TIMEOUT_MS,
	killLiveGroups,
	loadSdkSchemas,
	setSignalStop,
	startProbeServer,
} from '../../probe/probe-start.js';
import {buildEnv, EnvOptionError, loadProcessStarter, strippedEnv} from '../../process/spawn.js';
import {EXIT, UsageError} from '../exit-codes.js';
import {
	collect,
	exitCodeFor,
	FAIL_ON_HELP,
	FAIL_ON_LEVELS,
	reachesFailOn,
	parseFailOn,
	parseIgnore,
	parseMs,
	parseMaxLines,
	resolveColor,
	type FailOn,
	addHandlerOptions,
	handlerPlanOf,
	type HandlerCliOptions,
} from '../options.js';
import type {OutputMode, Presenter} from '../present.js';
import {captureIdentity} from '../redact-options.js';
import {VERSION} from '../version.js';

// This module loads only what checks the options and starts the server (commander, probe/probe-start,
// process/spawn). The probe itself, the session with its detectors, the renderers and the TS SDK's schemas
// load by import() while the server starts (docs/performance.md#probe-start-up, test/arch/startup.test.ts).

interface ProbeCliOptions extends HandlerCliOptions {
	readonly json?: boolean;
	readonly hex?: boolean;
	readonly report?: boolean;
	readonly tui?: boolean;
	readonly timeout?: number;
	readonly protocolVersion: string;
	readonly env: string[];
	readonly inheritEnv?: boolean;
	readonly cwd?: string;
	readonly ignore: string[];
	readonly failOn: FailOn;
	readonly color: 'auto' | 'always' | 'never';
	readonly maxLines?: number;
	readonly redactPayloads?: boolean;
	readonly redact?: boolean;
	readonly verbose?: boolean;
	readonly as?: string;
}

/**
 * `mcp-wire probe [options] -- <command> [args...]`: spawn an MCP stdio server the way a real client
 * does (SDK env allow-list, no shell), run the handshake and the list requests, shut it down per R14, and
 * show every frame and every finding. Exit code 0 without error findings, 1 with them (or with warnings
 * under `--fail-on warning`), 2 on a usage error.
 */
export function probeCommand(): Command {
	const command = new Command('probe')
		.description('spawn an MCP stdio server, play the client, and show every byte and every wire fault')
		.argument('<command...>', 'the server command and its arguments (put them after --)')
		.option('--json', 'write NDJSON records to stdout and nothing else')
		.option('--hex', 'add an xxd-layout hex dump of every frame (plain log, no TUI)')
		.option('--report', 'write a Markdown support report (redacted) instead of the frame log')
		.option('--no-tui', 'keep the plain frame log even when stdout is a terminal')
		.option(
			'--timeout <ms>',
			`how long to wait for each response, initialize too (default: ${DEFAULT_TIMEOUT_MS} ms per request, ${DEFAULT_INITIALIZE_TIMEOUT_MS} ms for initialize: Claude Code's startup limit)`,
			parseMs('--timeout'),
		)
		.option('--protocol-version <version>', 'the protocol version offered in initialize', DEFAULT_PROTOCOL_VERSION)
		.option(
			'--env <KEY[=VALUE]>',
			'pass an environment variable (repeatable); KEY alone copies it from this shell',
			collect,
			[],
		)
		.option(
			'--inherit-env',
			"pass this shell's whole environment (a real client passes only HOME, LOGNAME, PATH, SHELL, TERM, USER)",
		)
		.option('--cwd <dir>', 'working directory of the server')
		.option('--ignore <code>', 'drop findings with this code (repeatable)', collect, [])
		.addOption(new Option('--fail-on <level>', FAIL_ON_HELP).choices(FAIL_ON_LEVELS).default('error'))
		.addOption(new Option('--color <when>', 'colour output').choices(['auto', 'always', 'never']).default('auto'))
		.option(
			'--max-lines <n>',
			'with --report: the line budget (longer parts shrink and say what they left out; the verdict, header and footer, about 7 lines, always stay; at least 10)',
			parseMaxLines,
		)
		.option('--redact', 'with --json: mask home paths, user names and secrets (bytes keep their length)')
		.option('--no-redact', 'with --report: do not redact home paths, user names and secrets')
		.option('--verbose', 'log what the probe does (spawn, exit, timeouts) to stderr')
		.option('--redact-payloads', 'with --report: mask every JSON string value in frames (lengths kept)')
		.option(
			'--as <client>',
			"play that client's opening and judge it by its limits (a client id, or `all`: each distinct opening against its own server process, as a matrix)",
		);
	return addHandlerOptions(command)
		.passThroughOptions()
		.action(async (argv: string[], options: ProbeCliOptions) => {
			process.exitCode = await runProbeCommand(argv, options);
		});
}

/**
 * Bytes our stdout may hold unwritten before the probe stops reading its server: large enough that a
 * reader a little slower than the server causes few holds (each is two marks), small against memory.
 */
const OUTPUT_BACKLOG_BYTES = 1024 * 1024;

/** The signals that stop a plain or --json probe as the TUI's quit does, its summary still written (SIGHUP: no terminal left to write to). */
const GRACEFUL_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Ctrl-C or SIGTERM (a CI job's timeout) on a plain or --json probe: stop as the TUI's quit does (close
 * stdin, then SIGKILL: `signal` aborts the probe), so the summary (the --json summary record, the plain
 * log's verdict: `stopped`) still comes out; then die of that signal. A second one ends at once.
 */
class GracefulStop {
	private readonly abort = new AbortController();
	/** The signal that stopped the probe, once one did. */
	private by: (typeof GRACEFUL_SIGNALS)[number] | undefined;
	/** Aborted when a graceful signal came. */
	readonly signal = this.abort.signal;

	/** For `setSignalStop`: true when it takes `signal` over (the first SIGINT or SIGTERM). */
	readonly take = (signal: NodeJS.Signals): boolean => {
		if ((signal !== 'SIGINT' && signal !== 'SIGTERM') || this.by !== undefined) return false;
		this.by = signal;
		for (const again of GRACEFUL_SIGNALS)
			process.once(again, () => {
				killLiveGroups();
				process.kill(process.pid, again);
			});
		this.abort.abort();
		return true;
	};

	/** Who stopped the probe, for the summary's stop line: `the user` (Ctrl-C), or `SIGTERM`. */
	stopper(): string {
		return this.by === undefined || this.by === 'SIGINT' ? 'the user' : this.by;
	}

	/** After the summary: say on stderr what stopped the probe and when, then die of that signal (128 + n). */
	async dieIfStopped(session: Session): Promise<void> {
		if (this.by === undefined) return;
		const mark = session.getSnapshot().marks.find((m) => m.type === 'phase' && m.name === USER_STOP_PHASE);
		const at = mark === undefined ? '' : ` at ${Math.round(mark.tMs)} ms`;
		const name = this.by === 'SIGINT' ? 'SIGINT (Ctrl-C)' : this.by;
		process.stderr.write(`mcp-wire: stopped by ${name}${at}; the server was shut down\n`);
		// Once stdout is written, as a shell expects of an interrupted command.
		await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
		for (const signal of GRACEFUL_SIGNALS) process.removeAllListeners(signal);
		process.kill(process.pid, this.by);
	}
}

async function runProbeCommand(command: string[], options: ProbeCliOptions): Promise<number> {
	if (command.length === 0 || command[0] === '')
		throw new UsageError('probe: no server command given (usage: mcp-wire probe -- <command> [args...])');
	if (options.json === true && options.report === true)
		throw new UsageError(
			'probe: --json and --report both want stdout; pick one (write the report to a file with `mcp-wire report` on a --json dump)',
		);
	const ignore = parseIgnore(options.ignore);
	const handlers = handlerPlanOf(options, 'probe');
	const failOn = parseFailOn(options.failOn);
	const built = probeEnv(options);

	const isColor = resolveColor(options.color, process.stdout);
	// The TUI takes a terminal unless an output was asked for (--json, --report, --hex: a log to keep).
	const isTui =
		options.tui !== false &&
		options.json !== true &&
		options.report !== true &&
		options.hex !== true &&
		process.stdout.isTTY === true &&
		process.stdin.isTTY === true;

	const baseMeta = {
		tool: {name: 'mcp-wire', version: VERSION},
		node: process.version,
		platform: `${process.platform}-${process.arch}`,
		command,
		...(options.cwd === undefined ? {} : {cwd: options.cwd}),
		envMode: built.mode,
		envKeys: built.keys,
		...stripped(built.env),
		mode: 'probe',
		protocolVersion: options.protocolVersion,
		...captureIdentity(),
	} as const;
	const probeOptions = {
		command,
		env: built.env,
		...(options.cwd === undefined ? {} : {cwd: options.cwd}),
		...(options.timeout === undefined ? {} : {timeoutMs: options.timeout}),
		protocolVersion: options.protocolVersion,
		clientVersion: VERSION,
		...(options.verbose ? {onLog: (line: string) => process.stderr.write(`mcp-wire: ${line}\n`)} : {}),
		handlers,
		// Which handler requests are sent, with which arguments (generated ones too): on stderr, never on
		// stdout (it may be the --json stream); the TUI shows the frames instead.
		onHandlerRequest: (line: string) => {
			if (!isTui) process.stderr.write(`mcp-wire: sending ${line}\n`);
		},
	};
	if (options.as !== undefined) return runAs(options.as, probeOptions, baseMeta, ignore, options.json === true);
	const mode: OutputMode = options.json ? 'json' : options.report ? 'report' : 'plain';
	// Start the server and write `initialize` now, and load the rest while it starts. Not under the TUI
	// (it loads first, then builds each run's session at once) nor on Windows (execa starts the server there).
	const stop = new GracefulStop();
	// Taken before the server starts: a Ctrl-C while the rest of the probe loads (seconds on a loaded
	// machine) still stops it gracefully, with its summary, not by the bare signal.
	if (!isTui) setSignalStop(stop.take);
	const spawned =
		isTui || process.platform === 'win32'
			? undefined
			: startProbeServer({
					...probeOptions,
					initialize: {protocolVersion: options.protocolVersion, clientVersion: VERSION},
				});
	const loading = Promise.all([
		import('../../core/session/session.js'),
		options.verbose === true ? import('../verbose-log.js') : undefined,
		isTui ? undefined : import('../present.js'),
	] as const);
	// The probe itself is needed first (its reply watcher reads the server's first bytes); the session's
	// parts only once the SDK's schemas are there too.
	const {runProbe} = await import('../../probe/probe.js');
	let presenter: Presenter | undefined;
	let newSession!: (init: SessionInit) => Session;
	const schemas = Promise.all([loadSdkSchemas(), loading]).then(([loaded, [{Session}, verbose, present]]) => {
		newSession = (init) => {
			const meta: SessionMeta = {
				...baseMeta,
				startedAt: init.startedAt,
				...(init.pid === undefined ? {} : {pid: init.pid}),
			};
			// --json writes each record as it comes: the probe's session need not keep them (flat memory, as
			// `view --json`; docs/performance.md#replay). Other sessions (re-probe, plain log) keep theirs.
			const retain = !(mode === 'json' && init.purpose === 'probe');
			const session = new Session(meta, {ignore, schemas: init.schemas, retain});
			if (verbose !== undefined)
				verbose.followVerbose(session, init, (line) => process.stderr.write(`mcp-wire: ${line}\n`));
			return session;
		};
		presenter = present?.createPresenter({
			mode,
			isColor,
			hex: options.hex === true,
			redact: options.json ? options.redact === true : options.redact !== false,
			redactPayloads: options.redactPayloads === true,
			...(options.maxLines === undefined ? {} : {maxLines: options.maxLines}),
			serverEnv: built.env,
			out: process.stdout,
			stoppedSummary: (lines, tMs, summary) =>
				stoppedSummary(lines, stoppedLine(tMs, summary, probeOptions.timeoutMs, stop.stopper()), summary),
		});
		return loaded;
	});

	if (isTui) return runProbeTui({...probeOptions, schemas: await schemas}, (init) => newSession(init), failOn);

	const onWait = createWaitProgress({
		stderr: process.stderr,
		verbose: options.verbose === true,
		stdoutIsTerminal: mode === 'plain' && process.stdout.isTTY === true,
	});
	const result = await runProbe({
		...probeOptions,
		signal: stop.signal,
		// stdout a pipe read slower than the server writes: stop reading the server until it drained.
		outputBacklog: () => presenter?.whenWritable(OUTPUT_BACKLOG_BYTES),
		...(spawned ? {spawned} : {}),
		schemas,
		...(onWait ? {onWait} : {}),
		createSession: (init) => {
			const session = newSession(init);
			if (init.purpose === 'probe') presenter!.attach(session);
			return session;
		},
	});
	await presenter!.finish(result.session, result.reprobe);
	setSignalStop(undefined);
	await stop.dieIfStopped(result.session);
	return exitCodeFor(result.summary, failOn);
}

/** `envStripped`: the variables that matter (CA bundles, proxies, registries) this shell has and the server does not get. */
function stripped(env: Readonly<Record<string, string>>): {envStripped?: string[]} {
	const names = strippedEnv(process.env, env, process.platform);
	return names.length === 0 ? {} : {envStripped: names};
}

/**
 * The server's environment from `--inherit-env` and `--env` (the SDK allow-list otherwise); says on stderr
 * which `--env` names this shell does not have. Throws a {@link UsageError} for a malformed `--env`.
 */
function probeEnv(options: ProbeCliOptions): ReturnType<typeof buildEnv> {
	let built;
	try {
		built = buildEnv({
			inheritEnv: options.inheritEnv === true,
			env: options.env,
			parentEnv: process.env,
			platform: process.platform,
		});
	} catch (error) {
		if (error instanceof EnvOptionError) throw new UsageError(`probe: ${error.message}`);
		throw error;
	}
	for (const key of built.missing)
		process.stderr.write(`mcp-wire: --env ${key}: not set in this shell; the server will not get it\n`);
	return built;
}

/**
 * `probe --as <client>` / `--as all`: each distinct opening against a server process of its own, judged per
 * client (cli/as-clients.ts); prints the matrix, or with `--json` one `client-run` record per client.
 */
async function runAs(
	name: string,
	probeOptions: Omit<ProbeOptions, 'createSession' | 'opening' | 'protocolVersion'>,
	baseMeta: Omit<SessionMeta, 'startedAt' | 'pid'>,
	ignore: ReturnType<typeof parseIgnore>,
	json: boolean,
): Promise<number> {
	const [asClients, {Session}] = await Promise.all([
		import('../as-clients.js'),
		import('../../core/session/session.js'),
	]);
	const clients = asClients.clientsNamed(name);
	const {rows, wallMs} = await asClients.runAsClients(clients, {
		probeOptions,
		...(probeOptions.timeoutMs === undefined ? {} : {startupLimitMs: probeOptions.timeoutMs}),
		env: process.env,
		newSession: (init) =>
			new Session(
				{...baseMeta, startedAt: init.startedAt, ...(init.pid === undefined ? {} : {pid: init.pid})},
				{ignore, schemas: init.schemas},
			),
	});
	const lines = json
		? rows.map((row) => JSON.stringify({type: 'client-run', ...row}))
		: asClients.formatMatrix(rows, wallMs, asClients.distinctOpenings(clients));
	for (const line of lines) process.stdout.write(`${line}\n`);
	return asClients.asExitCode(rows);
}

/**
 * The probe under the TUI: the server stays up while the user looks (and sends requests with `s`);
 * `r` re-runs the probe with a fresh process; quitting shuts the server down per R14. After the TUI
 * has restored the terminal, the summary of the last run is printed.
 */
async function runProbeTui(
	probeOptions: Omit<ProbeOptions, 'createSession' | 'schemas'> & {readonly schemas: Awaited<ProbeOptions['schemas']>},
	newSession: (init: SessionInit) => Session,
	failOn: FailOn,
): Promise<number> {
	process.env['NODE_ENV'] ??= 'production';
	// Loaded before the first run, so that each run builds its session at once (the TUI shows it).
	const [{startTui}, {formatSummary, formatFindingDigest}, {runProbe}, starter] = await Promise.all([
		import('../../render/tui/start-tui.js'),
		import('../../render/text/plain-log.js'),
		import('../../probe/probe.js'),
		loadProcessStarter(),
	]);
	const {schemas} = probeOptions;
	type Run = {
		session: Session;
		done: Promise<ProbeResult>;
		quit: () => void;
		abort: AbortController;
		send?: (method: string, params?: unknown) => boolean;
	};
	const launch = (): Run => {
		let quit = (): void => undefined;
		const hold = new Promise<void>((resolve) => {
			quit = resolve;
		});
		const abort = new AbortController();
		let session: Session | undefined;
		const run = {quit, abort} as Run;
		run.done = runProbe({
			...probeOptions,
			schemas,
			starter,
			signal: abort.signal,
			interactive: {hold, onReady: (send) => (run.send = send)},
			createSession: (init) => {
				const created = newSession(init);
				if (init.purpose === 'probe') session = created;
				return created;
			},
		});
		run.session = session!;
		return run;
	};
	let current = launch();
	await startTui({
		store: current.session,
		stdin: process.stdin,
		stdout: process.stdout,
		color: resolveColor('auto', process.stdout),
		// The status bar counts the handshake's wait: initialize's limit (30 s), not a later request's.
		waitLimitMs: probeOptions.timeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS,
		actions: {
			send: (method, params) => current.send?.(method, params) ?? false,
			rerun: async () => {
				current.quit();
				current.abort.abort();
				await current.done;
				current = launch();
				return current.session;
			},
		},
	});
	current.quit();
	// Still probing (a silent server's re-probe, a shutdown in progress): stop now rather than wait.
	const early = await Promise.race([
		current.done,
		new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 200).unref()),
	]);
	if (early === undefined) {
		process.stderr.write('mcp-wire: stopping the server…\n');
		current.abort.abort();
	}
	const result = await current.done;
	const color = resolveColor('auto', process.stdout);
	const stop = result.session
		.getSnapshot()
		.marks.find((mark) => mark.type === 'phase' && mark.name === USER_STOP_PHASE);
	// The TUI's screen is gone: each code's message and fix stay on the terminal above the summary.
	for (const line of formatFindingDigest(result.session.getSnapshot().findings, {color}))
		process.stdout.write(`${line}\n`);
	const lines = formatSummary(result.summary, {color, hint: true});
	if (stop === undefined) {
		for (const line of lines) process.stdout.write(`${line}\n`);
		return exitCodeFor(result.summary, failOn);
	}
	// The user quit before the exchange was over: what was seen stays a finding, the silence is not one.
	const stopped = stoppedLine(stop.tMs, result.summary, probeOptions.timeoutMs);
	for (const line of stoppedSummary(lines, stopped, result.summary)) process.stdout.write(`${line}\n`);
	return reachesFailOn(result.summary, failOn) ? EXIT.findings : EXIT.stopped;
}

/**
 * The summary lines of a probe the user stopped (the TUI's quit, Ctrl-C on a plain probe): the summary's
 * verdict decides (core/session/summary.ts): `stopped` (it would have been `ok`: the silence before the
 * stop is no verdict on the server) says when and before what on its line, `verdict STOPPED: <stopped>`;
 * any other verdict stays and the stop line follows it.
 * @param lines the summary as `formatSummary` gives it (the verdict first).
 * @param stopped the {@link stoppedLine}.
 */
export function stoppedSummary(lines: readonly string[], stopped: string, summary: ProbeResult['summary']): string[] {
	return summary.verdict === 'stopped'
		? [`verdict STOPPED: ${stopped}`, ...lines.slice(1)]
		: [lines[0]!, stopped, ...lines.slice(1)];
}

/**
 * What the summary says when the user stopped the probe early: when, before what, and how long the probe
 * would have waited for that reply.
 * @param tMs when the user stopped (ms since the session started).
 * @param timeoutMs the user's `--timeout` (ms), or undefined: then initialize's limit (30 s) before the
 *   server answered it, a later request's (10 s) after.
 * @param by who stopped it: `the user` (default), or a signal's name (`SIGTERM`, a CI job's timeout).
 */
export function stoppedLine(
	tMs: number,
	summary: ProbeResult['summary'],
	timeoutMs: number | undefined,
	by = 'the user',
): string {
	const seconds = (tMs / 1000).toFixed(1);
	const beforeInitialize = summary.serverInfo === undefined && summary.protocolVersion === undefined;
	const before = beforeInitialize ? 'before the server answered initialize' : "before the probe's exchange was over";
	const limitMs = timeoutMs ?? (beforeInitialize ? DEFAULT_INITIALIZE_TIMEOUT_MS : DEFAULT_TIMEOUT_MS);
	return `stopped by ${by} after ${seconds} s, ${before} (the probe would wait ${Math.round(limitMs / 1000)} s)`;
}
