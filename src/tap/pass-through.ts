import {fstatSync} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import type {Readable, Writable} from 'node:stream';
import {execa} from 'execa';
import {TAP_PHASE, type ExitInfo, type ProcessEvidence, type SessionMeta, type StreamName} from '../core/types.js';
import {createRing, RingProducer} from './capture-ring.js';
import type {CaptureWriter} from './capture-writer.js';
import type {Clock} from '../process/clock.js';
import {createSocketPair, inPlaceSocket, type SocketPair} from '../process/socket-pair.js';
import {watchProcessTree, type ProcessWatch} from '../process/proc-evidence.js';
import {describeSpawnError, serverExecaOptions, type OutputStream, type SpawnError} from '../process/spawn.js';
import {watchExitDrain} from './exit-drain.js';
import {InPlaceReader, POOL_BYTES, Pump} from './pump.js';

/**
 * `mcp-wire tap`: sit in a real client's stdio pipe (docs/cli.md#tap).
 *
 * ```
 *  client ──stdin──▶ mcp-wire tap ──stdin──▶ server
 *  client ◀─stdout── mcp-wire tap ◀─stdout── server
 *  client ◀─stderr── mcp-wire tap ◀─stderr── server
 *                         │
 *                         └─▶ capture worker ─▶ capture file, live socket
 * ```
 *
 * Bytes are forwarded verbatim, each read written on at once, with pipe semantics: when the reader
 * side is full, the source is paused until it drains (backpressure, never an unbounded buffer). Only
 * after a read has been written on is it handed to the capture. When the capture has no room for it
 * (its writer a whole arena behind), the read is still forwarded, and reading that source pauses until
 * the writer made room, at most `tap --capture-wait` ms (capture-writer.ts): forwarding itself never
 * waits, only the next read does. On Unix the client's stdin (when it is a
 * pipe or socket) and the server's stdout are read by the kernel straight into the capture's shared
 * ring (Node's `onread`), written on from there and published to the worker in place: no allocation
 * and no copy per read, which is what keeps the tap as fast as a bare relay. Other sources (a terminal,
 * Windows, the server's stderr) are read as streams and copied into the ring. Encoding and disk writes
 * happen in the worker. Nothing of ours goes to stdout. Warnings go to stderr as single lines starting
 * `mcp-wire: warning:`.
 */

/** The three streams the tap sits on (the client's side). */
export interface TapIo {
	/**
	 * Bytes from the client (our stdin). A function is called only when needed (so `process.stdin` is
	 * not created when `stdinFd` is read in place).
	 */
	readonly stdin: Readable | (() => Readable);
	/**
	 * The fd behind `stdin` when it is a pipe or socket (see {@link inPlaceFd}): it is then read straight
	 * into the ring, and closed at the end.
	 */
	readonly stdinFd?: number;
	/** Bytes to the client (our stdout: the MCP wire). */
	readonly stdout: Writable;
	/** The server's stderr, and our warnings. */
	readonly stderr: Writable;
}

/** Options of {@link runTap}. */
export interface TapOptions {
	/** Program and arguments, run without a shell. */
	readonly command: readonly string[];
	/** The server's whole environment, passed unchanged (the client already applied its env rule). */
	readonly env: NodeJS.ProcessEnv;
	readonly cwd?: string;
	readonly io: TapIo;
	/** The session clock (tMs of chunks and marks). */
	readonly clock: Clock;
	/**
	 * The capture (`--no-capture`: leave it out). `start` runs before the server is spawned (so the
	 * worker boots meanwhile) and may return undefined; `warn` writes one `mcp-wire: warning:` line to
	 * stderr (on a line of its own even when the server's stderr stopped mid-line): use it as
	 * `onWarning`. `meta` builds the header once the server's pid is known (undefined: it did not start).
	 */
	readonly capture?: {
		readonly start: (warn: (message: string) => void) => CaptureWriter | undefined;
		readonly meta: (pid: number | undefined) => SessionMeta;
	};
	/** Forward SIGINT, SIGTERM and SIGHUP received by this process to the server (default true). */
	readonly forwardSignals?: boolean;
	/** How long the capture may take to finish after the server ended, in ms (default 3000). */
	readonly captureCloseMs?: number;
	/**
	 * After forwarding a signal, SIGKILL a server still running this many ms later (default
	 * {@link DEFAULT_KILL_AFTER_MS}; 0: never). A client that gives up on a server sends SIGKILL next,
	 * which the tap cannot forward: without this, a server that ignores SIGTERM would outlive both.
	 */
	readonly killAfterMs?: number;
}

