import {Buffer} from 'node:buffer';
import {describe, expect, it} from 'vitest';
import {createFramer, FRAMING_LIMITS, type FramerOutput} from '../../../src/core/framing/index.js';
import {bytes, codesAt, framingDrafts, runFramer, stableOutputs} from './framer-harness.js';

const INIT_RESULT =
	'{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}';
const INIT_LENGTH = Buffer.byteLength(INIT_RESULT); // 124

describe('newline framing: clean frames', () => {
	it('frames one JSON line with exact positions and no findings', () => {
		const {outputs} = runFramer(`${INIT_RESULT}\n`);
		expect(INIT_LENGTH).toBe(124);
		expect(outputs).toEqual([
			{
				frame: {
					stream: 'stdout',
					framing: 'newline',
					offset: 0,
					byteLength: 125,
					bodyOffset: 0,
					bodyLength: 124,
					terminator: 'lf',
					lineCount: 1,
					tMs: 0,
					firstTMs: 0,
					firstSeq: 0,
					lastSeq: 0,
					isJson: true,
					isBlank: false,
					message: JSON.parse(INIT_RESULT),
				},
				facts: {limits: FRAMING_LIMITS},
				findings: [],
			},
		]);
	});

	it('takes firstSeq/firstTMs from the chunk with the first byte and tMs/lastSeq from the chunk with the LF', () => {
		const {frames} = runFramer('{"a":1}\n{"b":2}\n', {cuts: [3, 10]});
		expect(frames.map((f) => [f.offset, f.byteLength, f.firstSeq, f.firstTMs, f.lastSeq, f.tMs])).toEqual([
			[0, 8, 0, 0, 1, 10],
			[8, 8, 1, 10, 2, 20],
		]);
	});

	it('F01: a banner line then a valid frame: stray-output banner at 0, JSON frame at 25', () => {
		const {outputs} = runFramer(`STDIO MCP Server started\n${INIT_RESULT}\n`);
		expect(outputs).toHaveLength(2);
		expect(outputs[0]!.frame).toMatchObject({
			offset: 0,
			byteLength: 25,
			bodyLength: 24,
			isJson: false,
			text: 'STDIO MCP Server started',
		});
		expect(outputs[0]!.findings).toEqual([
			{
				code: 'stray-output',
				stream: 'stdout',
				offset: 0,
				byteLength: 24,
				tMs: 0,
				detail: {kind: 'banner', clientError: 'Unexpected token \'S\', "STDIO MCP "... is not valid JSON'},
			},
		]);
		expect(outputs[1]!.frame).toMatchObject({offset: 25, byteLength: 125, isJson: true});
		expect(outputs[1]!.findings).toEqual([]);
	});

	it('a stray line after a JSON frame is `text`, not `banner`', () => {
		const {findings} = runFramer('{"a":1}\nhello world\n');
		expect(findings).toEqual([
			{
				code: 'stray-output',
				stream: 'stdout',
				offset: 8,
				byteLength: 11,
				tMs: 0,
				detail: {kind: 'text', clientError: 'Unexpected token \'h\', "hello world" is not valid JSON'},
			},
		]);
	});

	it('F10: a Python log line is stray-output `log` with the V8 message the client logs', () => {
		const line = '2025-06-09 21:38:09,942 - src.log_utils - INFO - Logging initialized';
		const {findings, frames} = runFramer(`${line}\n`);
		expect(frames[0]).toMatchObject({offset: 0, byteLength: 69, isJson: false, text: line});
		expect(findings).toEqual([
			{
				code: 'stray-output',
				stream: 'stdout',
				offset: 0,
				byteLength: 68,
				tMs: 0,
				detail: {
					kind: 'log',
					clientError: 'Unexpected non-whitespace character after JSON at position 4',
					logger: 'python',
				},
			},
		]);
	});

	it('F06: npm lifecycle banner: blank line, launcher lines, blank line, then frames', () => {
		const data = '\n> mcp-srv@1.0.0 start\n> tsc && node dist/index.js\n\n{"a":1}\n';
		const {outputs} = runFramer(data);
		expect(outputs.map((o) => [o.frame.offset, o.frame.byteLength, o.frame.isBlank, o.frame.isJson])).toEqual([
			[0, 1, true, false],
			[1, 22, false, false],
			[23, 28, false, false],
			[51, 1, true, false],
			[52, 8, false, true],
		]);
		expect(
			outputs
				.flatMap((o) => o.findings)
				.map((f) => [f.code, f.offset, f.detail?.['kind'] ?? f.detail?.['clientError']]),
		).toEqual([
			['blank-line', 0, 'Unexpected end of JSON input'],
			['stray-output', 1, 'launcher'],
			['stray-output', 23, 'launcher'],
			['blank-line', 51, 'Unexpected end of JSON input'],
		]);
	});
});

