import {Buffer, isAscii} from 'node:buffer';
import {
	closeSync,
	fstatSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	readSync,
	renameSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import {createRequire, Module} from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

// Issue 12 (a probe as fast as a bare client): Node 20 has no code cache for ES modules (no
// `module.enableCompileCache` before 22.1), and compiling the probe's ~800 KB of bundled JavaScript was
// its largest CPU cost after node itself. For a plain `probe` (no TUI: ink and React are ES modules only)
// bin/mcp-wire.js runs the same CLI built as one CommonJS script (dist/bundle/cli.cjs, scripts/bundle.mjs)
// through `vm.Script` with V8's code cache, kept in the user's cache directory. Measured on this 2-core
// machine under load 7–10: about 50 ms less CPU per probe. Anything that goes wrong falls back, silently,
// to compiling (no cache) or to the ES module build (no script).

/**
 * The directory for mcp-wire's V8 code cache, or undefined when there is none to use:
 * `$XDG_CACHE_HOME/mcp-wire` (set to an absolute path, not Windows), `~/Library/Caches/mcp-wire` (macOS),
 * `%LOCALAPPDATA%\mcp-wire\Cache` (Windows), else `~/.cache/mcp-wire`. Undefined on POSIX when `$HOME` is
 * not an absolute path (a process started without a home: nothing is written into the working directory).
 * On Windows without `%LOCALAPPDATA%` the home directory is `facts.homedir`, else `%USERPROFILE%` (what
 * `os.homedir()` reads first there; `node:os` is not loaded for it: every module counts on the probe's start).
 */
export function codeCacheDir(
	facts: {readonly platform: NodeJS.Platform; readonly env: NodeJS.ProcessEnv; readonly homedir?: string} = {
		platform: process.platform,
		env: process.env,
	},
): string | undefined {
	if (facts.platform === 'win32') {
		const local = facts.env['LOCALAPPDATA'];
		if (local !== undefined && local !== '') return path.win32.join(local, 'mcp-wire', 'Cache');
		const home = facts.homedir ?? facts.env['USERPROFILE'];
		return home === undefined || home === ''
			? undefined
			: path.win32.join(home, 'AppData', 'Local', 'mcp-wire', 'Cache');
	}
	const xdg = facts.env['XDG_CACHE_HOME'];
	if (xdg !== undefined && path.posix.isAbsolute(xdg)) return path.posix.join(xdg, 'mcp-wire');
	const home = facts.env['HOME'];
	if (home === undefined || !path.posix.isAbsolute(home)) return undefined;
	return facts.platform === 'darwin'
		? path.posix.join(home, 'Library', 'Caches', 'mcp-wire')
		: path.posix.join(home, '.cache', 'mcp-wire');
}

/**
 * Where the code cache of the script `file` is kept in `cacheDir`: `<name>-<key>.v8cache`, the key
 * ({@link cacheKey}) a hash of the script's path, size, mtime and first line ({@link firstLineOf}), Node's
 * version and the CPU architecture.
 */
export function codeCacheFile(file: string, cacheDir: string): string {
	const {size, mtimeMs} = statSync(file);
	return cacheFileOf(file, size, mtimeMs, firstLineOf(readFileSync(file, 'latin1')), cacheDir);
}

/**
 * The part of a script's text that goes into its cache key: its first line, at most 200 characters.
 * V8 checks a code cache against the source's length only, not its text: a script replaced by another of
 * the same length at the same path with the same mtime (installers and image builds that set every mtime to
 * one date do) would run the functions cached from the old text. cli.cjs's first line ends with a hash of
 * its whole text (scripts/bundle.mjs), so another build never shares its cache file.
 */
export function firstLineOf(source: string): string {
	const end = source.indexOf('\n');
	return source.slice(0, Math.min(end === -1 ? source.length : end, 200));
}

/** {@link codeCacheFile} for a script whose size (bytes), mtime (ms) and first line are known. */
function cacheFileOf(file: string, size: number, mtimeMs: number, firstLine: string, cacheDir: string): string {
	return path.join(
		cacheDir,
		`${path.basename(file)}-${cacheKey(`${file}\0${size}\0${mtimeMs}\0${process.version}\0${process.arch}\0${firstLine}`)}.v8cache`,
	);
}

/**
 * A 64-bit FNV-1a hash of `text`'s UTF-16 code units, as 16 lower-case hex digits. It names a cache file,
 * it guards nothing: a collision would only give V8 a cache it checks and rejects (then the script is
 * compiled). Not `node:crypto`'s SHA-256: loading `node:crypto` loads ~16 more of Node's own modules, about
 * 10 ms of a probe's start-up CPU on this machine (issue 12).
 */
export function cacheKey(text: string): string {
	// The 64-bit state in four 16-bit limbs (h3 the highest); the FNV prime is 2^40 + 0x1b3.
	let h0 = 0x2325;
	let h1 = 0x8422;
	let h2 = 0x9ce4;
	let h3 = 0xcbf2;
	for (let i = 0; i < text.length; i++) {
		h0 ^= text.charCodeAt(i);
		// h * 0x1b3 + (h << 40), limb by limb with carries, mod 2^64: h << 40 puts h0 at bit 8 of h2, h1 at bit 8 of h3.
		const t0 = h0 * 0x1b3;
		const t1 = h1 * 0x1b3 + (t0 >>> 16);
		const t2 = h2 * 0x1b3 + (t1 >>> 16) + (h0 << 8);
		const t3 = h3 * 0x1b3 + (t2 >>> 16) + (h1 << 8);
		h0 = t0 & 0xffff;
		h1 = t1 & 0xffff;
		h2 = t2 & 0xffff;
		h3 = t3 & 0xffff;
	}
	return [h3, h2, h1, h0].map((limb) => limb.toString(16).padStart(4, '0')).join('');
}

/** How many code caches of other builds (other paths, versions, Node versions) are kept beside a new one. */
export const KEPT_OTHER_CACHES = 3;
/** A code cache older than this is removed when a new one is stored (ms): 30 days. */
export const CACHE_MAX_AGE_MS = 30 * 24 * 3600 * 1000;
/** A temporary file of a store that never finished (a killed process) is removed after this (ms). */
const TEMP_MAX_AGE_MS = 10 * 60 * 1000;

/**
 * Remove old code caches of `script` (a file name such as `cli.cjs`) from `cacheDir`, after `kept` was
 * stored: each build, install path and Node version has its own file ({@link codeCacheFile}), and nothing
 * else ever removes one. Kept: `kept`, the {@link KEPT_OTHER_CACHES} newest others (by mtime: when they were
 * stored) that are younger than {@link CACHE_MAX_AGE_MS}; removed: the rest, and temporary files of stores
 * older than 10 minutes. Files of other names are never touched. Runs only when a cache is stored (once per
 * build), so a probe that uses its cache pays nothing. Never throws.
 *
 * @param now the time to judge ages by (ms since the epoch)
 */
export function pruneCodeCaches(cacheDir: string, script: string, kept: string, now: number = Date.now()): void {
	let names: string[];
	try {
		names = readdirSync(cacheDir);
	} catch {
		return;
	}
	const prefix = `${script}-`;
	const caches: {file: string; mtimeMs: number}[] = [];
	const remove = (file: string): void => {
		try {
			rmSync(file, {force: true});
		} catch {
			// another process removed it, or it cannot be: left
		}
	};
	for (const name of names) {
		if (!name.startsWith(prefix)) continue;
		const file = path.join(cacheDir, name);
		const isCache = /^[0-9a-f]{16}\.v8cache$/.test(name.slice(prefix.length));
		const isTemp = /^[0-9a-f]{16}\.v8cache\.\d+\.tmp$/.test(name.slice(prefix.length));
		if ((!isCache && !isTemp) || file === kept) continue;
		let mtimeMs: number;
		try {
			mtimeMs = statSync(file).mtimeMs;
		} catch {
			continue;
		}
		if (isTemp) {
			if (now - mtimeMs > TEMP_MAX_AGE_MS) remove(file);
		} else caches.push({file, mtimeMs});
	}
	caches.sort((a, b) => b.mtimeMs - a.mtimeMs);
	for (const [i, {file, mtimeMs}] of caches.entries())
		if (i >= KEPT_OTHER_CACHES || now - mtimeMs > CACHE_MAX_AGE_MS) remove(file);
}

/**
 * A stored cache smaller than this share of its script's length (bytes of cache per character of source) is
 * thin: it is used, and replaced by the cache of the run that used it ({@link CachedScript.save}). V8 takes
 * any cache made from the same source, however little of it was compiled when it was made, and compiles the
 * rest lazily at every run: a cache stored after a run that did almost nothing (measured: a 904-byte cache
 * for the 575 KB cli.cjs, whose own top level alone makes ~170 KB) would otherwise stay, and every later
 * probe compile most of the CLI as if it had none. A probe's full cache is about 1.1 bytes per character.
 */
export const THIN_CACHE_RATIO = 1 / 8;

/** A CommonJS script run with V8's code cache: its exports, and how to store the cache for the next run. */
export interface CachedScript {
	readonly exports: Record<string, unknown>;
	/** Whether V8 took the stored cache (false: none was stored, or V8 rejected it and compiled the source). */
	readonly cacheUsed: boolean;
	/**
	 * Store the code cache when none was used, or when the one used was thin ({@link THIN_CACHE_RATIO}):
	 * call it once the run's work is done, so that the functions the run compiled are in it, and only after
	 * a run that did the work the next runs will do (bin/mcp-wire.js: a probe that ran); old caches are then
	 * pruned ({@link pruneCodeCaches}). Once per run. Never throws (an unwritable directory is skipped).
	 */
	save(): void;
}

/** Read up to `length` bytes of `fd` from its start into `buffer`; returns how many were read (fewer at an early end). */
function readInto(fd: number, buffer: Buffer, length: number): number {
	let got = 0;
	for (let n; got < length && (n = readSync(fd, buffer, got, length - got, got)) > 0;) got += n;
	return got;
}

/**
 * The text of the script `file` (UTF-8), the name of its cache file in `cacheDir` and that file's bytes
 * (undefined when there is none, or it cannot be read). Both files are read into one buffer, the cache after
 * the script's text was taken out of it (V8 reads the cache only while it compiles): a second 0.5 MB buffer
 * cost ~1.5 ms of page faults per probe on this machine. An ASCII-only script (cli.cjs is made so,
 * scripts/bundle.mjs) is decoded as latin1, the same characters without UTF-8's decoding (~2.5 ms less).
 */
function readScriptAndCache(
	file: string,
	cacheDir: string | undefined,
): {source: string; cacheFile?: string; cachedData?: Buffer} {
	let buffer: Buffer;
	let source: string;
	let cacheFile: string | undefined;
	const fd = openSync(file, 'r');
	try {
		const {size, mtimeMs} = fstatSync(fd);
		buffer = Buffer.allocUnsafeSlow(size);
		const text = buffer.subarray(0, readInto(fd, buffer, size));
		source = text.toString(isAscii(text) ? 'latin1' : 'utf8');
		// The key holds the first line: the text must be read before the cache file is named.
		cacheFile = cacheDir === undefined ? undefined : cacheFileOf(file, size, mtimeMs, firstLineOf(source), cacheDir);
	} finally {
		closeSync(fd);
	}
	if (cacheFile === undefined) return {source};
	let cacheFd: number;
	try {
		cacheFd = openSync(cacheFile, 'r');
	} catch {
		// not stored yet, or unreadable: compile
		return {source, cacheFile};
	}
	try {
		const cacheSize = fstatSync(cacheFd).size;
		if (cacheSize === 0) return {source, cacheFile};
		// The script's buffer is reused (its text was taken out): the cache is smaller than the script.
		if (cacheSize > buffer.byteLength) buffer = Buffer.allocUnsafeSlow(cacheSize);
		return {source, cacheFile, cachedData: buffer.subarray(0, readInto(cacheFd, buffer, cacheSize))};
	} catch {
		// unreadable (a directory): compile
		return {source, cacheFile};
	} finally {
		closeSync(cacheFd);
	}
}

/**
 * Run the CommonJS script `file` in this context (as Node runs a `.cjs` module: `exports`, `require`,
 * `module`, `__filename`, `__dirname`), with the code cache stored for it in `cacheDir` when there is one.
 * The cache file ({@link codeCacheFile}) is named after the script's path, size and mtime, Node's version and
 * the CPU, so another build or Node never reads it (V8 also checks it and rejects a stale one: the script is
 * then compiled).
 *
 * @throws what reading the script or running its top level throws (the caller falls back)
 */
export function runCachedScript(file: string, cacheDir: string | undefined = codeCacheDir()): CachedScript {
	const {source, cacheFile, cachedData} = readScriptAndCache(file, cacheDir);
	const cachedBytes = cachedData?.byteLength ?? 0;
	const script = new vm.Script(Module.wrap(source), {
		filename: file,
		...(cachedData === undefined ? {} : {cachedData}),
		importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
	});
	const cacheUsed = cachedData !== undefined && script.cachedDataRejected !== true;
	const module = {exports: {} as Record<string, unknown>};
	(script.runInThisContext() as (...args: unknown[]) => void).call(
		module.exports,
		module.exports,
		createRequire(file),
		module,
		file,
		path.dirname(file),
	);
	const isThin = cachedData !== undefined && cachedBytes < source.length * THIN_CACHE_RATIO;
	let saved = cacheUsed && !isThin;
	return {
		exports: module.exports,
		cacheUsed,
		save() {
			if (saved || cacheFile === undefined) return;
			saved = true;
			const temp = `${cacheFile}.${process.pid}.tmp`;
			try {
				mkdirSync(path.dirname(cacheFile), {recursive: true, mode: 0o700});
				writeFileSync(temp, script.createCachedData(), {mode: 0o600});
				renameSync(temp, cacheFile);
				pruneCodeCaches(path.dirname(cacheFile), path.basename(file), cacheFile);
			} catch {
				// an unwritable cache directory: the next run compiles again
				try {
					rmSync(temp, {force: true});
				} catch {
					// no temporary file was made
				}
			}
		},
	};
}