/**
 * Default of {@link TapOptions.killAfterMs}: 1500 ms, inside the 2000 ms the MCP TypeScript SDK waits
 * between SIGTERM and SIGKILL (`StdioClientTransport.close`, src/client/stdio.ts), so the server dies
 * before the client kills the tap, as it would have without the tap.
 */
export const DEFAULT_KILL_AFTER_MS = 1500;

/** How a tap session ended. */
export interface TapResult {
	/** How the server ended; undefined when it never started. */
	readonly exit: ExitInfo | undefined;
	/** Why it never started. */
	readonly spawnError?: SpawnError;
	/**
	 * The exit code the tap should end with: the server's exit code; 128 + n when it was killed by a
	 * signal (for platforms where re-raising is not possible); 127 when the command was not found and
	 * 126 when it could not be started for another reason (as a POSIX shell reports them).
	 */
	readonly exitCode: number;
	/** The signal that killed the server: the tap re-raises it on itself after cleanup. */
	readonly signal?: NodeJS.Signals;
	/** Bytes forwarded per stream. */
	readonly bytes: Readonly<Record<StreamName, number>>;
}

/** Into a stall (client bytes newer than the server's last output), when the tap looks at the server's processes (ms). */
export const STALL_LOOKS_MS = [1_000, 3_000, 10_000, 30_000] as const;
/** How often the tap checks for a stall (ms). */
const STALL_CHECK_MS = 250;
/** After the server's exit, the tap looks for survivors once its pipes closed, or after this long (ms). */
export const EXIT_LOOK_MS = 1_000;

/** Signals forwarded to the server. */
export const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * A writable for one of our output fds that can really be closed: when fd 1 or 2 is a pipe or a socket,
 * a `net.Socket` on it (ending it closes the fd, so the client sees EOF even while we still run; Node's
 * `process.stdout` never closes its fd). Otherwise (a file, a terminal, Windows) `fallback`.
 */
export function openWireStream(fd: 1 | 2, fallback: Writable): Writable {
	if (inPlaceFd(fd) === undefined) return fallback;
	try {
		return new net.Socket({fd, readable: false, writable: true});
	} catch {
		return fallback;
	}
}

/**
 * `fd` when it is a pipe or socket (not on Windows), else undefined: an fd a `net.Socket` can own.
 * Use it for {@link TapIo.stdinFd} (read in place); {@link openWireStream} uses it for our outputs.
 */
export function inPlaceFd(fd: number): number | undefined {
	if (process.platform === 'win32') return undefined;
	try {
		const stat = fstatSync(fd);
		return stat.isFIFO() || stat.isSocket() ? fd : undefined;
	} catch {
		return undefined;
	}
}

/** 128 + the signal number (the shell convention), or 1 when unknown. */
export function signalExitCode(signal: string): number {
	const number = (os.constants.signals as Record<string, number | undefined>)[signal];
	return number === undefined ? 1 : 128 + number;
}

/**
 * Run one tap session: spawn `command`, forward both ways until the server exited and its stdout and
 * stderr closed, then finish the capture. Never throws and never rejects for anything the server,
 * the client or the disk does; a command that cannot start is reported on stderr in one line
 * (`mcp-wire: cannot start "x": command not found (ENOENT)`) and recorded as `spawn-failed`.
 *
 * Rules kept (docs/cli.md#tap): bytes verbatim both ways before any inspection; backpressure both ways;
 * stdin EOF forwarded (`stdin-closed` mark); the server's stdout EOF closes ours; SIGINT/SIGTERM/SIGHUP
 * forwarded; the exit code or signal is returned to be mirrored.
 */
export async function runTap(options: TapOptions): Promise<TapResult> {
	const warnings = new WarningLine(options.io.stderr);
	const capture = safe(() => options.capture?.start(warnings.warn));
	// Without a capture the ring is only a pool of read buffers (nothing is published).
	const ring = capture?.ring ?? new RingProducer(createRing(POOL_BYTES));
	const started = await startServer(options, ring);
	if ('error' in started) return reportSpawnFailure(options, capture, started.error);
	return new TapSession(options, warnings, capture, ring, started).run();
}

