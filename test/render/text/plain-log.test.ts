import stripAnsi from 'strip-ansi';
import {describe, expect, it} from 'vitest';
import type {ClientOutcome, Finding, Frame} from '../../../src/core/types.js';
import {
	formatFinding,
	formatFindingDigest,
	formatFrameHex,
	formatFrameLine,
	formatHeader,
	formatMarkLine,
	formatSummary,
	stallsNote,
} from '../../../src/render/text/plain-log.js';
import {
	makeFinding,
	makeFrame,
	makeMeta,
	makeSnapshot,
	makeStreamChunks,
	makeSummary,
} from '../../helpers/factories.js';
import {Session} from '../../../src/core/session/session.js';

const BANNER = 'Starting server v1.2\n'; // 21 bytes at stdout offset 0
const RESPONSE = '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18"}}\r\n'; // 68 bytes at offset 21

const BANNER_FRAME = makeFrame({index: 0, kind: 'text', text: 'Starting server v1.2', byteLength: 21, tMs: 3.25});
const RESPONSE_FRAME = makeFrame({
	index: 1,
	kind: 'response',
	offset: 21,
	byteLength: 68,
	terminator: 'crlf',
	id: 0,
	tMs: 12.34,
	answers: {method: 'initialize', requestIndex: 0, latencyMs: 8.06},
});

const CRLF: Finding = makeFinding({
	code: 'crlf',
	severity: 'warning',
	stream: 'stdout',
	offset: 87,
	byteLength: 1,
	frameIndex: 1,
	tMs: 12.34,
	message: 'a message on stdout ends with CR LF (0D 0A) instead of LF',
	hint: 'Write LF only.',
	rules: ['R2', 'O5'],
	impact: [
		{client: 'ts-sdk-v1', reaction: 'ok', note: 'strips the trailing CR'},
		{client: 'python-sdk', reaction: 'ok', note: 'CR is JSON whitespace'},
		{client: 'cursor', reaction: 'unknown', note: 'not established'},
	],
});

const STRAY: Finding = makeFinding({
	code: 'stray-output',
	severity: 'error',
	stream: 'stdout',
	offset: 0,
	byteLength: 21,
	frameIndex: 0,
	tMs: 3.25,
	message: 'stdout carries a banner line before any message',
	hint: 'Print startup messages to stderr.',
	rules: ['R5'],
	impact: [{client: 'ts-sdk-v2', reaction: 'skip', note: 'skips the line silently'}],
});

const SNAPSHOT = makeSnapshot({
	chunks: makeStreamChunks('stdout', [BANNER, RESPONSE]),
	frames: [BANNER_FRAME, RESPONSE_FRAME],
	findings: [CRLF, STRAY],
});

describe('formatHeader', () => {
	it('names versions, platform, the quoted command, env mode, cwd and pid', () => {
		const meta = makeMeta({
			command: ['npx', '-y', 'my server', "it's"],
			envKeys: ['API_KEY', 'DEBUG'],
			cwd: '/srv',
			pid: 1,
		});
		expect(formatHeader(meta, 123)).toEqual([
			'mcp-wire 0.1.0 (probe) · Node v20.20.2 · linux',
			"command  npx -y 'my server' 'it'\\''s'",
			'env      sdk-default + API_KEY, DEBUG',
			'cwd      /srv',
			'pid      123',
		]);
	});

	it('escapes control bytes in the command and leaves out what is unknown', () => {
		expect(formatHeader(makeMeta({node: '20.20.2', command: ['node', 'a\u001b[2Jb.mjs'], mode: 'tap'}))).toEqual([
			'mcp-wire 0.1.0 (tap) · Node v20.20.2 · linux',
			"command  node 'a␛[2Jb.mjs'",
			'env      sdk-default',
		]);
	});
});

