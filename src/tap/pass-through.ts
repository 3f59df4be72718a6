import {Buffer} from 'node:buffer';
import {fstatSync} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import type {Readable, Writable} from 'node:stream';
import {execa} from 'execa';
import {TAP_PHASE, type ExitInfo, type SessionMeta, type StreamName} from '../core/types.js';
import {ARENA, createRing, RingProducer} from './capture-ring.js';
import type {CaptureWriter} from './capture-writer.js';
import type {Clock} from '../process/clock.js';
import {createSocketPair, inPlaceSocket, type OnRead, type SocketPair} from '../process/socket-pair.js';
import {watchProcessTree, type ProcessWatch} from '../process/proc-evidence.js';
import {describeSpawnError, serverExecaOptions, type SpawnError} from '../process/spawn.js';
import {watchExitDrain} from './exit-drain.js';

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
	const {io, clock} = options;
	const bytes: Record<StreamName, number> = {stdin: 0, stdout: 0, stderr: 0};
	let lastStderrByte = 0x0a;
	let isStderrOpen = true;
	const warn = (message: string): void => {
		if (!isStderrOpen) return;
		const lead = lastStderrByte === 0x0a ? '' : '\n';
		lastStderrByte = 0x0a;
		try {
			io.stderr.write(`${lead}mcp-wire: warning: ${message}\n`);
		} catch {
			isStderrOpen = false;
		}
	};

	const file = options.command[0] ?? '';
	const args = options.command.slice(1);
	const capture = safe(() => options.capture?.start(warn));
	// Without a capture the ring is only a pool of read buffers (nothing is published).
	const ring = capture?.ring ?? new RingProducer(createRing(POOL_BYTES));
	const outReader = new InPlaceReader(ring, 'stdout');
	const pair = file === '' ? undefined : await createSocketPair(outReader.onread);
	let subprocess: ReturnType<typeof spawn> | undefined;
	let thrown: unknown;
	try {
		subprocess = file === '' ? undefined : spawn(file, args, options, pair);
	} catch (error) {
		thrown = error;
	}

	// The server holds its own copy of its end now.
	pair?.theirs.destroy();
	if (subprocess?.pid === undefined) {
		pair?.ours.destroy();
		let reason: unknown = thrown ?? {code: 'EINVAL'};
		if (subprocess) {
			const result = (await subprocess.then(
				(r) => r,
				(error: unknown) => error,
			)) as {code?: unknown; cause?: {code?: unknown}};
			reason = typeof result.code === 'string' ? result : (result.cause ?? result);
		}

		const error: SpawnError =
			file === ''
				? {
						code: 'EINVAL',
						file,
						reason: 'the command is empty (EINVAL)',
						message: 'cannot start: the command is empty (EINVAL)',
					}
				: describeSpawnError(reason, file, options.cwd);
		safe(() => capture?.header(options.capture!.meta(undefined)));
		// What only a live run sees, as the probe records it: replay derives the finding from the mark
		// (docs/json-records.md#mark).
		capture?.mark({
			type: 'observed',
			what: 'spawn-failed',
			offset: 0,
			tMs: clock.now(),
			detail: {
				file: error.file,
				errno: error.code,
				reason: error.reason ?? error.message,
				command: [...options.command],
				...(error.cwd === undefined ? {} : {cwd: error.cwd}),
			},
		});
		try {
			io.stderr.write(`mcp-wire: ${error.message}\n`);
		} catch {
			// nothing more to do
		}

		await capture?.close(options.captureCloseMs ?? 3000);
		return {exit: undefined, spawnError: error, exitCode: error.code === 'ENOENT' ? 127 : 126, bytes};
	}

	const child = subprocess;
	safe(() => capture?.header(options.capture!.meta(child.pid)));
	// Process evidence for the capture (docs/json-records.md#mark): only with a capture, only what the tap can see (its
	// child's tree). It never changes what is forwarded or when the server ends.
	const evidence =
		capture && child.pid !== undefined ? safe(() => watchProcessTree(child.pid!, {now: () => clock.now()})) : undefined;
	const observe = (
		reason: 'stall' | 'timeout' | 'shutdown' | 'exit',
		observeOptions?: Parameters<ProcessWatch['observe']>[1],
	): void => {
		if (!evidence) return;
		safe(() => {
			const observed = evidence.observe(reason, observeOptions);
			capture?.mark({type: 'evidence', evidence: observed, tMs: clock.now()});
		});
	};
	/** When each stream last carried bytes (ms since session start); a stall is stdin newer than stdout. */
	const lastAt: Record<StreamName, number> = {stdin: -1, stdout: -1, stderr: -1};
	const pump = (stream: StreamName, target: Writable): Pump =>
		new Pump({
			stream,
			target,
			ring,
			capture,
			clock,
			onCount: (n) => {
				bytes[stream] += n;
				// A clock read per chunk only when stalls are watched (a capture with process evidence).
				if (evidence) lastAt[stream] = clock.now();
			},
		});

	// server stdout → client; its EOF closes our stdout
	const out = pump('stdout', io.stdout);
	let isOutClosedByClient = false;
	out.onTargetClosed = () => {
		// The client stopped reading: close our end so the server's next write fails (EPIPE/SIGPIPE) as it
		// would without the tap, instead of reading and discarding forever.
		isOutClosedByClient = true;
		capture?.mark({type: 'phase', name: TAP_PHASE.clientClosedStdout, tMs: clock.now()});
		if (pair) pair.ours.destroy();
		else child.stdout?.destroy();
	};
	let isOutEnded = false;
	let isErrEnded = false;
	/** The server exited while a process it left still held its output: the tap stopped reading it (exit-drain.ts). */
	let isGivenUp = false;
	const outEnded = new Promise<void>((resolve) => {
		out.onEnd = () => {
			isOutEnded = true;
			if (!isOutClosedByClient && !isGivenUp) capture?.mark({type: 'eof', stream: 'stdout', tMs: clock.now()});
			if (out.isTargetOpen) io.stdout.end();
			resolve();
		};
	});
	if (pair) out.readInPlace(pair.ours, outReader);
	else if (child.stdout) out.readStream(child.stdout);
	else out.onEnd();

	// server stderr → our stderr (and our warnings, on a line of their own)
	const err = pump('stderr', io.stderr);
	err.onBytes = (chunk) => {
		lastStderrByte = chunk.at(-1) ?? lastStderrByte;
	};
	err.onTargetClosed = () => {
		isStderrOpen = false;
	};
	err.onEnd = () => {
		isErrEnded = true;
		if (!isGivenUp) capture?.mark({type: 'eof', stream: 'stderr', tMs: clock.now()});
	};
	err.readStream(child.stderr);

	// client → server stdin; our stdin's EOF is forwarded
	const stdin = pump('stdin', child.stdin);
	stdin.onEnd = () => {
		// What the tree does as the client starts its shutdown (every descendant is remembered for the exit).
		if (!exit) observe('shutdown');
		capture?.mark({type: 'stdin-closed', tMs: clock.now()});
		if (stdin.isTargetOpen) child.stdin.end();
	};
	let stdinSocket: net.Socket | undefined;
	if (io.stdinFd !== undefined) {
		const inReader = new InPlaceReader(ring, 'stdin');
		try {
			stdinSocket = inPlaceSocket(io.stdinFd, inReader.onread);
			stdin.readInPlace(stdinSocket, inReader);
		} catch {
			stdinSocket = undefined;
		}
	}

	const stdinStream = stdinSocket ? undefined : typeof io.stdin === 'function' ? io.stdin() : io.stdin;
	if (stdinStream) stdin.readStream(stdinStream);

	// signals
	const handlers = new Map<NodeJS.Signals, () => void>();
	let exit: ExitInfo | undefined;
	let killTimer: NodeJS.Timeout | undefined;
	const killAfterMs = options.killAfterMs ?? DEFAULT_KILL_AFTER_MS;
	if (options.forwardSignals !== false) {
		for (const signal of FORWARDED_SIGNALS) {
			const handler = (): void => {
				if (exit) return;
				capture?.mark({type: 'phase', name: `signal-forwarded:${signal}`, tMs: clock.now()});
				try {
					child.kill(signal);
				} catch {
					// already gone
				}

				if (killAfterMs > 0 && killTimer === undefined) {
					killTimer = setTimeout(() => {
						if (exit) return;
						capture?.mark({type: 'phase', name: TAP_PHASE.sigkillAfterGrace, tMs: clock.now()});
						try {
							child.kill('SIGKILL');
						} catch {
							// already gone
						}
					}, killAfterMs);
				}
			};
			handlers.set(signal, handler);
			process.on(signal, handler);
		}
	}

	const settled = child.then(
		() => undefined,
		() => undefined,
	);
	// Stall looks: the client sent bytes after the server's last output and nothing came back for a
	// while (a request outstanding, as far as bytes tell): look at STALL_LOOKS_MS into each stall.
	let stallKey = -1;
	let stallLooks = 0;
	const stallTimer = evidence
		? setInterval(() => {
				if (exit || lastAt.stdin < 0 || lastAt.stdin <= lastAt.stdout) return;
				if (stallKey !== lastAt.stdin) {
					stallKey = lastAt.stdin;
					stallLooks = 0;
				}
				const due = STALL_LOOKS_MS[stallLooks];
				if (due !== undefined && clock.now() - lastAt.stdin >= due) {
					stallLooks += 1;
					observe('stall');
				}
			}, STALL_CHECK_MS)
		: undefined;
	stallTimer?.unref();
	const closed = Promise.all([
		new Promise<void>((resolve) => {
			child.once('close', () => resolve());
		}),
		// The server's stdout is not one of the child's own pipes when it is read in place.
		outEnded,
	]);
	// After the exit: who is left (once the pipes closed, or after EXIT_LOOK_MS if a survivor holds them,
	// or before the tap gives up pipes a survivor holds).
	let lookedAtExit = false;
	let lookAtExit = (): void => undefined;
	let drain: {stop(): void} | undefined;
	const exitLooked = new Promise<void>((resolve) => {
		child.on('exit', (code: number | null, signal: NodeJS.Signals | null) => {
			exit = {code, signal, tMs: clock.now()};
			clearInterval(stallTimer);
			drain = watchExitDrain({
				sources: [
					{stream: 'stdout', isEnded: () => isOutEnded, isHeld: () => out.isHeld, bytesRead: () => bytes.stdout},
					{stream: 'stderr', isEnded: () => isErrEnded, isHeld: () => err.isHeld, bytesRead: () => bytes.stderr},
				],
				now: () => clock.now(),
				onGiveUp: (open) => {
					lookAtExit();
					isGivenUp = true;
					warn(
						`the server exited, but a process it started still holds its ${open.join(' and ')}: stopped reading ${open.length > 1 ? 'them' : 'it'} (what that process writes from now on is not forwarded)`,
					);
					capture?.mark({type: 'phase', name: TAP_PHASE.outputGivenUp, tMs: clock.now()});
					if (open.includes('stdout')) {
						out.cut();
						if (pair) pair.ours.destroy();
						else child.stdout?.destroy();
					}
					if (open.includes('stderr')) {
						err.cut();
						child.stderr.destroy();
					}
				},
			});
			if (!evidence) {
				resolve();
				return;
			}
			const timer = setTimeout(look, EXIT_LOOK_MS);
			timer.unref();
			lookAtExit = look;
			void closed.then(look);
			function look(): void {
				clearTimeout(timer);
				if (lookedAtExit) return;
				lookedAtExit = true;
				const openPipes = (['stdout', 'stderr'] as const).filter((name) =>
					name === 'stdout' ? !isOutEnded : !isErrEnded,
				);
				observe('exit', {rootAlive: false, openPipes});
				resolve();
			}
		});
	});
	await closed;
	await exitLooked;
	clearInterval(stallTimer);
	// execa settles just after 'close'; awaiting it also removes its exit-cleanup signal listeners, so
	// the caller can re-raise the server's signal on itself.
	await settled;
	drain?.stop();
	clearTimeout(killTimer);
	const info: ExitInfo = exit ?? {code: child.exitCode, signal: child.signalCode, tMs: clock.now()};
	capture?.exit(info);

	for (const [signal, handler] of handlers) process.off(signal, handler);
	stdin.stop();
	stdinSocket?.destroy();
	pair?.ours.destroy();
	await capture?.close(options.captureCloseMs ?? 3000);
	await flushed(io.stdout, 2000);

	const signal = info.signal === null ? undefined : (info.signal as NodeJS.Signals);
	return {
		exit: info,
		exitCode: signal === undefined ? (info.code ?? 1) : signalExitCode(signal),
		...(signal === undefined ? {} : {signal}),
		bytes,
	};
}