/**
 * Our stderr as the server's stderr and our warnings share it: each warning is one line starting
 * `mcp-wire: warning:`, on a line of its own even when the server's stderr stopped mid-line.
 */
export class WarningLine {
	/** The last byte of the server's stderr forwarded (a newline: nothing pending). */
	lastByte = 0x0a;
	isOpen = true;
	constructor(private readonly stderr: Writable) {}

	/** Write one warning line (nothing once stderr is closed). */
	readonly warn = (message: string): void => {
		if (!this.isOpen) return;
		const lead = this.lastByte === 0x0a ? '' : '\n';
		this.lastByte = 0x0a;
		try {
			this.stderr.write(`${lead}mcp-wire: warning: ${message}\n`);
		} catch {
			this.isOpen = false;
		}
	};
}

/** A started server: the execa child, the socket pair its stdout is read through in place (if any), and its reader. */
interface StartedServer {
	readonly child: ReturnType<typeof spawn>;
	readonly pair: SocketPair | undefined;
	readonly outReader: InPlaceReader;
}

/**
 * Spawn the server, its stdout a socket pair read in place into `ring` (a pipe where a pair cannot be
 * made). Never throws.
 * @returns the started server, or why it did not start
 */
async function startServer(options: TapOptions, ring: RingProducer): Promise<StartedServer | {error: SpawnError}> {
	const file = options.command[0] ?? '';
	if (file === '')
		return {
			error: {
				code: 'EINVAL',
				file,
				reason: 'the command is empty (EINVAL)',
				message: 'cannot start: the command is empty (EINVAL)',
			},
		};
	const outReader = new InPlaceReader(ring, 'stdout');
	const pair = await createSocketPair(outReader.onread);
	let subprocess: ReturnType<typeof spawn> | undefined;
	let thrown: unknown;
	try {
		subprocess = spawn(file, options.command.slice(1), options, pair);
	} catch (error) {
		thrown = error;
	}

	// The server holds its own copy of its end now.
	pair?.theirs.destroy();
	if (subprocess?.pid !== undefined) return {child: subprocess, pair, outReader};
	pair?.ours.destroy();
	let reason: unknown = thrown ?? {code: 'EINVAL'};
	if (subprocess) {
		const result = (await subprocess.then(
			(r) => r,
			(error: unknown) => error,
		)) as {code?: unknown; cause?: {code?: unknown}};
		reason = typeof result.code === 'string' ? result : (result.cause ?? result);
	}

	return {error: describeSpawnError(reason, file, options.cwd)};
}

/**
 * The command did not start: its header and an `observed` mark in the capture (replay derives
 * `spawn-failed` from it, as from the probe's: docs/json-records.md#mark), one line on stderr.
 * @returns exit code 127 for a command not found, else 126 (as a POSIX shell reports them)
 */
async function reportSpawnFailure(
	options: TapOptions,
	capture: CaptureWriter | undefined,
	error: SpawnError,
): Promise<TapResult> {
	safe(() => capture?.header(options.capture!.meta(undefined)));
	capture?.mark({
		type: 'observed',
		what: 'spawn-failed',
		offset: 0,
		tMs: options.clock.now(),
		detail: {
			file: error.file,
			errno: error.code,
			reason: error.reason ?? error.message,
			command: [...options.command],
			...(error.cwd === undefined ? {} : {cwd: error.cwd}),
		},
	});
	try {
		options.io.stderr.write(`mcp-wire: ${error.message}\n`);
	} catch {
		// nothing more to do
	}

	await capture?.close(options.captureCloseMs ?? 3000);
	const bytes = {stdin: 0, stdout: 0, stderr: 0};
	return {exit: undefined, spawnError: error, exitCode: error.code === 'ENOENT' ? 127 : 126, bytes};
}

/**
 * One running tap session: the three pumps, the forwarded signals, the stall looks and the exit.
 * Built by {@link runTap} once the server started; {@link run} resolves when it is over.
 */
