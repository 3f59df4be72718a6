import {DEFAULT_PROTOCOL_VERSION, releaseGroup, startProbeServer, type ProbeServer} from '../tap/probe-start.js';
import {buildEnv} from '../tap/spawn.js';
import {VERSION} from './version.js';

// Issue 12 (a probe as fast as a bare client): `mcp-wire probe --json -- <server>` starts the server before
// the CLI has loaded commander and its commands (~50 ms of loading on this machine, and more under load),
// so that the server boots while the rest loads. bin/mcp-wire.js calls `startEarlyProbe` first. Commander
// stays the judge of the command line: the probe command takes the early server only when what it parsed
// asks for exactly that spawn (`takeEarlyProbe`); anything else ends it unseen (`discardEarlyProbe`).

/**
 * The probe's flags that take no value and do not change how the server is started, so a command line
 * made only of them before `--` is understood here without commander. Any other word before `--` (a value
 * option such as `--env`, `--cwd`, `--protocol-version`, a short flag, a typo) means no early start.
 */
const PLAIN_FLAGS = new Set(['--json', '--hex', '--report', '--no-tui', '--verbose', '--redact', '--no-redact', '--redact-payloads', '--inherit-env']);

/** What the early start asked for: the spawn the probe command would make for the same command line. */
export interface EarlySpawnRequest {
	readonly command: readonly string[];
	readonly env: Readonly<Record<string, string>>;
	readonly inheritEnv: boolean;
}

/**
 * Read `argv` (as `process.argv`) the way the probe command will, for the one shape this module starts
 * early: `probe`, plain flags only ({@link PLAIN_FLAGS}), `--`, a non-empty command. Undefined for every
 * other command line, for one that will run the TUI (the TUI builds its session first), one that asks
 * for both `--json` and `--report` (a usage error), and on Windows (execa starts servers there).
 *
 * @param io whether stdin and stdout are terminals, the environment and the platform (`process`'s)
 * @returns the command and the environment the server gets (the SDK allow-list, or all with `--inherit-env`)
 */
export function earlySpawnRequest(
	argv: readonly string[],
	io: {readonly stdinIsTTY: boolean; readonly stdoutIsTTY: boolean; readonly env: NodeJS.ProcessEnv; readonly platform: NodeJS.Platform},
): EarlySpawnRequest | undefined {
	if (argv[2] !== 'probe' || io.platform === 'win32') return undefined;
	const dashDash = argv.indexOf('--', 3);
	if (dashDash === -1) return undefined;
	const flags = argv.slice(3, dashDash);
	if (!flags.every((flag) => PLAIN_FLAGS.has(flag))) return undefined;
	const command = argv.slice(dashDash + 1);
	if (command.length === 0 || command[0] === '') return undefined;
	const has = (flag: string): boolean => flags.includes(flag);
	if (has('--json') && has('--report')) return undefined;
	// The probe command's own rule (commands/probe.ts): the TUI takes a terminal unless an output was asked for.
	const isTui = !has('--no-tui') && !has('--json') && !has('--report') && !has('--hex') && io.stdoutIsTTY && io.stdinIsTTY;
	if (isTui) return undefined;
	const inheritEnv = has('--inherit-env');
	const {env} = buildEnv({inheritEnv, env: [], parentEnv: io.env, platform: io.platform});
	return {command, env, inheritEnv};
}

/**
 * The server started early and not yet taken, in one slot per process: bin/mcp-wire.js starts it from the
 * ES module build, and the probe command may run from the code-cached script (src/cli/code-cache.ts), a
 * second copy of this module.
 */
const slot = ((globalThis as Record<symbol, unknown>)[Symbol.for('mcp-wire.early-probe')] ??= {}) as {value?: {readonly request: EarlySpawnRequest; readonly server: ProbeServer}};

/**
 * Start the probe's server now, when `argv` is a command line {@link earlySpawnRequest} understands:
 * spawned and sent `initialize` as the probe command would (default protocol version, our version), kept
 * for {@link takeEarlyProbe}, and returned. Does nothing (undefined) otherwise, or when one was started
 * already. Never throws (a command that cannot start is kept too: the probe reports it as it would its
 * own spawn's).
 */
export function startEarlyProbe(argv: readonly string[] = process.argv): ProbeServer | undefined {
	if (slot.value !== undefined) return undefined;
	const request = earlySpawnRequest(argv, {stdinIsTTY: process.stdin.isTTY === true, stdoutIsTTY: process.stdout.isTTY === true, env: process.env, platform: process.platform});
	if (request === undefined) return undefined;
	const server = startProbeServer({command: request.command, env: request.env, initialize: {protocolVersion: DEFAULT_PROTOCOL_VERSION, clientVersion: VERSION}});
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
		wanted.initialize.protocolVersion === DEFAULT_PROTOCOL_VERSION &&
		wanted.initialize.clientVersion === VERSION &&
		sameList(wanted.command, request.command) &&
		sameEnv(wanted.env, request.env);
	if (!isSame) {
		discardEarlyProbe();
		return undefined;
	}
	slot.value = undefined;
	return server;
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

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((value, i) => value === b[i]);

function sameEnv(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
	const keys = Object.keys(a);
	return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}
