import {Buffer} from 'node:buffer';
import {describe, expect, it} from 'vitest';
import {createFramer, FRAMING_LIMITS, type FramerOutput} from '../../../src/core/framing/index.js';
import {bytes, codesAt, runFramer, SMALL_LIMITS} from './framer-harness.js';

const BODY_1 = '{"jsonrpc":"2.0","id":1,"result":{}}'; // 36 bytes
const BODY_2 = '{"jsonrpc":"2.0","id":2,"result":{}}';
const CLIENT_ERROR_36 = 'Unexpected token \'C\', "Content-Length: 36" is not valid JSON';

describe('Content-Length framing (L1–L6)', () => {
	it('F18: two frames with Content-Type and no trailing newline, back to back', () => {
		const header = 'Content-Length: 36\r\nContent-Type: application/json\r\n\r\n'; // 54 bytes
		const {outputs} = runFramer(`${header}${BODY_1}${header}${BODY_2}`);
		expect(outputs).toHaveLength(2);
		expect(outputs[0]).toEqual({
			frame: {
				stream: 'stdout',
				framing: 'content-length',
				offset: 0,
				byteLength: 90,
				bodyOffset: 54,
				bodyLength: 36,
				terminator: 'length',
				lineCount: 3,
				tMs: 0,
				firstTMs: 0,
				firstSeq: 0,
				lastSeq: 0,
				isJson: true,
				isBlank: false,
				message: JSON.parse(BODY_1),
			},
			facts: {
				limits: FRAMING_LIMITS,
				content: {
					kind: 'content-length',
					at: 0,
					length: 54,
					declaredLength: 36,
					bodyLength: 36,
					bodyEnd: 'json',
					missingBytes: undefined,
					hasContentType: true,
					lineEndings: 'crlf',
					headers: ['Content-Length', 'Content-Type'],
					clientError: CLIENT_ERROR_36,
				},
			},
			findings: [
				{
					code: 'content-length-framing',
					stream: 'stdout',
					offset: 0,
					byteLength: 54,
					tMs: 0,
					detail: {
						declaredLength: 36,
						bodyLength: 36,
						lengthMatches: true,
						bodyEnd: 'json',
						hasContentType: true,
						lineEndings: 'crlf',
						headers: ['Content-Length', 'Content-Type'],
						clientError: CLIENT_ERROR_36,
					},
				},
			],
		});
		expect(outputs[1]!.frame).toMatchObject({
			offset: 90,
			byteLength: 90,
			bodyOffset: 144,
			bodyLength: 36,
			terminator: 'length',
			message: JSON.parse(BODY_2),
		});
		expect(codesAt(outputs[1]!.findings)).toEqual([['content-length-framing', 90]]);
	});

	it('F19: Content-Length framing from the client on stdin', () => {
		const body =
			'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"lsp-clnt","version":"0.0.1"}}}';
		expect(Buffer.byteLength(body)).toBe(157);
		const {outputs} = runFramer(`Content-Length: 157\r\n\r\n${body}`, {stream: 'stdin'});
		expect(outputs).toHaveLength(1);
		expect(outputs[0]!.frame).toMatchObject({
			stream: 'stdin',
			framing: 'content-length',
			offset: 0,
			byteLength: 180,
			bodyOffset: 23,
			bodyLength: 157,
			lineCount: 2,
			isJson: true,
		});
		expect(outputs[0]!.findings).toEqual([
			{
				code: 'content-length-framing',
				stream: 'stdin',
				offset: 0,
				byteLength: 23,
				tMs: 0,
				detail: {
					declaredLength: 157,
					bodyLength: 157,
					lengthMatches: true,
					bodyEnd: 'json',
					hasContentType: false,
					lineEndings: 'crlf',
					headers: ['Content-Length'],
					clientError: 'Unexpected token \'C\', "Content-Length: 157" is not valid JSON',
				},
			},
		]);
	});

	it('F14: clear-screen sequences glued before the header: ansi-escape at 0 and content-length-framing at the header name', () => {
		const prefix = '\u001B[1;1H\u001B[2J\u001B[3J\u001B[1;1H\u001B[2J\u001B[3J'; // 28 bytes
		const {outputs} = runFramer(`${prefix}Content-Length: 36\r\n\r\n${BODY_1}`);
		expect(outputs).toHaveLength(1);
		expect(outputs[0]!.frame).toMatchObject({offset: 0, byteLength: 86, bodyOffset: 50, bodyLength: 36, isJson: true});
		expect(outputs[0]!.findings.map((f) => [f.code, f.offset, f.byteLength])).toEqual([
			['content-length-framing', 28, 22],
			['ansi-escape', 0, 6],
		]);
		expect(outputs[0]!.findings[1]!.detail).toEqual({sequence: 'CSI', isPrivate: false, count: 6});
	});

	it('LF-only headers: lineEndings lf', () => {
		const {outputs} = runFramer(`Content-Length: 36\n\n${BODY_1}`);
		expect(outputs[0]!.frame).toMatchObject({byteLength: 56, bodyOffset: 20, bodyLength: 36});
		expect(outputs[0]!.findings[0]!.detail).toMatchObject({lineEndings: 'lf', declaredLength: 36});
	});

	it('accepts any header before Content-Length and a lower-case name', () => {
		const {outputs} = runFramer(`X-Seq: 1\r\ncontent-length: 36\r\n\r\n${BODY_1}`);
		expect(outputs[0]!.frame).toMatchObject({byteLength: 68, bodyOffset: 32, lineCount: 3, isJson: true});
		expect(outputs[0]!.findings[0]!.detail).toMatchObject({headers: ['X-Seq', 'content-length'], declaredLength: 36});
	});

	it('an LF or CR LF right after the body belongs to the frame; the frame waits for that byte', () => {
		const framer = createFramer('stdout', {mode: 'protocol'});
		const outputs: FramerOutput[] = [];
		const emit = (o: FramerOutput): void => {
			outputs.push(o);
		};

		framer.push(
			{seq: 0, stream: 'stdout', tMs: 0, offset: 0, bytes: Buffer.from(`Content-Length: 36\r\n\r\n${BODY_1}`)},
			emit,
		);
		expect(outputs).toHaveLength(0);
		expect(framer.pendingBytes).toBe(58);
		framer.push({seq: 1, stream: 'stdout', tMs: 5, offset: 58, bytes: Buffer.from('\r')}, emit);
		expect(outputs).toHaveLength(0);
		framer.push({seq: 2, stream: 'stdout', tMs: 9, offset: 59, bytes: Buffer.from(`\n${BODY_2}\n`)}, emit);
		expect(
			outputs.map((o) => [
				o.frame.framing,
				o.frame.offset,
				o.frame.byteLength,
				o.frame.bodyLength,
				o.frame.terminator,
				o.frame.lineCount,
				o.frame.lastSeq,
				o.frame.tMs,
			]),
		).toEqual([
			['content-length', 0, 60, 36, 'length', 3, 2, 9],
			['newline', 60, 37, 36, 'lf', 1, 2, 9],
		]);
		expect(framer.pendingBytes).toBe(0);
	});

	it('a CR after the body that is not followed by LF starts the next frame', () => {
		const {outputs} = runFramer(`Content-Length: 36\r\n\r\n${BODY_1}\rX\n`);
		expect(outputs.map((o) => [o.frame.offset, o.frame.byteLength, o.frame.text])).toEqual([
			[0, 58, undefined],
			[58, 3, '\rX'],
		]);
		expect(outputs[1]!.findings.map((f) => [f.code, f.detail?.['kind']])).toEqual([['stray-output', 'progress']]);
	});

	it('a length counted in characters instead of bytes: the body is found by scanning; lengthMatches false', () => {
		const body = '{"t":"€€€"}'; // 11 characters, 17 bytes
		const {outputs} = runFramer(`Content-Length: 11\r\n\r\n${body}{"next":1}\n`);
		expect(
			outputs.map((o) => [o.frame.framing, o.frame.offset, o.frame.byteLength, o.frame.bodyLength, o.frame.isJson]),
		).toEqual([
			['content-length', 0, 39, 17, true],
			['newline', 39, 11, 10, true],
		]);
		expect(outputs[0]!.findings[0]!.detail).toMatchObject({
			declaredLength: 11,
			bodyLength: 17,
			lengthMatches: false,
			bodyEnd: 'json',
		});
	});

	it('a declared length longer than the body does not swallow the next frame', () => {
		const {outputs} = runFramer(`Content-Length: 99\r\n\r\n${BODY_1}Content-Length: 36\r\n\r\n${BODY_2}`);
		expect(outputs.map((o) => [o.frame.offset, o.frame.byteLength, o.frame.isJson])).toEqual([
			[0, 58, true],
			[58, 58, true],
		]);
		expect(outputs[0]!.findings[0]!.detail).toMatchObject({declaredLength: 99, bodyLength: 36, lengthMatches: false});
	});

	it('a non-numeric length: declaredLength null, body found by scanning', () => {
		const {outputs} = runFramer(`Content-Length: abc\r\n\r\n${BODY_1}`);
		expect(outputs[0]!.frame).toMatchObject({byteLength: 59, bodyLength: 36, isJson: true});
		expect(outputs[0]!.findings[0]!.detail).toMatchObject({declaredLength: null, bodyLength: 36, lengthMatches: false});
	});

	it('a header block not followed by a JSON value is framed alone (bodyEnd missing); the rest is read as lines', () => {
		const {outputs} = runFramer('Content-Length: 5\r\n\r\nhello\n');
		expect(
			outputs.map((o) => [
				o.frame.framing,
				o.frame.offset,
				o.frame.byteLength,
				o.frame.bodyLength,
				o.frame.isJson,
				o.frame.text,
			]),
		).toEqual([
			['content-length', 0, 21, 0, false, 'Content-Length: 5\r\n\r\n'],
			['newline', 21, 6, 5, false, 'hello'],
		]);
		expect(outputs[0]!.findings[0]!.detail).toMatchObject({declaredLength: 5, bodyLength: 0, bodyEnd: 'missing'});
		expect(codesAt(outputs[1]!.findings)).toEqual([['stray-output', 21]]);
	});

	it('a body cut at end of stream: one frame with terminator none, the missing byte count, and no missing-newline', () => {
		const {outputs} = runFramer('Content-Length: 36\r\n\r\n{"jsonrpc":"2.0",');
		expect(outputs).toHaveLength(1);
		expect(outputs[0]!.frame).toMatchObject({
			framing: 'content-length',
			byteLength: 39,
			bodyLength: 17,
			terminator: 'none',
			isJson: false,
			tMs: 1000,
		});
		expect(outputs[0]!.findings).toEqual([
			{
				code: 'content-length-framing',
				stream: 'stdout',
				offset: 0,
				byteLength: 22,
				tMs: 1000,
				detail: {
					declaredLength: 36,
					bodyLength: 17,
					lengthMatches: false,
					bodyEnd: 'eof',
					missingBytes: 19,
					hasContentType: false,
					lineEndings: 'crlf',
					headers: ['Content-Length'],
					clientError: `Unexpected token 'C', "Content-Length: 36" is not valid JSON`,
				},
			},
		]);
	});

	it('a header block whose body never starts: all declared bytes are missing', () => {
		const {outputs} = runFramer('Content-Length: 120\n\n');
		expect(outputs).toHaveLength(1);
		expect(
			outputs[0]!.findings.map((f) => [f.code, f.offset, f.detail?.['bodyEnd'], f.detail?.['missingBytes']]),
		).toEqual([['content-length-framing', 0, 'eof', 120]]);
	});

	it('a body that never closes falls back to the declared length at the scan limit; the rest is read as lines', () => {
		// SMALL_LIMITS: scan limit max(3 × 4 + 8, 24) = 24 bytes.
		const {outputs} = runFramer(`Content-Length: 4\r\n\r\n{"a": "open and never closed\n{"b":1}\n`, {
			limits: SMALL_LIMITS,
		});
		expect(
			outputs.map((o) => [o.frame.framing, o.frame.offset, o.frame.byteLength, o.frame.bodyLength, o.frame.isJson]),
		).toEqual([
			['content-length', 0, 25, 4, false],
			['newline', 25, 25, 24, false],
			['newline', 50, 8, 7, true],
		]);
		expect(outputs[0]!.findings[0]!.detail).toMatchObject({declaredLength: 4, bodyLength: 4, bodyEnd: 'declared'});
	});

	it('at end of stream a body longer than declared and still open is cut at the declared length', () => {
		const {outputs} = runFramer('Content-Length: 3\r\n\r\n{"a": [1, 2');
		expect(outputs.map((o) => [o.frame.framing, o.frame.offset, o.frame.byteLength, o.frame.terminator])).toEqual([
			['content-length', 0, 24, 'length'],
			['newline', 24, 8, 'none'],
		]);
	});
});

