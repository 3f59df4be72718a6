import {fstatSync} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import type {Readable, Writable} from 'node:stream';
import {execa} from 'execa';
import type {ExitInfo, SessionMeta, StreamName} from '../core/types.js';
import type {CaptureWriter} from './capture-writer.js';
import type {Clock} from './clock.js';
import {describeSpawnError, type SpawnError} from './spawn.js';
import {serverExecaOptions} from './spawn.js';

/**
 * `mcp-wire tap`: sit in a real client's stdio pipe (issue 3 item 1).
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
 * after a read has been written on is it handed to the capture (a memcpy into shared memory; the
 * encoding and disk writes happen in the worker). Nothing of ours goes to stdout. Warnings go to stderr
 * as single lines starting `mcp-wire: warning:`.
 */

/** The three streams the tap sits on (the client's side). */
export interface TapIo {
	/** Bytes from the client (our stdin). */
	readonly stdin: Readable;
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
}

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

/** Signals forwarded to the server. */
export const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * A writable for one of our output fds that can really be closed: when fd 1 or 2 is a pipe or a socket,
 * a `net.Socket` on it (ending it closes the fd, so the client sees EOF even while we still run; Node's
 * `process.stdout` never closes its fd). Otherwise (a file, a terminal, Windows) `fallback`.
 */
export function openWireStream(fd: 1 | 2, fallback: Writable): Writable {
	if (process.platform === 'win32') return fallback;
	try {
		const stat = fstatSync(fd);
		if (stat.isFIFO() || stat.isSocket()) return new net.Socket({fd, readable: false, writable: true});
	} catch {
		// fall back
	}

	return fallback;
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
 * Rules kept (issue 3 item 1): bytes verbatim both ways before any inspection; backpressure both ways;
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
	let subprocess: ReturnType<typeof spawn> | undefined;
	let thrown: unknown;
	try {
		subprocess = file === '' ? undefined : spawn(file, args, options);
	} catch (error) {
		thrown = error;
	}

	if (subprocess?.pid === undefined) {
		let reason: unknown = thrown ?? {code: 'EINVAL'};
		if (subprocess) {
			const result = (await subprocess.then(
				(r) => r,
				(error: unknown) => error,
			)) as {code?: unknown; cause?: {code?: unknown}};
			reason = typeof result.code === 'string' ? result : (result.cause ?? result);
		}

		const error: SpawnError = file === '' ? {code: 'EINVAL', file, reason: 'the command is empty (EINVAL)', message: 'cannot start: the command is empty (EINVAL)'} : describeSpawnError(reason, file);
		safe(() => capture?.header(options.capture!.meta(undefined)));
		capture?.finding({code: 'spawn-failed', stream: 'stdout', offset: 0, byteLength: 0, tMs: clock.now(), detail: {code: error.code, reason: error.reason ?? error.message, file: error.file}});
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
	const record = (stream: StreamName, chunk: Buffer): void => {
		bytes[stream] += chunk.length;
		if (capture) {
			try {
				capture.chunk(stream, clock.now(), chunk);
			} catch {
				// the capture never breaks forwarding
			}
		}
	};

	const {stdin: childIn, stdout: childOut, stderr: childErr} = child;

	// server stdout → client
	let isOutOpen = true;
	const resumeOut = (): void => {
		childOut.resume();
	};
	const closeOut = (): void => {
		if (!isOutOpen) return;
		isOutOpen = false;
		io.stdout.off('drain', resumeOut);
		resumeOut();
	};
	io.stdout.on('error', closeOut);
	io.stdout.on('close', closeOut);
	childOut.on('data', (chunk: Buffer) => {
		if (isOutOpen && !io.stdout.write(chunk)) {
			childOut.pause();
			io.stdout.once('drain', resumeOut);
		}

		record('stdout', chunk);
	});
	childOut.on('end', () => {
		capture?.mark({type: 'eof', stream: 'stdout', tMs: clock.now()});
		if (isOutOpen) io.stdout.end();
	});

	// server stderr → our stderr
	const resumeErr = (): void => {
		childErr.resume();
	};
	const closeErr = (): void => {
		if (!isStderrOpen) return;
		isStderrOpen = false;
		io.stderr.off('drain', resumeErr);
		resumeErr();
	};
	io.stderr.on('error', closeErr);
	childErr.on('data', (chunk: Buffer) => {
		if (isStderrOpen) {
			lastStderrByte = chunk.at(-1) ?? lastStderrByte;
			if (!io.stderr.write(chunk)) {
				childErr.pause();
				io.stderr.once('drain', resumeErr);
			}
		}

		record('stderr', chunk);
	});
	childErr.on('end', () => capture?.mark({type: 'eof', stream: 'stderr', tMs: clock.now()}));

	// client → server stdin
	let isInOpen = true;
	const resumeIn = (): void => {
		io.stdin.resume();
	};
	const closeIn = (): void => {
		if (!isInOpen) return;
		isInOpen = false;
		childIn.off('drain', resumeIn);
		resumeIn();
	};
	childIn.on('error', closeIn);
	childIn.on('close', closeIn);
	const onStdinData = (chunk: Buffer): void => {
		if (isInOpen && !childIn.write(chunk)) {
			io.stdin.pause();
			childIn.once('drain', resumeIn);
		}

		record('stdin', chunk);
	};
	let isStdinEnded = false;
	const onStdinEnd = (): void => {
		if (isStdinEnded) return;
		isStdinEnded = true;
		capture?.mark({type: 'stdin-closed', tMs: clock.now()});
		if (isInOpen) childIn.end();
	};
	io.stdin.on('data', onStdinData);
	io.stdin.on('end', onStdinEnd);
	io.stdin.on('error', onStdinEnd);

	// signals
	const handlers = new Map<NodeJS.Signals, () => void>();
	let exit: ExitInfo | undefined;
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
			};
			handlers.set(signal, handler);
			process.on(signal, handler);
		}
	}

	const settled = child.then(
		() => undefined,
		() => undefined,
	);
	child.on('exit', (code: number | null, signal: NodeJS.Signals | null) => {
		exit = {code, signal, tMs: clock.now()};
	});
	await new Promise<void>((resolve) => {
		child.once('close', () => resolve());
	});
	// execa settles just after 'close'; awaiting it also removes its exit-cleanup signal listeners, so
	// the caller can re-raise the server's signal on itself.
	await settled;
	const info: ExitInfo = exit ?? {code: child.exitCode, signal: child.signalCode, tMs: clock.now()};
	capture?.exit(info);

	for (const [signal, handler] of handlers) process.off(signal, handler);
	io.stdin.off('data', onStdinData);
	io.stdin.off('end', onStdinEnd);
	io.stdin.off('error', onStdinEnd);
	io.stdin.pause();
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

function spawn(file: string, args: readonly string[], options: TapOptions) {
	return execa(file, args, serverExecaOptions(options.env, options.cwd));
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