describe('formatFrameLine', () => {
	const line = (frame: Partial<Frame>): string => formatFrameLine(makeFrame(frame));

	it('shows a response with its id, the answered method and the latency', () => {
		expect(formatFrameLine(RESPONSE_FRAME)).toBe(
			'   12.3 ms  S→C    68 B  response     id=0 initialize  (8.1 ms)  [CRLF]',
		);
	});

	it('shows requests, notifications and errors', () => {
		expect(line({stream: 'stdin', kind: 'request', id: 1, method: 'tools/list', byteLength: 46, tMs: 13})).toBe(
			'   13.0 ms  C→S    46 B  request      id=1 tools/list',
		);
		expect(
			line({stream: 'stdin', kind: 'notification', method: 'notifications/initialized', byteLength: 54, tMs: 12.5}),
		).toBe('   12.5 ms  C→S    54 B  notification notifications/initialized');
		expect(
			line({
				kind: 'error',
				id: 'a"b',
				message: {jsonrpc: '2.0', id: 'a"b', error: {code: -32_601, message: 'Method not found'}},
				byteLength: 80,
				tMs: 1234.56,
				answers: {method: 'foo/bar', requestIndex: 2, latencyMs: 1},
			}),
		).toBe(' 1234.6 ms  S→C    80 B  error        id="a\\"b" foo/bar  (1.0 ms)  error -32601 Method not found');
	});

	it('quotes a text line whose decoded text has U+FFFD from its bytes: bytes that are not UTF-8 as \\xNN, a real U+FFFD as itself', () => {
		// ff fe 41 ef bf bd 0a at stdout offset 10: two invalid bytes, "A", an encoded U+FFFD, LF.
		const stdout = Uint8Array.from([...Buffer.from('0123456789'), 0xff, 0xfe, 0x41, 0xef, 0xbf, 0xbd, 0x0a]);
		const bytes = (stream: Frame['stream'], offset: number, length: number) =>
			stream === 'stdout' ? stdout.subarray(offset, offset + length) : new Uint8Array();
		const frame = makeFrame({
			kind: 'text',
			text: '\uFFFD\uFFFDA\uFFFD',
			offset: 10,
			bodyOffset: 10,
			byteLength: 7,
			bodyLength: 6,
			tMs: 5,
		});
		expect(formatFrameLine(frame, {bytes})).toBe('    5.0 ms  S→C     7 B  text         "\\xff\\xfeA\uFFFD"');
		// Without the bytes (or when they are no longer kept) the decoded text, as before.
		expect(formatFrameLine(frame)).toBe('    5.0 ms  S→C     7 B  text         "\uFFFD\uFFFDA\uFFFD"');
		expect(formatFrameLine(frame, {bytes: () => new Uint8Array()})).toBe(
			'    5.0 ms  S→C     7 B  text         "\uFFFD\uFFFDA\uFFFD"',
		);
	});

	it('shows text, blank and json frames as escaped, truncated previews', () => {
		expect(formatFrameLine(BANNER_FRAME)).toBe('    3.3 ms  S→C    21 B  text         "Starting server v1.2"');
		expect(
			line({
				stream: 'stderr',
				kind: 'text',
				text: '\u001b[31merror\u001b[0m\tboom\r',
				byteLength: 30,
				tMs: 22,
				terminator: 'none',
			}),
		).toBe('   22.0 ms  ERR    30 B  text         "␛[31merror␛[0m\\tboom←"  [no LF]');
		expect(line({kind: 'blank', terminator: 'crlf', byteLength: 2, tMs: 20})).toBe(
			'   20.0 ms  S→C     2 B  blank        ←↵',
		);
		expect(line({kind: 'json', message: {level: 'info', msg: 'x'.repeat(100)}, byteLength: 120, tMs: 21})).toBe(
			`   21.0 ms  S→C   120 B  json         {"level":"info","msg":"${'x'.repeat(24)}… (+78 bytes)`,
		);
		expect(line({kind: 'text', text: 'y'.repeat(200), byteLength: 201, tMs: 1})).toBe(
			`    1.0 ms  S→C   201 B  text         "${'y'.repeat(46)}… (+154 bytes)"`,
		);
		// stderr lines are shown whole: a traceback's location line is the crash reason.
		const traceback =
			'  File "/home/ada/weather/server.py", line 1234, in <module>: raise KeyError(\'WEATHER_API_KEY\')';
		expect(line({stream: 'stderr', kind: 'text', text: traceback, byteLength: traceback.length + 1, tMs: 5})).toBe(
			`    5.0 ms  ERR    ${traceback.length + 1} B  text         "${traceback}"`,
		);
	});

	it('tags Content-Length framing and reassembled lines', () => {
		expect(
			line({
				kind: 'request',
				framing: 'content-length',
				terminator: 'length',
				id: 0,
				method: 'initialize',
				byteLength: 150,
				tMs: 1,
			}),
		).toBe('    1.0 ms  S→C   150 B  request      id=0 initialize  [content-length]');
		expect(line({kind: 'response', id: 2, lineCount: 5, byteLength: 90, tMs: 2})).toBe(
			'    2.0 ms  S→C    90 B  response     id=2  [5 lines]',
		);
	});

	it('paints only when asked', () => {
		const painted = formatFrameLine(RESPONSE_FRAME, {color: true});
		expect(painted).not.toBe(formatFrameLine(RESPONSE_FRAME));
		expect(stripAnsi(painted)).toBe(formatFrameLine(RESPONSE_FRAME));
	});
});

