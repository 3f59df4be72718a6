import {spawn as nodeSpawn, type ChildProcess} from 'node:child_process';
import {statSync} from 'node:fs';
import path from 'node:path';
import type {EnvMode, ExitInfo} from '../core/types.js';
import type {Clock} from './clock.js';

/**
 * Environment variables the MCP TypeScript SDK passes to a stdio server by default
 * (`DEFAULT_INHERITED_ENV_VARS` in `src/client/stdio.ts`, docs/protocol.md C3). Everything else (for example
 * `PYTHONUNBUFFERED`, `NODE_OPTIONS`, `VIRTUAL_ENV`) is dropped unless passed explicitly (O3).
 */
export const SDK_DEFAULT_ENV_KEYS: Readonly<Record<'posix' | 'win32', readonly string[]>> = {
	posix: ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'],
	win32: [
		'APPDATA',
		'HOMEDRIVE',
		'HOMEPATH',
		'LOCALAPPDATA',
		'PATH',
		'PROCESSOR_ARCHITECTURE',
		'SYSTEMDRIVE',
		'SYSTEMROOT',
		'TEMP',
		'USERNAME',
		'USERPROFILE',
		'PROGRAMFILES',
	],
};

/**
 * Variables a client's environment drops that are known to decide whether a server starts at all behind a
 * corporate network (docs/protocol.md C3): extra CA certificates (Node, OpenSSL, Python requests, curl),
 * proxies, and package registries (an `npx`/`uvx` server downloads itself first). Without them a server
 * stalls on a TLS or proxy error, or fails to download.
 */
export const ENV_THAT_MATTERS: readonly string[] = [
	'NODE_EXTRA_CA_CERTS',
	'SSL_CERT_FILE',
	'SSL_CERT_DIR',
	'REQUESTS_CA_BUNDLE',
	'CURL_CA_BUNDLE',
	'HTTPS_PROXY',
	'https_proxy',
	'HTTP_PROXY',
	'http_proxy',
	'ALL_PROXY',
	'all_proxy',
	'NO_PROXY',
	'no_proxy',
	'NPM_CONFIG_REGISTRY',
	'npm_config_registry',
	'PIP_INDEX_URL',
	'UV_INDEX_URL',
	'NODE_TLS_REJECT_UNAUTHORIZED',
];

/**
 * The names of {@link ENV_THAT_MATTERS} that `parentEnv` sets (non-empty) and `childEnv` lacks or has
 * with another value, in list order. Names only: values may hold credentials (a proxy URL).
 * @param platform names compare case-insensitively on win32
 */
export function strippedEnv(
	parentEnv: Readonly<Record<string, string | undefined>>,
	childEnv: Readonly<Record<string, string | undefined>>,
	platform: NodeJS.Platform,
): string[] {
	const find = (env: Readonly<Record<string, string | undefined>>, key: string): string | undefined => {
		if (platform !== 'win32') return env[key];
		const upper = key.toUpperCase();
		const name = Object.keys(env).find((candidate) => candidate.toUpperCase() === upper);
		return name === undefined ? undefined : env[name];
	};
	const names =
		platform === 'win32' ? [...new Set(ENV_THAT_MATTERS.map((key) => key.toUpperCase()))] : ENV_THAT_MATTERS;
	return names.filter((key) => {
		const value = find(parentEnv, key);
		return value !== undefined && value !== '' && find(childEnv, key) !== value;
	});
}

/** Inputs of {@link buildEnv}. */
export interface BuildEnvOptions {
	/** `--inherit-env`: pass the whole parent environment (mode `inherit`). */
	readonly inheritEnv: boolean;
	/** `--env` values in order: `KEY=VALUE` (set) or `KEY` (copy from the parent, skipped if unset there). */
	readonly env: readonly string[];
	/** The parent's environment (normally `process.env`). */
	readonly parentEnv: NodeJS.ProcessEnv;
	/** `process.platform`: picks the POSIX or win32 allow-list; env names are case-insensitive on win32. */
	readonly platform: NodeJS.Platform;
}