class TapSession {
	private readonly bytes: Record<StreamName, number> = {stdin: 0, stdout: 0, stderr: 0};
	/** When each stream last carried bytes (ms since session start); a stall is stdin newer than stdout. */
	private readonly lastAt: Record<StreamName, number> = {stdin: -1, stdout: -1, stderr: -1};
	/** Process evidence for the capture (docs/json-records.md#mark): only with a capture, only the child's tree. */
	private readonly evidence: ProcessWatch | undefined;
	private readonly child: StartedServer['child'];
	private readonly pair: SocketPair | undefined;
	private exit: ExitInfo | undefined;
	private isOutEnded = false;
	private isErrEnded = false;
	private isOutClosedByClient = false;
	/** The server exited while a process it left still held its output: the tap stopped reading it (exit-drain.ts). */
	private isGivenUp = false;
	private readonly out: Pump;
	private readonly err: Pump;
	private readonly stdin: Pump;
	private stdinSocket: net.Socket | undefined;
	private readonly outEnded: Promise<void>;
	private readonly signalHandlers = new Map<NodeJS.Signals, () => void>();
	private killTimer: NodeJS.Timeout | undefined;
	private stallTimer: NodeJS.Timeout | undefined;
	private drain: {stop(): void} | undefined;

	constructor(
		private readonly options: TapOptions,
		private readonly warnings: WarningLine,
		private readonly capture: CaptureWriter | undefined,
		private readonly ring: RingProducer,
		started: StartedServer,
	) {
		this.child = started.child;
		this.pair = started.pair;
		const pid = this.child.pid;
		safe(() => capture?.header(options.capture!.meta(pid)));
		// Evidence never changes what is forwarded or when the server ends.
		this.evidence =
			capture && pid !== undefined ? safe(() => watchProcessTree(pid, {now: () => options.clock.now()})) : undefined;
		this.out = this.pump('stdout', options.io.stdout);
		this.err = this.pump('stderr', options.io.stderr);
		this.stdin = this.pump('stdin', this.child.stdin);
		this.outEnded = this.wireStdout(started.outReader);
		this.wireStderr();
		this.wireStdin();
	}

	/** Forward until the server exited and its output ended (or was given up), then finish the capture. */
	async run(): Promise<TapResult> {
		const {child, capture, options} = this;
		this.forwardSignals();
		const settled = child.then(
			() => undefined,
			() => undefined,
		);
		this.watchStalls();
		const closed = Promise.all([
			new Promise<void>((resolve) => {
				child.once('close', () => resolve());
			}),
			// The server's stdout is not one of the child's own pipes when it is read in place.
			this.outEnded,
		]);
		const exitLooked = this.watchExit(closed);
		await closed;
		await exitLooked;
		clearInterval(this.stallTimer);
		// execa settles just after 'close'; awaiting it also removes its exit-cleanup signal listeners, so
		// the caller can re-raise the server's signal on itself.
		await settled;
		this.drain?.stop();
		clearTimeout(this.killTimer);
		const info: ExitInfo = this.exit ?? {code: child.exitCode, signal: child.signalCode, tMs: options.clock.now()};
		capture?.exit(info);
		for (const [signal, handler] of this.signalHandlers) process.off(signal, handler);
		this.stdin.stop();
		this.stdinSocket?.destroy();
		this.pair?.ours.destroy();
		await capture?.close(options.captureCloseMs ?? 3000);
		await flushed(options.io.stdout, 2000);
		const signal = info.signal === null ? undefined : (info.signal as NodeJS.Signals);
		return {
			exit: info,
			exitCode: signal === undefined ? (info.code ?? 1) : signalExitCode(signal),
			...(signal === undefined ? {} : {signal}),
			bytes: this.bytes,
		};
	}

	private now(): number {
		return this.options.clock.now();
	}

	/** Look at the server's processes now and record what was seen (with a capture and evidence only). */
	private observe(reason: ProcessEvidence['reason'], observeOptions?: Parameters<ProcessWatch['observe']>[1]): void {
		const {evidence, capture} = this;
		if (!evidence) return;
		safe(() => {
			const observed = evidence.observe(reason, observeOptions);
			capture?.mark({type: 'evidence', evidence: observed, tMs: this.now()});
		});
	}

	private pump(stream: StreamName, target: Writable): Pump {
		return new Pump({
			stream,
			target,
			ring: this.ring,
			capture: this.capture,
			clock: this.options.clock,
			onCount: (n) => {
				this.bytes[stream] += n;
				// A clock read per chunk only when stalls are watched (a capture with process evidence).
				if (this.evidence) this.lastAt[stream] = this.now();
			},
		});
	}