describe('formatFinding', () => {
	it('presents a one-byte finding with hex, escaped bytes, an xxd excerpt with markers, the fix and the impact', () => {
		expect(formatFinding(CRLF, SNAPSHOT, {color: false, hex: 'plain'})).toEqual([
			'WARNING crlf · stdout S→C · offset 87 (0x57) · frame 1 · 12.3 ms · R2, O5',
			'  a message on stdout ends with CR LF (0D 0A) instead of LF',
			'  clients: ok: TS SDK v1 (Claude Desktop, Claude Code, MCP Inspector), Python SDK · not established: Cursor',
			'  bytes: 0d  "←"',
			'  00000040: 5665 7273 696f 6e22 3a22 3230 3235 2d30  Version":"2025-0',
			'  00000050: 362d 3138 227d 7d0d 0a                   6-18"}}..',
			'                             ^^                             ^',
			'  fix: Write LF only.',
			'  impact:',
			'    TS SDK v1 (Claude Desktop, Claude Code, MCP Inspector)  OK        strips the trailing CR',
			'    Python SDK                                              OK        CR is JSON whitespace',
			'    Cursor                                                  ?         not established',
			'  docs: docs/findings.md#crlf',
		]);
	});

	it('caps long evidence: 16 bytes inline, one row of context after', () => {
		expect(formatFinding(STRAY, SNAPSHOT, {color: false, hex: 'plain'})).toEqual([
			'ERROR stray-output · stdout S→C · offset 0 (0x0) · frame 0 · 3.3 ms · R5',
			'  stdout carries a banner line before any message',
			'  bytes: 53 74 61 72 74 69 6e 67 20 73 65 72 76 65 72 20 … (+5 bytes)  "Starting server "',
			'  00000000: 5374 6172 7469 6e67 2073 6572 7665 7220  Starting server ',
			'            ^^^^ ^^^^ ^^^^ ^^^^ ^^^^ ^^^^ ^^^^ ^^^^  ^^^^^^^^^^^^^^^^',
			'  00000010: 7631 2e32 0a7b 226a 736f 6e72 7063 223a  v1.2.{"jsonrpc":',
			'            ^^^^ ^^^^ ^^                             ^^^^^',
			'  00000020: 2232 2e30 222c 2269 6422 3a30 2c22 7265  "2.0","id":0,"re',
			'  fix: Print startup messages to stderr.',
			'  impact:',
			'    TS SDK v2  SKIP      skips the line silently',
			'  docs: docs/findings.md#stray-output',
		]);
	});

	it('says how much evidence it left out of a long excerpt (3 rows for evidence over 48 bytes)', () => {
		const big = 'z'.repeat(200);
		const snapshot = makeSnapshot({chunks: makeStreamChunks('stdout', [big])});
		const finding = makeFinding({code: 'missing-newline', offset: 0, byteLength: 200, impact: [], rules: []});
		const lines = formatFinding(finding, snapshot, {color: false, hex: 'plain'});
		expect(lines.filter((line) => /^ {2}[\da-f]{8}:/.test(line)).map((line) => line.slice(2, 10))).toEqual([
			'00000000',
			'00000010',
			'00000020',
		]);
		expect(lines).toContain('  … (+152 bytes of evidence not shown)');
		expect(lines[0]).toBe('WARNING missing-newline · stdout S→C · offset 0 (0x0) · 0.0 ms');
	});

	it('shows the stream tail for a finding about absence, with the glyph gutter under hex: ansi', () => {
		const finding = makeFinding({
			code: 'no-response',
			severity: 'error',
			offset: 89,
			byteLength: 0,
			tMs: 5000,
			message: 'silent',
			hint: 'Read stdin first.',
			rules: ['R15'],
			impact: [],
			confidence: 'inferred',
		});
		expect(formatFinding(finding, SNAPSHOT, {color: false, hex: 'ansi'})).toEqual([
			'ERROR no-response · stdout S→C · offset 89 (0x59) · 5000.0 ms · R15 (inferred)',
			'  silent',
			'  00000040: 5665 7273 696f 6e22 3a22 3230 3235 2d30  Version":"2025-0',
			'  00000050: 362d 3138 227d 7d0d 0a                   6-18"}}←↵',
			'  fix: Read stdin first.',
			'  docs: docs/findings.md#no-response',
		]);
	});

	it('places a spawn failure at the spawn, not at a stdout offset (nothing was read from any stream)', () => {
		const finding = makeFinding({
			code: 'spawn-failed',
			severity: 'error',
			stream: 'stdout',
			offset: 0,
			byteLength: 0,
			tMs: 88.9,
			message: 'cannot start `x`: command not found (ENOENT)',
			hint: 'Use an absolute path.',
			impact: [],
			rules: [],
		});
		expect(formatFinding(finding, makeSnapshot(), {color: false, hex: 'plain'})).toEqual([
			'ERROR spawn-failed · at the spawn (the command did not start) · 88.9 ms',
			'  cannot start `x`: command not found (ENOENT)',
			'  fix: Use an absolute path.',
			'  docs: docs/findings.md#spawn-failed',
		]);
	});

	it('says so when the stream has no bytes', () => {
		const finding = makeFinding({
			code: 'no-response',
			stream: 'stdout',
			offset: 0,
			byteLength: 0,
			impact: [],
			rules: [],
		});
		expect(formatFinding(finding, makeSnapshot(), {color: false, hex: 'plain'})[2]).toBe(
			'  (no bytes on stdout before offset 0)',
		);
	});

	it('colours with hex: ansi and color: true, and the text is the same without the codes', () => {
		const painted = formatFinding(CRLF, SNAPSHOT, {color: true, hex: 'ansi'});
		expect(painted[0]).toContain('\u001B[');
		expect(painted[5]).toContain('\u001B[7m\u001B[31m0d\u001B[39m\u001B[27m');
		expect(painted.map((line) => stripAnsi(line))).toEqual([
			'WARNING crlf · stdout S→C · offset 87 (0x57) · frame 1 · 12.3 ms · R2, O5',
			'  a message on stdout ends with CR LF (0D 0A) instead of LF',
			'  clients: ok: TS SDK v1 (Claude Desktop, Claude Code, MCP Inspector), Python SDK · not established: Cursor',
			'  bytes: 0d  "←"',
			'  00000040: 5665 7273 696f 6e22 3a22 3230 3235 2d30  Version":"2025-0',
			'  00000050: 362d 3138 227d 7d0d 0a                   6-18"}}←↵',
			'  fix: Write LF only.',
			'  impact:',
			'    TS SDK v1 (Claude Desktop, Claude Code, MCP Inspector)  OK        strips the trailing CR',
			'    Python SDK                                              OK        CR is JSON whitespace',
			'    Cursor                                                  ?         not established',
			'  docs: docs/findings.md#crlf',
		]);
	});
});

