import {HOSTS} from '../../core/clients/registry.js';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {Command, Option} from 'commander';
import {
	applyPlan,
	backupPathOf,
	CLIENT_NAMES,
	clientFromPath,
	ConfigError,
	formatProblem,
	locateServer,
	parseServers,
	planUnwrap,
	planWrap,
	readServers,
	type ClientName,
	type ConfigFile,
	type ConfigScope,
	type EditPlan,
} from '../../configs/index.js';
import {captureHomeProblem, capturesDir} from '../../captures/capture-store.js';
import {resolveCommand} from '../../configs/resolve-command.js';
import {EXIT, UsageError} from '../exit-codes.js';
import {PACKAGE_ROOT_URL} from '../version.js';
import {discoverForCli} from '../configs.js';

/** This package's launcher, absolute (<package root>/bin/mcp-wire.js, in the tsc build and the bundled CLI alike). */
export const BIN_PATH = fileURLToPath(new URL('bin/mcp-wire.js', PACKAGE_ROOT_URL));

/**
 * The command a wrapped entry runs, then the original command and arguments (docs/cli.md#wrap-and-unwrap):
 * - a user or local config: `[node, /abs/bin/mcp-wire.js, 'tap', '--name', NAME, '--']`. Absolute paths,
 *   because GUI clients start servers with a minimal PATH (docs/protocol.md C8) on which neither
 *   `mcp-wire` nor an nvm-installed `node` may be found;
 * - a project config (a file teams commit): `['mcp-wire', 'tap', '--name', NAME, '--']`, the command
 *   found on PATH, so the file holds no path of this machine (not `npx -y mcp-wire`: that would fetch
 *   whatever package holds the name on the registry).
 */
export function tapCommandFor(name: string, scope: ConfigScope): string[] {
	const launcher = scope === 'project' ? ['mcp-wire'] : [process.execPath, BIN_PATH];
	return [...launcher, 'tap', '--name', name, '--'];
}

/**
 * Where project configs' backups go: `<state dir>/mcp-wire/backups` (beside the captures), or undefined
 * when there is no home to keep them in (as for captures: capture-store.ts).
 */
export function projectBackupsDir(): string | undefined {
	return captureHomeProblem() === undefined ? path.join(path.dirname(capturesDir()), 'backups') : undefined;
}

interface WrapCliOptions {
	readonly client?: ClientName;
	readonly config?: string;
	readonly scope?: ConfigScope;
	readonly dryRun?: boolean;
	readonly home?: string;
	readonly cwd?: string;
}

const CLIENT_LABEL: Readonly<Record<ClientName, string>> = Object.fromEntries(
	HOSTS.map((profile) => [profile.id, profile.displayName]),
) as Record<ClientName, string>;

function addOptions(command: Command): Command {
	return command
		.argument('<name>', 'the server name, as in the config')
		.addOption(new Option('--client <name>', "only this client's configs").choices([...CLIENT_NAMES]))
		.option('--config <file>', 'edit this config file (its client is told from the name, or give --client)')
		.addOption(
			new Option('--scope <scope>', 'only this scope (Claude Code keeps user and local servers in one file)').choices([
				'user',
				'project',
				'local',
			]),
		)
		.option('--dry-run', 'print the change as a unified diff and write nothing')
		.addOption(new Option('--home <dir>', 'the home directory to look in (default: yours)').hideHelp())
		.addOption(new Option('--cwd <dir>', 'the project folder to look in (default: the current directory)').hideHelp());
}

/**
 * `mcp-wire wrap NAME [--client C] [--config FILE] [--scope S] [--dry-run]` (docs/cli.md#wrap-and-unwrap): rewrite one
 * stdio server entry so its client runs it through `mcp-wire tap` (capture + live attach), keeping a
 * backup (beside a user config, outside the project for a project config) and every other byte of the file. Idempotent. Exit 0 on success or when
 * already wrapped; 2 for an unknown or ambiguous name, a non-stdio entry or broken JSON (the file is
 * left untouched); 1 when the file cannot be written.
 */
export function wrapCommand(): Command {
	return addOptions(
		new Command('wrap')
			.summary('make a client run one server through `mcp-wire tap` (edits its config, keeps a backup)')
			.description(
				'Rewrite one server entry of an MCP client config so the client starts it through `mcp-wire tap`: every byte is recorded to a capture and can be watched live with `mcp-wire attach NAME`. Undo with `mcp-wire unwrap NAME`.',
			),
	).action(async (name: string, options: WrapCliOptions) => {
		process.exitCode = runEdit('wrap', name, options);
	});
}

