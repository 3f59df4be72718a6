import type {OutputStream} from '../process/spawn.js';

/**
 * After the server process exited, how long the tap keeps reading its stdout and stderr while a
 * process it left behind still holds them (docs/cli.md#tap). The bare server's exit reaches its
 * client at once, whoever still holds the pipes; the tap's exit is what the client sees, so the tap
 * must not wait for the pipes' EOF, which a background helper holding them (`cmd &`, a daemon that kept
 * its fds) can put off for as long as it lives. What the server wrote before it exited is still read
 * and forwarded: a pipe is given up only once nothing has come through it for {@link EXIT_QUIET_MS}
 * (over at least {@link EXIT_QUIET_TICKS} checks, so a tap kept off the CPU does not mistake its own
 * stall for a quiet pipe), or after {@link EXIT_DRAIN_LIMIT_MS} (a helper that keeps writing); in both
 * cases only once the client has not held reading back over as many checks in a row (a slow client
 * still taking the server's last bytes keeps them coming).
 */

/**
 * A pipe gone quiet this long after the server's exit is given up (ms): well past the few hundred ms a
 * wrapper's child may take to write its last stderr line after the wrapper exited (the line early-exit
 * quotes), short enough that the client sees the exit about when it would without the tap.
 */
export const EXIT_QUIET_MS = 1_000;
/** …and over at least this many checks in a row. */
export const EXIT_QUIET_TICKS = 3;
/** A pipe still carrying bytes this long after the server's exit is given up anyway (ms), unless the client holds it back. */
export const EXIT_DRAIN_LIMIT_MS = 5_000;
/** How often the pipes are looked at after the exit (ms). */
export const EXIT_CHECK_MS = 100;

/** One of the server's output pipes, as the drain watch sees it. */
export interface DrainSource {
	readonly stream: OutputStream;
	/** The pipe reached EOF (or was closed). */
	isEnded(): boolean;
	/** Reading is paused because the target (the client) or the capture holds it back. */
	isHeld(): boolean;
	/** Bytes read from the pipe so far (any counter that grows with each read). */
	bytesRead(): number;
}

/** Options of {@link watchExitDrain}. */
export interface ExitDrainOptions {
	readonly sources: readonly DrainSource[];
	/** Monotonic ms (the session clock). */
	readonly now: () => number;
	/**
	 * Called once, with the pipes still open, when every open pipe is to be given up; not called when
	 * they all ended by themselves first.
	 */
	readonly onGiveUp: (open: readonly OutputStream[]) => void;
	readonly quietMs?: number;
	readonly quietTicks?: number;
	readonly limitMs?: number;
	readonly checkMs?: number;
}

/**
 * Start watching the server's output pipes at its exit (call it from the exit handler). Checks every
 * {@link EXIT_CHECK_MS}; stops by itself once every pipe ended or was given up.
 * @returns `stop()`: end the watch early (the session ended otherwise); never throws
 */
export function watchExitDrain(options: ExitDrainOptions): {stop(): void} {
	const quietMs = options.quietMs ?? EXIT_QUIET_MS;
	const quietTicks = options.quietTicks ?? EXIT_QUIET_TICKS;
	const limitMs = options.limitMs ?? EXIT_DRAIN_LIMIT_MS;
	const exitAt = options.now();
	// Per pipe: bytes at the last check, since when (and over how many checks) no bytes came, and over
	// how many checks in a row the client has not held it back.
	const seen = options.sources.map((source) => ({source, bytes: source.bytesRead(), since: exitAt, ticks: 0, free: 0}));
	const timer = setInterval(check, options.checkMs ?? EXIT_CHECK_MS);
	timer.unref();
	function check(): void {
		const now = options.now();
		const open = seen.filter((s) => !s.source.isEnded());
		if (open.length === 0) {
			clearInterval(timer);
			return;
		}

		let isDue = true;
		for (const s of open) {
			const bytes = s.source.bytesRead();
			const isHeld = s.source.isHeld();
			s.free = isHeld ? 0 : s.free + 1;
			if (bytes !== s.bytes || isHeld) {
				s.bytes = bytes;
				s.since = now;
				s.ticks = 0;
			} else {
				s.ticks += 1;
			}

			const isQuiet = s.ticks >= quietTicks && now - s.since >= quietMs;
			if (s.free < quietTicks || !(isQuiet || now - exitAt >= limitMs)) isDue = false;
		}

		if (!isDue) return;
		clearInterval(timer);
		options.onGiveUp(open.map((s) => s.source.stream));
	}

	return {stop: () => clearInterval(timer)};
}