describe('formatFrameHex', () => {
	it('dumps the whole frame from its stream offset and highlights partial evidence', () => {
		expect(formatFrameHex(RESPONSE_FRAME, SNAPSHOT, {color: false, hex: 'plain'})).toEqual([
			'  00000015: 7b22 6a73 6f6e 7270 6322 3a22 322e 3022  {"jsonrpc":"2.0"',
			'  00000025: 2c22 6964 223a 302c 2272 6573 756c 7422  ,"id":0,"result"',
			'  00000035: 3a7b 2270 726f 746f 636f 6c56 6572 7369  :{"protocolVersi',
			'  00000045: 6f6e 223a 2232 3032 352d 3036 2d31 3822  on":"2025-06-18"',
			'  00000055: 7d7d 0d0a                                }}..',
			'                 ^^                                    ^',
		]);
	});

	it('does not highlight evidence that covers the whole frame', () => {
		expect(formatFrameHex(BANNER_FRAME, SNAPSHOT, {color: false, hex: 'plain'})).toEqual([
			'  00000000: 5374 6172 7469 6e67 2073 6572 7665 7220  Starting server ',
			'  00000010: 7631 2e32 0a                             v1.2.',
		]);
	});

	it('caps the rows and counts the rest', () => {
		expect(formatFrameHex(RESPONSE_FRAME, SNAPSHOT, {color: false, hex: 'plain', maxRows: 2})).toEqual([
			'  00000015: 7b22 6a73 6f6e 7270 6322 3a22 322e 3022  {"jsonrpc":"2.0"',
			'  00000025: 2c22 6964 223a 302c 2272 6573 756c 7422  ,"id":0,"result"',
			'  … (+36 bytes)',
		]);
	});
});