/**
 * Most bytes of one read in place (at most a quarter of the arena). Node's own streams read 64 KiB; a
 * Unix socket (what Node clients give a server, and what the server's stdout is here) can hand over
 * more per read when the writer is ahead, which means fewer syscalls, callbacks and capture records per
 * byte: in bench:tap this took the client→server ratio from about 0.85 to about 1.0. A pipe still
 * returns at most its capacity (64 KiB by default) per read.
 */
const READ_BYTES = 256 * 1024;
/** Arena size of the read-buffer pool when nothing is captured (only writes in flight hold space). */
const POOL_BYTES = 2 * 1024 * 1024;

/**
 * Reads one pipe or socket straight into the ring arena of its stream, through Node's `net.Socket`
 * `onread`: the kernel copies each read into a reserved region, which is then forwarded and published
 * from where it is. When the arena has no room (the capture is a whole arena behind, or the target is
 * that far behind on its writes), a read lands in a fresh heap buffer instead: it is forwarded at once,
 * and the capture keeps it while the source pauses (see {@link Pump}).
 */
class InPlaceReader {
	/** Where the buffer handed out last lives in the arena (-1: a heap buffer). */
	private position = -1;
	/**
	 * Set while the capture keeps a read of this stream to copy into the arena later: the buffer for the
	 * next read (which Node asks for right after each read, paused or not) must not be a reservation of
	 * the arena then, or the kernel would read into the region that copy goes to.
	 */
	isCaptureWaiting = false;
	/** Called for each read with its bytes and their arena position (-1: a heap buffer); false pauses. */
	handler: ((chunk: Buffer, position: number) => boolean) | undefined;
	readonly onread: OnRead;

