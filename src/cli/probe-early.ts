import {FINDING_CODES} from '../core/types.js';
import {DEFAULT_PROTOCOL_VERSION, releaseGroup, startProbeServer, type ProbeServer} from '../probe/probe-start.js';
import {buildEnv} from '../process/spawn.js';
import {VERSION} from './version.js';

// Issue 12 (a probe as fast as a bare client): `mcp-wire probe --json -- <server>` starts the server before
// the CLI has loaded commander and its commands (~50 ms of loading on this machine, and more under load),
// so that the server boots while the rest loads. bin/mcp-wire.js calls `startEarlyProbe` first. Commander
// stays the judge of the command line: the probe command takes the early server only when what it parsed
// asks for exactly that spawn (`takeEarlyProbe`); anything else ends it unseen (`discardEarlyProbe`).

/**
 * The probe's flags that take no value and do not change how the server is started, so a command line
 * made only of them and of {@link VALUE_OPTIONS} before `--` is understood here without commander. Any
 * other word before `--` (`--cwd`, a short flag, a typo) means no early start.
 */
const PLAIN_FLAGS = new Set([
	'--json',
	'--hex',
	'--report',
	'--no-tui',
	'--verbose',
	'--redact',
	'--no-redact',
	'--redact-payloads',
	'--inherit-env',
]);

const KNOWN_CODES = new Set<string>(FINDING_CODES);
/** A positive whole number of at most `max` digits' worth, written plainly (commander's parser also takes `1e3`: no early start then). */
const isCount =
	(max: number) =>
	(value: string): boolean =>
		/^[1-9][0-9]*$/.test(value) && Number(value) <= max;

/**
 * The probe's options that take a value (`--timeout 5000` or `--timeout=5000`), each with the test its value
 * must pass here: the same rule as the probe command's (commands/probe.ts, cli/options.ts) or a stricter one,
 * so that a command line commander will reject as a usage error never starts a server. `--env` and
 * `--protocol-version` change the spawn and `initialize`: they go into the request; the others change
 * neither. A value that fails its test means no early start (commander then says what is wrong).
 */
const VALUE_OPTIONS: ReadonlyMap<string, (value: string) => boolean> = new Map([
	['--timeout', isCount(2 ** 31 - 1)],
	['--max-lines', isCount(Number.MAX_SAFE_INTEGER)],
	['--fail-on', (value) => value === 'error' || value === 'warning' || value === 'client'],
	['--color', (value) => value === 'auto' || value === 'always' || value === 'never'],
	[
		'--ignore',
		(value) => {
			const codes = value
				.split(',')
				.map((code) => code.trim())
				.filter((code) => code !== '');
			return codes.every((code) => KNOWN_CODES.has(code));
		},
	],
	['--protocol-version', (value) => value !== ''],
	['--env', (value) => value !== ''],
]);

/** What the early start asked for: the spawn the probe command would make for the same command line. */
export interface EarlySpawnRequest {
	readonly command: readonly string[];
	readonly env: Readonly<Record<string, string>>;
	readonly inheritEnv: boolean;
	/** The protocol version `initialize` offers (`--protocol-version`, else the default). */
	readonly protocolVersion: string;
}

/**
 * The words before `--` read as the probe's options: the plain flags given and each value option's values
 * in order, or undefined when a word is neither (or a value fails its test, is missing, or starts with `-`).
 */
function readOptions(
	words: readonly string[],
): {readonly flags: ReadonlySet<string>; readonly values: ReadonlyMap<string, readonly string[]>} | undefined {
	const flags = new Set<string>();
	const values = new Map<string, string[]>();
	for (let i = 0; i < words.length; i++) {
		const word = words[i]!;
		if (PLAIN_FLAGS.has(word)) {
			flags.add(word);
			continue;
		}
		const equals = word.indexOf('=');
		const name = equals === -1 ? word : word.slice(0, equals);
		const test = VALUE_OPTIONS.get(name);
		if (test === undefined) return undefined;
		const value = equals === -1 ? words[++i] : word.slice(equals + 1);
		if (value === undefined || value.startsWith('-') || !test(value)) return undefined;
		values.set(name, [...(values.get(name) ?? []), value]);
	}
	return {flags, values};
}

/**
 * Read `argv` (as `process.argv`) the way the probe command will, for the one shape this module starts
 * early: `probe`, plain flags ({@link PLAIN_FLAGS}) and value options ({@link VALUE_OPTIONS}) whose values
 * pass their tests, `--`, a non-empty command. Undefined for every other command line, for one that will
 * run the TUI (the TUI builds its session first), one that asks for both `--json` and `--report` (a usage
 * error), one whose `--env` the probe command would reject, and on Windows (execa starts servers there).
 *
 * @param io whether stdin and stdout are terminals, the environment and the platform (`process`'s)
 * @returns the command, the environment the server gets (the SDK allow-list with each `--env`, or all with
 *   `--inherit-env`) and the protocol version `initialize` offers
 */