describe('newline framing: blank lines and CRLF (R2, R5)', () => {
	it('a blank line is a blank frame with blank-line at its first byte', () => {
		const {outputs} = runFramer('\n');
		expect(outputs).toEqual([
			{
				frame: {
					stream: 'stdout',
					framing: 'newline',
					offset: 0,
					byteLength: 1,
					bodyOffset: 0,
					bodyLength: 0,
					terminator: 'lf',
					lineCount: 1,
					tMs: 0,
					firstTMs: 0,
					firstSeq: 0,
					lastSeq: 0,
					isJson: false,
					isBlank: true,
				},
				facts: {limits: FRAMING_LIMITS, content: {kind: 'blank', clientError: 'Unexpected end of JSON input'}},
				findings: [
					{
						code: 'blank-line',
						stream: 'stdout',
						offset: 0,
						byteLength: 1,
						tMs: 0,
						detail: {clientError: 'Unexpected end of JSON input'},
					},
				],
			},
		]);
	});

	it('F15: CRLF on every frame: terminator crlf and a crlf warning at each CR', () => {
		const data = '{"jsonrpc":"2.0","id":1,"result":{}}\r\n{"jsonrpc":"2.0","id":2,"result":{}}\r\n';
		const {outputs} = runFramer(data);
		expect(outputs.map((o) => o.frame)).toMatchObject([
			{offset: 0, byteLength: 38, bodyOffset: 0, bodyLength: 36, terminator: 'crlf', isJson: true},
			{offset: 38, byteLength: 38, bodyOffset: 38, bodyLength: 36, terminator: 'crlf', isJson: true},
		]);
		expect(outputs.flatMap((o) => o.findings)).toEqual([
			{code: 'crlf', stream: 'stdout', offset: 36, byteLength: 2, tMs: 0},
			{code: 'crlf', stream: 'stdout', offset: 74, byteLength: 2, tMs: 0},
		]);
	});

	it('a CR LF blank line gets blank-line only: crlf is about messages (F48)', () => {
		expect(codesAt(runFramer('{"a":1}\n\r\n').findings)).toEqual([['blank-line', 8]]);
	});

	it('a stray line ending in CR LF gets no crlf; a message after it does (F48)', () => {
		expect(codesAt(runFramer('Loading FeatureFlags from file: C:\\f.json\r\n{"a":1}\n{"a":1}\r\n').findings)).toEqual([
			['stray-output', 0],
			['crlf', 58],
		]);
	});

	it('a CR split from its LF by a chunk cut is still a CR LF terminator', () => {
		const {outputs} = runFramer('{"a":1}\r\n', {cuts: [8]});
		expect(outputs[0]!.frame).toMatchObject({
			byteLength: 9,
			bodyLength: 7,
			terminator: 'crlf',
			firstSeq: 0,
			lastSeq: 1,
		});
		expect(codesAt(outputs[0]!.findings)).toEqual([['crlf', 7]]);
	});

	it('F16: a CRLF-terminated request on stdin', () => {
		const {outputs} = runFramer('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}\r\n', {stream: 'stdin'});
		expect(outputs[0]!.frame).toMatchObject({stream: 'stdin', terminator: 'crlf', byteLength: 60});
		expect(outputs[0]!.findings).toEqual([{code: 'crlf', stream: 'stdin', offset: 58, byteLength: 2, tMs: 0}]);
	});
});

