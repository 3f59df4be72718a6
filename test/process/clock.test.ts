import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {createClock, isoTime} from '../../src/process/clock.js';

describe('isoTime', () => {
	it('is Date#toISOString for whole epoch milliseconds of years 0 to 9999', () => {
		for (const ms of [
			0, -1, 1, 951_782_400_000 /* 2000-02-29 */, 4_107_542_399_999 /* 2100-02-28T23:59:59.999 */,
			-62_167_219_200_000 /* 0000-01-01 */, 253_402_300_799_999 /* 9999-12-31T23:59:59.999 */,
		]) {
			expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
		}
		fc.assert(
			fc.property(fc.integer({min: -62_167_219_200_000, max: 253_402_300_799_999}), (ms) => {
				expect(isoTime(ms)).toBe(new Date(ms).toISOString());
			}),
			{numRuns: 2000},
		);
	});
});

describe('createClock', () => {
	it('reads 0 at its start and counts monotonic milliseconds; startedAt is the wall clock then, in UTC', async () => {
		const before = Date.now();
		const clock = createClock();
		const after = Date.now();
		const started = Date.parse(clock.startedAt);
		expect(clock.startedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
		expect(started).toBeGreaterThanOrEqual(before);
		expect(started).toBeLessThanOrEqual(after);
		const first = clock.now();
		expect(first).toBeGreaterThanOrEqual(0);
		expect(first).toBeLessThan(1000);
		await new Promise((resolve) => setTimeout(resolve, 20));
		const second = clock.now();
		// Timers may fire a little early by the monotonic clock, never 5 ms early.
		expect(second - first).toBeGreaterThan(15);
		expect(clock.now()).toBeGreaterThanOrEqual(second);
	});
});