describe('header-shaped lines that are not a Content-Length block', () => {
	it('a header-shaped log line followed by a message is a stray line', () => {
		const {outputs} = runFramer('Error: boom\n{"a":1}\n');
		expect(outputs.map((o) => [o.frame.framing, o.frame.offset, o.frame.byteLength, o.frame.isJson])).toEqual([
			['newline', 0, 12, false],
			['newline', 12, 8, true],
		]);
		expect(outputs[0]!.findings.map((f) => [f.code, f.detail?.['kind']])).toEqual([['stray-output', 'log']]);
	});

	it('a header block without Content-Length is released line by line', () => {
		const {outputs} = runFramer(`Content-Type: application/json\r\n\r\n${BODY_1}\n`);
		expect(outputs.map((o) => [o.frame.offset, o.frame.byteLength, o.frame.isBlank, o.frame.isJson])).toEqual([
			[0, 32, false, false],
			[32, 2, true, false],
			[34, 37, false, true],
		]);
	});

	it('F11: a two-line .NET console log entry', () => {
		const {outputs} = runFramer(
			'info: Microsoft.Hosting.Lifetime[14]\n      Now listening on: http://localhost:5000\n',
		);
		expect(outputs.map((o) => [o.frame.offset, o.frame.byteLength, o.findings[0]?.detail?.['kind']])).toEqual([
			[0, 37, 'log'],
			[37, 46, 'banner'],
		]);
	});

	it('a header line at end of stream is a stray line (with missing-newline when unterminated)', () => {
		expect(codesAt(runFramer('Content-Length: 36\r\n').findings)).toEqual([['stray-output', 0]]);
		expect(codesAt(runFramer('Content-Length: 36').findings)).toEqual([
			['stray-output', 0],
			['missing-newline', 0],
		]);
	});

	it('a BOM before the header block is reported with the block', () => {
		const {outputs} = runFramer(bytes([0xef, 0xbb, 0xbf], `Content-Length: 36\r\n\r\n${BODY_1}`));
		expect(outputs[0]!.frame).toMatchObject({framing: 'content-length', byteLength: 61, bodyOffset: 25});
		expect(codesAt(outputs[0]!.findings)).toEqual([
			['content-length-framing', 3],
			['bom', 0],
		]);
	});
});