describe('newline framing: BOM, ANSI escapes, invalid UTF-8 (R3, R4, R5)', () => {
	it('strips a BOM at line start and still parses the message', () => {
		const {outputs} = runFramer(bytes([0xef, 0xbb, 0xbf], '{"a":1}\n'));
		expect(outputs[0]!.frame).toMatchObject({
			offset: 0,
			byteLength: 11,
			bodyOffset: 3,
			bodyLength: 7,
			isJson: true,
			message: {a: 1},
		});
		expect(outputs[0]!.findings).toEqual([
			{
				code: 'bom',
				stream: 'stdout',
				offset: 0,
				byteLength: 3,
				tMs: 0,
				detail: {clientError: 'Unexpected token \'\uFEFF\', "\uFEFF{"a":1}" is not valid JSON'},
			},
		]);
	});

	it('a BOM on a later line is reported at that line start', () => {
		expect(codesAt(runFramer(bytes('{"a":1}\n', [0xef, 0xbb, 0xbf], '{"b":2}\n')).findings)).toEqual([['bom', 8]]);
	});

	it('F13: a coloured log line: ansi-escape at the first ESC and stray-output log', () => {
		const line = '\u001B[33m[2026-01-02 10:00:00] [INFO] connected\u001B[0m';
		const {outputs} = runFramer(`${line}\n`);
		expect(outputs[0]!.frame).toMatchObject({offset: 0, byteLength: 48, isJson: false, text: line});
		expect(outputs[0]!.findings).toEqual([
			{
				code: 'stray-output',
				stream: 'stdout',
				offset: 0,
				byteLength: 47,
				tMs: 0,
				detail: {kind: 'log', clientError: 'Unexpected token \'\u001B\', "\u001B[33m[2026"... is not valid JSON'},
			},
			{
				code: 'ansi-escape',
				stream: 'stdout',
				offset: 0,
				byteLength: 5,
				tMs: 0,
				detail: {sequence: 'CSI', isPrivate: false, count: 2},
			},
		]);
	});

	it('reports an OSC title sequence in the middle of a line at its ESC', () => {
		const {findings} = runFramer('{"a":1}\nok \u001B]0;title\u0007 done\n');
		expect(findings[1]).toEqual({
			code: 'ansi-escape',
			stream: 'stdout',
			offset: 11,
			byteLength: 10,
			tMs: 0,
			detail: {sequence: 'OSC', isPrivate: false, count: 1},
		});
	});

	it('reports a DEC private mode sequence', () => {
		const {findings} = runFramer('\u001B[?25lhidden cursor\n');
		expect(findings[1]).toEqual({
			code: 'ansi-escape',
			stream: 'stdout',
			offset: 0,
			byteLength: 6,
			tMs: 0,
			detail: {sequence: 'CSI', isPrivate: true, count: 1},
		});
	});

	it('F23: CP949 bytes inside a JSON string: invalid-utf8 at the first bad byte, inString true, message kept', () => {
		const head = '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"';
		const data = bytes(head, [0xb0, 0xa1, 0xc7, 0xd1], '"}]}}\n');
		const {outputs} = runFramer(data);
		expect(head.length).toBe(68);
		expect(outputs[0]!.frame).toMatchObject({offset: 0, byteLength: 78, isJson: true});
		expect((outputs[0]!.frame.message as {result: {content: Array<{text: string}>}}).result.content[0]!.text).toBe(
			'\uFFFD\uFFFD\uFFFD\uFFFD',
		);
		expect(outputs[0]!.findings).toEqual([
			{code: 'invalid-utf8', stream: 'stdout', offset: 68, byteLength: 1, tMs: 0, detail: {inString: true}},
		]);
	});

	it('invalid UTF-8 outside any string: inString false; a cut 3-byte sequence has length 2', () => {
		const {findings} = runFramer(bytes('{"a":1}\nab', [0xe2, 0x82], ' cd\n'));
		expect(findings.map((f) => [f.code, f.offset, f.byteLength, f.detail?.['inString'] ?? f.detail?.['kind']])).toEqual(
			[
				['stray-output', 8, 7, 'text'],
				['invalid-utf8', 10, 2, false],
			],
		);
	});

	it('a multi-byte character split across chunks at every position gives no finding', () => {
		const data = bytes('{"t":"€😀中"}\n');
		for (let cut = 1; cut < data.length; cut++) {
			const {outputs} = runFramer(data, {cuts: [cut]});
			expect(outputs).toHaveLength(1);
			expect(outputs[0]!.findings).toEqual([]);
			expect(outputs[0]!.frame.message).toEqual({t: '€😀中'});
		}
	});
});

