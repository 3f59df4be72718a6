import {
	chmodSync,
	closeSync,
	constants,
	fstatSync,
	ftruncateSync,
	lstatSync,
	mkdirSync,
	openSync,
	readdirSync,
	unlinkSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Where taps keep their captures and live sockets, how captures are named, and how old ones are pruned
 * (docs/capture-format.md#format-2-binary). Everything here is synchronous and small; the tap calls it from its capture worker,
 * never on the forwarding path.
 *
 * Capture directory (first that applies):
 * | platform | directory |
 * | --- | --- |
 * | any (not Windows), `$XDG_STATE_HOME` set to an absolute path | `$XDG_STATE_HOME/mcp-wire/captures` |
 * | Linux and other POSIX | `~/.local/state/mcp-wire/captures` (the XDG default for state) |
 * | macOS | `~/Library/Logs/mcp-wire/captures` (logs-like data; Console.app shows it) |
 * | Windows | `%LOCALAPPDATA%\mcp-wire\captures` (else `~\AppData\Local\mcp-wire\captures`) |
 *
 * Runtime directory (live-tap sockets, mode 0700, owned by the user):
 * | platform | directory |
 * | --- | --- |
 * | POSIX, `$XDG_RUNTIME_DIR` set to an absolute path | `$XDG_RUNTIME_DIR/mcp-wire` |
 * | POSIX otherwise | `<os.tmpdir()>/mcp-wire-<uid>` |
 * | Windows | named pipes `\\.\pipe\mcp-wire-<user>-<name>-<pid>` (no directory) |
 *
 * Captures are named `<ISO time>-<name>-<pid><ext>`, with `:` in the time written as `-` (Windows file
 * names cannot hold `:`), e.g. `2026-05-01T12-30-45.123Z-server-everything-4242.mcpcap`; `pid` is the
 * tap's own pid. `<ext>` says the format: `.mcpcap` for a binary (format 2) capture, `.ndjson` for NDJSON
 * records (format 1: doctor's kept captures; taps of older versions named their binary captures so too,
 * and every reader still opens them by content). Files are created 0600, directories 0700.
 */

/** Default number of captures kept in the capture directory (env `MCP_WIRE_MAX_CAPTURES`). */
export const DEFAULT_MAX_CAPTURES = 50;
/** Default total size of the capture directory in MiB (env `MCP_WIRE_MAX_CAPTURE_MB`). */
export const DEFAULT_MAX_CAPTURE_MB = 200;

/** The platform facts the paths depend on (injectable for tests). */
export interface PlatformFacts {
	readonly env: NodeJS.ProcessEnv;
	readonly platform: NodeJS.Platform;
	readonly homedir: string;
	readonly tmpdir: string;
	/** POSIX uid (undefined on Windows). */
	readonly uid: number | undefined;
	/** The user name (for Windows pipe names). */
	readonly user: string;
}

/** The facts of this process. */
export function currentPlatform(): PlatformFacts {
	let user = 'user';
	try {
		user = os.userInfo().username;
	} catch {
		user = process.env['USERNAME'] ?? process.env['USER'] ?? 'user';
	}

	return {
		env: process.env,
		platform: process.platform,
		homedir: homedirOrEmpty(),
		tmpdir: os.tmpdir(),
		uid: typeof process.getuid === 'function' ? process.getuid() : undefined,
		user,
	};
}

/** `os.homedir()`, or '' when it throws (no `$HOME` and no passwd entry for this uid, as in some containers). */
function homedirOrEmpty(): string {
	try {
		return os.homedir();
	} catch {
		return '';
	}
}

const isAbsoluteEnv = (value: string | undefined): value is string =>
	value !== undefined && value !== '' && path.isAbsolute(value);

/**
 * The directory default captures go to (see the module table). Not created here.
 * @returns an absolute path
 */
export function capturesDir(facts: PlatformFacts = currentPlatform()): string {
	const p = facts.platform === 'win32' ? path.win32 : path.posix;
	if (facts.platform === 'win32') {
		const local = facts.env['LOCALAPPDATA'];
		return p.join(
			local !== undefined && local !== '' ? local : p.join(facts.homedir, 'AppData', 'Local'),
			'mcp-wire',
			'captures',
		);
	}

	const state = facts.env['XDG_STATE_HOME'];
	if (isAbsoluteEnv(state)) return p.join(state, 'mcp-wire', 'captures');
	if (facts.platform === 'darwin') return p.join(facts.homedir, 'Library', 'Logs', 'mcp-wire', 'captures');
	return p.join(facts.homedir, '.local', 'state', 'mcp-wire', 'captures');
}

/**
 * Why the default capture directory cannot be used, or undefined when it can. On POSIX without
 * an absolute `$XDG_STATE_HOME` the directory lies under `$HOME`: when `$HOME` is unset, empty or not an
 * absolute path, the process was started without a home (a sandbox, a service, a stripped environment), and
 * the tap records nothing rather than guess one: Node's `os.homedir()` would fall back to the passwd entry
 * (unset) or give a relative path (empty, relative), which would create `.local/state/…` in the working
 * directory. Windows uses `%LOCALAPPDATA%` or the profile directory and is not checked here.
 * @returns a phrase such as `$HOME is not set`, or undefined
 */
export function captureHomeProblem(facts: PlatformFacts = currentPlatform()): string | undefined {
	if (facts.platform === 'win32' || isAbsoluteEnv(facts.env['XDG_STATE_HOME'])) return undefined;
	const home = facts.env['HOME'];
	if (home === undefined) return '$HOME is not set';
	if (home === '') return '$HOME is empty';
	return path.posix.isAbsolute(home) ? undefined : `$HOME (${home}) is not an absolute path`;
}

/**
 * The directory live-tap sockets live in on POSIX (see the module table). Not created here.
 * @returns an absolute path; on Windows the prefix of the pipe names (`\\.\pipe\mcp-wire-<user>-`)
 */
export function runtimeDir(facts: PlatformFacts = currentPlatform()): string {
	if (facts.platform === 'win32') return `\\\\.\\pipe\\mcp-wire-${sanitizeName(facts.user)}-`;
	const runtime = facts.env['XDG_RUNTIME_DIR'];
	if (isAbsoluteEnv(runtime)) return path.posix.join(runtime, 'mcp-wire');
	return path.posix.join(facts.tmpdir, `mcp-wire-${facts.uid ?? 'user'}`);
}

/**
 * A name safe in file names and socket paths: letters, digits, `.`, `_`, `-`; other runs become `-`;
 * at most 40 characters (a Unix socket path is limited to ~104 bytes); never empty (`server`).
 */
export function sanitizeName(name: string): string {
	const clean = name
		.replaceAll(/[^\w.-]+/g, '-')
		.replaceAll(/^[-.]+|-+$/g, '')
		.slice(0, 40)
		.replace(/-+$/, '');
	return clean === '' ? 'server' : clean;
}

const LAUNCHERS = new Set([
	'node',
	'nodejs',
	'npx',
	'pnpx',
	'bunx',
	'bun',
	'deno',
	'python',
	'python3',
	'py',
	'uv',
	'uvx',
	'pipx',
	'docker',
	'podman',
	'npm',
	'pnpm',
	'yarn',
	'sh',
	'bash',
	'cmd',
	'java',
	'dotnet',
	'ruby',
	'go',
]);
/** Options whose value is inline code, not a script name (`sh -c '…'`, `node -e '…'`). */
const CODE_OPTIONS = new Set(['-c', '/c', '-e', '--eval', '-p', '--print']);
const GENERIC_SCRIPTS = new Set(['index', 'main', 'server', 'cli', 'dist', 'run', 'start', 'app', 'build']);

/**
 * A default capture name from the server command: the program's base name, or for a launcher (`node`,
 * `npx`, `python`, `uvx`, `docker` …) the first argument that is not an option, without directories, a
 * package scope or an extension. A generic script name (`dist/index.js`) takes its directory's name
 * (`server-everything/dist/index.js` → `server-everything`).
 * @example defaultName(['npx', '-y', '@modelcontextprotocol/server-everything']) === 'server-everything'
 */
export function defaultName(command: readonly string[]): string {
	const base = (word: string): string => word.split(/[\\/]/).pop() ?? word;
	const stem = (word: string): string => base(word).replace(/\.(m?[jt]s|c[jt]s|py|exe|cmd|bat|sh|jar|dll)$/i, '');
	const program = command[0] ?? '';
	const programStem = stem(program).toLowerCase();
	const isLauncher = LAUNCHERS.has(programStem) || LAUNCHERS.has(programStem.replace(/[\d.]+$/, ''));
	if (!isLauncher) return sanitizeName(stem(program));
	for (let i = 1; i < command.length; i++) {
		const word = command[i]!;
		if (CODE_OPTIONS.has(word)) {
			i++;
			continue;
		}

		if (word.startsWith('-') || word === 'run' || word === 'exec' || word === 'x' || word === 'dlx' || word === 'stdio')
			continue;
		const unversioned = word.replace(/(?<=.)@[^/@]*$/, '');
		const parts = unversioned.split(/[\\/]/).filter((part) => part !== '' && part !== '.' && part !== '..');
		for (let j = parts.length - 1; j >= 0; j--) {
			const candidate = stem(parts[j]!);
			if (!GENERIC_SCRIPTS.has(candidate.toLowerCase()) || j === 0) return sanitizeName(candidate.replace(/^@/, ''));
		}
	}

	return sanitizeName(stem(program));
}

/** The time part of a capture name: ISO-8601 UTC with `:` written as `-`. */
export function captureTimeStamp(date: Date): string {
	return date.toISOString().replaceAll(':', '-');
}

/** The extension of a binary (format 2) capture: `tap` (docs/capture-format.md#format-2-binary). */
export const BINARY_CAPTURE_EXT = '.mcpcap';
/** The extension of an NDJSON (format 1) capture: doctor's kept captures (docs/capture-format.md#format-1-ndjson-records). */
export const NDJSON_CAPTURE_EXT = '.ndjson';
/** A capture file's extension by its format. */
export type CaptureExt = typeof BINARY_CAPTURE_EXT | typeof NDJSON_CAPTURE_EXT;

/** `<ISO time>-<name>-<pid><ext>` (see the module docs); `ext` by the format written. */
export function captureFileName(date: Date, name: string, pid: number, ext: CaptureExt): string {
	return `${captureTimeStamp(date)}-${sanitizeName(name)}-${pid}${ext}`;
}

/** What a capture file name says about itself. */
export interface CaptureName {
	/** The wall clock of the session start (from the name, millisecond precision). */
	readonly startedAt: Date;
	readonly name: string;
	/** The tap's pid. */
	readonly pid: number;
}

const CAPTURE_NAME = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d{1,3})?Z)-(.+)-(\d+)\.(?:mcpcap|ndjson)$/;