	constructor(
		private readonly ring: RingProducer,
		stream: StreamName,
	) {
		const arena = ARENA[stream];
		const readBytes = Math.max(4096, Math.min(READ_BYTES, Math.floor(ring.arenaSize(arena) / 4 / 4096) * 4096));
		this.onread = {
			buffer: () => {
				const position = this.isCaptureWaiting ? -1 : this.ring.reserve(arena, readBytes);
				this.position = position;
				return position < 0 ? Buffer.allocUnsafe(readBytes) : this.ring.view(arena, position, readBytes);
			},
			callback: (bytesRead, buffer) =>
				this.handler?.(Buffer.from(buffer.buffer, buffer.byteOffset, bytesRead), this.position) ?? true,
		};
	}
}

/** Options of {@link Pump}. */
interface PumpOptions {
	readonly stream: StreamName;
	readonly target: Writable;
	readonly ring: RingProducer;
	readonly capture: CaptureWriter | undefined;
	readonly clock: Clock;
	readonly onCount: (bytes: number) => void;
}

/**
 * One direction of the tap: each read is written to the target at once, then recorded. Backpressure:
 * when the target's buffer is full the source is paused until it drains; when the capture has no room
 * for the read, until the capture resumes it (it made room, or its wait limit passed); reading goes on
 * once neither holds it. When the target closes or fails, reading goes on (the bytes are still
 * recorded, and the source never blocks on a full pipe).
 */
