import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {createBatchedStore} from '../../../../src/render/tui/hooks/use-session.js';
import {exchangeSession, pingPair} from '../exchange.js';

describe('batched session store', () => {
	beforeEach(() => {
		vi.useFakeTimers();
	});

	afterEach(() => {
		vi.useRealTimers();
	});

	it('publishes one snapshot per 50 ms batch, however many chunks arrive', () => {
		const session = exchangeSession();
		const store = createBatchedStore(session, 50);
		const first = store.getSnapshot();
		expect(first.frames.length).toBe(8);
		const listener = vi.fn();
		const unsubscribe = store.subscribe(listener);
		// Subscribing schedules a catch-up batch; nothing changed, so nobody is called.
		vi.advanceTimersByTime(50);
		expect(listener).toHaveBeenCalledTimes(0);

		for (let n = 0; n < 10; n++) {
			const {request, response} = pingPair(n);
			session.pushChunk('stdin', 100 + n, request);
			session.pushChunk('stdout', 101 + n, response);
		}

		// 20 chunks, 40 session events: still the old snapshot until the batch fires.
		expect(store.getSnapshot()).toBe(first);
		vi.advanceTimersByTime(49);
		expect(listener).toHaveBeenCalledTimes(0);
		vi.advanceTimersByTime(1);
		expect(listener).toHaveBeenCalledTimes(1);
		expect(store.getSnapshot().frames.length).toBe(28);
		// The snapshot is stable between batches (useSyncExternalStore requires it).
		expect(store.getSnapshot()).toBe(store.getSnapshot());

		session.pushChunk('stderr', 200, new TextEncoder().encode('late\n'));
		vi.advanceTimersByTime(50);
		expect(listener).toHaveBeenCalledTimes(2);
		expect(store.getSnapshot().frames.length).toBe(29);

		unsubscribe();
		session.pushChunk('stderr', 201, new TextEncoder().encode('after\n'));
		vi.advanceTimersByTime(100);
		expect(listener).toHaveBeenCalledTimes(2);
	});
});