export function earlySpawnRequest(
	argv: readonly string[],
	io: {
		readonly stdinIsTTY: boolean;
		readonly stdoutIsTTY: boolean;
		readonly env: NodeJS.ProcessEnv;
		readonly platform: NodeJS.Platform;
	},
): EarlySpawnRequest | undefined {
	if (argv[2] !== 'probe' || io.platform === 'win32') return undefined;
	const dashDash = argv.indexOf('--', 3);
	if (dashDash === -1) return undefined;
	const options = readOptions(argv.slice(3, dashDash));
	if (options === undefined) return undefined;
	const command = argv.slice(dashDash + 1);
	if (command.length === 0 || command[0] === '') return undefined;
	const has = (flag: string): boolean => options.flags.has(flag);
	if (has('--json') && has('--report')) return undefined;
	// The probe command's own rule (commands/probe.ts): the TUI takes a terminal unless an output was asked for.
	const isTui =
		!has('--no-tui') && !has('--json') && !has('--report') && !has('--hex') && io.stdoutIsTTY && io.stdinIsTTY;
	if (isTui) return undefined;
	const inheritEnv = has('--inherit-env');
	let env: Record<string, string>;
	try {
		({env} = buildEnv({inheritEnv, env: options.values.get('--env') ?? [], parentEnv: io.env, platform: io.platform}));
	} catch {
		return undefined; // an --env the probe command rejects (a usage error)
	}
	// commander keeps the last of a repeated option.
	const protocolVersion = options.values.get('--protocol-version')?.at(-1) ?? DEFAULT_PROTOCOL_VERSION;
	return {command, env, inheritEnv, protocolVersion};
}

/**
 * The server started early and not yet taken, in one slot per process: bin/mcp-wire.js starts it from the
 * ES module build, and the probe command may run from the code-cached script (src/cli/code-cache.ts), a
 * second copy of this module.
 */
const slot = ((globalThis as Record<symbol, unknown>)[Symbol.for('mcp-wire.early-probe')] ??= {}) as {
	value?: {readonly request: EarlySpawnRequest; readonly server: ProbeServer};
	taken?: boolean;
	exchanged?: boolean;
};

/**
 * Start the probe's server now, when `argv` is a command line {@link earlySpawnRequest} understands:
 * spawned and sent `initialize` as the probe command would (default protocol version, our version), kept
 * for {@link takeEarlyProbe}, and returned. Does nothing (undefined) otherwise, or when one was started
 * already. Never throws (a command that cannot start is kept too: the probe reports it as it would its
 * own spawn's).
 */
export function startEarlyProbe(argv: readonly string[] = process.argv): ProbeServer | undefined {
	if (slot.value !== undefined) return undefined;
	// Read only when the TUI rule asks (never with --json, --report, --hex): the first read of process.stdin
	// makes its stream (for a file or /dev/null an fs.ReadStream, which loads Node's file streams), and a
	// probe never reads its stdin.
	const io = {
		get stdinIsTTY() {
			return process.stdin.isTTY === true;
		},
		get stdoutIsTTY() {
			return process.stdout.isTTY === true;
		},
		env: process.env,
		platform: process.platform,
	};
	const request = earlySpawnRequest(argv, io);
	if (request === undefined) return undefined;
	const server = startProbeServer({
		command: request.command,
		env: request.env,
		initialize: {protocolVersion: request.protocolVersion, clientVersion: VERSION},
	});
	slot.value = {request, server};
	return server;
}

/**
 * The server {@link startEarlyProbe} started, when the probe command's parsed options ask for exactly
 * that spawn (same command, same environment, no `--cwd`, the same `initialize`); it is handed over once.
 * When they differ the early server is ended ({@link discardEarlyProbe}) and undefined is returned: the
 * command starts its own.
 */
export function takeEarlyProbe(wanted: {
	readonly command: readonly string[];
	readonly env: Readonly<Record<string, string>>;
	readonly cwd?: string;
	readonly initialize: {readonly protocolVersion: string; readonly clientVersion: string};
}): ProbeServer | undefined {
	const early = slot.value;
	if (early === undefined) return undefined;
	const {request, server} = early;
	const isSame =
		wanted.cwd === undefined &&
		wanted.initialize.protocolVersion === request.protocolVersion &&
		wanted.initialize.clientVersion === VERSION &&
		sameList(wanted.command, request.command) &&
		sameEnv(wanted.env, request.env);
	if (!isSame) {
		discardEarlyProbe();
		return undefined;
	}
	slot.value = undefined;
	slot.taken = true;
	return server;
}

/** The probe command says that its probe got an answer to `initialize` (see {@link earlyProbeExchanged}). */
export function noteProbeExchanged(): void {
	slot.exchanged = true;
}

/**
 * Whether the probe took the server started early and got an answer to `initialize`: the run went through
 * the exchange and compiled what a probe runs. bin/mcp-wire.js stores the code cache only after such a
 * run (src/cli/code-cache.ts): a cache stored after a command that could not start (`spawn-failed`) would
 * lack the exchange's functions, and V8 would take it at every later run.
 */
export function earlyProbeExchanged(): boolean {
	return slot.taken === true && slot.exchanged === true;
}

/**
 * End the early server unseen, if one was started and not taken (the command line turned out to be a
 * usage error, `--help`, or the TUI): SIGKILL to its process group, pipes closed. Safe to call always.
 */
export function discardEarlyProbe(): void {
	const early = slot.value;
	if (early === undefined) return;
	const {server} = early.server;
	slot.value = undefined;
	const {pid} = server;
	if (pid !== undefined) {
		try {
			process.kill(-pid, 'SIGKILL');
		} catch {
			server.kill('SIGKILL');
		}
		releaseGroup(pid);
	}
	server.dispose();
}

/** Whether a server started early is waiting to be taken (bin/mcp-wire.js then runs the code-cached CLI). */
export function hasEarlyProbe(): boolean {
	return slot.value !== undefined;
}

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
	a.length === b.length && a.every((value, i) => value === b[i]);

function sameEnv(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
	const keys = Object.keys(a);
	return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}
