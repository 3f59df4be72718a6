import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {chunkHead, jsonNumber} from '../../../src/core/capture/record-encode.js';

// jsonNumber writes integers as template strings and anything else with JSON.stringify; its reference is
// JSON.stringify of the number (docs/performance.md#replay).

const number = fc.oneof(
	fc.double(),
	fc.integer(),
	fc.integer({min: 0, max: 100_000_000}).map((n) => n / 1000),
	fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e21, 2 ** 53 + 2, 1e-7),
);

describe('jsonNumber', () => {
	it('is JSON.stringify of the number, for any number (property)', () => {
		fc.assert(
			fc.property(number, (value) => {
				expect(jsonNumber(value)).toBe(JSON.stringify(value));
			}),
			{numRuns: 5000},
		);
	});

	it('writes times, integers and what JSON has no number for as JSON.stringify does', () => {
		expect(
			[10.857_164_999_999_98, 0.049_999_999_999_997_16, -0, 7, 1e21, Number.NaN, -Infinity].map(jsonNumber),
		).toEqual(['10.85716499999998', '0.04999999999999716', '0', '7', '1e+21', 'null', 'null']);
	});

	it('gives a chunk record the same head as JSON.stringify of its fields', () => {
		const chunk = {
			seq: 3,
			stream: 'stdout' as const,
			tMs: 52.149_999_999_999_174,
			offset: -0,
			bytes: new Uint8Array(5),
		};
		const record = JSON.stringify({type: 'chunk', seq: 3, stream: 'stdout', tMs: chunk.tMs, offset: 0, length: 5});
		expect(`${chunkHead(chunk)}}`).toBe(record);
	});
});