describe('formatSummary', () => {
	it('gives verdict, counts per code, stream totals, duration, exit and server facts', () => {
		const summary = makeSummary({
			verdict: 'fail',
			errors: 2,
			warnings: 1,
			findings: [
				{code: 'stray-output', severity: 'error', count: 2},
				{code: 'crlf', severity: 'warning', count: 1},
			],
			streams: {
				stdin: {bytes: 512, chunks: 4, frames: 3},
				stdout: {bytes: 12_345, chunks: 1, frames: 1},
				stderr: {bytes: 0, chunks: 0, frames: 0},
			},
			durationMs: 1234.96,
			exit: {code: 0, signal: null, tMs: 1234},
			serverInfo: {name: 'demo', version: '1.0.0'},
			protocolVersion: '2025-06-18',
			era: 'legacy',
			tools: 3,
			prompts: 0,
			resources: 1,
		});
		expect(formatSummary(summary)).toEqual([
			'verdict FAIL: 2 errors, 1 warning, 0 info · a mainstream client fails',
			'  error    stray-output  ×2',
			'  warning  crlf          ×1',
			'streams  C→S stdin 512 B in 3 frames (4 chunks) · S→C stdout 12,345 B in 1 frame (1 chunk) · ERR stderr 0 B in 0 frames (0 chunks)',
			'duration 1,235.0 ms · server exit code 0',
			'server   demo 1.0.0 · protocol 2025-06-18 (initialize handshake) · 3 tools, 0 prompts, 1 resource',
		]);
	});

	it('handles a clean run killed by a signal, with nothing known about the server', () => {
		expect(formatSummary(makeSummary({durationMs: 2.04, exit: {code: null, signal: 'SIGKILL', tMs: 2}}))).toEqual([
			'verdict OK: 0 errors, 0 warnings, 0 info · no client outcome is established',
			'streams  C→S stdin 0 B in 0 frames (0 chunks) · S→C stdout 0 B in 0 frames (0 chunks) · ERR stderr 0 B in 0 frames (0 chunks)',
			'duration 2.0 ms · server killed by SIGKILL',
		]);
	});
});

describe('formatSummary: one vocabulary from the finding to the clients', () => {
	const outcome = (client: ClientOutcome['client'], kind: ClientOutcome['outcome'], note: string): ClientOutcome => ({
		client,
		outcome: kind,
		decidedBy: kind === 'works' ? [] : ['stray-output'],
		note,
		connects: kind !== 'fails',
		toolsListed: kind !== 'fails',
	});

	it('a WARN says that no client fails and how many are degraded (was: only the counts)', () => {
		const lines = formatSummary(
			makeSummary({
				verdict: 'warn',
				errors: 1,
				findings: [{code: 'stray-output', severity: 'error', count: 1}],
				clients: [
					outcome('ts-sdk-v1', 'degraded', 'connects; logs it'),
					outcome('ts-sdk-v2', 'works', 'connects; skips it'),
					outcome('python-sdk', 'degraded', 'connects; logs it'),
				],
			}),
		);
		expect(lines[0]).toBe(
			'verdict WARN: 1 error, 0 warnings, 0 info · no client fails; 2 are degraded (connect, but log the fault or lose a message)',
		);
	});

	it('a WARN names the niche client that fails', () => {
		const lines = formatSummary(
			makeSummary({
				verdict: 'warn',
				errors: 1,
				clients: [outcome('ts-sdk-v1', 'works', 'connects'), outcome('rmcp', 'fails', 'closes')],
			}),
		);
		expect(lines[0]).toBe('verdict WARN: 1 error, 0 warnings, 0 info · no mainstream client fails; rmcp fails');
	});

	it('clients with one outcome and one note are one line (spawn-failed: was six equal lines)', () => {
		const note = 'does not connect (the connection closes): spawn-failed: spawn error';
		const clients = (['ts-sdk-v1', 'ts-sdk-v2', 'python-sdk', 'vscode', 'rmcp', 'cursor'] as const).map((client) =>
			outcome(client, 'fails', note),
		);
		const lines = formatSummary(makeSummary({verdict: 'fail', errors: 1, clients}));
		expect(lines.filter((line) => line.includes(note))).toEqual([`clients  ✘ fails            every client  ${note}`]);
	});
});

