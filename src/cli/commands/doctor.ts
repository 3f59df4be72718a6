import os from 'node:os';
import path from 'node:path';
import {Command, Option} from 'commander';
import {CLIENT_NAMES, type ClientName, type ConfigFile} from '../../configs/index.js';
import {DEFAULT_JOBS, DEFAULT_TOTAL_TIMEOUT_MS, exitCodeOf, formatJsonRecords, formatReport, runDoctor, STATUS_TEXT} from '../../doctor/index.js';
import {DEFAULT_PROTOCOL_VERSION, DEFAULT_TIMEOUT_MS} from '../../tap/probe.js';
import {capturesDir, currentPlatform, ensurePrivateDir, pruneCaptures, pruneLimitsFromEnv} from '../../tap/capture-store.js';
import {EXIT} from '../exit-codes.js';
import {parsePositiveInt, resolveColor} from '../options.js';
import {VERSION} from '../version.js';
import {discoverForCli} from '../configs.js';

interface DoctorCliOptions {
	readonly client?: ClientName;
	readonly config?: string;
	readonly json?: boolean;
	readonly jobs: number;
	readonly timeout: number;
	readonly totalTimeout: number;
	readonly protocolVersion: string;
	readonly capture: boolean;
	readonly color: 'auto' | 'always' | 'never';
	readonly verbose?: boolean;
	readonly home?: string;
	readonly cwd?: string;
}

const HELP_AFTER = `
Each stdio server is started the way its client starts it: the entry's command, args, env and cwd,
with that client's environment rule (Claude Desktop and Cursor: a minimal PATH and the config env;
Claude Code and VS Code: their whole environment plus the config env). A server that fails there
but works with your shell's environment is probed a few more times to name the variables that make
the difference (PYTHONUNBUFFERED, a PATH folder from nvm/pyenv/asdf/volta, VIRTUAL_ENV, ...).

Status: ${STATUS_TEXT.ok} (no findings), ${STATUS_TEXT.warn} (works; findings this client tolerates),
${STATUS_TEXT.fail} (this client gets no working session), ${STATUS_TEXT.skipped} (HTTP/SSE entry, not probed).
Every probe's capture is kept: open it with \`mcp-wire view FILE\` or \`mcp-wire report FILE\`.
Config files are only read, never written.

Exit code: 0 when no entry fails, 1 when one does, 2 on a usage error.`;

/**
 * `mcp-wire doctor [--client NAME] [--config FILE] [--json]` (issue 6): find every MCP client config,
 * probe each stdio server as its client launches it, and print a table with the verdict, startup time,
 * tools count and the first finding with its fix (or one NDJSON record per server and a summary with
 * `--json`). Exit code 1 when any entry fails, 0 otherwise, 2 on a usage error.
 */
export function doctorCommand(): Command {
	return new Command('doctor')
		.summary('check every MCP server in your client configs, the way each client starts it')
		.description('Find the MCP client configs on this machine (Claude Desktop, Claude Code, Cursor, VS Code), probe every stdio server the way its client launches it, and say for each whether it works and why not.')
		.addOption(new Option('--client <name>', 'only this client\'s configs').choices([...CLIENT_NAMES]))
		.option('--config <file>', 'only this config file (its client is told from the name, or give --client)')
		.option('--json', 'write one NDJSON record per server and a summary record, nothing else')
		.option('--jobs <n>', 'probes running at the same time', parsePositiveInt('--jobs'), DEFAULT_JOBS)
		.option('--timeout <ms>', 'how long each probe waits for each response', parsePositiveInt('--timeout'), DEFAULT_TIMEOUT_MS)
		.option('--total-timeout <ms>', 'the whole run; probes still running then are stopped', parsePositiveInt('--total-timeout'), DEFAULT_TOTAL_TIMEOUT_MS)
		.option('--protocol-version <version>', 'the protocol version offered in initialize', DEFAULT_PROTOCOL_VERSION)
		.option('--no-capture', 'do not keep the probes\' captures')
		.addOption(new Option('--color <when>', 'colour output').choices(['auto', 'always', 'never']).default('auto'))
		.option('--verbose', 'log what each probe does to stderr')
		.addOption(new Option('--home <dir>', 'the home directory to look in (default: yours)').hideHelp())
		.addOption(new Option('--cwd <dir>', 'the project folder to look in (default: the current directory)').hideHelp())
		.addHelpText('after', HELP_AFTER)
		.action(async (options: DoctorCliOptions) => {
			process.exitCode = await runDoctorCommand(options);
		});
}

function discover(options: DoctorCliOptions, home: string, cwd: string): ConfigFile[] {
	return discoverForCli('doctor: ', {home, cwd, ...(options.client === undefined ? {} : {client: options.client}), ...(options.config === undefined ? {} : {config: options.config})});
}

/** The private capture directory, pruned; undefined (with a warning on stderr) when it cannot be used. */
function prepareCaptureDir(): string | undefined {
	const facts = currentPlatform();
	const dir = capturesDir(facts);
	try {
		ensurePrivateDir(dir, facts.uid);
	} catch (error) {
		process.stderr.write(`mcp-wire: cannot use the capture directory ${dir} (${(error as Error).message}); captures are not kept\n`);
		return undefined;
	}
	const limits = pruneLimitsFromEnv(facts.env);
	for (const problem of limits.problems) process.stderr.write(`mcp-wire: ${problem}\n`);
	for (const problem of pruneCaptures(dir, limits).problems) process.stderr.write(`mcp-wire: ${problem}\n`);
	return dir;
}

async function runDoctorCommand(options: DoctorCliOptions): Promise<number> {
	const home = path.resolve(options.home ?? os.homedir());
	const cwd = path.resolve(options.cwd ?? process.cwd());
	const files = discover(options, home, cwd);
	const captureDir = options.capture ? prepareCaptureDir() : undefined;
	const progress = !options.json && process.stderr.isTTY === true && !options.verbose;
	const report = await runDoctor({
		files,
		context: {env: process.env, home, cwd, platform: process.platform},
		timeoutMs: options.timeout,
		totalTimeoutMs: options.totalTimeout,
		jobs: options.jobs,
		protocolVersion: options.protocolVersion,
		toolVersion: VERSION,
		...(captureDir === undefined ? {} : {captureDir}),
		...(options.verbose ? {onLog: (line: string) => process.stderr.write(`mcp-wire: ${line}\n`)} : {}),
		...(progress ? {onRow: (_row, done, total) => process.stderr.write(`\rmcp-wire: checked ${done}/${total}`)} : {}),
	});
	if (progress && report.rows.length > 0) process.stderr.write('\r\x1b[K');
	const exitCode = exitCodeOf(report);
	let isClosed = false;
	process.stdout.on('error', (error: NodeJS.ErrnoException) => {
		if (error.code === 'EPIPE') isClosed = true;
		else throw error;
	});
	const lines = options.json ? formatJsonRecords(report, exitCode) : formatReport(report, {color: resolveColor(options.color, process.stdout)});
	if (!isClosed) process.stdout.write(`${lines.join('\n')}\n`);
	return exitCode === 1 ? EXIT.findings : EXIT.ok;
}