describe('newline framing: concatenated JSON (J9) and lone CR', () => {
	it('{..}{..} is one frame: message = first value, concatenated-json at the second value', () => {
		const {outputs} = runFramer('{"id":1}{"id":2}\n');
		expect(outputs[0]!.frame).toMatchObject({
			offset: 0,
			byteLength: 17,
			bodyLength: 16,
			isJson: true,
			message: {id: 1},
		});
		expect(outputs[0]!.findings).toEqual([
			{
				code: 'concatenated-json',
				stream: 'stdout',
				offset: 8,
				byteLength: 8,
				tMs: 0,
				detail: {values: 2, clientError: 'Unexpected non-whitespace character after JSON at position 8'},
			},
		]);
	});

	it('{..} {..} and {..}\\r{..} report the first non-whitespace byte after the first value', () => {
		expect(runFramer('{"id":1} {"id":2}\n').findings.map((f) => [f.code, f.offset, f.detail?.['values']])).toEqual([
			['concatenated-json', 9, 2],
		]);
		expect(
			runFramer('{"id":1}\r{"id":2}\r{"id":3}\n').findings.map((f) => [f.code, f.offset, f.detail?.['values']]),
		).toEqual([['concatenated-json', 9, 3]]);
	});

	it('a value followed by junk is a stray line, not concatenated JSON', () => {
		expect(runFramer('[1] tail\n').findings.map((f) => [f.code, f.detail?.['kind']])).toEqual([
			['stray-output', 'banner'],
		]);
	});

	it('CR-overwritten progress output is stray-output `progress`', () => {
		const {findings, frames} = runFramer('{"a":1}\nDownloading 10%\r20%\r100%\n');
		expect(frames[1]!.text).toBe('Downloading 10%\r20%\r100%');
		expect(findings).toEqual([
			{
				code: 'stray-output',
				stream: 'stdout',
				offset: 8,
				byteLength: 24,
				tMs: 0,
				detail: {kind: 'progress', clientError: 'Unexpected token \'D\', "Downloadin"... is not valid JSON'},
			},
		]);
	});
});

describe('newline framing: end of stream (R1, O4)', () => {
	it('pending bytes at end() become a final frame with missing-newline', () => {
		const {outputs} = runFramer('{"a":1}\n{"b":2}');
		expect(outputs[1]!.frame).toMatchObject({
			offset: 8,
			byteLength: 7,
			bodyLength: 7,
			terminator: 'none',
			isJson: true,
			tMs: 1000,
			message: {b: 2},
		});
		expect(outputs[1]!.findings).toEqual([
			{
				code: 'missing-newline',
				stream: 'stdout',
				offset: 8,
				byteLength: 7,
				tMs: 1000,
				detail: {bytes: 7, cutAt64KiB: false},
			},
		]);
	});

	it('F25: a tools/list response cut at exactly 65,536 bytes: missing-newline with cutAt64KiB, no stray-output', () => {
		const first = `${'{"jsonrpc":"2.0","id":1,"result":{}}'}\n`; // 37 bytes
		const cut = `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"${'x'.repeat(65_536 - 37 - 52)}`;
		const data = Buffer.from(first + cut);
		expect(data.length).toBe(65_536);
		const {outputs} = runFramer(data, {cuts: [4096, 8192, 65_000]});
		expect(outputs).toHaveLength(2);
		expect(outputs[1]!.frame).toMatchObject({offset: 37, byteLength: 65_499, terminator: 'none', isJson: false});
		expect(outputs[1]!.findings).toEqual([
			{
				code: 'missing-newline',
				stream: 'stdout',
				offset: 37,
				byteLength: 65_499,
				tMs: 1000,
				detail: {bytes: 65_499, cutAt64KiB: true, isTruncatedJson: true},
			},
		]);
	});

	it('an unterminated stray line at end keeps stray-output and adds missing-newline', () => {
		expect(codesAt(runFramer('bye').findings)).toEqual([
			['stray-output', 0],
			['missing-newline', 0],
		]);
	});
});

