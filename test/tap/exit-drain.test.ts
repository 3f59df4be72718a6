import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {
	EXIT_CHECK_MS,
	EXIT_DRAIN_LIMIT_MS,
	EXIT_QUIET_MS,
	watchExitDrain,
	type DrainSource,
} from '../../src/tap/exit-drain.js';
import type {OutputStream} from '../../src/process/spawn.js';

/** A pipe whose state the test sets. */
function pipe(stream: OutputStream) {
	const state = {ended: false, held: false, bytes: 0};
	const source: DrainSource = {
		stream,
		isEnded: () => state.ended,
		isHeld: () => state.held,
		bytesRead: () => state.bytes,
	};
	return {state, source};
}

describe('watchExitDrain (after the server exited, how long its output pipes are read)', () => {
	beforeEach(() => {
		vi.useFakeTimers();
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	function start(sources: DrainSource[]) {
		const givenUp: {at: number; open: readonly OutputStream[]}[] = [];
		const watch = watchExitDrain({
			sources,
			now: () => Date.now(),
			onGiveUp: (open) => givenUp.push({at: Date.now(), open}),
		});
		return {watch, givenUp, startedAt: Date.now()};
	}

	it('gives up pipes that stay quiet for EXIT_QUIET_MS, naming the open ones', () => {
		const out = pipe('stdout');
		const err = pipe('stderr');
		const run = start([out.source, err.source]);
		vi.advanceTimersByTime(EXIT_QUIET_MS - EXIT_CHECK_MS);
		expect(run.givenUp).toEqual([]);
		vi.advanceTimersByTime(EXIT_CHECK_MS);
		expect(run.givenUp).toEqual([{at: run.startedAt + EXIT_QUIET_MS, open: ['stdout', 'stderr']}]);
		vi.advanceTimersByTime(10 * EXIT_QUIET_MS);
		expect(run.givenUp).toHaveLength(1);
	});

	it('names only the pipe still open; calls nothing when every pipe ends by itself', () => {
		const out = pipe('stdout');
		const err = pipe('stderr');
		err.state.ended = true;
		const run = start([out.source, err.source]);
		vi.advanceTimersByTime(EXIT_QUIET_MS);
		expect(run.givenUp.map((g) => g.open)).toEqual([['stdout']]);

		const a = pipe('stdout');
		const other = start([a.source]);
		vi.advanceTimersByTime(EXIT_CHECK_MS);
		a.state.ended = true;
		vi.advanceTimersByTime(EXIT_DRAIN_LIMIT_MS * 2);
		expect(other.givenUp).toEqual([]);
	});

	it('keeps reading while bytes still come, until they stop for EXIT_QUIET_MS', () => {
		const out = pipe('stdout');
		const run = start([out.source]);
		for (let i = 0; i < 10; i++) {
			out.state.bytes += 4096;
			vi.advanceTimersByTime(EXIT_CHECK_MS);
		}
		expect(run.givenUp).toEqual([]);
		// The last bytes were seen at the check at 1000 ms: quiet from then on.
		vi.advanceTimersByTime(EXIT_QUIET_MS);
		expect(run.givenUp).toEqual([{at: run.startedAt + 10 * EXIT_CHECK_MS + EXIT_QUIET_MS, open: ['stdout']}]);
	});

	it('gives up a pipe that never stops (a helper that keeps writing) at EXIT_DRAIN_LIMIT_MS', () => {
		const out = pipe('stdout');
		const run = start([out.source]);
		const timer = setInterval(() => (out.state.bytes += 1), 10);
		vi.advanceTimersByTime(EXIT_DRAIN_LIMIT_MS - EXIT_CHECK_MS);
		expect(run.givenUp).toEqual([]);
		vi.advanceTimersByTime(EXIT_CHECK_MS);
		clearInterval(timer);
		expect(run.givenUp).toEqual([{at: run.startedAt + EXIT_DRAIN_LIMIT_MS, open: ['stdout']}]);
	});

	it('never gives up a pipe while the client holds it back (its bytes are on their way), then waits for quiet again', () => {
		const out = pipe('stdout');
		out.state.held = true;
		const run = start([out.source]);
		vi.advanceTimersByTime(EXIT_DRAIN_LIMIT_MS * 3);
		expect(run.givenUp).toEqual([]);
		out.state.held = false;
		const releasedAt = Date.now();
		vi.advanceTimersByTime(2 * EXIT_CHECK_MS);
		expect(run.givenUp).toEqual([]);
		// Past the limit, the third check in a row that finds it not held gives it up.
		vi.advanceTimersByTime(EXIT_CHECK_MS);
		expect(run.givenUp).toEqual([{at: releasedAt + 3 * EXIT_CHECK_MS, open: ['stdout']}]);
	});

	it('a tap kept off the CPU does not take its own stall for quiet: it needs several checks in a row', () => {
		const out = pipe('stdout');
		const run = start([out.source]);
		// One late check after a long stall: the pipe may not have been read meanwhile.
		vi.setSystemTime(Date.now() + 2 * EXIT_QUIET_MS);
		vi.advanceTimersByTime(EXIT_CHECK_MS);
		expect(run.givenUp).toEqual([]);
		vi.advanceTimersByTime(EXIT_CHECK_MS);
		expect(run.givenUp).toEqual([]);
		vi.advanceTimersByTime(EXIT_CHECK_MS);
		expect(run.givenUp.map((g) => g.open)).toEqual([['stdout']]);
	});

	it('stop() ends the watch', () => {
		const out = pipe('stdout');
		const run = start([out.source]);
		run.watch.stop();
		vi.advanceTimersByTime(EXIT_DRAIN_LIMIT_MS * 2);
		expect(run.givenUp).toEqual([]);
	});
});
