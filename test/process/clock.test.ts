import {describe, expect, it} from 'vitest';
import {createClock} from '../../src/process/clock.js';

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
