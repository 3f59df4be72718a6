// The packed tarball installs and runs: `npm pack` on a copy of the sources without `dist/` (as a
// fresh clone has it) must build `dist/` itself (the `prepare` script), and the installed `mcp-wire` must
// print its version and probe a server.
//
// The install is offline: the npm cache holds the locked dependency tarballs (`npm ci` ran) but not the
// registry's metadata that a `npm install -g <tarball>` needs to resolve version ranges. So the tarball is
// installed into a temporary project whose lockfile pins the same dependency versions as this repository's
// package-lock.json, which is what a user's `npm install ./mcp-wire-<version>.tgz` does with resolution done.
import {cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative, sep} from 'node:path';
import {execa} from 'execa';
import {afterAll, describe, expect, it} from 'vitest';
import {decodeRecords} from '../../src/core/capture/record-codec.js';
import {ROOT} from './helpers.js';

const work = mkdtempSync(join(tmpdir(), 'mcp-wire-pack-'));
afterAll(() => rmSync(work, {recursive: true, force: true}));

/**
 * Top-level entries of the repository that a fresh clone does not have, or that the pack does not need.
 * `.cache` holds the real clients (hundreds of MB, still being written while CI runs this test).
 */
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.vitest-cache', '.cache']);

interface LockEntry {
	readonly dev?: boolean;
	readonly [key: string]: unknown;
}

describe('npm pack → npm install <tarball> → mcp-wire', () => {
	it('packs dist/ built by the prepare script, installs offline and runs --version and a probe', async () => {
		const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
			name: string;
			version: string;
			dependencies: Record<string, string>;
		};
		// A clean checkout: the sources only, with the dev dependencies reachable for the build.
		const source = join(work, 'source');
		cpSync(ROOT, source, {recursive: true, filter: (from) => !SKIPPED.has(relative(ROOT, from).split(sep)[0]!)});
		symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'), 'dir');
		expect(existsSync(join(source, 'dist'))).toBe(false);

		const pack = await execa('npm', ['pack', '--json', '--pack-destination', work], {
			cwd: source,
			reject: false,
			stdin: 'ignore',
		});
		expect(pack.exitCode, pack.stderr).toBe(0);
		const [packed] = JSON.parse(pack.stdout) as {filename: string; files: {path: string}[]}[];
		const files = packed!.files.map((file) => file.path);
		// dist/bundle: the bundled CLI that bin/mcp-wire.js runs, with the capture writer's worker as an entry of its own.
		expect(files).toEqual(
			expect.arrayContaining([
				'bin/mcp-wire.js',
				'dist/bundle/mcp-wire.js',
				'dist/bundle/capture-writer-worker.js',
				'dist/cli/main.js',
				'dist/core/index.js',
				'dist/core/index.d.ts',
				'package.json',
				'README.md',
			]),
		);
		expect(files.filter((file) => !/^(bin|dist|docs)\/|^(package\.json|README\.md|LICENSE)$/.test(file))).toEqual([]);

		// A project that depends on the tarball, locked to this repository's (non-dev) dependency versions.
		const project = join(work, 'project');
		mkdirSync(project);
		const tarball = join(work, packed!.filename);
		const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
			packages: Record<string, LockEntry>;
		};
		const packages: Record<string, unknown> = {
			'': {name: 'uses-mcp-wire', dependencies: {[pkg.name]: `file:${tarball}`}},
		};
		for (const [path, entry] of Object.entries(lock.packages)) {
			if (path !== '' && entry.dev !== true) packages[path] = entry;
		}
		writeFileSync(
			join(project, 'package.json'),
			JSON.stringify({name: 'uses-mcp-wire', private: true, dependencies: {[pkg.name]: `file:${tarball}`}}),
		);
		writeFileSync(
			join(project, 'package-lock.json'),
			JSON.stringify({name: 'uses-mcp-wire', lockfileVersion: 3, requires: true, packages}),
		);
		const install = await execa('npm', ['install', '--offline', '--no-audit', '--no-fund'], {
			cwd: project,
			reject: false,
			stdin: 'ignore',
		});
		expect(install.exitCode, install.stderr).toBe(0);

		const bin = join(project, 'node_modules', '.bin', 'mcp-wire');
		const version = await execa(bin, ['--version'], {cwd: project, reject: false, stdin: 'ignore'});
		expect([version.exitCode, version.stdout, version.stderr]).toEqual([0, pkg.version, '']);

		// A probe of one example, with a --timeout no start-up reaches (the verdict never comes from a timeout).
		const probe = await execa(
			bin,
			[
				'probe',
				'--json',
				'--timeout',
				'60000',
				'--',
				'node',
				join(ROOT, 'examples', 'servers', 'node', 'stray-print.mjs'),
			],
			{cwd: project, reject: false, stdin: 'ignore'},
		);
		const events = decodeRecords(probe.stdout).events;
		const findings = events.flatMap((event) =>
			event.type === 'finding' ? [`${event.finding.code}@${event.finding.stream}:${event.finding.offset}`] : [],
		);
		expect(findings).toEqual(['stray-output@stdout:0']);
		expect(probe.exitCode).toBe(1);
	}, 300_000);
});