describe("stallsNote and the summary's capture line (a tap capture whose end record has stalls)", () => {
	it('says how often and how long the tap held back the source, and which waits became gaps', () => {
		expect(stallsNote({count: 1, totalMs: 37, longestMs: 37, timedOut: 0})).toBe(
			'the tap held back the source once, 37 ms in all, so that the capture could keep every byte; times in the capture include these waits',
		);
		expect(stallsNote({count: 1, totalMs: 2000, longestMs: 2000, timedOut: 1})).toBe(
			'the tap held back the source once, 2,000 ms in all, so that the capture could keep every byte; times in the capture include these waits; the wait reached --capture-wait and its read became a gap',
		);
		expect(stallsNote({count: 1204, totalMs: 61_250, longestMs: 2000, timedOut: 3})).toBe(
			'the tap held back the source 1,204 times, 61,250 ms in all (longest 2,000 ms), so that the capture could keep every byte; times in the capture include these waits; 3 waits reached --capture-wait and their reads became gaps',
		);
	});

	it('formatSummary ends with a capture line only when the summary has stalls', () => {
		const lines = formatSummary(
			makeSummary({durationMs: 2, stalls: {count: 3, totalMs: 412, longestMs: 260, timedOut: 0}}),
		);
		expect(lines.at(-1)).toBe(
			'capture  the tap held back the source 3 times, 412 ms in all (longest 260 ms), so that the capture could keep every byte; times in the capture include these waits',
		);
		expect(lines.slice(0, -1)).toEqual(formatSummary(makeSummary({durationMs: 2})));
	});
});

describe('formatFrameLine: an id written 0.0 (F38)', () => {
	it('prints the raw token, not the number JavaScript read', () => {
		const frame = makeFrame({index: 1, kind: 'response', offset: 0, byteLength: 40, id: 0, rawId: '0.0', tMs: 5});
		expect(stripAnsi(formatFrameLine(frame))).toMatch(/ id=0\.0( |$)/);
		expect(stripAnsi(formatFrameLine({...frame, rawId: undefined}))).toMatch(/ id=0( |$)/);
	});
});

describe('formatMarkLine: the tap phases', () => {
	it.each([
		[
			'client-closed-stdout',
			"the client closed its end of stdout: the tap closed the server's, so its next write fails",
		],
		['sigkill-after-grace', 'the server outlived the forwarded signal: the tap sent SIGKILL'],
		[
			'output-given-up',
			'the server exited; a process it left still held its output: the tap stopped reading it and ended with the server',
		],
	])('%s has a line of its own', (name, text) => {
		expect(formatMarkLine({type: 'phase', name, tMs: 2500})).toBe(` 2500.0 ms  ···  ${text}`);
	});
});

describe('formatFindingDigest (what stays on the terminal after the TUI)', () => {
	it("gives each code's first finding: its message and its fix", () => {
		const session = new Session(makeMeta());
		const spawn = {code: 'spawn-failed', stream: 'stdout', offset: 0, byteLength: 0} as const;
		session.addFinding({
			...spawn,
			tMs: 3,
			detail: {file: 'uvx', errno: 'ENOENT', reason: 'command not found (ENOENT)'},
		});
		session.addFinding({
			...spawn,
			tMs: 4,
			detail: {file: 'npx', errno: 'ENOENT', reason: 'command not found (ENOENT)'},
		});
		expect(formatFindingDigest(session.getSnapshot().findings)).toEqual([
			'ERROR spawn-failed: cannot start `uvx`: command not found (ENOENT)',
			'  fix: Use an absolute path, or make sure the command is on the PATH the client passes (GUI clients get a minimal PATH).',
		]);
		expect(formatFindingDigest(new Session(makeMeta()).getSnapshot().findings)).toEqual([]);
	});
});