/** Output of {@link buildEnv}. */
export interface BuiltEnv {
	/** The complete environment for the child (nothing else is added: execa runs with `extendEnv: false`). */
	readonly env: Record<string, string>;
	readonly mode: EnvMode;
	/** Names given with `--env`, in order, deduplicated (values are never recorded: SessionMeta.envKeys). */
	readonly keys: readonly string[];
	/** `--env KEY` names that the parent does not have (the child does not get them); for a warning. */
	readonly missing: readonly string[];
}

/** A malformed `--env` value (empty name, or a name containing `=` only). A usage error (exit code 2). */
export class EnvOptionError extends Error {
	override readonly name = 'EnvOptionError';
}

/**
 * Build the child's environment the way a real client does (docs/protocol.md C3, O3):
 * the MCP SDK allow-list (`HOME LOGNAME PATH SHELL TERM USER` on POSIX, the C3 list on win32; values that
 * start with `()`, exported shell functions, are skipped as the SDK does), then every `--env`, later
 * entries winning. With `inheritEnv`, the whole parent environment plus `--env` (mode `inherit`).
 *
 * @returns `{env, mode, keys, missing}`; `env` has only string values
 * @throws EnvOptionError when an `--env` entry has an empty name (`=x`, ``)
 */
export function buildEnv(options: BuildEnvOptions): BuiltEnv {
	const isWin = options.platform === 'win32';
	const parent = options.parentEnv;
	const lookup = (key: string): string | undefined => {
		const direct = parent[key];
		if (direct !== undefined || !isWin) return direct;
		const upper = key.toUpperCase();
		for (const [name, value] of Object.entries(parent)) if (name.toUpperCase() === upper) return value;
		return undefined;
	};
	const env: Record<string, string> = {};
	const set = (key: string, value: string): void => {
		if (isWin) {
			const upper = key.toUpperCase();
			for (const name of Object.keys(env)) if (name !== key && name.toUpperCase() === upper) delete env[name];
		}
		env[key] = value;
	};
	if (options.inheritEnv) {
		for (const [key, value] of Object.entries(parent)) if (value !== undefined) env[key] = value;
	} else {
		for (const key of SDK_DEFAULT_ENV_KEYS[isWin ? 'win32' : 'posix']) {
			const value = lookup(key);
			if (value === undefined || value.startsWith('()')) continue;
			set(key, value);
		}
	}
	const keys: string[] = [];
	const missing: string[] = [];
	for (const entry of options.env) {
		const eq = entry.indexOf('=');
		const key = eq === -1 ? entry : entry.slice(0, eq);
		if (key.length === 0) throw new EnvOptionError(`--env ${JSON.stringify(entry)}: expected KEY=VALUE or KEY`);
		if (!keys.includes(key)) keys.push(key);
		if (eq !== -1) {
			set(key, entry.slice(eq + 1));
			continue;
		}
		const value = lookup(key);
		if (value === undefined) {
			if (!missing.includes(key)) missing.push(key);
			continue;
		}
		set(key, value);
	}
	return {env, mode: options.inheritEnv ? 'inherit' : 'sdk-default', keys, missing};
}

/** Why a command could not start: an OS error code and one clean line (no stack trace). */
export interface SpawnError {
	/** OS error code: `ENOENT`, `EACCES`, `ENOTDIR`, `ENOEXEC`, `EPERM`, … (or `EINVAL` for an empty command). */
	readonly code: string;
	/**
	 * What went wrong, ending with the code, e.g. `command not found (ENOENT)` (the `spawn-failed`
	 * detail.reason). Always set by {@link spawnServer} and {@link describeSpawnError}.
	 */
	readonly reason?: string;
	/** One line for humans, e.g. `cannot start "foo": command not found (ENOENT)`. */
	readonly message: string;
	/** The program (first word of the command). */
	readonly file: string;
	/** Set when the working directory was the problem. */
	readonly cwd?: string;
}

/** The two streams the server writes. */
export type OutputStream = 'stdout' | 'stderr';

/**
 * What a spawned server does, in order, each stamped with the session clock at the moment Node
 * delivered it (`tMs`, ms since session start).
 * - `data`: raw bytes exactly as read from the pipe (one pipe read each, never re-chunked or decoded).
 * - `end`: EOF on the stream.
 * - `exit`: the process exited (`code`) or was killed (`signal`).
 * - `spawn-error`: the command could not start; no other event follows.
 */