describe('newline framing: oversize frames (C1)', () => {
	it('F24: a 129 KiB frame is an oversize-frame info at its first byte', () => {
		const line = `{"jsonrpc":"2.0","id":1,"result":{"t":"${'a'.repeat(132_000)}"}}\n`;
		const {outputs} = runFramer(`{"a":1}\n${line}`, {cuts: [65_536, 131_072]});
		const length = Buffer.byteLength(line);
		expect(length).toBe(132_043);
		expect(outputs[1]!.findings).toEqual([
			{
				code: 'oversize-frame',
				stream: 'stdout',
				offset: 8,
				byteLength: 132_043,
				tMs: 20,
				severity: 'info',
				detail: {limit: 65_536, bytes: 132_043},
			},
		]);
	});

	it('exactly 65,536 bytes is not oversize; 65,537 is', () => {
		const frame = (size: number): string => `{"t":"${'a'.repeat(size - 9)}"}\n`;
		expect(runFramer(frame(65_536)).findings).toEqual([]);
		expect(codesAt(runFramer(frame(65_537)).findings)).toEqual([['oversize-frame', 0]]);
	});

	it('F26: a frame over 10 MiB is an oversize-frame error', () => {
		const line = Buffer.from(`{"jsonrpc":"2.0","id":1,"result":{"t":"${'b'.repeat(10_485_760)}"}}\n`);
		const cuts = Array.from({length: Math.floor(line.length / 65_536)}, (_, i) => (i + 1) * 65_536);
		const {outputs} = runFramer(line, {cuts});
		expect(outputs).toHaveLength(1);
		expect(outputs[0]!.frame).toMatchObject({byteLength: 10_485_803, isJson: true});
		expect(outputs[0]!.findings).toEqual([
			{
				code: 'oversize-frame',
				stream: 'stdout',
				offset: 0,
				byteLength: 10_485_803,
				tMs: 1600,
				severity: 'error',
				detail: {limit: 10_485_760, bytes: 10_485_803},
			},
		]);
	});

	it.each([
		[
			'ASCII only, with escapes (decoded as Latin-1: a string outside the JS heap)',
			`{"jsonrpc":"2.0","id":1,"result":{"t":"${'a\\u00e9\\"'.repeat(200_000)}","lone":"\\ud800"}}\n`,
		],
		['with UTF-8 characters', `{"jsonrpc":"2.0","id":1,"result":{"t":"${'aé😀'.repeat(200_000)}","lone":"\\ud800"}}\n`],
	])('a line over 1 MB, %s: the message is what JSON.parse gives, findings at their byte offsets', (_, line) => {
		const {outputs} = runFramer(`{"a":1}\n${line}`, {cuts: [500_000]});
		const length = Buffer.byteLength(line);
		expect(length).toBeGreaterThan(1_100_000);
		expect(outputs[1]!.frame).toMatchObject({offset: 8, byteLength: length, isJson: true});
		expect(outputs[1]!.frame.message).toEqual(JSON.parse(line));
		const lone = 8 + Buffer.from(line).indexOf('\\ud800');
		expect(codesAt(outputs[1]!.findings)).toEqual([
			['non-portable-json', lone],
			['oversize-frame', 8],
		]);
	});

	it('a 20 MiB single line in 64 KiB chunks is framed once, without re-scanning old bytes', () => {
		const size = 20 * 1024 * 1024;
		const line = Buffer.alloc(size, 0x61);
		line.write('{"t":"', 0);
		line.write('"}\n', size - 3);
		const framer = createFramer('stdout', {mode: 'protocol'});
		const outputs: FramerOutput[] = [];
		let pendingAfterLastChunk = 0;
		for (let offset = 0, seq = 0; offset < size; offset += 65_536, seq++) {
			framer.push({seq, stream: 'stdout', tMs: seq, offset, bytes: line.subarray(offset, offset + 65_536)}, (o) =>
				outputs.push(o),
			);
			if (offset + 65_536 < size) {
				pendingAfterLastChunk = framer.pendingBytes;
			}
		}

		framer.end(1e6, (o) => outputs.push(o));
		expect(pendingAfterLastChunk).toBe(size - 65_536);
		expect(outputs).toHaveLength(1);
		expect(outputs[0]!.frame).toMatchObject({
			offset: 0,
			byteLength: size,
			bodyLength: size - 1,
			isJson: true,
			firstSeq: 0,
			lastSeq: 319,
		});
		expect((outputs[0]!.frame.message as {t: string}).t).toHaveLength(size - 9);
		const drafts = framingDrafts(outputs[0]!);
		expect(codesAt(drafts)).toEqual([['oversize-frame', 0]]);
		expect(drafts[0]!.severity).toBe('error');
	});
});