/**
 * Parse a capture file name made by {@link captureFileName}, of either extension (`.ndjson` binary
 * captures of older taps are still listed and pruned).
 * @returns the parts, or undefined when the name is not one of ours (such files are never pruned)
 */
export function parseCaptureFileName(fileName: string): CaptureName | undefined {
	const match = CAPTURE_NAME.exec(fileName);
	if (!match) return undefined;
	const iso = match[1]!.replace(/T(\d{2})-(\d{2})-(\d{2})/, 'T$1:$2:$3');
	const startedAt = new Date(iso);
	if (Number.isNaN(startedAt.getTime())) return undefined;
	return {startedAt, name: match[2]!, pid: Number(match[3])};
}

/** Socket file name of a live tap in the runtime directory: `<name>-<pid>.sock`. */
export function socketFileName(name: string, pid: number): string {
	return `${sanitizeName(name)}-${pid}.sock`;
}

/**
 * The address a live tap listens on: a Unix socket in the runtime directory, or a Windows named pipe.
 */
export function socketPath(name: string, pid: number, facts: PlatformFacts = currentPlatform()): string {
	if (facts.platform === 'win32') return `${runtimeDir(facts)}${sanitizeName(name)}-${pid}`;
	return path.posix.join(runtimeDir(facts), socketFileName(name, pid));
}

