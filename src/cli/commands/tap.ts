import {isUtf8} from 'node:buffer';
import {lstatSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {Command, InvalidArgumentError, Option} from 'commander';
import type {SessionMeta} from '../../core/types.js';
import {
	BINARY_CAPTURE_EXT,
	captureFileName,
	captureHomeProblem,
	capturesDir,
	currentPlatform,
	defaultName,
	pruneLimitsFromEnv,
	runtimeDir,
	sanitizeName,
	socketPath,
} from '../../captures/capture-store.js';
import {CaptureWriter, DEFAULT_CAPTURE_WAIT_MS} from '../../tap/capture-writer.js';
import {createClock} from '../../process/clock.js';
import {DEFAULT_KILL_AFTER_MS, inPlaceFd, openWireStream, runTap} from '../../tap/pass-through.js';
import {UsageError} from '../exit-codes.js';
import {captureIdentity} from '../redact-options.js';
import {VERSION} from '../version.js';

const DIAGRAM = `
How it sits (replace the server command in your client's config with this one):

  client ──stdin──▶  mcp-wire tap  ──stdin──▶ server
  client ◀─stdout──  (verbatim)    ◀─stdout── server
  client ◀─stderr──                ◀─stderr── server
                          │
                          └─▶ capture file + live socket  ◀── mcp-wire attach / view

Nothing of mcp-wire's goes to stdout. The exit code (or signal) is the server's.
Captures: $XDG_STATE_HOME/mcp-wire/captures (~/.local/state/…; macOS ~/Library/Logs/mcp-wire/captures;
Windows %LOCALAPPDATA%\\mcp-wire\\captures), named <time>-<name>-<pid>.mcpcap, mode 0600. Old ones are
pruned: MCP_WIRE_MAX_CAPTURES (default 50 files), MCP_WIRE_MAX_CAPTURE_MB (default 200 MiB); 0 means no limit.
Every read is forwarded at once. When the capture is MCP_WIRE_CAPTURE_LAG_MB (default 48) behind on a
stream, reading that stream's source pauses until the capture catches up, at most --capture-wait ms
(default ${DEFAULT_CAPTURE_WAIT_MS}) each time; after that, reads it has no room for are not recorded (a gap record marks them).
SIGINT, SIGTERM and SIGHUP are forwarded; a server still running MCP_WIRE_KILL_AFTER_MS (default 1500,
0: never) later is sent SIGKILL, as a client would do next (and the tap cannot forward SIGKILL).
Watch live with \`mcp-wire sessions\` and \`mcp-wire attach\`; open a capture with \`mcp-wire view FILE\`.

Example:
  mcp-wire tap --name fs -- npx -y @modelcontextprotocol/server-filesystem ~/src
`;

/**
 * The signals a process dies of by default, which the tap re-raises on itself to mirror the server's
 * death (SIGKILL needs no reset; the others are set back to the default first, see {@link dieOfSignal},
 * which also undoes Node's own use of SIGPIPE, ignored, and SIGUSR1, the inspector).
 */
const RERAISE = new Set([
	'SIGINT',
	'SIGTERM',
	'SIGHUP',
	'SIGKILL',
	'SIGQUIT',
	'SIGABRT',
	'SIGSEGV',
	'SIGBUS',
	'SIGFPE',
	'SIGILL',
	'SIGUSR1',
	'SIGUSR2',
	'SIGPIPE',
	'SIGALRM',
	'SIGTRAP',
	'SIGSYS',
	'SIGXCPU',
	'SIGXFSZ',
	'SIGVTALRM',
	'SIGPROF',
	'SIGPOLL',
	'SIGIO',
	'SIGPWR',
	'SIGSTKFLT',
]);

/**
 * Die of `signal`, as the server did, so the client sees the same end (docs/cli.md#tap). Node's handling of the
 * signal is undone first: our listeners are removed, and one listener added and removed again makes
 * libuv set the disposition back to SIG_DFL. That is also what undoes Node's start-up choices: SIGPIPE
 * ignored (set at start-up) and SIGUSR1 starting the inspector. Returns only when the signal did not kill
 * us (the caller then exits with 128 + the signal number).
 */
function dieOfSignal(signal: NodeJS.Signals): void {
	process.removeAllListeners(signal);
	if (signal !== 'SIGKILL' && signal !== 'SIGSTOP') {
		try {
			process.on(signal, ignoreSignal);
			process.off(signal, ignoreSignal);
		} catch {
			// a signal libuv cannot watch: raise it as it is
		}
	}

	process.kill(process.pid, signal);
}

interface TapCliOptions {
	readonly capture?: string | boolean;
	readonly name?: string;
	readonly captureWait?: number;
}

/** The longest `--capture-wait` (ms): Node's largest timer delay. */
const MAX_CAPTURE_WAIT_MS = 2 ** 31 - 1;

/**
 * commander parser for `--capture-wait <ms>`: a whole number of ms, 0 (never wait) up to
 * {@link MAX_CAPTURE_WAIT_MS}; anything else is a usage error (exit 2).
 */
export function parseCaptureWait(value: string): number {
	const n = Number(value);
	if (value.trim() === '' || !Number.isInteger(n) || n < 0 || n > MAX_CAPTURE_WAIT_MS) {
		throw new InvalidArgumentError(
			`--capture-wait takes a whole number of ms from 0 (never wait) to ${MAX_CAPTURE_WAIT_MS}, got "${value}"`,
		);
	}

	return n;
}

/**
 * A number from the environment variable `key`, or undefined when it is unset or empty. A value that
 * is not a finite number at least `min` (above it when `isMinExcluded`) gives one warning,
 * `KEY=value is not <expected>; using the default (<fallback>)`, and undefined.
 */
function numberFromEnv(
	env: Readonly<Record<string, string | undefined>>,
	key: string,
	rule: {readonly min: number; readonly isMinExcluded: boolean; readonly expected: string; readonly fallback: string},
	warn: (message: string) => void,
): number | undefined {
	const value = env[key];
	if (value === undefined || value === '') return undefined;
	const number = Number(value);
	if (!Number.isFinite(number) || number < rule.min || (rule.isMinExcluded && number === rule.min)) {
		warn(`${key}=${value} is not ${rule.expected}; using the default (${rule.fallback})`);
		return undefined;
	}

	return number;
}

/**
 * `MCP_WIRE_CAPTURE_LAG_MB`: how far (MiB) the capture may fall behind forwarding before reading waits for it (`--capture-wait`) and then recording stops
 * on one stream (default 48: the size of the ring's stdin and stdout arenas, see DEFAULT_RING_BYTES), in bytes. Raising it
 * lets the capture fall further behind before the source is paused, at the cost of that much memory.
 */
function captureLagFromEnv(
	env: Readonly<Record<string, string | undefined>>,
	warn: (message: string) => void,
): number | undefined {
	const mb = numberFromEnv(
		env,
		'MCP_WIRE_CAPTURE_LAG_MB',
		{min: 0, isMinExcluded: true, expected: 'a positive number of MiB', fallback: '48'},
		warn,
	);
	return mb === undefined ? undefined : Math.round(mb * 1024 * 1024);
}

/**
 * `MCP_WIRE_KILL_AFTER_MS`: how long after a forwarded signal the tap SIGKILLs a server still running
 * (default {@link DEFAULT_KILL_AFTER_MS}; 0: never), in ms.
 */
function killAfterFromEnv(
	env: Readonly<Record<string, string | undefined>>,
	warn: (message: string) => void,
): number | undefined {
	const ms = numberFromEnv(
		env,
		'MCP_WIRE_KILL_AFTER_MS',
		{min: 0, isMinExcluded: false, expected: 'a number of ms (0 or more)', fallback: String(DEFAULT_KILL_AFTER_MS)},
		warn,
	);
	return ms === undefined ? undefined : Math.round(ms);
}

/**
 * `mcp-wire tap [--capture FILE] [--name NAME] [--no-capture] -- <command> [args...]` (docs/cli.md#tap):
 * the command a client config runs in place of the server. Forwards stdio verbatim, records a capture
 * (default: the state directory, see capture-store.ts) and serves `mcp-wire attach` on a Unix socket.
 * Exits with the server's exit code, or re-raises the signal that killed it.
 */
export function tapCommand(): Command {
	return new Command('tap')
		.summary("sit in a real client's stdio pipe: forward every byte unchanged, record a capture")
		.description(
			'Run an MCP server between a real client and itself: every byte is forwarded unchanged both ways, recorded to a capture file, and served live to `mcp-wire attach`.',
		)
		.argument('<command...>', 'the server command and its arguments (after --)')
		.addOption(
			new Option(
				'--capture <file>',
				'write the capture to FILE instead of the state directory (not pruned; an existing FILE is kept and the capture goes to FILE.1, FILE.2, … before its extension)',
			),
		)
		.addOption(new Option('--no-capture', 'record nothing and serve no live socket (a pure relay)'))
		.option('--name <name>', 'name for the capture file and `mcp-wire attach NAME` (default: from the command)')
		.addOption(
			new Option(
				'--capture-wait <ms>',
				`when the capture is a whole buffer behind, pause reading the source that many ms at most for it to catch up (bytes already read are forwarded at once); 0: never pause, leave a gap (default ${DEFAULT_CAPTURE_WAIT_MS})`,
			).argParser(parseCaptureWait),
		)
		.passThroughOptions()
		.addHelpText('after', DIAGRAM)
		.action(async (command: string[], options: TapCliOptions) => {
			const code = await tapAction(command, options);
			process.exitCode = code;
		});
}

function ignoreSignal(): void {
	// nothing: see tapAction
}

async function tapAction(command: string[], options: TapCliOptions): Promise<number> {
	if (command.length === 0)
		throw new UsageError('tap: missing the server command (mcp-wire tap -- <command> [args...])');
	// A file-size limit (RLIMIT_FSIZE) must stop only the capture (its write fails with EFBIG, one
	// warning), never the relay: SIGXFSZ's default action would kill the tap mid-session (docs/cli.md#tap).
	if (process.platform !== 'win32') process.on('SIGXFSZ', ignoreSignal);
	const clock = createClock();
	for (const warning of notUtf8Warnings(command)) process.stderr.write(`mcp-wire: warning: ${warning}\n`);
	const facts = currentPlatform();
	const name = sanitizeName(options.name ?? defaultName(command));
	const isCapturing = options.capture !== false;
	const explicit = typeof options.capture === 'string' ? freeCapturePath(path.resolve(options.capture)) : undefined;
	if (explicit !== undefined && explicit !== path.resolve(options.capture as string)) {
		process.stderr.write(
			`mcp-wire: ${path.resolve(options.capture as string)} exists (kept); capturing to ${explicit}\n`,
		);
	}
	const stdout = openWireStream(1, process.stdout);
	const stdinFd = inPlaceFd(0);
	let isStdinStream = false;
	/** The capture file, once the capture started (announced in the header for `attach`). */
	let capturePath: string | undefined;
	const killAfterMs = killAfterFromEnv(facts.env, (message) => process.stderr.write(`mcp-wire: warning: ${message}\n`));
	const result = await runTap({
		command,
		env: process.env,
		...(killAfterMs === undefined ? {} : {killAfterMs}),
		io: {
			stdin: () => {
				isStdinStream = true;
				return process.stdin;
			},
			...(stdinFd === undefined ? {} : {stdinFd}),
			stdout,
			stderr: process.stderr,
		},
		clock,
		...(isCapturing
			? {
					capture: {
						start: (warn: (message: string) => void) => {
							const limits = pruneLimitsFromEnv(facts.env);
							for (const problem of limits.problems) warn(problem);
							if (explicit === undefined) {
								const problem = captureHomeProblem(facts);
								if (problem !== undefined) {
									warn(
										`capture disabled: ${problem} (set HOME or XDG_STATE_HOME, or pass --capture FILE); forwarding goes on`,
									);
									return undefined;
								}
							}

							const dir = capturesDir(facts);
							const lag = captureLagFromEnv(facts.env, warn);
							capturePath =
								explicit ??
								path.join(dir, captureFileName(new Date(clock.startedAt), name, process.pid, BINARY_CAPTURE_EXT));
							return CaptureWriter.start({
								...(lag === undefined ? {} : {ringBytes: lag}),
								...(options.captureWait === undefined ? {} : {waitMs: options.captureWait}),
								path: capturePath,
								...(explicit === undefined
									? {privateDir: dir, prune: {maxFiles: limits.maxFiles, maxBytes: limits.maxBytes}}
									: {}),
								socket: {
									address: socketPath(name, process.pid, facts),
									...(facts.platform === 'win32' ? {} : {dir: runtimeDir(facts)}),
								},
								onWarning: warn,
							});
						},
						meta: (pid: number | undefined): SessionMeta => ({
							tool: {name: 'mcp-wire', version: VERSION},
							node: process.version,
							platform: `${process.platform}-${process.arch}`,
							command: [...command],
							cwd: process.cwd(),
							envMode: 'inherit',
							startedAt: clock.startedAt,
							...(pid === undefined ? {} : {pid}),
							mode: 'tap',
							name,
							...captureIdentity(),
							...(capturePath === undefined ? {} : {capturePath}),
						}),
					},
				}
			: {}),
	});

	// (An fd read in place was closed by runTap; process.stdin was never created then.)
	if (isStdinStream) process.stdin.destroy();
	if (result.signal !== undefined && RERAISE.has(result.signal) && process.platform !== 'win32') {
		// Mirror the server's death: die of the same signal (nothing of ours handles it any more).
		setTimeout(() => process.exit(result.exitCode), 1000).unref();
		dieOfSignal(result.signal);
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}

	// Nothing should keep the loop alive now; if something does, do not hang the client.
	setTimeout(() => process.exit(result.exitCode), 1000).unref();
	return result.exitCode;
}

/**
 * Server arguments that are not valid UTF-8. Node decodes its own argv as UTF-8, replacing
 * each bad byte with U+FFFD, and `child_process` takes arguments only as strings (encoded as UTF-8):
 * there is no route for raw argument bytes, so such an argument reaches the server with EF BF BD where
 * the bad bytes were. The tap cannot fix that, so it says so, once per argument. On Linux the raw bytes
 * are read from `/proc/self/cmdline` (only when an argument holds U+FFFD, so a normal start reads
 * nothing); elsewhere an argument holding U+FFFD is reported as possibly changed.
 * @param command the server command as Node decoded it (the last `command.length` entries of argv)
 * @param cmdline this process's raw argv, NUL-separated (for tests; default `/proc/self/cmdline` on Linux)
 * @returns one warning per argument, e.g. `argument 2 of the server command is not valid UTF-8 (…)`
 */
export function notUtf8Warnings(command: readonly string[], cmdline: () => Buffer | undefined = procCmdline): string[] {
	if (!command.some((word) => word.includes('\uFFFD'))) return [];
	const raw = cmdline();
	const entries: Buffer[] = [];
	if (raw !== undefined) {
		let start = 0;
		for (let at = raw.indexOf(0); at !== -1; at = raw.indexOf(0, start)) {
			entries.push(raw.subarray(start, at));
			start = at + 1;
		}

		if (start < raw.length) entries.push(raw.subarray(start));
	}

	const isRaw = raw !== undefined && entries.length >= command.length;
	const rawWords = isRaw ? entries.slice(entries.length - command.length) : [];
	const warnings: string[] = [];
	for (const [index, word] of command.entries()) {
		const what = index === 0 ? 'the server program' : `argument ${index} of the server command`;
		if (isRaw) {
			if (!isUtf8(rawWords[index]!)) {
				warnings.push(
					`${what} is not valid UTF-8; Node can pass arguments on only as UTF-8 text, so the server gets EF BF BD (U+FFFD) in place of each bad byte`,
				);
			}
		} else if (word.includes('\uFFFD')) {
			warnings.push(
				`${what} holds U+FFFD: if it was not valid UTF-8, the server gets EF BF BD in place of each bad byte (Node can pass arguments on only as UTF-8 text)`,
			);
		}
	}

	return warnings;
}

function procCmdline(): Buffer | undefined {
	if (process.platform !== 'linux') return undefined;
	try {
		return readFileSync('/proc/self/cmdline');
	} catch {
		return undefined;
	}
}

/**
 * `--capture FILE` never overwrites an earlier capture: a client restarts a wrapped server with
 * the same arguments, and each run's bytes are evidence. When `file` exists (anything at that path, a
 * symlink included), the capture goes to the first free `<name>.1<ext>`, `<name>.2<ext>`, … beside it.
 * @param file an absolute path
 * @returns `file`, or the first free numbered name (the tap says which on stderr when it starts)
 */
export function freeCapturePath(file: string, exists: (candidate: string) => boolean = pathExists): string {
	if (!exists(file)) return file;
	const ext = path.extname(file);
	const stem = file.slice(0, file.length - ext.length);
	for (let n = 1; ; n++) {
		const candidate = `${stem}.${n}${ext}`;
		if (!exists(candidate)) return candidate;
	}
}

function pathExists(candidate: string): boolean {
	try {
		lstatSync(candidate);
		return true;
	} catch {
		return false;
	}
}
