import {createHash} from 'node:crypto';
import {mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {createRequire, Module} from 'node:module';
import os from 'node:os';
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
 */
export function codeCacheDir(facts: {readonly platform: NodeJS.Platform; readonly env: NodeJS.ProcessEnv; readonly homedir: string} = {platform: process.platform, env: process.env, homedir: os.homedir()}): string | undefined {
	if (facts.platform === 'win32') {
		const local = facts.env['LOCALAPPDATA'];
		return path.win32.join(local !== undefined && local !== '' ? local : path.win32.join(facts.homedir, 'AppData', 'Local'), 'mcp-wire', 'Cache');
	}
	const xdg = facts.env['XDG_CACHE_HOME'];
	if (xdg !== undefined && path.posix.isAbsolute(xdg)) return path.posix.join(xdg, 'mcp-wire');
	const home = facts.env['HOME'];
	if (home === undefined || !path.posix.isAbsolute(home)) return undefined;
	return facts.platform === 'darwin' ? path.posix.join(home, 'Library', 'Caches', 'mcp-wire') : path.posix.join(home, '.cache', 'mcp-wire');
}

/**
 * Where the code cache of the script `file` is kept in `cacheDir`: `<name>-<key>.v8cache`, the key a hash
 * of the script's path, size and mtime, Node's version and the CPU architecture.
 */
export function codeCacheFile(file: string, cacheDir: string): string {
	const {size, mtimeMs} = statSync(file);
	const key = createHash('sha256').update(`${file}\0${size}\0${mtimeMs}\0${process.version}\0${process.arch}`).digest('hex').slice(0, 16);
	return path.join(cacheDir, `${path.basename(file)}-${key}.v8cache`);
}

/** A CommonJS script run with V8's code cache: its exports, and how to store the cache for the next run. */
export interface CachedScript {
	readonly exports: Record<string, unknown>;
	/** Whether V8 took the stored cache (false: none was stored, or V8 rejected it and compiled the source). */
	readonly cacheUsed: boolean;
	/**
	 * Store the code cache when none was used: call it once the run's work is done, so that the functions
	 * the run compiled are in it. Never throws (an unwritable directory is skipped).
	 */
	save(): void;
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
	const source = readFileSync(file, 'utf8');
	let cacheFile: string | undefined;
	let cachedData: Buffer | undefined;
	if (cacheDir !== undefined) {
		cacheFile = codeCacheFile(file, cacheDir);
		try {
			cachedData = readFileSync(cacheFile);
		} catch {
			// not stored yet, or unreadable: compile
		}
	}
	const script = new vm.Script(Module.wrap(source), {
		filename: file,
		...(cachedData === undefined ? {} : {cachedData}),
		importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
	});
	const cacheUsed = cachedData !== undefined && script.cachedDataRejected !== true;
	const module = {exports: {} as Record<string, unknown>};
	(script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
	let saved = cacheUsed;
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
