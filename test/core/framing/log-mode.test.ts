import {describe, expect, it} from 'vitest';
import {createFramer} from '../../../src/core/framing/index.js';
import {bytes, runFramer} from './framer-harness.js';

describe('log mode (stderr, R7)', () => {
	it('splits lines into text frames with no findings, keeping CR LF, BOM and escape sequences', () => {
		const data = bytes('Server started\r\n', [0xef, 0xbb, 0xbf], '{"jsonrpc":"2.0"}\n\n\u001B[31merror\u001B[0m\ntail');
		const {outputs} = runFramer(data, {mode: 'log', stream: 'stderr', cuts: [3, 17, 30]});
		expect(outputs.map((o) => o.findings)).toEqual([[], [], [], [], []]);
		expect(outputs.map((o) => o.frame)).toEqual([
			{
				stream: 'stderr',
				framing: 'newline',
				offset: 0,
				byteLength: 16,
				bodyOffset: 0,
				bodyLength: 14,
				terminator: 'crlf',
				lineCount: 1,
				tMs: 10,
				firstTMs: 0,
				firstSeq: 0,
				lastSeq: 1,
				isJson: false,
				isBlank: false,
				text: 'Server started',
			},
			{
				stream: 'stderr',
				framing: 'newline',
				offset: 16,
				byteLength: 21,
				bodyOffset: 16,
				bodyLength: 20,
				terminator: 'lf',
				lineCount: 1,
				tMs: 30,
				firstTMs: 10,
				firstSeq: 1,
				lastSeq: 3,
				isJson: false,
				isBlank: false,
				text: '\uFEFF{"jsonrpc":"2.0"}',
			},
			{
				stream: 'stderr',
				framing: 'newline',
				offset: 37,
				byteLength: 1,
				bodyOffset: 37,
				bodyLength: 0,
				terminator: 'lf',
				lineCount: 1,
				tMs: 30,
				firstTMs: 30,
				firstSeq: 3,
				lastSeq: 3,
				isJson: false,
				isBlank: true,
			},
			{
				stream: 'stderr',
				framing: 'newline',
				offset: 38,
				byteLength: 15,
				bodyOffset: 38,
				bodyLength: 14,
				terminator: 'lf',
				lineCount: 1,
				tMs: 30,
				firstTMs: 30,
				firstSeq: 3,
				lastSeq: 3,
				isJson: false,
				isBlank: false,
				text: '\u001B[31merror\u001B[0m',
			},
			{
				stream: 'stderr',
				framing: 'newline',
				offset: 53,
				byteLength: 4,
				bodyOffset: 53,
				bodyLength: 4,
				terminator: 'none',
				lineCount: 1,
				tMs: 1000,
				firstTMs: 30,
				firstSeq: 3,
				lastSeq: 3,
				isJson: false,
				isBlank: false,
				text: 'tail',
			},
		]);
	});

	it('decodes invalid UTF-8 with U+FFFD and reports nothing', () => {
		const {outputs} = runFramer(bytes('caf', [0xe9], '\n'), {mode: 'log', stream: 'stderr'});
		expect(outputs).toEqual([
			{
				frame: {
					stream: 'stderr',
					framing: 'newline',
					offset: 0,
					byteLength: 5,
					bodyOffset: 0,
					bodyLength: 4,
					terminator: 'lf',
					lineCount: 1,
					tMs: 0,
					firstTMs: 0,
					firstSeq: 0,
					lastSeq: 0,
					isJson: false,
					isBlank: false,
					text: 'caf\uFFFD',
				},
				findings: [],
			},
		]);
	});

	it('throws RangeError on a gap', () => {
		const framer = createFramer('stderr', {mode: 'log'});
		framer.push({seq: 0, stream: 'stderr', tMs: 0, offset: 0, bytes: bytes('ab')}, () => {});
		expect(() => framer.push({seq: 1, stream: 'stderr', tMs: 0, offset: 5, bytes: bytes('c')}, () => {})).toThrow(
			RangeError,
		);
		expect(framer.pendingBytes).toBe(2);
		expect(framer.pendingOffset).toBe(0);
	});
});
