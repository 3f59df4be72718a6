// The bundled CLI (scripts/bundle.mjs) keeps only the TS SDK zod schemas that the probe's checks use (issue
// 12: the others were built at every start for nothing). A verdict is a promise: the bundled checks must
// judge every message exactly as the SDK's own types.js does. Compared here on every JSON line of the field
// cases and on generated messages and results, for every method and revision the checks know.
import {createHash} from 'node:crypto';
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {createRequire} from 'node:module';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {execa} from 'execa';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import type {SdkSchemas} from '../../src/core/jsonrpc/sdk-checks.js';
import {SDK_SCHEMAS} from '../../src/core/jsonrpc/sdk-schemas.js';
import {decodeRecords} from '../../src/core/capture/record-codec.js';
import {fieldCaseJsonLines} from '../fixtures/field-cases/json-lines.js';
import {messageArb, sdkResultArb as resultArb} from '../core/jsonrpc/arbitraries.js';
import {ROOT} from './helpers.js';

const BUNDLE = join(ROOT, 'dist', 'bundle');

/** The bundled checks: the ES module chunk (view, report, attach) or the CommonJS script a probe loads when its fast checks do not accept a value. */
async function bundledSchemas(form: 'esm chunk' | 'sdk-schemas.cjs'): Promise<SdkSchemas> {
	if (form === 'sdk-schemas.cjs')
		return (createRequire(import.meta.url)(join(BUNDLE, 'sdk-schemas.cjs')) as {SDK_SCHEMAS: SdkSchemas}).SDK_SCHEMAS;
	return ((await import(pathToFileURL(join(BUNDLE, 'sdk-schemas.js')).href)) as {SDK_SCHEMAS: SdkSchemas}).SDK_SCHEMAS;
}

/** Every method with a result schema in sdk-schemas.ts, and two without one. */
const METHODS = [
	'ping',
	'tools/list',
	'tools/call',
	'prompts/list',
	'prompts/get',
	'resources/list',
	'resources/templates/list',
	'resources/read',
	'resources/subscribe',
	'resources/unsubscribe',
	'logging/setLevel',
	'completion/complete',
	'initialize',
	'server/discover',
];
const VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2026-07-28', undefined];

/** Everything the checks say about one parsed message: as a message, its result as an initialize result, and as each method's result. */
function judge(schemas: SdkSchemas, message: unknown): unknown {
	const result =
		message !== null && typeof message === 'object' && 'result' in message
			? (message as {result: unknown}).result
			: message;
	return {
		message: schemas.message(message),
		initializeResult: schemas.initializeResult(result),
		results: METHODS.flatMap((method) => VERSIONS.map((version) => schemas.result(method, version, result))),
	};
}

describe.each(['esm chunk', 'sdk-schemas.cjs'] as const)(
	'the bundled TS SDK checks (%s) judge as the SDK does',
	(form) => {
		it('on every JSON line of the field cases', async () => {
			const bundled = await bundledSchemas(form);
			expect(bundled.loaded).toBe(true);
			let lines = 0;
			for (const {caseId, line, message} of fieldCaseJsonLines()) {
				lines += 1;
				expect(judge(bundled, message), `${caseId}: ${line.slice(0, 120)}`).toEqual(judge(SDK_SCHEMAS, message));
			}
			expect(lines).toBeGreaterThan(100);
		});

		it('on generated JSON-RPC messages and generated results', async () => {
			const bundled = await bundledSchemas(form);
			fc.assert(
				fc.property(messageArb, (message) => {
					expect(judge(bundled, message)).toEqual(judge(SDK_SCHEMAS, message));
				}),
				{numRuns: 1000},
			);
			let rejected = 0;
			fc.assert(
				fc.property(resultArb, (result) => {
					const expected = judge(SDK_SCHEMAS, {jsonrpc: '2.0', id: 1, result});
					expect(judge(bundled, {jsonrpc: '2.0', id: 1, result})).toEqual(expected);
					if (JSON.stringify(expected).includes('"path"')) rejected += 1;
				}),
				{numRuns: 1000},
			);
			// The generated results reach the schemas' inner checks, not only their first test.
			expect(rejected).toBeGreaterThan(100);
		});
	},
);

// bin/mcp-wire.js loads this before the probe's server is spawned: one file (the early start, and how to run
// cli.cjs with the code cache), so that the ES module loader reads, compiles and links one module (not a
// chunk per shared module) before the spawn.
describe('dist/bundle/probe-early.js (the early start and the code cache)', () => {
	it.each(['probe-early.js'])("%s imports nothing but Node's own modules", (name) => {
		const text = readFileSync(join(BUNDLE, name), 'utf8');
		const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((match) => match[1]!);
		expect(specifiers.length).toBeGreaterThan(0);
		expect(specifiers.filter((specifier) => !specifier.startsWith('node:'))).toEqual([]);
	});
});