export type SpawnEvent =
	| {readonly type: 'data'; readonly stream: OutputStream; readonly bytes: Uint8Array; readonly tMs: number}
	| {readonly type: 'end'; readonly stream: OutputStream; readonly tMs: number}
	| {readonly type: 'exit'; readonly exit: ExitInfo}
	| {readonly type: 'spawn-error'; readonly error: SpawnError; readonly tMs: number};

/** Options for {@link spawnServer}. */
export interface SpawnServerOptions {
	/** The child's whole environment (see {@link buildEnv}); nothing from `process.env` is added. */
	readonly env: Readonly<Record<string, string>>;
	/** Working directory (relative paths resolve against `process.cwd()`). */
	readonly cwd?: string;
	/** The session clock that stamps every event. */
	readonly clock: Clock;
	/** How the process is started (default {@link nodeStarter}; on Windows pass {@link loadProcessStarter}'s). */
	readonly starter?: ProcessStarter;
	/**
	 * Start the server in a process group (and session) of its own (POSIX `setsid`; ignored on Windows),
	 * so the probe can end its whole tree with one signal to the group. The tap does not: it leaves the
	 * client's process semantics alone.
	 */
	readonly processGroup?: boolean;
}

/**
 * Starts one server process with {@link serverExecaOptions}' semantics (no shell, exactly `env`, three
 * pipes, raw Buffers). `failed` resolves with the error when the process could not start (then
 * `child.pid` is undefined); it never settles for a process that started.
 */
export type ProcessStarter = (
	file: string,
	args: readonly string[],
	env: Readonly<Record<string, string>>,
	cwd: string | undefined,
	options?: {readonly processGroup?: boolean},
) => {
	readonly child: ChildProcess;
	readonly failed: Promise<unknown>;
};

/** Children started by {@link nodeStarter} that are still running: killed when this process exits (execa's `cleanup`). */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function killRunningOnExit(): void {
	for (const child of running) child.kill('SIGTERM');
}

/**
 * POSIX: Node's own `spawn` without a shell is what a real client does (the TS SDK's cross-spawn is
 * `child_process.spawn` there), and what execa does with the options of {@link serverExecaOptions};
 * starting it needs no module beyond Node, which keeps `probe` as fast to start as a bare client (docs/performance.md#probe-start-up).
 * Children still running when this process exits get SIGTERM, as execa's `cleanup: true` does.
 */
export const nodeStarter: ProcessStarter = (file, args, env, cwd, options) => {
	const child = nodeSpawn(file, [...args], {
		env: {...env},
		...(cwd === undefined ? {} : {cwd}),
		stdio: ['pipe', 'pipe', 'pipe'],
		shell: false,
		windowsHide: true,
		...(options?.processGroup === true && process.platform !== 'win32' ? {detached: true} : {}),
	});
	const failed = new Promise<unknown>((resolve) => {
		child.once('error', (error) => {
			if (child.pid === undefined) resolve(error);
		});
	});
	if (child.pid !== undefined) {
		running.add(child);
		child.once('exit', () => running.delete(child));
		if (!exitHookInstalled) {
			exitHookInstalled = true;
			process.once('exit', killRunningOnExit);
		}
	}
	return {child, failed};
};

/**
 * The starter for this platform: {@link nodeStarter} on POSIX; on Windows execa (loaded only there, by
 * `import()`), whose cross-spawn finds `.cmd`/`.bat` shims through PATHEXT (`npx`, `uvx`) as the TS SDK
 * client does (docs/protocol.md C3).
 */
export async function loadProcessStarter(platform: NodeJS.Platform = process.platform): Promise<ProcessStarter> {
	if (platform !== 'win32') return nodeStarter;
	const {execa} = await import('execa');
	return (file, args, env, cwd) => {
		const subprocess = execa(file, [...args], serverExecaOptions(env, cwd));
		subprocess.then(
			() => undefined,
			() => undefined,
		);
		const failed =
			subprocess.pid === undefined
				? subprocess.then(
						(result) => result,
						(error: unknown) => error,
					)
				: new Promise<unknown>(() => undefined);
		return {child: subprocess, failed};
	};
}