/**
 * `mcp-wire unwrap NAME [...]` (docs/cli.md#wrap-and-unwrap): put a wrapped entry back as it was (the exact original
 * bytes from the backup when they match, else the tap arguments removed). Idempotent; same exit codes
 * as `wrap`.
 */
export function unwrapCommand(): Command {
	return addOptions(
		new Command('unwrap')
			.summary('undo `mcp-wire wrap`: the server entry runs its original command again')
			.description('Put a server entry that `mcp-wire wrap` changed back to its original command and arguments.'),
	).action(async (name: string, options: WrapCliOptions) => {
		process.exitCode = runEdit('unwrap', name, options);
	});
}

function where(file: ConfigFile): string {
	return `${file.client} ${file.scope} config ${file.path}`;
}

function discover(options: WrapCliOptions): ConfigFile[] {
	const home = path.resolve(options.home ?? os.homedir());
	const cwd = path.resolve(options.cwd ?? process.cwd());
	const files = discoverForCli('', {
		home,
		cwd,
		...(options.client === undefined ? {} : {client: options.client}),
		...(options.config === undefined ? {} : {config: options.config}),
	});
	return files.filter((file) => file.exists && (options.scope === undefined || file.scope === options.scope));
}

/** Every server name in `files` with where it is, and every file that could not be read. */
function inventory(files: readonly ConfigFile[]): {names: string[]; broken: string[]} {
	const names: string[] = [];
	const broken: string[] = [];
	for (const file of files) {
		try {
			const {servers, problems} = readServers(file);
			for (const server of servers) names.push(`${server.name} (${file.client} ${file.scope})`);
			for (const problem of problems)
				if (problem.kind === 'broken-json' || (problem.kind === 'not-object' && problem.server === undefined))
					broken.push(formatProblem(problem));
		} catch (error) {
			broken.push((error as Error).message);
		}
	}
	return {names: [...new Set(names)], broken: [...new Set(broken)]};
}

function plan(action: 'wrap' | 'unwrap', file: ConfigFile, name: string): EditPlan {
	try {
		return action === 'wrap'
			? planWrap(file, name, tapCommandFor(name, file.scope))
			: planUnwrap(file, name, backupPathOf(file, projectBackupsDir()));
	} catch (error) {
		if (error instanceof ConfigError) throw new UsageError(`${error.message}; the file is unchanged`);
		throw error;
	}
}

/** Finds the one file holding `name`, or throws a UsageError that says what there is instead. */
function chooseFile(
	action: 'wrap' | 'unwrap',
	files: readonly ConfigFile[],
	name: string,
	options: WrapCliOptions,
): ConfigFile {
	if (files.length === 0) {
		const narrowed = options.client === undefined ? '' : ` for ${CLIENT_LABEL[options.client]}`;
		throw new UsageError(
			`no MCP client config file found${narrowed}${options.scope === undefined ? '' : ` in scope ${options.scope}`}; pass --config FILE`,
		);
	}
	const located = locateServer(files, name);
	if (located.length === 1) return located[0]!;
	if (located.length > 1) {
		throw new UsageError(
			`server "${name}" is in ${located.length} configs: ${located.map(where).join('; ')}. Choose one with --client, --config or --scope`,
		);
	}
	if (new Set(files.map((file) => file.path)).size === 1 && files.length === 1) {
		plan(action, files[0]!, name);
	}
	const {names, broken} = inventory(files);
	const known = names.length === 0 ? 'no server is configured there' : `known: ${names.join(', ')}`;
	const unreadable = broken.length === 0 ? '' : `; not readable: ${broken.join('; ')}`;
	throw new UsageError(
		`no server "${name}" in ${files.length === 1 ? files[0]!.path : 'the client configs'} (${known})${unreadable}`,
	);
}

/**
 * For `unwrap --config FILE` whose name does not tell its client: the client whose layout of FILE holds
 * `name` as an entry that visibly runs `mcp-wire tap` (the clients differ only in where the servers are),
 * or undefined when none does (then the usual "pass --client" error stands).
 */
function clientOfWrappedEntry(options: WrapCliOptions, name: string): ClientName | undefined {
	if (options.config === undefined || options.client !== undefined) return undefined;
	if (clientFromPath(path.resolve(options.cwd ?? process.cwd(), options.config), process.platform) !== undefined)
		return undefined;
	for (const client of CLIENT_NAMES) {
		try {
			const files = discover({...options, client});
			if (locateServer(files, name).some((file) => planUnwrap(file, name, undefined).status === 'changed'))
				return client;
		} catch {
			// not this client's layout
		}
	}
	return undefined;
}

