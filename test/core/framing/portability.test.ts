import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {jsonParseError} from '../../../src/core/framing/byte-facts.js';
import {
	hasLongDigitRun,
	mayBeNonPortable,
	nonFiniteProblems,
	parseNonFinite,
} from '../../../src/core/framing/portability.js';

/** The plain reference of {@link hasLongDigitRun} (docs/performance.md#replay). */
const LONG_DIGITS = /\d{16}/;

describe('hasLongDigitRun: 16 digits in a row (the non-portable gate, J3)', () => {
	it('finds a run of 16 wherever it lies, and not 15', () => {
		expect(hasLongDigitRun('1234567890123456')).toBe(true);
		expect(hasLongDigitRun('123456789012345')).toBe(false);
		expect(hasLongDigitRun('{"id":9007199254740993}')).toBe(true);
		expect(hasLongDigitRun('{"a":123456789012345,"b":123456789012345}')).toBe(false);
		// A run that crosses a probed index (15, 31) at its first or its last digit.
		expect(hasLongDigitRun('x'.repeat(15) + '1'.repeat(16))).toBe(true);
		expect(hasLongDigitRun('x'.repeat(16) + '1'.repeat(16))).toBe(true);
		expect(hasLongDigitRun('x'.repeat(17) + '1'.repeat(15) + 'x')).toBe(false);
		expect(hasLongDigitRun('')).toBe(false);
		// Only ASCII digits count, as for `\d` without the `u` flag.
		expect(hasLongDigitRun('١'.repeat(20))).toBe(false);
	});

	it('answers as /\\d{16}/ does for any text', () => {
		// Runs of digits around 16 long between other characters (`٣` is a digit only to Unicode).
		const run = fc.tuple(fc.integer({min: 0, max: 18}), fc.constantFrom('"', ',', '.', 'a', '٣', ' '));
		const text = fc
			.tuple(fc.string({maxLength: 20}), fc.array(run, {maxLength: 12}))
			.map(([head, runs]) => head + runs.map(([length, other]) => '7'.repeat(length) + other).join(''));
		fc.assert(
			fc.property(text, (t) => {
				expect(hasLongDigitRun(t)).toBe(LONG_DIGITS.test(t));
			}),
			{numRuns: 5000},
		);
	});

	it('gates with a \\u escape too', () => {
		expect(mayBeNonPortable('{"a":"\\ud800"}')).toBe(true);
		expect(mayBeNonPortable('{"a":"x","id":1}')).toBe(false);
	});
});

describe('parseNonFinite: NaN / Infinity tokens read as the Python SDK reads them (R26, cold path)', () => {
	it('finds each token outside strings, at its stream byte, and reads the values', () => {
		const text = '{"a":NaN,"é":"NaN Infinity","b":[Infinity,-Infinity]}';
		const error = jsonParseError(text)!;
		expect(error).toMatch(/^Unexpected token 'N'/);
		const read = parseNonFinite(text, error, 1000);
		expect(read?.tokens).toEqual([
			{reason: 'non-finite', at: 1005, length: 3, token: 'NaN'},
			// "é" is two bytes: the later tokens are one byte further than their UTF-16 index.
			{reason: 'non-finite', at: 1000 + 34, length: 8, token: 'Infinity'},
			{reason: 'non-finite', at: 1000 + 43, length: 9, token: '-Infinity'},
		]);
		expect(read?.value).toEqual({a: Number.NaN, é: 'NaN Infinity', b: [Infinity, -Infinity]});
	});

	it('a -Infinity first is gated by V8\'s "No number after minus sign"', () => {
		const text = '{"m":-Infinity}';
		expect(jsonParseError(text)).toMatch(/^No number after minus sign/);
		expect(parseNonFinite(text, jsonParseError(text)!, 0)?.tokens).toEqual([
			{reason: 'non-finite', at: 5, length: 9, token: '-Infinity'},
		]);
	});

	it('nothing for another parse error, or when the text has another fault besides the tokens', () => {
		expect(parseNonFinite('{"a":NaN,}', jsonParseError('{"a":NaN,}')!, 0)).toBeUndefined();
		expect(parseNonFinite('{"a":1,}', jsonParseError('{"a":1,}')!, 0)).toBeUndefined();
		// The gate is the error, not the text: a string holding "NaN" after a bad escape is not read.
		expect(parseNonFinite('{"a":"\\x NaN"}', jsonParseError('{"a":"\\x NaN"}')!, 0)).toBeUndefined();
		expect(nonFiniteProblems('{"a":"NaN","b":"\\"Infinity"}')).toEqual([]);
	});
});