	/** Close the server's stdout on our side (read in place: our end of the pair; else the child's pipe). */
	private closeServerStdout(): void {
		if (this.pair) this.pair.ours.destroy();
		else this.child.stdout?.destroy();
	}

	/** server stdout → client; its EOF closes our stdout. Resolves at the end of the server's stdout. */
	private wireStdout(outReader: InPlaceReader): Promise<void> {
		const {out, capture, options} = this;
		out.onTargetClosed = () => {
			// The client stopped reading: close our end so the server's next write fails (EPIPE/SIGPIPE) as it
			// would without the tap, instead of reading and discarding forever.
			this.isOutClosedByClient = true;
			capture?.mark({type: 'phase', name: TAP_PHASE.clientClosedStdout, tMs: this.now()});
			this.closeServerStdout();
		};
		const ended = new Promise<void>((resolve) => {
			out.onEnd = () => {
				this.isOutEnded = true;
				if (!this.isOutClosedByClient && !this.isGivenUp)
					capture?.mark({type: 'eof', stream: 'stdout', tMs: this.now()});
				if (out.isTargetOpen) options.io.stdout.end();
				resolve();
			};
		});
		if (this.pair) out.readInPlace(this.pair.ours, outReader);
		else if (this.child.stdout) out.readStream(this.child.stdout);
		else out.onEnd();
		return ended;
	}

	/** server stderr → our stderr (and our warnings, on a line of their own). */
	private wireStderr(): void {
		const {err, warnings} = this;
		err.onBytes = (chunk) => {
			warnings.lastByte = chunk.at(-1) ?? warnings.lastByte;
		};
		err.onTargetClosed = () => {
			warnings.isOpen = false;
		};
		err.onEnd = () => {
			this.isErrEnded = true;
			if (!this.isGivenUp) this.capture?.mark({type: 'eof', stream: 'stderr', tMs: this.now()});
		};
		err.readStream(this.child.stderr);
	}

	/** client → server stdin, read in place when our stdin is a pipe or socket; its EOF is forwarded. */
	private wireStdin(): void {
		const {stdin, child, options} = this;
		stdin.onEnd = () => {
			// What the tree does as the client starts its shutdown (every descendant is remembered for the exit).
			if (!this.exit) this.observe('shutdown');
			this.capture?.mark({type: 'stdin-closed', tMs: this.now()});
			if (stdin.isTargetOpen) child.stdin.end();
		};
		if (options.io.stdinFd !== undefined) {
			const inReader = new InPlaceReader(this.ring, 'stdin');
			try {
				this.stdinSocket = inPlaceSocket(options.io.stdinFd, inReader.onread);
				stdin.readInPlace(this.stdinSocket, inReader);
			} catch {
				this.stdinSocket = undefined;
			}
		}

		const {io} = options;
		const stdinStream = this.stdinSocket ? undefined : typeof io.stdin === 'function' ? io.stdin() : io.stdin;
		if (stdinStream) stdin.readStream(stdinStream);
	}

	/** SIGINT, SIGTERM and SIGHUP go to the server; one still running `killAfterMs` later gets SIGKILL. */
	private forwardSignals(): void {
		const {options, child, capture} = this;
		if (options.forwardSignals === false) return;
		const killAfterMs = options.killAfterMs ?? DEFAULT_KILL_AFTER_MS;
		const kill = (signal: NodeJS.Signals): void => {
			try {
				child.kill(signal);
			} catch {
				// already gone
			}
		};
		for (const signal of FORWARDED_SIGNALS) {
			const handler = (): void => {
				if (this.exit) return;
				capture?.mark({type: 'phase', name: `signal-forwarded:${signal}`, tMs: this.now()});
				kill(signal);
				if (killAfterMs > 0 && this.killTimer === undefined) {
					this.killTimer = setTimeout(() => {
						if (this.exit) return;
						capture?.mark({type: 'phase', name: TAP_PHASE.sigkillAfterGrace, tMs: this.now()});
						kill('SIGKILL');
					}, killAfterMs);
				}
			};
			this.signalHandlers.set(signal, handler);
			process.on(signal, handler);
		}
	}