function runEdit(action: 'wrap' | 'unwrap', name: string, options: WrapCliOptions): number {
	const guessed = action === 'unwrap' ? clientOfWrappedEntry(options, name) : undefined;
	const files = discover(guessed === undefined ? options : {...options, client: guessed});
	const file = chooseFile(action, files, name, options);
	const edit = plan(action, file, name);
	if (edit.status === 'already-wrapped') {
		process.stdout.write(`"${name}" in ${where(file)} already runs through mcp-wire tap; nothing to do\n`);
		return EXIT.ok;
	}
	if (edit.status === 'not-wrapped') {
		process.stdout.write(`"${name}" in ${where(file)} is not wrapped; nothing to do\n`);
		return EXIT.ok;
	}
	if (options.dryRun) {
		process.stdout.write(edit.diff.endsWith('\n') ? edit.diff : `${edit.diff}\n`);
		process.stderr.write(`mcp-wire: dry run: ${file.path} was not changed\n`);
		return EXIT.ok;
	}
	let result;
	// Another run may edit the file between our plan and our write (applyPlan's lock makes that a
	// changed-on-disk error, never a lost edit): plan again on the new text, a few times.
	for (let attempt = 1; ; attempt++) {
		try {
			result = applyPlan(
				file,
				attempt === 1 ? edit : plan(action, file, name),
				backupPathOf(file, projectBackupsDir()),
			);
			break;
		} catch (error) {
			if (error instanceof ConfigError && error.code === 'changed-on-disk' && attempt < 5) continue;
			if (error instanceof ConfigError)
				throw new UsageError(
					error.message,
					error.code === 'write-failed' || error.code === 'changed-on-disk' ? EXIT.findings : EXIT.usage,
				);
			throw error;
		}
	}
	// A client told from the entry alone is not named: any client may read that file.
	const label = guessed === undefined ? CLIENT_LABEL[file.client] : 'your client';
	if (action === 'wrap') {
		process.stdout.write(
			[
				`wrapped "${name}" in ${where(file)}`,
				...(file.scope === 'project'
					? [
							`it runs \`mcp-wire\` from PATH: a project file is shared, so it holds no path of this machine${onPath(file) ? '' : '; it is not on your PATH now: put it there (`npm link` in a checkout of mcp-wire, see its README#install) or the client cannot start this server'}`,
						]
					: []),
				result.backupPath === undefined
					? 'backup: none (no home directory to keep it in, and none is written in the project); unwrap undoes the edit in place'
					: `backup: ${result.backupPath}${result.backupWritten ? '' : ' (kept from before)'}`,
				`Restart ${label} (or reconnect the server) so it starts through the tap; watch it with \`mcp-wire attach ${shellWord(name)}\`, undo with \`mcp-wire unwrap ${shellWord(name)}\`.`,
				'',
			].join('\n'),
		);
	} else {
		const how = edit.restoredFrom === 'backup' ? 'restored exactly from the backup' : 'tap arguments removed';
		const restored = restoredCommand(file, edit.after, name);
		process.stdout.write(
			[
				`unwrapped "${name}" in ${guessed === undefined ? where(file) : file.path} (${how})`,
				...(restored === undefined
					? []
					: [`it runs again without the tap: ${restored.map((word) => shellWord(word)).join(' ')}`]),
				...(result.backupPath === undefined
					? []
					: [`backup kept: ${result.backupPath} (delete it when you no longer need it)`]),
				`Restart ${label} (or reconnect the server) to apply it.`,
				'',
			].join('\n'),
		);
	}
	return EXIT.ok;
}

/** Whether `mcp-wire` is found on this process's PATH (what a project entry runs). */
function onPath(file: ConfigFile): boolean {
	return resolveCommand('mcp-wire', process.env['PATH'] ?? '', path.dirname(file.path)) !== null;
}

/** The entry's `command` and `args` at `jsonPath` in the config text `text` (JSONC), when it has a command. */
function restoredCommand(file: ConfigFile, text: string, name: string): string[] | undefined {
	// Read as the file's own format (JSON, JSONC, TOML), so a Codex config.toml shows its command too.
	const entry = parseServers(file, text).servers.find((server) => server.name === name);
	return entry?.command === undefined ? undefined : [entry.command, ...entry.args];
}

/** `word` as one POSIX shell word: unchanged when it is safe, else in single quotes (so a printed command can be pasted). */
export function shellWord(word: string): string {
	return /^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
