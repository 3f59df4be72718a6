import {SDK_SCHEMAS} from '../../src/core/jsonrpc/sdk-schemas.js';
import {Session} from '../../src/core/session/session.js';
import type {ExitInfo, SessionMeta} from '../../src/core/types.js';
import type {Clock} from '../../src/process/clock.js';
import type {SpawnEvent, SpawnedServer} from '../../src/process/spawn.js';
import type {ProbeOptions} from '../../src/probe/probe-types.js';

/** A clock that moves only when the test says (ms). */
export interface FakeClock extends Clock {
	advance(ms: number): void;
}

export function fakeClock(): FakeClock {
	let t = 0;
	return {startedAt: '2026-01-01T00:00:00.000Z', now: () => t, advance: (ms) => void (t += ms)};
}

/** A clock on `Date.now()`, which vitest's fake timers move (`vi.useFakeTimers()` first): 0 at this call. */
export function dateClock(): Clock {
	const origin = Date.now();
	return {startedAt: new Date(origin).toISOString(), now: () => Date.now() - origin};
}

/**
 * A server without a process: what the probe writes is kept in `stdin` (one string per newline-framed message, or
 * per write of anything else), and the
 * test makes it answer with `stdout(text)`, `end(stream)` and `exit(code)`. `onWrite` runs on every write.
 * Between `pauseOutput` and `resumeOutput` what it writes waits, as in a pipe: it is read (and timed) at the resume.
 */
export interface FakeServer extends SpawnedServer {
	readonly stdin: string[];
	readonly signals: string[];
	/** Each `pauseOutput` (true) and `resumeOutput` (false) call, in order. */
	readonly paused: boolean[];
	stdinOpen: boolean;
	onWrite?: (text: string) => void;
	stdout(text: string): void;
	stderr(text: string): void;
	end(stream: 'stdout' | 'stderr'): void;
	exit(code: number | null, signal?: string | null): void;
}

export function fakeServer(clock: Clock, pid = 4242): FakeServer {
	let listener: ((event: SpawnEvent) => void) | undefined;
	const queued: SpawnEvent[] = [];
	const ended = {stdout: false, stderr: false};
	let exitInfo: ExitInfo | undefined;
	let resolveExit!: (exit: ExitInfo | undefined) => void;
	const emit = (event: SpawnEvent): void => {
		if (listener) listener(event);
		else queued.push(event);
	};
	// While paused, stream events wait as bytes wait in a real pipe; the exit does not.
	let isPaused = false;
	const held: (() => SpawnEvent)[] = [];
	const emitStream = (event: () => SpawnEvent): void => {
		if (isPaused) held.push(event);
		else emit(event());
	};
	const server: FakeServer = {
		pid,
		started: Promise.resolve({ok: true as const, pid}),
		exited: new Promise((resolve) => {
			resolveExit = resolve;
		}),
		get exitInfo() {
			return exitInfo;
		},
		ended,
		stdin: [],
		signals: [],
		paused: [],
		stdinOpen: true,
		listen(l) {
			listener = l;
			for (const event of queued.splice(0)) l(event);
		},
		write(bytes) {
			if (!server.stdinOpen || exitInfo) return false;
			const text = Buffer.from(bytes).toString('utf8');
			// The probe writes messages sent together as one write; a line server reads them one line at a time.
			const messages = text.startsWith('{') ? (text.match(/[^\n]*\n|[^\n]+$/g) ?? [text]) : [text];
			for (const message of messages) {
				server.stdin.push(message);
				server.onWrite?.(message);
			}
			return true;
		},
		closeStdin() {
			const was = server.stdinOpen;
			server.stdinOpen = false;
			return was;
		},
		kill(signal) {
			if (exitInfo) return false;
			server.signals.push(signal);
			return true;
		},
		pauseOutput() {
			server.paused.push(true);
			isPaused = true;
		},
		resumeOutput() {
			server.paused.push(false);
			isPaused = false;
			for (const event of held.splice(0)) emit(event());
		},
		dispose() {
			listener = undefined;
		},
		stdout: (text) =>
			emitStream(() => ({type: 'data', stream: 'stdout', bytes: Buffer.from(text, 'utf8'), tMs: clock.now()})),
		stderr: (text) =>
			emitStream(() => ({type: 'data', stream: 'stderr', bytes: Buffer.from(text, 'utf8'), tMs: clock.now()})),
		end(stream) {
			emitStream(() => {
				ended[stream] = true;
				return {type: 'end', stream, tMs: clock.now()};
			});
		},
		exit(code, signal = null) {
			exitInfo = {code, signal, tMs: clock.now()};
			emit({type: 'exit', exit: exitInfo});
			resolveExit(exitInfo);
		},
	};
	return server;
}

/** Probe options whose sessions are plain `Session`s (the given command in their meta); logs go to `logs`. */
export function fakeProbeOptions(logs: string[] = [], extra: Partial<ProbeOptions> = {}): ProbeOptions {
	const command = ['fake-server'];
	return {
		command,
		env: {},
		schemas: SDK_SCHEMAS,
		createSession: (init) => {
			const meta: SessionMeta = {
				tool: {name: 'mcp-wire', version: '0.1.0'},
				node: process.version,
				platform: process.platform,
				command,
				envMode: 'sdk-default',
				startedAt: init.startedAt,
				...(init.pid === undefined ? {} : {pid: init.pid}),
				mode: 'probe',
				protocolVersion: '2025-11-25',
			};
			return new Session(meta);
		},
		onLog: (line) => logs.push(line),
		...extra,
	};
}
