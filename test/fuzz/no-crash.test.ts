// No crash on any input: adversarial and random server bytes and capture files go
// through every reader and output mode, in process; each run must end with exit code 0, 1 or 2, no
// stack trace. Bounded to seconds in `npm test`; `MCP_WIRE_FUZZ=full` (scripts/fuzz-no-crash.mjs) runs
// the full sizes (100 MB line, 300k chunks) and many more random cases.
import fc from 'fast-check';
import {afterAll, describe, expect, it} from 'vitest';
import {
	captureText,
	crashOf,
	FILE_COMMANDS,
	PROBE_MODES,
	runCli,
	runFileCommands,
	runProbeMode,
	scratch,
	type Feed,
	type RunOutcome,
} from './harness.js';
import {encodeHeader} from '../../src/core/capture/record-codec.js';
import {META} from './harness.js';

const enc = (text: string): Uint8Array => new TextEncoder().encode(text);
const deepArray = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const INIT =
	'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n';

const FULL = process.env['MCP_WIRE_FUZZ'] === 'full';
const LINE_BYTES = FULL ? 100 * 1024 * 1024 : 256 * 1024;
const TINY_CHUNKS = FULL ? 300_000 : 1_500;
const RUNS = FULL ? 20 : 1;
const LONG_MS = FULL ? 3_600_000 : 60_000;

