import {performance} from 'node:perf_hooks';

/**
 * A session clock: a monotonic millisecond counter that reads 0 at the session start, plus the wall
 * clock at that instant. Times come from `performance.now()` (monotonic, sub-millisecond, never jumps
 * with NTP or DST), so `tMs` values of one session are comparable with each other (style.md §1.6 units).
 */
export interface Clock {
	/** ISO-8601 wall clock at `now() === 0` (the `startedAt` of the session header). */
	readonly startedAt: string;
	/** Milliseconds since the clock started (fractional, sub-millisecond precision). */
	now(): number;
}

/**
 * Start a clock now.
 * @returns a {@link Clock} whose `now()` is 0 at this call; never throws
 */
export function createClock(): Clock {
	const origin = performance.now();
	const startedAt = new Date().toISOString();
	return {startedAt, now: () => performance.now() - origin};
}