class Pump {
	/** Called once when the source ends (EOF, error or close). */
	onEnd: () => void = () => undefined;
	/** Called with each read before it is forwarded (only while the target is open). */
	onBytes: ((chunk: Buffer) => void) | undefined;
	/** Called once when the target closes or fails while the source is still open. */
	onTargetClosed: (() => void) | undefined;
	isTargetOpen = true;
	private resumeSource: () => void = () => undefined;
	private isEnded = false;
	private detach: () => void = () => undefined;
	/** Bumped when writes in flight are abandoned, so their late callbacks release nothing. */
	private generation = 0;
	private readonly arena: number;
	/** Paused until the target drains / until the capture made room for the last read. */
	private isWaitingDrain = false;
	private isWaitingCapture = false;
	private readonly resume = (): void => {
		this.isWaitingDrain = false;
		if (!this.isWaitingCapture) this.resumeSource();
	};
	private readonly captureResume = (): void => {
		this.isWaitingCapture = false;
		if (this.reader) this.reader.isCaptureWaiting = false;
		if (!this.isWaitingDrain) this.resumeSource();
	};
	/** The in-place reader of the source, when it is read in place. */
	private reader: InPlaceReader | undefined;

	constructor(private readonly options: PumpOptions) {
		this.arena = ARENA[options.stream];
		const {target} = options;
		const closeTarget = (): void => {
			if (!this.isTargetOpen) return;
			this.isTargetOpen = false;
			target.off('drain', this.resume);
			this.generation++;
			options.ring.abandonWrites(this.arena);
			// After the source ended we closed the target ourselves; before, the other side went away.
			if (!this.isEnded) this.onTargetClosed?.();
			this.resume();
		};
		target.on('error', closeTarget);
		target.on('close', closeTarget);
	}