/** The adversarial server outputs of the issue (sizes cut to keep `npm test` in seconds unless FULL). */
const ATTACKS: Record<string, Feed> = {
	'deep array in a response (5,000 levels)': [
		['stdin', enc(INIT)],
		[
			'stdout',
			enc(
				`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"d","version":"1"},"x":${deepArray(5000)}}}\n`,
			),
		],
	],
	'deep object as a whole line (5,000 levels)': [['stdout', enc(`${deepObject(5000)}\n`)]],
	'deep params from the client (5,000 levels)': [
		['stdin', enc(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"x":${deepArray(5000)}}}\n`)],
	],
	'deep JSON on stderr': [['stderr', enc(`${deepObject(5000)}\n`)]],
	'deep JSON pretty-printed over lines': [['stdout', enc(`${'{\n"a":'.repeat(3000)}1${'\n}'.repeat(3000)}\n`)]],
	'deep JSON in Content-Length framing': [
		['stdout', enc(`Content-Length: ${deepArray(5000).length}\r\n\r\n${deepArray(5000)}`)],
	],
	'an error whose data nests 5,000 levels': [
		['stdin', enc(INIT)],
		['stdout', enc(`{"jsonrpc":"2.0","id":0,"error":{"code":-1,"message":"m","data":${deepArray(5000)}}}\n`)],
	],
	'a big JSON line': [['stdout', enc(`{"jsonrpc":"2.0","method":"x","params":{"s":"${'a'.repeat(LINE_BYTES)}"}}\n`)]],
	'a big line of no JSON, unterminated': [['stdout', new Uint8Array(LINE_BYTES).fill(0x41)]],
	'tiny chunks, one byte each': Array.from(
		enc(`${'{"jsonrpc":"2.0","method":"n"}\n'.repeat(Math.ceil(TINY_CHUNKS / 30))}`).subarray(0, TINY_CHUNKS),
		(byte) => ['stdout', Uint8Array.of(byte)] as const,
	),
	'lines of {}': [['stdout', enc('{}\n'.repeat(FULL ? 150_000 : 200))]],
};

const files = scratch();
afterAll(() => files.cleanup());

function expectNoCrash(outcomes: readonly RunOutcome[]): void {
	const crashes = outcomes
		.map((outcome) => [outcome.what, crashOf(outcome)])
		.filter(([, crash]) => crash !== undefined);
	expect(crashes).toEqual([]);
}

describe('no crash on adversarial server output', () => {
	for (const [name, feed] of Object.entries(ATTACKS)) {
		it(
			`${name}: every probe mode and every reader of its capture`,
			async () => {
				const outcomes: RunOutcome[] = [];
				for (const mode of PROBE_MODES) outcomes.push(await runProbeMode(feed, mode));
				const file = files.file(`${name.replaceAll(/\W+/g, '-')}.ndjson`, captureText(feed));
				outcomes.push(...(await runFileCommands(file)));
				expectNoCrash(outcomes);
				expect(outcomes).toHaveLength(PROBE_MODES.length + FILE_COMMANDS.length);
			},
			LONG_MS,
		);
	}

	it('a 5,000-deep response is still the response it is (the TS SDK reads it), with an invalid-jsonrpc nesting finding', async () => {
		const feed = ATTACKS['deep array in a response (5,000 levels)']!;
		const outcome = await runProbeMode(feed, PROBE_MODES[0]!);
		const records = outcome.stdout
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as Record<string, unknown>);
		const frame = records.find((r) => r['type'] === 'frame' && r['stream'] === 'stdout')!;
		expect([frame['kind'], frame['id'], frame['offset']]).toEqual(['response', 0, 0]);
		const finding = records.find((r) => r['type'] === 'finding' && r['code'] === 'invalid-jsonrpc')!;
		expect([
			finding['stream'],
			finding['offset'],
			finding['byteLength'],
			(finding['detail'] as Record<string, unknown>)['reason'],
		]).toEqual(['stdout', 0, feed[1]![1].length, 'nesting']);
	});
});

describe('no crash on random input (fast-check)', () => {
	const stream = fc.constantFrom<'stdin' | 'stdout' | 'stderr'>('stdin', 'stdout', 'stderr');
	const piece = fc.oneof(
		fc.uint8Array({maxLength: 64}),
		fc.jsonValue({maxDepth: 4}).map((value) => enc(`${JSON.stringify(value)}\n`)),
		fc.integer({min: 200, max: 3000}).map((depth) => enc(`${deepArray(depth)}\n`)),
		fc.constantFrom(
			enc('\n'),
			enc('\r\n'),
			enc('Content-Length: 5\r\n\r\n'),
			enc('\uFEFF'),
			enc('{"jsonrpc":"2.0","id":0,"result":{}}\n'),
			Uint8Array.of(0xff, 0xfe, 0xc3),
		),
	);
	const feed = fc.array(fc.tuple(stream, piece), {maxLength: 12});

	it(
		'random chunk streams through every probe mode',
		async () => {
			await fc.assert(
				fc.asyncProperty(feed, async (f) => {
					for (const mode of PROBE_MODES) {
						const outcome = await runProbeMode(f, mode);
						expect(crashOf(outcome)).toBeUndefined();
					}
				}),
				{numRuns: 20 * RUNS},
			);
		},
		LONG_MS,
	);

	it(
		'random and mutated capture files through view and report',
		async () => {
			const header = encodeHeader(META);
			const line = fc.oneof(
				fc.string({maxLength: 80}),
				fc.jsonValue({maxDepth: 3}).map((value) => JSON.stringify(value)),
				fc.constantFrom(
					`{"type":"chunk","seq":0,"stream":"stdout","tMs":0,"offset":0,"length":3,"base64":"e30K"}`,
					`{"type":"chunk","seq":1,"stream":"stdout","tMs":-1,"offset":99,"length":1,"base64":"!!"}`,
					`{"type":"finding","code":"no-response","severity":"error","stream":"stdout","offset":0,"byteLength":0,"tMs":0,"origin":"probe","message":"m","hint":"h","impact":[],"rules":[],"detail":${deepArray(5000)}}`,
					`{"type":"mark","mark":{"type":"phase","name":${deepArray(3000)},"tMs":0}}`,
					`{"type":"exit","code":${deepArray(3000)},"signal":null,"tMs":1}`,
					`{"type":"session","format":1,"command":${deepArray(5000)}}`,
					`{"type":"summary","verdict":"ok","findings":${deepArray(4000)}}`,
					`{"type":"frame","index":0,"message":${deepObject(5000)}}`,
				),
			);
			let n = 0;
			await fc.assert(
				fc.asyncProperty(
					fc.boolean(),
					fc.array(line, {maxLength: 8}),
					fc.uint8Array({maxLength: 64}),
					async (withHeader, lines, tail) => {
						const text = `${[...(withHeader ? [header] : []), ...lines].join('\n')}\n`;
						const file = files.file(`random-${n++}.ndjson`, Buffer.concat([Buffer.from(text), Buffer.from(tail)]));
						for (const outcome of await runFileCommands(file)) expect(crashOf(outcome)).toBeUndefined();
					},
				),
				{numRuns: 20 * RUNS},
			);
		},
		LONG_MS,
	);

	it('random bytes as a capture file', async () => {
		const outcomes = await runFileCommands(
			files.file(
				'bytes.bin',
				Uint8Array.from({length: 4096}, (_, i) => (i * 7919) % 256),
			),
		);
		expectNoCrash(outcomes);
		expect(outcomes.map((o) => o.exitCode)).toEqual([2, 2, 2, 2, 2]);
	});
});

it('the harness sees a crash when there is one (a missing file is exit 2, not a crash)', async () => {
	const outcome = await runCli(['view', '/nonexistent/capture.ndjson', '--json']);
	expect(outcome.exitCode).toBe(2);
	expect(crashOf(outcome)).toBeUndefined();
	expect(
		crashOf({
			what: 'x',
			exitCode: 70,
			stdout: '',
			stderr: 'mcp-wire: internal error (please report it): RangeError: x\n    at f (file:///a.js:1:2)',
		}),
	).toContain('exit 70');
});
