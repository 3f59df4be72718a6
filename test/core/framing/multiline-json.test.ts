import {describe, expect, it} from 'vitest';
import {bytes, codesAt, runFramer, SMALL_LIMITS} from './framer-harness.js';

describe('multi-line (pretty-printed) JSON, R1', () => {
	it('F22: a pretty-printed response is reassembled into one frame with multiline-json at its first byte', () => {
		const pretty =
			'{\n  "jsonrpc": "2.0",\n  "id": 3,\n  "result": {\n    "content": [{"type": "text", "text": "a } ] \\" {"}]\n  }\n}\n';
		const {outputs} = runFramer(
			`{"jsonrpc":"2.0","id":2,"result":{}}\n${pretty}{"jsonrpc":"2.0","id":4,"result":{}}\n`,
		);
		expect(outputs).toHaveLength(3);
		expect(outputs[1]!.frame).toEqual({
			stream: 'stdout',
			framing: 'newline',
			offset: 37,
			byteLength: 109,
			bodyOffset: 37,
			bodyLength: 108,
			terminator: 'lf',
			lineCount: 7,
			tMs: 0,
			firstTMs: 0,
			firstSeq: 0,
			lastSeq: 0,
			isJson: true,
			isBlank: false,
			message: {jsonrpc: '2.0', id: 3, result: {content: [{type: 'text', text: 'a } ] " {'}]}},
		});
		expect(outputs[1]!.findings).toEqual([
			{
				code: 'multiline-json',
				stream: 'stdout',
				offset: 37,
				byteLength: 109,
				tMs: 0,
				detail: {lines: 7, clientError: "Expected property name or '}' in JSON at position 1"},
			},
		]);
		expect(outputs[2]!.frame).toMatchObject({offset: 146, isJson: true, lineCount: 1});
	});

	it('takes firstSeq from the first line and tMs/lastSeq from the last, with the lines in separate chunks', () => {
		const {frames} = runFramer('[\n  1,\n  2\n]\n', {cuts: [2, 7, 11]});
		expect(frames).toHaveLength(1);
		expect(frames[0]).toMatchObject({
			offset: 0,
			byteLength: 13,
			lineCount: 4,
			firstSeq: 0,
			firstTMs: 0,
			lastSeq: 3,
			tMs: 30,
			message: [1, 2],
		});
	});

	it('a Windows pretty-printed value: terminator crlf and one crlf finding at the last CR', () => {
		const {outputs} = runFramer('{\r\n  "a": 1\r\n}\r\n');
		expect(outputs[0]!.frame).toMatchObject({
			byteLength: 16,
			bodyLength: 14,
			terminator: 'crlf',
			lineCount: 3,
			message: {a: 1},
		});
		expect(codesAt(outputs[0]!.findings)).toEqual([
			['multiline-json', 0],
			['crlf', 14],
		]);
	});

	it('a BOM before a pretty-printed value is stripped and reported', () => {
		const {outputs} = runFramer(bytes([0xef, 0xbb, 0xbf], '{\n"a": 1\n}\n'));
		expect(outputs[0]!.frame).toMatchObject({byteLength: 14, bodyOffset: 3, bodyLength: 10, message: {a: 1}});
		expect(codesAt(outputs[0]!.findings)).toEqual([
			['multiline-json', 0],
			['bom', 0],
		]);
	});

	it('lines that close the depth but do not parse together are framed one by one', () => {
		const {outputs} = runFramer('{\n  "a": 1,,\n}\n');
		expect(outputs.map((o) => [o.frame.offset, o.frame.byteLength, o.frame.isJson])).toEqual([
			[0, 2, false],
			[2, 11, false],
			[13, 2, false],
		]);
		expect(outputs.flatMap((o) => o.findings).map((f) => [f.code, f.offset, f.detail?.['clientError']])).toEqual([
			['stray-output', 0, "Expected property name or '}' in JSON at position 1"],
			['stray-output', 2, 'Unexpected non-whitespace character after JSON at position 5'],
			['stray-output', 13, 'Unexpected token \'}\', "}" is not valid JSON'],
		]);
	});

	it('a line ending inside a string ends the hold: the held lines are strays, that line is framed on its own', () => {
		const {outputs} = runFramer('{\n"a": "open\n{"b":1}\n');
		expect(outputs.map((o) => [o.frame.offset, o.frame.isJson, o.findings.map((f) => f.code).join()])).toEqual([
			[0, false, 'stray-output'],
			[2, false, 'stray-output'],
			[13, true, ''],
		]);
	});

	it('a compact message at column 0 ends a hold started by a stray `{` and is framed as a message', () => {
		const {outputs} = runFramer('{\n{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":2,"result":{}}\n');
		expect(outputs.map((o) => [o.frame.offset, o.frame.isJson, o.findings.map((f) => f.code).join()])).toEqual([
			[0, false, 'stray-output'],
			[2, true, ''],
			[39, true, ''],
		]);
	});

	it('a line that opens a string does not start a hold', () => {
		const {outputs} = runFramer('{"a": "unterminated\n}\n');
		expect(outputs.map((o) => [o.frame.offset, o.frame.byteLength, o.frame.isJson])).toEqual([
			[0, 20, false],
			[20, 2, false],
		]);
	});

	it('bounds the hold by line count: past the bound the held lines are framed one by one', () => {
		// SMALL_LIMITS.multilineMaxLines = 4: the fifth line releases the four held lines.
		const {outputs} = runFramer('[\n1,\n2,\n3,\n4\n]\n', {limits: SMALL_LIMITS});
		expect(outputs.map((o) => [o.frame.offset, o.frame.byteLength, o.frame.isJson])).toEqual([
			[0, 2, false],
			[2, 3, false],
			[5, 3, false],
			[8, 3, false],
			[11, 2, true],
			[13, 2, false],
		]);
	});

	it('bounds the hold by bytes', () => {
		// SMALL_LIMITS.multilineMaxBytes = 200.
		const long = `"${'x'.repeat(196)}",\n`; // 200 bytes: 2 + 200 > 200
		const {outputs} = runFramer(`[\n${long}1]\n`, {limits: SMALL_LIMITS});
		expect(outputs.map((o) => [o.frame.offset, o.frame.byteLength, o.frame.isJson])).toEqual([
			[0, 2, false],
			[2, 200, false],
			[202, 3, false],
		]);
	});

	it('a value completed by an unterminated last line is one frame with multiline-json and missing-newline', () => {
		const {outputs} = runFramer('{\n"a": 1\n}');
		expect(outputs).toHaveLength(1);
		expect(outputs[0]!.frame).toMatchObject({
			offset: 0,
			byteLength: 10,
			bodyLength: 10,
			terminator: 'none',
			lineCount: 3,
			message: {a: 1},
			tMs: 1000,
		});
		expect(outputs[0]!.findings).toEqual([
			{
				code: 'multiline-json',
				stream: 'stdout',
				offset: 0,
				byteLength: 10,
				tMs: 1000,
				detail: {lines: 3, clientError: "Expected property name or '}' in JSON at position 1"},
			},
			{
				code: 'missing-newline',
				stream: 'stdout',
				offset: 0,
				byteLength: 10,
				tMs: 1000,
				detail: {bytes: 10, cutAt64KiB: false},
			},
		]);
	});

	it('a value still open at end of stream: held lines become strays, the cut last line gets missing-newline', () => {
		const {outputs} = runFramer('{\n"a": 1,\n"b": 2');
		expect(outputs.map((o) => [o.frame.offset, o.frame.terminator, o.findings.map((f) => f.code).join()])).toEqual([
			[0, 'lf', 'stray-output'],
			[2, 'lf', 'stray-output'],
			[10, 'none', 'stray-output,missing-newline'],
		]);
	});

	it('a value still open when the stream ends after an LF: the held lines are framed one by one', () => {
		const {outputs} = runFramer('[\n1,\n');
		expect(outputs.map((o) => [o.frame.offset, o.frame.byteLength, o.frame.terminator])).toEqual([
			[0, 2, 'lf'],
			[2, 3, 'lf'],
		]);
	});
});
