/**
 * A session clock: a monotonic millisecond counter that reads 0 at the session start, plus the wall
 * clock at that instant. Times come from `process.hrtime.bigint()` (monotonic, nanosecond resolution,
 * never jumps with NTP or DST), so `tMs` values of one session are comparable with each other (style.md
 * §1.6 units).
 */
export interface Clock {
	/** ISO-8601 wall clock at `now() === 0` (the `startedAt` of the session header). */
	readonly startedAt: string;
	/** Milliseconds since the clock started (fractional, sub-millisecond precision). */
	now(): number;
}

/**
 * Milliseconds on a monotonic clock with an arbitrary origin (fractional): `process.hrtime.bigint()` in ms.
 * Differences of two readings are what count; the origin is not the process start (unlike `performance.now()`).
 */
export function monotonicMs(): number {
	return Number(process.hrtime.bigint()) / 1e6;
}

/**
 * Start a clock now.
 * @returns a {@link Clock} whose `now()` is 0 at this call; never throws
 */
export function createClock(): Clock {
	const origin = process.hrtime.bigint();
	const startedAt = new Date().toISOString();
	return {startedAt, now: () => Number(process.hrtime.bigint() - origin) / 1e6};
}
