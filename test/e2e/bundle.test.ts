// The bundled CLI (dist/bundle/, scripts/bundle.mjs: tsc's output joined into a few ES module chunks) is what
// bin/mcp-wire.js runs. A verdict is a promise: a probe run from the bundle must say exactly what the same
// probe run from tsc's modules (dist/cli/main.js) says, byte offsets, findings and verdict alike.
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {execa} from 'execa';
import {describe, expect, it} from 'vitest';
import {decodeRecords} from '../../src/core/capture/record-codec.js';
import {ROOT} from './helpers.js';

const BUNDLE = join(ROOT, 'dist', 'bundle');

describe('dist/bundle, the CLI that bin/mcp-wire.js runs', () => {
	it('is ASCII only (Node reads a file with any other character into a two-byte string)', () => {
		const bytes = readFileSync(join(BUNDLE, 'mcp-wire.js'));
		expect(bytes.findIndex((byte) => byte > 0x7f)).toBe(-1);
	});

	// Servers whose findings come from the framer, the stray-output classes (patterns with non-ASCII
	// characters), the TS SDK's schemas and the id bookkeeping; and a healthy one.
	const servers = [
		'healthy.mjs',
		'ansi-log.mjs',
		'tool-without-input-schema.mjs',
		'missing-serverinfo.mjs',
		'pretty-json.mjs',
	];
	it.each(servers)('a probe of %s says what the tsc build says', async (server) => {
		const args = ['probe', '--json', '--', 'node', `examples/servers/node/${server}`];
		const runFrom = (entry: string) =>
			execa(
				'node',
				[
					'--input-type=module',
					'-e',
					`const {main} = await import(${JSON.stringify(pathToFileURL(entry).href)}); process.exitCode = await main(['node', 'mcp-wire', ...${JSON.stringify(args)}]);`,
				],
				{reject: false, cwd: ROOT, stdin: 'ignore'},
			);
		const [fromBundle, fromTsc] = await Promise.all([
			runFrom(join(BUNDLE, 'mcp-wire.js')),
			runFrom(join(ROOT, 'dist', 'cli', 'main.js')),
		]);
		const said = (run: typeof fromBundle) => {
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
		expect(said(fromBundle)).toEqual(said(fromTsc));
		expect(said(fromBundle).verdict).toHaveLength(1);
		if (server !== 'healthy.mjs') expect(said(fromBundle).findings.length).toBeGreaterThan(0);
	});
});