	/** Read a Readable (data events; each chunk is copied into the ring by the capture). */
	readStream(source: Readable): void {
		const onData = (chunk: Buffer): void => {
			if (!this.forward(chunk, -1)) source.pause();
		};
		const end = (): void => this.end();
		this.resumeSource = () => source.resume();
		source.on('data', onData);
		source.on('end', end);
		source.on('error', end);
		this.detach = () => {
			source.off('data', onData);
			source.off('end', end);
			source.off('error', end);
			source.pause();
		};
	}

	/** Read a socket made with `reader.onread` (in place: no copy). */
	readInPlace(socket: net.Socket, reader: InPlaceReader): void {
		this.reader = reader;
		reader.handler = (chunk, position) => this.forward(chunk, position);
		const end = (): void => this.end();
		this.resumeSource = () => socket.resume();
		socket.on('end', end);
		socket.on('error', end);
		socket.on('close', end);
		this.detach = () => {
			reader.handler = undefined;
			socket.off('end', end);
			socket.off('error', end);
			socket.off('close', end);
		};
	}

	/** Stop reading (the session is over). */
	stop(): void {
		this.detach();
		this.resumeSource = () => undefined;
	}

	/** Reading is paused: the target has not drained, or the capture has no room for the last read. */
	get isHeld(): boolean {
		return this.isWaitingDrain || this.isWaitingCapture;
	}

	/** Stop reading and end now, as at EOF (the caller closes the source). */
	cut(): void {
		this.stop();
		this.end();
	}

	/**
	 * Forward one read, then record it. `position` is where it lies in the ring (-1: not in the ring).
	 * @returns false when the source must pause until the target drains
	 */
	private forward(chunk: Buffer, position: number): boolean {
		const {target, ring, capture, stream, clock} = this.options;
		let isWriting = true;
		if (this.isTargetOpen) {
			this.onBytes?.(chunk);
			try {
				if (position < 0) {
					isWriting = target.write(chunk);
				} else {
					ring.beginWrite(this.arena, position);
					const generation = this.generation;
					isWriting = target.write(chunk, () => {
						if (generation === this.generation) ring.endWrite(this.arena);
					});
				}
			} catch {
				isWriting = true;
			}

			if (!isWriting) {
				this.isWaitingDrain = true;
				target.once('drain', this.resume);
			}
		}

		this.options.onCount(chunk.length);
		const tMs = clock.now();
		let isRecorded = true;
		try {
			if (position < 0) isRecorded = capture?.chunk(stream, tMs, chunk, this.captureResume) ?? true;
			else if (capture) isRecorded = capture.chunkAt(stream, tMs, position, chunk.length, this.captureResume);
			else ring.claim(this.arena, position, chunk.length);
		} catch {
			// the capture never breaks forwarding
		}

		if (!isRecorded) {
			this.isWaitingCapture = true;
			if (this.reader) this.reader.isCaptureWaiting = true;
		}

		return isWriting && isRecorded;
	}

	private end(): void {
		if (this.isEnded) return;
		this.isEnded = true;
		this.onEnd();
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