describe('framer contract', () => {
	it('throws RangeError on a gap or overlap and TypeError for another stream', () => {
		const framer = createFramer('stdout', {mode: 'protocol'});
		const emit = (): void => {};
		framer.push({seq: 0, stream: 'stdout', tMs: 0, offset: 0, bytes: Buffer.from('abc')}, emit);
		expect(() => framer.push({seq: 1, stream: 'stdout', tMs: 1, offset: 4, bytes: Buffer.from('d')}, emit)).toThrow(
			RangeError,
		);
		expect(() => framer.push({seq: 1, stream: 'stdout', tMs: 1, offset: 2, bytes: Buffer.from('d')}, emit)).toThrow(
			RangeError,
		);
		expect(() => framer.push({seq: 1, stream: 'stdin', tMs: 1, offset: 3, bytes: Buffer.from('d')}, emit)).toThrow(
			TypeError,
		);
		expect(framer.pendingBytes).toBe(3);
		expect(framer.pendingOffset).toBe(0);
	});

	it('accepts plain Uint8Array chunks and empty chunks', () => {
		const framer = createFramer('stdin', {mode: 'protocol'});
		const outputs: FramerOutput[] = [];
		framer.push({seq: 0, stream: 'stdin', tMs: 0, offset: 0, bytes: new Uint8Array(0)}, (o) => outputs.push(o));
		framer.push({seq: 1, stream: 'stdin', tMs: 1, offset: 0, bytes: new TextEncoder().encode('{"a":1}\n')}, (o) =>
			outputs.push(o),
		);
		expect(outputs.map((o) => [o.frame.stream, o.frame.offset, o.frame.byteLength, o.frame.isJson])).toEqual([
			['stdin', 0, 8, true],
		]);
	});

	it('throws after end()', () => {
		const framer = createFramer('stdout', {mode: 'protocol'});
		framer.end(0, () => {});
		expect(() => framer.end(1, () => {})).toThrow(Error);
		expect(() => framer.push({seq: 0, stream: 'stdout', tMs: 0, offset: 0, bytes: Buffer.from('x')}, () => {})).toThrow(
			Error,
		);
	});

	it('gives the same result for a fixture cut at every byte', () => {
		const data = bytes(
			'banner\n',
			[0xef, 0xbb, 0xbf],
			'{"a":1}\r\n\n{\n  "b": [1,\n 2]\n}\n{"c":1}{"d":2}\n\u001B[2Jx\nContent-Length: 7\r\n\r\n{"e":5}tail',
		);
		const whole = stableOutputs(runFramer(data).outputs);
		for (let cut = 1; cut < data.length; cut++) {
			expect(stableOutputs(runFramer(data, {cuts: [cut]}).outputs)).toEqual(whole);
		}
	});
});