/** A running (or failed) server process. */
export interface SpawnedServer {
	/** The OS process id, or undefined when the command could not start. */
	readonly pid: number | undefined;
	/** Resolves once the spawn outcome is known: the pid, or the clean error. Never rejects. */
	readonly started: Promise<
		{readonly ok: true; readonly pid: number} | {readonly ok: false; readonly error: SpawnError}
	>;
	/** Resolves with the exit once it happened (undefined when the command never started). Never rejects. */
	readonly exited: Promise<ExitInfo | undefined>;
	/** The exit, once it happened. */
	readonly exitInfo: ExitInfo | undefined;
	/** Whether EOF was seen on each output stream. */
	readonly ended: Readonly<Record<OutputStream, boolean>>;
	/**
	 * Receive events. Events that happened before the first `listen` call are buffered and replayed to it
	 * first, so no byte is lost between spawning and subscribing. One listener.
	 */
	listen(listener: (event: SpawnEvent) => void): void;
	/** Write bytes to the server's stdin. Returns false (and writes nothing) when stdin is closed or the process is gone. */
	write(bytes: Uint8Array): boolean;
	/** Close the server's stdin (EOF). Returns false if it was already closed. */
	closeStdin(): boolean;
	/** Send a signal to the process (not its group, as the TS SDK does). Returns false if it already exited. */
	kill(signal: 'SIGTERM' | 'SIGKILL'): boolean;
	/**
	 * Stop reading stdout and stderr for now (our own output is backed up): the bytes wait in the pipes, and
	 * a server that fills them blocks on its own write, as it would with any client that reads slowly.
	 */
	pauseOutput(): void;
	/** Read stdout and stderr again after {@link SpawnedServer.pauseOutput}. */
	resumeOutput(): void;
	/** Stop reading: destroy all three pipes (bytes not yet read are lost). For cleanup after the session ends. */
	dispose(): void;
}

const ERROR_WORDS: Readonly<Record<string, string>> = {
	ENOENT: 'command not found',
	EACCES: 'permission denied (not executable?)',
	EPERM: 'operation not permitted',
	ENOEXEC: 'not an executable format',
	ENOTDIR: 'a path component is not a directory',
	EISDIR: 'is a directory',
	E2BIG: 'argument list too long',
	ELOOP: 'too many symbolic links',
	ENAMETOOLONG: 'file name too long',
	EMFILE: 'too many open files',
	ENOMEM: 'out of memory',
	EAGAIN: 'resource temporarily unavailable',
};

/**
 * Turn an error thrown or reported while starting a process into one clean line (no stack trace).
 * @param error a Node `ErrnoException`, an execa result with `code`, or anything
 * @returns `{code, message, file}`; `code` falls back to `ESPAWN` when no OS code is known
 * @param cwd the server's working directory (a directory given as the command is named so, not "not executable?")
 */
export function describeSpawnError(error: unknown, file: string, cwd?: string): SpawnError {
	const raw = error as {code?: unknown; errno?: unknown} | undefined;
	const code = typeof raw?.code === 'string' && raw.code.length > 0 ? raw.code : 'ESPAWN';
	// A directory given as the command: the OS says EACCES; say what it is (as the probe does).
	if (code === 'EACCES') {
		const directory = checkNotDirectory(file, cwd);
		if (directory) return directory;
	}
	return spawnError(code, file, `${ERROR_WORDS[code] ?? 'the process could not be started'} (${code})`);
}

function spawnError(code: string, file: string, reason: string, cwd?: string): SpawnError {
	const message = file.length === 0 ? `cannot start: ${reason}` : `cannot start ${JSON.stringify(file)}: ${reason}`;
	return {code, file, reason, message, ...(cwd === undefined ? {} : {cwd})};
}

/** Check the working directory before spawning: Node reports a bad cwd as `spawn <file> ENOENT`, which blames the command. */
function checkCwd(cwd: string, file: string): SpawnError | undefined {
	try {
		if (statSync(cwd).isDirectory()) return undefined;
		return spawnError('ENOTDIR', file, `working directory ${JSON.stringify(cwd)} is not a directory (ENOTDIR)`, cwd);
	} catch (error) {
		const code = typeof (error as {code?: unknown}).code === 'string' ? (error as {code: string}).code : 'ENOENT';
		const words = code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'is not accessible' : 'cannot be used';
		return spawnError(code, file, `working directory ${JSON.stringify(cwd)} ${words} (${code})`, cwd);
	}
}