	/**
	 * Stall looks: the client sent bytes after the server's last output and nothing came back for a
	 * while (a request outstanding, as far as bytes tell): look at STALL_LOOKS_MS into each stall.
	 */
	private watchStalls(): void {
		if (!this.evidence) return;
		const {lastAt} = this;
		let stallKey = -1;
		let stallLooks = 0;
		this.stallTimer = setInterval(() => {
			if (this.exit || lastAt.stdin < 0 || lastAt.stdin <= lastAt.stdout) return;
			if (stallKey !== lastAt.stdin) {
				stallKey = lastAt.stdin;
				stallLooks = 0;
			}
			const due = STALL_LOOKS_MS[stallLooks];
			if (due !== undefined && this.now() - lastAt.stdin >= due) {
				stallLooks += 1;
				this.observe('stall');
			}
		}, STALL_CHECK_MS);
		this.stallTimer.unref();
	}

	/**
	 * At the server's exit: watch its output pipes (exit-drain.ts), and look at who is left once the pipes
	 * closed, after EXIT_LOOK_MS if a survivor holds them, or before the tap gives up pipes a survivor holds.
	 * @returns resolves once that look was taken (at once without evidence)
	 */
	private watchExit(closed: Promise<unknown>): Promise<void> {
		let lookedAtExit = false;
		let lookAtExit = (): void => undefined;
		return new Promise<void>((resolve) => {
			this.child.on('exit', (code: number | null, signal: NodeJS.Signals | null) => {
				this.exit = {code, signal, tMs: this.now()};
				clearInterval(this.stallTimer);
				this.drain = watchExitDrain({
					sources: [
						{
							stream: 'stdout',
							isEnded: () => this.isOutEnded,
							isHeld: () => this.out.isHeld,
							bytesRead: () => this.bytes.stdout,
						},
						{
							stream: 'stderr',
							isEnded: () => this.isErrEnded,
							isHeld: () => this.err.isHeld,
							bytesRead: () => this.bytes.stderr,
						},
					],
					now: () => this.now(),
					onGiveUp: (open) => {
						lookAtExit();
						this.giveUpOutput(open);
					},
				});
				if (!this.evidence) {
					resolve();
					return;
				}
				const look = (): void => {
					clearTimeout(timer);
					if (lookedAtExit) return;
					lookedAtExit = true;
					const openPipes = (['stdout', 'stderr'] as const).filter((name) =>
						name === 'stdout' ? !this.isOutEnded : !this.isErrEnded,
					);
					this.observe('exit', {rootAlive: false, openPipes});
					resolve();
				};
				const timer = setTimeout(look, EXIT_LOOK_MS);
				timer.unref();
				lookAtExit = look;
				void closed.then(look);
			});
		});
	}

	/** The server exited and a process it left still holds `open`: stop reading them, say so once. */
	private giveUpOutput(open: readonly OutputStream[]): void {
		this.isGivenUp = true;
		this.warnings.warn(
			`the server exited, but a process it started still holds its ${open.join(' and ')}: stopped reading ${open.length > 1 ? 'them' : 'it'} (what that process writes from now on is not forwarded)`,
		);
		this.capture?.mark({type: 'phase', name: TAP_PHASE.outputGivenUp, tMs: this.now()});
		if (open.includes('stdout')) {
			this.out.cut();
			this.closeServerStdout();
		}
		if (open.includes('stderr')) {
			this.err.cut();
			this.child.stderr.destroy();
		}
	}
}

/** Spawn the server; its stdout is `pair.theirs` when there is a pair (read in place), else a pipe. */
function spawn(file: string, args: readonly string[], options: TapOptions, pair: SocketPair | undefined) {
	return execa(file, args, {...serverExecaOptions(options.env, options.cwd), ...(pair ? {stdout: pair.theirs} : {})});
}

function safe<T>(make: () => T): T | undefined {
	try {
		return make();
	} catch {
		return undefined;
	}
}

/** Wait until `stream` has written everything (or closed), at most `timeoutMs`. */
async function flushed(stream: Writable, timeoutMs: number): Promise<void> {
	if (stream.writableLength === 0 || stream.destroyed) return;
	await new Promise<void>((resolve) => {
		const timer = setTimeout(done, timeoutMs);
		function done(): void {
			clearTimeout(timer);
			stream.off('drain', done);
			stream.off('close', done);
			stream.off('finish', done);
			resolve();
		}

		stream.once('drain', done);
		stream.once('close', done);
		stream.once('finish', done);
	});
}