/** Parse `<name>-<pid>.sock` (or a pipe name's tail). */
export function parseSocketName(fileName: string): {readonly name: string; readonly pid: number} | undefined {
	const match = /^(.+)-(\d+)(?:\.sock)?$/.exec(fileName);
	return match ? {name: match[1]!, pid: Number(match[2])} : undefined;
}

/** A directory that is not safe to use (someone else owns it, or it is a symlink / not a directory). */
export class UnsafeDirectoryError extends Error {
	override readonly name = 'UnsafeDirectoryError';
}

/**
 * Create `dir` (and parents) with mode 0700 and make sure the leaf is a real directory owned by this
 * user with no group/other permissions (it is chmod-ed to 0700 when it is ours but wider).
 * @throws UnsafeDirectoryError when the leaf is a symlink, not a directory, or owned by another uid
 * @throws the fs error when it cannot be created
 */
export function ensurePrivateDir(dir: string, uid: number | undefined = currentPlatform().uid): void {
	mkdirLevels(dir);
	if (process.platform === 'win32') return;
	const stat = lstatSync(dir);
	if (stat.isSymbolicLink() || !stat.isDirectory()) throw new UnsafeDirectoryError(`${dir} is not a directory`);
	if (uid !== undefined && stat.uid !== uid)
		throw new UnsafeDirectoryError(`${dir} is owned by uid ${stat.uid}, not ${uid}`);
	if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/**
 * The readers' side of {@link ensurePrivateDir} (`sessions`, `attach` and the capture list
 * trust the runtime and state directories only as the tap does): `dir` must be a real directory (not a
 * symlink) owned by `uid` and writable by nobody else. Nothing is created or changed.
 * @returns false when `dir` does not exist (nothing to read)
 * @throws UnsafeDirectoryError naming what is wrong
 */
export function checkPrivateDir(dir: string, uid: number | undefined = currentPlatform().uid): boolean {
	if (process.platform === 'win32') return true;
	let stat;
	try {
		stat = lstatSync(dir);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
		throw error;
	}
	if (stat.isSymbolicLink()) throw new UnsafeDirectoryError(`${dir} is a symlink, not a directory of yours`);
	if (!stat.isDirectory()) throw new UnsafeDirectoryError(`${dir} is not a directory`);
	if (uid !== undefined && stat.uid !== uid)
		throw new UnsafeDirectoryError(
			`${dir} is owned by uid ${stat.uid}, not ${uid}: someone else made it; remove it or set XDG_RUNTIME_DIR`,
		);
	if ((stat.mode & 0o022) !== 0)
		throw new UnsafeDirectoryError(
			`${dir} is writable by others (mode ${(stat.mode & 0o777).toString(8)}); chmod 700 it`,
		);
	return true;
}

/**
 * Whether `file` (not followed if a symlink) is a file of `type` owned by `uid`: what a reader checks
 * before it trusts a socket or capture it found in a directory.
 */
export function isOwnEntry(
	file: string,
	type: 'socket' | 'file',
	uid: number | undefined = currentPlatform().uid,
): boolean {
	if (process.platform === 'win32') return true;
	try {
		const stat = lstatSync(file);
		const isType = type === 'socket' ? stat.isSocket() : stat.isFile();
		return isType && (uid === undefined || stat.uid === uid);
	} catch {
		return false;
	}
}

/**
 * Opens a capture file for writing, mode 0600, never through a symlink: `O_NOFOLLOW`, and
 * `O_EXCL` when `exclusive` (a fresh default name). Without `exclusive` an existing file is reused only
 * when it is a regular file with one link owned by `uid`, then truncated; `O_NONBLOCK` keeps a FIFO
 * planted at the path from blocking the open.
 * @returns the file descriptor
 * @throws the open error (ELOOP for a symlink, EEXIST with `exclusive`), or an Error naming why an
 *   existing file is refused
 */
export function openCaptureFile(
	file: string,
	options: {readonly exclusive: boolean; readonly uid?: number | undefined},
): number {
	if (process.platform === 'win32') return openSync(file, options.exclusive ? 'wx' : 'w', 0o600);
	const flags =
		constants.O_WRONLY |
		constants.O_CREAT |
		constants.O_NOFOLLOW |
		constants.O_NONBLOCK |
		(options.exclusive ? constants.O_EXCL : 0);
	const fd = openSync(file, flags, 0o600);
	try {
		const stat = fstatSync(fd);
		const uid = options.uid === undefined ? currentPlatform().uid : options.uid;
		if (!stat.isFile()) throw new Error('not a regular file');
		if (uid !== undefined && stat.uid !== uid) throw new Error(`owned by uid ${stat.uid}, not ${uid}`);
		if (stat.nlink > 1) throw new Error(`it has ${stat.nlink} hard links`);
		if (stat.size > 0) ftruncateSync(fd, 0);
		return fd;
	} catch (error) {
		closeSync(fd);
		throw error;
	}
}

/**
 * `dir` and its missing parents, mode 0700, one level at a time (an existing `dir` is fine). Never a
 * recursive mkdir: Node 20's loops forever where a path exists but cannot hold a directory (under
 * /proc/self, at any depth); here the level that cannot be made throws its error.
 * @throws the mkdir error of the first level that cannot be made (ENOENT, EACCES, ENOTDIR…)
 */
function mkdirLevels(dir: string): void {
	const attempt = (): NodeJS.ErrnoException | undefined => {
		try {
			mkdirSync(dir, {mode: 0o700});
			return undefined;
		} catch (error) {
			const failure = error as NodeJS.ErrnoException;
			return failure.code === 'EEXIST' ? undefined : failure;
		}
	};

	let failure = attempt();
	if (failure?.code === 'ENOENT' && path.dirname(dir) !== dir) {
		mkdirLevels(path.dirname(dir));
		failure = attempt();
	}

	if (failure) throw failure;
}

/** Limits for {@link pruneCaptures}. */
export interface PruneLimits {
	/** Keep at most this many captures (the newest). */
	readonly maxFiles: number;
	/** Keep at most this many bytes in total (newest first). */
	readonly maxBytes: number;
}

/**
 * The pruning limits from the environment: `MCP_WIRE_MAX_CAPTURES` (files, default 50) and
 * `MCP_WIRE_MAX_CAPTURE_MB` (MiB, default 200); `0` means no limit (`Infinity`). A value that is not a
 * non-negative number is ignored and reported in `problems`.
 */
export function pruneLimitsFromEnv(
	env: NodeJS.ProcessEnv = process.env,
): PruneLimits & {readonly problems: readonly string[]} {
	const problems: string[] = [];
	const read = (key: string, fallback: number): number => {
		const raw = env[key];
		if (raw === undefined || raw.trim() === '') return fallback;
		const value = Number(raw);
		if (!Number.isFinite(value) || value < 0) {
			problems.push(`${key}=${JSON.stringify(raw)} is not a non-negative number; using ${fallback}`);
			return fallback;
		}

		return value;
	};
	// 0 means "no limit": a limit of 0 files would delete every capture, the new one included.
	const maxFiles = Math.floor(read('MCP_WIRE_MAX_CAPTURES', DEFAULT_MAX_CAPTURES)) || Number.POSITIVE_INFINITY;
	const maxBytes =
		Math.floor(read('MCP_WIRE_MAX_CAPTURE_MB', DEFAULT_MAX_CAPTURE_MB) * 1024 * 1024) || Number.POSITIVE_INFINITY;
	return {maxFiles, maxBytes, problems};
}

/** One capture in a directory. */
export interface CaptureEntry extends CaptureName {
	readonly path: string;
	readonly fileName: string;
	/** Size in bytes. */
	readonly bytes: number;
	/** Last modification (ms since the epoch). */
	readonly mtimeMs: number;
}

/**
 * The captures in `dir` whose names are ours ({@link parseCaptureFileName}), newest first (by the start
 * time in the name, then mtime). Missing directory → empty list.
 */
export function listCaptures(dir: string): CaptureEntry[] {
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		return [];
	}

	const entries: CaptureEntry[] = [];
	for (const fileName of names) {
		const parsed = parseCaptureFileName(fileName);
		if (!parsed) continue;
		const file = path.join(dir, fileName);
		try {
			const stat = lstatSync(file);
			if (!stat.isFile()) continue;
			if (process.platform !== 'win32' && typeof process.getuid === 'function' && stat.uid !== process.getuid())
				continue;
			entries.push({...parsed, path: file, fileName, bytes: stat.size, mtimeMs: stat.mtimeMs});
		} catch {
			// vanished meanwhile
		}
	}

	return entries.sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime() || b.mtimeMs - a.mtimeMs);
}