/**
 * A command given as a path (it holds a `/`) that names a directory: the OS says EACCES ("not executable?",
 * "chmod +x"), which sends the user the wrong way. Say "is a directory" instead (EISDIR).
 * @param cwd the server's working directory (absolute), or undefined for ours
 */
function checkNotDirectory(file: string, cwd: string | undefined): SpawnError | undefined {
	if (!file.includes('/') && !(process.platform === 'win32' && file.includes('\\'))) return undefined;
	try {
		if (statSync(path.resolve(cwd ?? process.cwd(), file)).isDirectory())
			return spawnError('EISDIR', file, 'is a directory, not a program (EISDIR)');
	} catch {
		// Missing or unreadable: the spawn itself reports it with its own code.
	}
	return undefined;
}

/**
 * Start an MCP server the way a real client does (docs/protocol.md C3): through
 * `options.starter` (Node's spawn on POSIX, execa on Windows) with no shell (arguments are passed as-is),
 * only `options.env`, three pipes, no buffering, raw `Buffer` chunks. stdout and stderr are both read from the first moment
 * to EOF, so the server never blocks on a full pipe (O6); nothing is decoded or re-chunked.
 *
 * A command that cannot start (ENOENT, EACCES, bad cwd, empty command) never throws: `started` resolves
 * `{ok: false, error}` and a `spawn-error` event is delivered.
 *
 * @param command program and arguments, e.g. `['python3', 'server.py']`
 */
export function spawnServer(command: readonly string[], options: SpawnServerOptions): SpawnedServer {
	const {clock} = options;
	const file = command[0] ?? '';
	const args = command.slice(1);
	const queue: SpawnEvent[] = [];
	let listener: ((event: SpawnEvent) => void) | undefined;
	const deliver = (event: SpawnEvent): void => {
		if (listener) listener(event);
		else queue.push(event);
	};
	const ended: Record<OutputStream, boolean> = {stdout: false, stderr: false};
	let exitInfo: ExitInfo | undefined;
	let resolveExit!: (info: ExitInfo | undefined) => void;
	const exited = new Promise<ExitInfo | undefined>((resolve) => {
		resolveExit = resolve;
	});

	const listen = (l: (event: SpawnEvent) => void): void => {
		listener = l;
		for (const e of queue.splice(0)) l(e);
	};
	const failed = (error: SpawnError): SpawnedServer => {
		// Deliver asynchronously, like a real spawn outcome.
		queueMicrotask(() => {
			deliver({type: 'spawn-error', error, tMs: clock.now()});
			resolveExit(undefined);
		});
		return inertServer(Promise.resolve({ok: false as const, error}), exited, ended, listen);
	};

	if (file.length === 0) return failed(spawnError('EINVAL', file, 'the command is empty (EINVAL)'));
	const cwd = options.cwd === undefined ? undefined : path.resolve(options.cwd);
	if (cwd !== undefined) {
		const cwdError = checkCwd(cwd, file);
		if (cwdError) return failed(cwdError);
	}

	const directoryError = checkNotDirectory(file, cwd);
	if (directoryError) return failed(directoryError);

	let started: ReturnType<ProcessStarter>;
	try {
		started = (options.starter ?? nodeStarter)(file, args, definedEnv(options.env), cwd, {
			processGroup: options.processGroup === true,
		});
	} catch (error) {
		return failed(describeSpawnError(error, file));
	}
	const subprocess = started.child;

	const pid = subprocess.pid;
	if (pid === undefined) {
		// Spawn failed: the starter reports the OS code asynchronously.
		const report = (reason: unknown): {readonly ok: false; readonly error: SpawnError} => {
			const error = describeSpawnError(reason, file);
			deliver({type: 'spawn-error', error, tMs: clock.now()});
			resolveExit(undefined);
			return {ok: false, error};
		};
		return inertServer(started.failed.then(report, report), exited, ended, listen);
	}

	const stdin = subprocess.stdin!;
	const stdout = subprocess.stdout!;
	const stderr = subprocess.stderr!;
	subprocess.on('error', () => undefined);
	let stdinOpen = true;
	stdin.on('error', () => {
		// EPIPE/ECONNRESET once the server stopped reading: the server's business, recorded as its exit.
		stdinOpen = false;
	});
	stdin.on('close', () => {
		stdinOpen = false;
	});
	for (const [name, stream] of [
		['stdout', stdout],
		['stderr', stderr],
	] as const) {
		stream.on('data', (bytes: Buffer) => deliver({type: 'data', stream: name, bytes, tMs: clock.now()}));
		stream.on('end', () => {
			ended[name] = true;
			deliver({type: 'end', stream: name, tMs: clock.now()});
		});
		stream.on('error', () => undefined);
	}
	subprocess.on('exit', (code: number | null, signal: NodeJS.Signals | null) => {
		exitInfo = {code, signal, tMs: clock.now()};
		deliver({type: 'exit', exit: exitInfo});
		resolveExit(exitInfo);
	});

	return {
		pid,
		started: Promise.resolve({ok: true as const, pid}),
		exited,
		get exitInfo() {
			return exitInfo;
		},
		ended,
		listen,
		write(bytes) {
			if (!stdinOpen || exitInfo || stdin.writableEnded || stdin.destroyed) return false;
			stdin.write(bytes);
			return true;
		},
		closeStdin() {
			if (!stdinOpen || stdin.writableEnded || stdin.destroyed) return false;
			stdinOpen = false;
			stdin.end();
			return true;
		},
		kill(signal) {
			if (exitInfo) return false;
			try {
				return subprocess.kill(signal);
			} catch {
				return false;
			}
		},
		pauseOutput() {
			stdout.pause();
			stderr.pause();
		},
		resumeOutput() {
			stdout.resume();
			stderr.resume();
		},
		dispose() {
			stdinOpen = false;
			stdin.destroy();
			stdout.destroy();
			stderr.destroy();
		},
	};
}

