import {spawn} from 'node:child_process';
import {readdirSync, readFileSync} from 'node:fs';
import os from 'node:os';

// `mcp-wire tap` when this process has too few file descriptors for its own work (docs/cli.md#too-few-file-descriptors).
// Loaded by bin/mcp-wire.js before the CLI itself, as one file that imports only Node's modules: the CLI's
// module graph opens several files at once, which fails (EMFILE) below about 28 descriptors, where the bare
// server still runs. Forwarding comes first: the server is started on the client's own stdio.

/**
 * Free descriptors (below the soft limit) the full tap needs: its modules, the server's three pipes, the
 * capture worker thread, the capture file, the live socket and the process watch. Measured on Node 20
 * (18 of its own): the full tap ran at `ulimit -n 41` and its capture worker failed at 40; 3 more for margin.
 */
export const TAP_FREE_FDS = 26;

/** How many descriptors this process may still open, and its limit (Linux `/proc`; undefined elsewhere). */
export interface FdHeadroom {
	/** The soft `RLIMIT_NOFILE`: no descriptor numbered at or above it can be opened. */
	readonly limit: number;
	/** Descriptors open now below the limit. */
	readonly inUse: number;
}

/**
 * This process's descriptor headroom, read from `/proc/self/limits` and `/proc/self/fd` (one descriptor,
 * for the directory listing). Undefined when not on Linux, when the limit is unlimited, or when `/proc`
 * cannot be read (then assume enough).
 * @param read the two `/proc` reads (for tests)
 */
export function fdHeadroom(
	read: {readonly limits: () => string; readonly fds: () => readonly string[]} = {
		limits: () => readFileSync('/proc/self/limits', 'utf8'),
		fds: () => readdirSync('/proc/self/fd'),
	},
): FdHeadroom | undefined {
	try {
		const match = /^Max open files\s+(\d+)\s/m.exec(read.limits());
		if (match === null) return undefined;
		const limit = Number(match[1]);
		// The listing's own descriptor is in it: it is closed again once listed.
		const inUse = read.fds().filter((name) => Number(name) < limit).length - 1;
		return {limit, inUse};
	} catch {
		return undefined;
	}
}

/**
 * The server command of a `tap` command line (the arguments after `tap`): everything after `--`, or after
 * the options (`--capture`, `--name`, `--capture-wait` take a value). Undefined when there is none, or for
 * `--help`: the full CLI then says what is wrong.
 */
export function tapCommandOf(args: readonly string[]): string[] | undefined {
	const WITH_VALUE = new Set(['--capture', '--name', '--capture-wait']);
	for (let i = 0; i < args.length; i++) {
		const arg = args[i]!;
		if (arg === '--') return args.length > i + 1 ? args.slice(i + 1) : undefined;
		if (arg === '--help' || arg === '-h') return undefined;
		if (WITH_VALUE.has(arg)) i++;
		else if (!arg.startsWith('-')) return args.slice(i);
	}
	return undefined;
}

/** What the direct tap needs of its process (for tests; the real one by default). */
export interface DirectIo {
	readonly stderr: {write(text: string): unknown};
	readonly env: NodeJS.ProcessEnv;
}

/**
 * The tap without its own work: when {@link fdHeadroom} leaves fewer than {@link TAP_FREE_FDS} free, start
 * the server on the client's own stdin, stdout and stderr (no relay: byte-exact by construction), say in
 * one stderr line what was given up, forward SIGINT/SIGTERM/SIGHUP (SIGKILL after `MCP_WIRE_KILL_AFTER_MS`,
 * default 1500), and end as the server ended.
 * @param args the arguments after `tap`
 * @returns undefined when there are descriptors enough (run the full tap), else how the server ended: its
 *   exit code, or the signal it died of (for the caller to re-raise)
 */
export async function tapWithFewDescriptors(
	args: readonly string[],
	io: DirectIo = {stderr: process.stderr, env: process.env},
	headroom: FdHeadroom | undefined = fdHeadroom(),
): Promise<{readonly exitCode: number; readonly signal?: NodeJS.Signals} | undefined> {
	if (headroom === undefined || headroom.limit - headroom.inUse >= TAP_FREE_FDS) return undefined;
	const command = tapCommandOf(args);
	if (command === undefined) return undefined;
	io.stderr.write(
		`mcp-wire: warning: too few file descriptors (EMFILE: ulimit -n ${headroom.limit} with ${headroom.inUse} in use leaves ${headroom.limit - headroom.inUse}; the tap needs ${TAP_FREE_FDS}): the server runs on the client's stdio directly, with no capture, live socket or process watch\n`,
	);
	return new Promise((resolve) => {
		const child = spawn(command[0]!, command.slice(1), {stdio: 'inherit', env: io.env, shell: false});
		const killAfterMs = Number(io.env['MCP_WIRE_KILL_AFTER_MS'] ?? '1500');
		const forward = (signal: NodeJS.Signals): void => {
			child.kill(signal);
			if (Number.isFinite(killAfterMs) && killAfterMs > 0)
				setTimeout(
					() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'),
					killAfterMs,
				).unref();
		};
		const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
		for (const signal of signals) process.on(signal, forward);
		const done = (result: {exitCode: number; signal?: NodeJS.Signals}): void => {
			for (const signal of signals) process.off(signal, forward);
			resolve(result);
		};
		child.once('error', (error: NodeJS.ErrnoException) => {
			const code = error.code ?? 'ESPAWN';
			io.stderr.write(`mcp-wire: cannot start ${JSON.stringify(command[0])}: ${error.message} (${code})\n`);
			done({exitCode: code === 'ENOENT' ? 127 : 126});
		});
		child.once('exit', (code, signal) => {
			if (signal === null) done({exitCode: code ?? 1});
			else {
				const number = (os.constants.signals as Record<string, number | undefined>)[signal];
				done({exitCode: number === undefined ? 1 : 128 + number, signal});
			}
		});
	});
}

/**
 * End this process as the server ended: die of its signal (Node's own handling of it undone first: one
 * listener added and removed sets it back to the default), else exit with its code.
 */
export function endAs(ended: {readonly exitCode: number; readonly signal?: NodeJS.Signals}): void {
	const {signal} = ended;
	if (signal !== undefined && process.platform !== 'win32') {
		process.removeAllListeners(signal);
		const none = (): void => undefined;
		if (signal !== 'SIGKILL' && signal !== 'SIGSTOP') {
			try {
				process.on(signal, none);
				process.off(signal, none);
			} catch {
				// a signal libuv cannot watch: raise it as it is
			}
		}
		try {
			process.kill(process.pid, signal);
		} catch {
			// fall through to the exit code
		}
	}
	process.exit(ended.exitCode);
}
