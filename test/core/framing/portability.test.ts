import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {hasLongDigitRun, mayBeNonPortable} from '../../../src/core/framing/portability.js';

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
