import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {frameLine, frameLinePlain} from '../../../src/core/capture/record-encode.js';
import type {Frame} from '../../../src/core/types.js';
import {makeFrame} from '../../helpers/factories.js';

// frameLine writes a frame record's line directly; frameLinePlain (toLine of the record object) is the
// reference it must match byte for byte (docs/performance.md#replay).

const count = fc.oneof(fc.nat({max: 1_000_000}), fc.integer(), fc.constantFrom(-0, 2 ** 53, 1e21));
const ms = fc.oneof(
	fc.integer({min: 0, max: 100_000_000}).map((n) => n / 1000),
	fc.double(),
	fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 1e-7),
);
// Strings with the characters JSON and the record format escape: quotes, controls, U+2028, lone surrogates.
const text = fc.oneof(
	fc.string({unit: 'binary', maxLength: 40}),
	fc.constantFrom('"\\\n\r\t\u0000', '\u2028\u2029\u0085\ufeff', '\ud800x', 'naïve — ✓', ''),
);
const id = fc.oneof(text, count, ms, fc.constant(null));

const frame: fc.Arbitrary<Frame> = fc.record(
	{
		index: count,
		stream: fc.constantFrom('stdin' as const, 'stdout' as const, 'stderr' as const),
		framing: fc.constantFrom('newline' as const, 'content-length' as const),
		offset: count,
		byteLength: count,
		bodyOffset: count,
		bodyLength: count,
		terminator: fc.constantFrom('lf' as const, 'crlf' as const, 'none' as const, 'length' as const),
		lineCount: count,
		tMs: ms,
		firstTMs: ms,
		firstSeq: count,
		lastSeq: count,
		kind: fc.constantFrom(
			'request' as const,
			'notification' as const,
			'response' as const,
			'error' as const,
			'json' as const,
			'text' as const,
			'blank' as const,
		),
		message: fc.oneof(
			fc.jsonValue(),
			fc.jsonValue().map((value) => ({jsonrpc: '2.0', id: 1, result: value})),
		),
		method: text,
		id,
		rawId: text,
		answers: fc.record({method: text, requestIndex: count, latencyMs: ms}),
		text,
	},
	{
		requiredKeys: [
			'index',
			'stream',
			'framing',
			'offset',
			'byteLength',
			'bodyOffset',
			'bodyLength',
			'terminator',
			'lineCount',
			'tMs',
			'firstTMs',
			'firstSeq',
			'lastSeq',
			'kind',
		],
	},
);

describe('frameLine (a frame record written directly)', () => {
	it('is frameLinePlain byte for byte (property)', () => {
		fc.assert(
			fc.property(frame, (value) => {
				expect(frameLine(value)).toBe(frameLinePlain(value));
			}),
			{numRuns: 2000},
		);
	});

	it('leaves out fields that are undefined, as the session builds frames (every field present)', () => {
		const value = {
			...makeFrame({index: 7, kind: 'text', text: 'hi\u2028'}),
			message: undefined,
			method: undefined,
			id: undefined,
			answers: undefined,
		};
		expect(frameLine(value)).toBe(
			'{"type":"frame","index":7,"stream":"stdout","framing":"newline","offset":0,"byteLength":1,"bodyOffset":0,"bodyLength":0,"terminator":"lf","lineCount":1,"tMs":0,"firstTMs":0,"firstSeq":0,"lastSeq":0,"kind":"text","text":"hi\\u2028"}',
		);
		expect(frameLine(value)).toBe(frameLinePlain(value));
	});

	it('writes a response with its answers and id as the record format says', () => {
		const value = makeFrame({
			index: 1,
			kind: 'response',
			message: {jsonrpc: '2.0', id: 0, result: {}},
			id: 0,
			answers: {method: 'initialize', requestIndex: 0, latencyMs: 1.5},
		});
		expect(frameLine(value)).toBe(
			'{"type":"frame","index":1,"stream":"stdout","framing":"newline","offset":0,"byteLength":1,"bodyOffset":0,"bodyLength":0,"terminator":"lf","lineCount":1,"tMs":0,"firstTMs":0,"firstSeq":0,"lastSeq":0,"kind":"response","message":{"jsonrpc":"2.0","id":0,"result":{}},"id":0,"answers":{"method":"initialize","requestIndex":0,"latencyMs":1.5}}',
		);
	});
});
