/**
 * A session clock: a monotonic millisecond counter that reads 0 at the session start, plus the wall
 * clock at that instant. Times come from `process.hrtime.bigint()` (monotonic, nanosecond resolution,
 * never jumps with NTP or DST), so `tMs` values of one session are comparable with each other (style.md
 * §1.6 units). Not `performance.now()`, the same clock: in Node 20 the first use of `performance` (global
 * or from `node:perf_hooks`) loads ~10 of Node's own modules (histograms, event-loop delay, timerify), which
 * every probe paid at start-up (issue 12: a probe as fast as a bare client).
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
	const startedAt = isoTime(Date.now());
	return {startedAt, now: () => Number(process.hrtime.bigint() - origin) / 1e6};
}

/**
 * `new Date(ms).toISOString()` for the epoch milliseconds `ms` (whole, years 0–9999): `YYYY-MM-DDTHH:mm:ss.sssZ`
 * in UTC, by arithmetic. The first `toISOString()` of a process sets up V8's date cache with the local
 * time zone (ICU), ~1 ms of every probe's start-up on this machine, for a string that is UTC anyway.
 * Days to a civil date: Howard Hinnant's `civil_from_days` (proleptic Gregorian calendar, as `Date`).
 */
export function isoTime(ms: number): string {
	const days = Math.floor(ms / 86_400_000);
	const inDay = ms - days * 86_400_000;
	const z = days + 719_468;
	const era = Math.floor(z / 146_097);
	const dayOfEra = z - era * 146_097;
	const yearOfEra = Math.floor(
		(dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
	);
	const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
	const mp = Math.floor((5 * dayOfYear + 2) / 153);
	const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
	const month = mp < 10 ? mp + 3 : mp - 9;
	const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
	const pad = (value: number, width: number): string => String(value).padStart(width, '0');
	const hours = Math.floor(inDay / 3_600_000);
	const minutes = Math.floor(inDay / 60_000) % 60;
	const seconds = Math.floor(inDay / 1000) % 60;
	return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(inDay % 1000, 3)}Z`;
}