/** Whether a process with this pid exists (EPERM counts as alive). */
export function isProcessAlive(pid: number): boolean {
	if (!Number.isSafeInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** What {@link pruneCaptures} did. */
export interface PruneResult {
	readonly removed: readonly string[];
	readonly kept: number;
	readonly keptBytes: number;
	readonly problems: readonly string[];
}

/**
 * Delete old captures from `dir`, newest kept first, until at most `maxFiles` files and `maxBytes`
 * bytes remain. Only files named by {@link captureFileName} are touched. `keep` (the capture being
 * written) and the captures of taps still running (their pid is alive) are never deleted, and count
 * toward the limits first.
 * @param isAlive injectable liveness check (default {@link isProcessAlive})
 */
export function pruneCaptures(
	dir: string,
	limits: PruneLimits,
	keep?: string,
	isAlive: (pid: number) => boolean = isProcessAlive,
): PruneResult {
	const entries = listCaptures(dir);
	const keepResolved = keep === undefined ? undefined : path.resolve(keep);
	const pinned = (entry: CaptureEntry): boolean =>
		path.resolve(entry.path) === keepResolved || (entry.pid !== process.pid && isAlive(entry.pid));
	let files = 0;
	let bytes = 0;
	for (const entry of entries) {
		if (pinned(entry)) {
			files += 1;
			bytes += entry.bytes;
		}
	}

	const removed: string[] = [];
	const problems: string[] = [];
	for (const entry of entries) {
		if (pinned(entry)) continue;
		if (files + 1 <= limits.maxFiles && bytes + entry.bytes <= limits.maxBytes) {
			files += 1;
			bytes += entry.bytes;
			continue;
		}

		try {
			unlinkSync(entry.path);
			removed.push(entry.path);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
				problems.push(`cannot remove ${entry.path}: ${(error as Error).message}`);
		}
	}

	return {removed, kept: files, keptBytes: bytes, problems};
}