/**
 * How every MCP server is spawned, by the probe and by the tap: no shell (C3), exactly the given
 * environment, three pipes, raw Buffers, no buffering or rejection by execa, killed with us.
 */
export function serverExecaOptions(
	env: Readonly<Record<string, string | undefined>>,
	cwd: string | undefined,
): ExecaServerOptions {
	return {
		shell: false,
		extendEnv: false,
		env: definedEnv(env),
		...(cwd === undefined ? {} : {cwd}),
		stdin: 'pipe',
		stdout: 'pipe',
		stderr: 'pipe',
		buffer: false,
		reject: false,
		encoding: 'buffer',
		stripFinalNewline: false,
		forceKillAfterDelay: false,
		windowsHide: true,
		cleanup: true,
	};
}

function definedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
	const defined: Record<string, string> = {};
	for (const [key, value] of Object.entries(env)) if (value !== undefined) defined[key] = value;
	return defined;
}

/** The execa options {@link spawnServer} uses (typed, so execa's overloads give Buffer streams). */
export type ExecaServerOptions = {
	readonly shell: false;
	readonly extendEnv: false;
	readonly env: Record<string, string>;
	readonly cwd?: string;
	readonly stdin: 'pipe';
	readonly stdout: 'pipe';
	readonly stderr: 'pipe';
	readonly buffer: false;
	readonly reject: false;
	readonly encoding: 'buffer';
	readonly stripFinalNewline: false;
	readonly forceKillAfterDelay: false;
	readonly windowsHide: true;
	readonly cleanup: true;
};

/** A server object for a command that never started: every operation is a no-op. */
function inertServer(
	started: SpawnedServer['started'],
	exited: Promise<ExitInfo | undefined>,
	ended: Readonly<Record<OutputStream, boolean>>,
	listen: (listener: (event: SpawnEvent) => void) => void,
): SpawnedServer {
	return {
		pid: undefined,
		started,
		exited,
		exitInfo: undefined,
		ended,
		listen,
		write: () => false,
		closeStdin: () => false,
		kill: () => false,
		pauseOutput: () => undefined,
		resumeOutput: () => undefined,
		dispose: () => undefined,
	};
}