// cli.cjs is the CLI that a plain `probe` runs (bin/mcp-wire.js, with V8's code cache): built from the same
// sources as the ES module build, but with the other commands and the TUI left out, minified (whitespace and
// syntax, names kept) and ASCII only (scripts/bundle.mjs). Its probes must say exactly what the ES module
// build says.
describe("dist/bundle/cli.cjs, the probe's script", () => {
	const script = join(BUNDLE, 'cli.cjs');

	it('is ASCII only (Node reads any other script into a two-byte string)', () => {
		const bytes = readFileSync(script);
		expect(bytes.findIndex((byte) => byte > 0x7f)).toBe(-1);
	});

	it("ends its first line with a hash of its text, which the code cache's key holds (V8 checks a cache against the length only)", () => {
		const text = readFileSync(script, 'latin1');
		const firstLine = text.slice(0, text.indexOf('\n'));
		const match = / \/\/ build ([0-9a-f]{16})$/.exec(firstLine);
		expect(match).not.toBeNull();
		const hashed = text.slice(0, firstLine.length - match![0].length) + text.slice(firstLine.length);
		expect(createHash('sha256').update(hashed).digest('hex').slice(0, 16)).toBe(match![1]);
	});

	it('leaves the other commands out: one is named in a clear internal error, not a crash', async () => {
		const run = await execa(
			'node',
			[
				'-e',
				`require(${JSON.stringify(script)}).main(['node', 'mcp-wire', 'explain', 'stray-output']).then((code) => { process.exitCode = code; })`,
			],
			{reject: false, cwd: ROOT},
		);
		expect(run.exitCode).toBe(70);
		expect(run.stderr).toMatch(
			/^mcp-wire: internal error \(please report it\): Error: \.\/commands\/explain\.js is not in dist\/bundle\/cli\.cjs \(the probe's script\)/,
		);
		expect(run.stdout).toBe('');
	});

	it('holds no zod: the probe checks without it (core/jsonrpc/sdk-fast.ts) and requires sdk-schemas.cjs only for a value it does not accept', () => {
		const text = readFileSync(script, 'utf8');
		expect(text).toContain('fastSdkSchemas');
		expect(text).not.toMatch(/\$ZodObject|\$constructor/);
	});

	// A preload that says at exit whether the process required the full checks.
	const preload = join(mkdtempSync(join(tmpdir(), 'mcp-wire-bundle-')), 'full-checks.cjs');
	writeFileSync(
		preload,
		"process.on('exit', () => process.stderr.write('full-checks:' + Object.keys(require.cache).some((file) => file.endsWith('sdk-schemas.cjs')) + '\\n'));\n",
	);
	it.each([
		['healthy.mjs', false, []],
		['tool-without-input-schema.mjs', true, ['invalid-result']],
	])('a probe of %s requires the full checks: %s, and finds %j', async (server, loaded, codes) => {
		const run = await execa(
			'node',
			[
				'--require',
				preload,
				join(ROOT, 'bin', 'mcp-wire.js'),
				'probe',
				'--json',
				'--',
				'node',
				`examples/servers/node/${server}`,
			],
			{reject: false, cwd: ROOT, stdin: 'ignore'},
		);
		expect(run.stderr).toContain(`full-checks:${loaded}`);
		const found = decodeRecords(run.stdout).events.flatMap((e) => (e.type === 'finding' ? [e.finding.code] : []));
		expect(found).toEqual(codes);
	});

	// Servers whose findings come from the framer, the stray-output classes (patterns with non-ASCII
	// characters), the TS SDK's schemas and the id bookkeeping.
	const servers = ['ansi-log.mjs', 'tool-without-input-schema.mjs', 'missing-serverinfo.mjs', 'pretty-json.mjs'];
	it.each(servers)('a probe of %s says what the ES module build says', async (server) => {
		const args = ['probe', '--json', '--', 'node', `examples/servers/node/${server}`];
		const esm = `const {main} = await import(${JSON.stringify(pathToFileURL(join(BUNDLE, 'mcp-wire.js')).href)}); process.exitCode = await main(['node', 'mcp-wire', ...${JSON.stringify(args)}]);`;
		const cjs = `require(${JSON.stringify(script)}).main(['node', 'mcp-wire', ...${JSON.stringify(args)}]).then((code) => { process.exitCode = code; });`;
		const [fromEsm, fromCjs] = await Promise.all([
			execa('node', ['--input-type=module', '-e', esm], {reject: false, cwd: ROOT, stdin: 'ignore'}),
			execa('node', ['-e', cjs], {reject: false, cwd: ROOT, stdin: 'ignore'}),
		]);
		const said = (run: typeof fromEsm) => {
			const {events} = decodeRecords(run.stdout);
			// Each stream in its own order: which of stdout and stderr is read first is up to the machine.
			const byStream = (rows: (string | number)[][]): (string | number)[][] =>
				rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
			return {
				exitCode: run.exitCode,
				stderr: run.stderr,
				frames: byStream(
					events.flatMap((e) =>
						e.type === 'frame' ? [[e.frame.stream, e.frame.offset, e.frame.byteLength, e.frame.kind]] : [],
					),
				),
				findings: byStream(
					events.flatMap((e) =>
						e.type === 'finding'
							? [
									[
										e.finding.code,
										e.finding.severity,
										e.finding.stream,
										e.finding.offset,
										e.finding.byteLength,
										e.finding.message,
									],
								]
							: [],
					),
				),
				verdict: events.flatMap((e) => (e.type === 'summary' ? [e.summary.verdict] : [])),
			};
		};
		expect(said(fromCjs)).toEqual(said(fromEsm));
		expect(said(fromCjs).findings.length).toBeGreaterThan(0);
	});
});
