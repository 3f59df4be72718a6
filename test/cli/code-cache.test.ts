import {mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {basename, join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {codeCacheDir, codeCacheFile, runCachedScript} from '../../src/cli/code-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-wire-code-cache-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));

describe('codeCacheDir', () => {
	it('follows each platform\'s cache directory', () => {
		expect(codeCacheDir({platform: 'linux', env: {HOME: '/home/u'}, homedir: '/home/u'})).toBe('/home/u/.cache/mcp-wire');
		expect(codeCacheDir({platform: 'linux', env: {HOME: '/home/u', XDG_CACHE_HOME: '/c'}, homedir: '/home/u'})).toBe('/c/mcp-wire');
		expect(codeCacheDir({platform: 'linux', env: {HOME: '/home/u', XDG_CACHE_HOME: 'rel'}, homedir: '/home/u'})).toBe('/home/u/.cache/mcp-wire');
		expect(codeCacheDir({platform: 'darwin', env: {HOME: '/Users/u'}, homedir: '/Users/u'})).toBe('/Users/u/Library/Caches/mcp-wire');
		expect(codeCacheDir({platform: 'win32', env: {LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local'}, homedir: 'C:\\Users\\u'})).toBe('C:\\Users\\u\\AppData\\Local\\mcp-wire\\Cache');
	});

	it('none on POSIX without an absolute $HOME (nothing is written into the working directory)', () => {
		expect(codeCacheDir({platform: 'linux', env: {}, homedir: ''})).toBeUndefined();
		expect(codeCacheDir({platform: 'linux', env: {HOME: ''}, homedir: ''})).toBeUndefined();
		expect(codeCacheDir({platform: 'linux', env: {HOME: 'u'}, homedir: 'u'})).toBeUndefined();
	});
});

describe('runCachedScript', () => {
	const script = join(dir, 'cli.cjs');
	writeFileSync(script, "const path = require('node:path');\nexports.name = path.basename(__filename);\nexports.twice = (n) => n * 2;\nexports.self = module.exports === exports;\n");

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
