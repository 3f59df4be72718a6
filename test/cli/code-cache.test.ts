import {mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {basename, join} from 'node:path';
import fc from 'fast-check';
import {afterAll, describe, expect, it} from 'vitest';
import {execFileSync} from 'node:child_process';
import {
	CACHE_MAX_AGE_MS,
	cacheKey,
	codeCacheDir,
	codeCacheFile,
	KEPT_OTHER_CACHES,
	pruneCodeCaches,
	runCachedScript,
	THIN_CACHE_RATIO,
} from '../../src/cli/code-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-wire-code-cache-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));

describe('codeCacheDir', () => {
	it("follows each platform's cache directory", () => {
		expect(codeCacheDir({platform: 'linux', env: {HOME: '/home/u'}, homedir: '/home/u'})).toBe(
			'/home/u/.cache/mcp-wire',
		);
		expect(codeCacheDir({platform: 'linux', env: {HOME: '/home/u', XDG_CACHE_HOME: '/c'}, homedir: '/home/u'})).toBe(
			'/c/mcp-wire',
		);
		expect(codeCacheDir({platform: 'linux', env: {HOME: '/home/u', XDG_CACHE_HOME: 'rel'}, homedir: '/home/u'})).toBe(
			'/home/u/.cache/mcp-wire',
		);
		expect(codeCacheDir({platform: 'darwin', env: {HOME: '/Users/u'}, homedir: '/Users/u'})).toBe(
			'/Users/u/Library/Caches/mcp-wire',
		);
		expect(
			codeCacheDir({platform: 'win32', env: {LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local'}, homedir: 'C:\\Users\\u'}),
		).toBe('C:\\Users\\u\\AppData\\Local\\mcp-wire\\Cache');
	});

	it('Windows without %LOCALAPPDATA%: under the home directory given, else %USERPROFILE%, else none', () => {
		expect(codeCacheDir({platform: 'win32', env: {}, homedir: 'C:\\Users\\u'})).toBe(
			'C:\\Users\\u\\AppData\\Local\\mcp-wire\\Cache',
		);
		expect(codeCacheDir({platform: 'win32', env: {USERPROFILE: 'C:\\Users\\v'}})).toBe(
			'C:\\Users\\v\\AppData\\Local\\mcp-wire\\Cache',
		);
		expect(codeCacheDir({platform: 'win32', env: {}})).toBeUndefined();
	});

	it('none on POSIX without an absolute $HOME (nothing is written into the working directory)', () => {
		expect(codeCacheDir({platform: 'linux', env: {}, homedir: ''})).toBeUndefined();
		expect(codeCacheDir({platform: 'linux', env: {HOME: ''}, homedir: ''})).toBeUndefined();
		expect(codeCacheDir({platform: 'linux', env: {HOME: 'u'}, homedir: 'u'})).toBeUndefined();
	});
});

describe('cacheKey (the 16 hex digits of a cache file name)', () => {
	it('is 64-bit FNV-1a: the published test vectors', () => {
		expect(cacheKey('')).toBe('cbf29ce484222325');
		expect(cacheKey('a')).toBe('af63dc4c8601ec8c');
		expect(cacheKey('foobar')).toBe('85944171f73967e8');
	});

	it('agrees with a BigInt FNV-1a over UTF-16 code units on generated strings', () => {
		const reference = (text: string): string => {
			let hash = 0xcbf29ce484222325n;
			for (let i = 0; i < text.length; i++)
				hash = ((hash ^ BigInt(text.charCodeAt(i))) * 0x100000001b3n) & 0xffffffffffffffffn;
			return hash.toString(16).padStart(16, '0');
		};
		fc.assert(
			fc.property(fc.string({unit: 'binary', maxLength: 300}), (text) => {
				expect(cacheKey(text)).toBe(reference(text));
			}),
			{numRuns: 500},
		);
	});

	it('names the file after the path, size and mtime of the script', () => {
		const script = join(dir, 'keyed.cjs');
		writeFileSync(script, 'exports.a = 1;\n');
		const first = codeCacheFile(script, '/c');
		expect(first).toMatch(/^\/c\/keyed\.cjs-[0-9a-f]{16}\.v8cache$/);
		writeFileSync(script, 'exports.a = 22;\n');
		expect(codeCacheFile(script, '/c')).not.toBe(first);
	});
});

describe('runCachedScript', () => {
	const script = join(dir, 'cli.cjs');
	writeFileSync(
		script,
		"const path = require('node:path');\nexports.name = path.basename(__filename);\nexports.twice = (n) => n * 2;\nexports.self = module.exports === exports;\n",
	);

	it('runs a CommonJS script (exports, require, module, __filename), then stores the code cache once, and uses it next time', () => {
		const cacheDir = join(dir, 'cache');
		const first = runCachedScript(script, cacheDir);
		expect(first.exports).toMatchObject({name: 'cli.cjs', self: true});
		expect((first.exports['twice'] as (n: number) => number)(21)).toBe(42);
		expect(first.cacheUsed).toBe(false);
		first.save();
		first.save();
		const files = readdirSync(cacheDir);
		expect(files).toHaveLength(1);
		expect(files[0]).toMatch(/^cli\.cjs-[0-9a-f]{16}\.v8cache$/);
		const second = runCachedScript(script, cacheDir);
		expect(second.cacheUsed).toBe(true);
		expect((second.exports['twice'] as (n: number) => number)(4)).toBe(8);
		second.save();
		expect(readdirSync(cacheDir)).toEqual(files);
	});

	it('a cache V8 rejects (damaged) is not used: the script is compiled and the cache stored again', () => {
		const cacheDir = join(dir, 'damaged');
		// A source of its own: V8 keeps what this process compiled, and would not look at the cache for a source it has.
		const script = join(dir, 'other.cjs');
		writeFileSync(script, "exports.name = 'cli.cjs';\n");
		const file = codeCacheFile(script, cacheDir);
		mkdirSync(cacheDir);
		writeFileSync(file, 'not a code cache');
		const run = runCachedScript(script, cacheDir);
		expect(run.cacheUsed).toBe(false);
		expect(run.exports['name']).toBe('cli.cjs');
		run.save();
		expect(readFileSync(file).byteLength).toBeGreaterThan('not a code cache'.length);
		expect(readdirSync(cacheDir)).toEqual([basename(file)]);
	});

	it("a script replaced by another of the same length, path and mtime with another first line (cli.cjs: its build hash) does not run the old one's cached code", () => {
		// V8 checks a cache against the source's length only: with the old key it took the first build's cache
		// and ran its cached functions ('verdict OK') for the second build's text.
		const cacheDir = join(dir, 'rebuilt');
		const script = join(dir, 'rebuilt.cjs');
		const first = "// build 1111111111111111\nexports.f = () => 'verdict OK'  ;\n";
		const second = "// build 2222222222222222\nexports.f = () => 'verdict FAIL';\n";
		expect(second.length).toBe(first.length);
		const mtime = new Date('1985-10-26T08:15:00Z');
		const run = (): string => {
			const cached = runCachedScript(script, cacheDir);
			const said = `${(cached.exports['f'] as () => string)()} ${cached.cacheUsed}`;
			cached.save();
			return said;
		};
		writeFileSync(script, first);
		utimesSync(script, mtime, mtime);
		expect(run()).toBe('verdict OK false');
		writeFileSync(script, second);
		utimesSync(script, mtime, mtime);
		expect(run()).toBe('verdict FAIL false');
		expect(readdirSync(cacheDir)).toHaveLength(2);
	});

	it('a thin cache (stored after a run that compiled almost nothing) is used once, then replaced by the cache of the run that used it', () => {
		const cacheDir = join(dir, 'thin');
		// A script whose functions are compiled only when called: most of its code is in them.
		const script = join(dir, 'lazy.cjs');
		const body = Array.from(
			{length: 400},
			(_, i) => `\tconst v${i} = (x) => [x, ${i}, 'value ${i}'].join('-');\n\tout.push(v${i}(n));`,
		).join('\n');
		writeFileSync(script, `exports.run = (n) => {\n\tconst out = [];\n${body}\n\treturn out.length;\n};\n`);
		const source = readFileSync(script, 'utf8');
		// The thin cache: made in another process from the compiled but not yet run script (only its top
		// level), as a run that ended at once would leave it. V8 takes it: same source.
		const file = codeCacheFile(script, cacheDir);
		mkdirSync(cacheDir);
		execFileSync(process.execPath, [
			'-e',
			`const vm = require('node:vm'), fs = require('node:fs'), {Module} = require('node:module'); fs.writeFileSync(${JSON.stringify(file)}, new vm.Script(Module.wrap(fs.readFileSync(${JSON.stringify(script)}, 'utf8')), {filename: ${JSON.stringify(script)}}).createCachedData());`,
		]);
		const thinBytes = readFileSync(file).byteLength;
		expect(thinBytes).toBeLessThan(source.length * THIN_CACHE_RATIO);
		const run = runCachedScript(script, cacheDir);
		expect(run.cacheUsed).toBe(true);
		expect((run.exports['run'] as (n: number) => number)(7)).toBe(400);
		run.save();
		// Replaced by a cache that holds what the run compiled.
		const fullBytes = readFileSync(file).byteLength;
		expect(fullBytes).toBeGreaterThan(source.length * THIN_CACHE_RATIO);
		expect(readdirSync(cacheDir)).toEqual([basename(file)]);
	});

	it('reads a script with non-ASCII characters as UTF-8 (an ASCII-only one is read as latin1: the same text)', () => {
		const script = join(dir, 'text.cjs');
		writeFileSync(script, "exports.text = 'caf\u00e9 \u20ac \u{1f600} \\u00e9';\n");
		expect(runCachedScript(script, undefined).exports['text']).toBe('caf\u00e9 \u20ac \u{1f600} \u00e9');
		const ascii = join(dir, 'ascii.cjs');
		writeFileSync(ascii, "exports.text = 'plain ~ \\x7f';\n");
		expect(runCachedScript(ascii, undefined).exports['text']).toBe('plain ~ \x7f');
	});

	it('no cache directory, or one that cannot be written: runs all the same, save() does nothing and does not throw', () => {
		const none = runCachedScript(script, undefined);
		expect(none.exports['name']).toBe('cli.cjs');
		expect(() => none.save()).not.toThrow();
		const blocker = join(dir, 'a-file');
		writeFileSync(blocker, '');
		const blocked = runCachedScript(script, join(blocker, 'cache'));
		expect(blocked.exports['name']).toBe('cli.cjs');
		expect(() => blocked.save()).not.toThrow();
		expect(readdirSync(dir)).not.toContain('cache.tmp');
	});
});

describe('pruneCodeCaches', () => {
	const NOW = Date.UTC(2026, 11, 1);
	const DAY = 24 * 3600 * 1000;
	/** A file in `cacheDir` whose mtime is `ageMs` before NOW. */
	const put = (cacheDir: string, name: string, ageMs: number): void => {
		writeFileSync(join(cacheDir, name), 'x');
		utimesSync(join(cacheDir, name), (NOW - ageMs) / 1000, (NOW - ageMs) / 1000);
	};
	const key = (n: number): string => n.toString(16).padStart(16, '0');

	it('keeps the new cache and the 3 newest others younger than 30 days; removes the rest and old temporary files; leaves other names alone', () => {
		const cacheDir = join(dir, 'prune');
		mkdirSync(cacheDir);
		const kept = join(cacheDir, `cli.cjs-${key(0)}.v8cache`);
		put(cacheDir, `cli.cjs-${key(0)}.v8cache`, 40 * DAY); // the one just stored (an old mtime does not matter)
		for (let i = 1; i <= 5; i++) put(cacheDir, `cli.cjs-${key(i)}.v8cache`, i * DAY);
		put(cacheDir, `cli.cjs-${key(6)}.v8cache.123.tmp`, 3600 * 1000); // an unfinished store, an hour old
		put(cacheDir, `cli.cjs-${key(7)}.v8cache.124.tmp`, 60 * 1000); // one that may still be writing
		put(cacheDir, 'other.cjs-0000000000000001.v8cache', 100 * DAY); // another script's
		put(cacheDir, 'notes.txt', 100 * DAY);
		pruneCodeCaches(cacheDir, 'cli.cjs', kept, NOW);
		expect(readdirSync(cacheDir).sort()).toEqual(
			[
				`cli.cjs-${key(0)}.v8cache`,
				`cli.cjs-${key(1)}.v8cache`,
				`cli.cjs-${key(2)}.v8cache`,
				`cli.cjs-${key(3)}.v8cache`,
				`cli.cjs-${key(7)}.v8cache.124.tmp`,
				'notes.txt',
				'other.cjs-0000000000000001.v8cache',
			].sort(),
		);
		expect(KEPT_OTHER_CACHES).toBe(3);
	});

	it('removes another cache older than 30 days even when fewer than 3 are there', () => {
		const cacheDir = join(dir, 'prune-old');
		mkdirSync(cacheDir);
		put(cacheDir, `cli.cjs-${key(0)}.v8cache`, 0);
		put(cacheDir, `cli.cjs-${key(1)}.v8cache`, CACHE_MAX_AGE_MS + DAY);
		put(cacheDir, `cli.cjs-${key(2)}.v8cache`, CACHE_MAX_AGE_MS - DAY);
		pruneCodeCaches(cacheDir, 'cli.cjs', join(cacheDir, `cli.cjs-${key(0)}.v8cache`), NOW);
		expect(readdirSync(cacheDir).sort()).toEqual([`cli.cjs-${key(0)}.v8cache`, `cli.cjs-${key(2)}.v8cache`]);
	});

	it('a missing directory: nothing, no throw', () => {
		expect(() =>
			pruneCodeCaches(join(dir, 'no-such-dir'), 'cli.cjs', join(dir, 'no-such-dir', 'x'), NOW),
		).not.toThrow();
	});

	it('save() of a new cache prunes the old ones of the same script', () => {
		const cacheDir = join(dir, 'prune-save');
		mkdirSync(cacheDir);
		for (let i = 1; i <= 4; i++) put(cacheDir, `pruned.cjs-${key(i)}.v8cache`, i * DAY);
		const script = join(dir, 'pruned.cjs');
		writeFileSync(script, "exports.name = 'pruned';\n");
		const run = runCachedScript(script, cacheDir);
		run.save();
		const own = basename(codeCacheFile(script, cacheDir));
		expect(readdirSync(cacheDir).sort()).toEqual(
			[own, `pruned.cjs-${key(1)}.v8cache`, `pruned.cjs-${key(2)}.v8cache`, `pruned.cjs-${key(3)}.v8cache`].sort(),
		);
	});
});
