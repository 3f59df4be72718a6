import {useMemo, useSyncExternalStore} from 'react';
import type {
	TableSnapshot as SessionSnapshot,
	TableStore as SessionStore,
} from '../../../core/session/stores/frame-table.js';

/**
 * The session as an external store for React, batched (style.md §1.3 "Data into React"; gemini's
 * `useConsoleMessages`): a live session notifies after every chunk, but the TUI takes a new snapshot at
 * most once per `intervalMs` (default 50 ms), so React never re-renders per chunk and the snapshot's
 * arrays are copied once per batch, not once per chunk.
 */

/** A store that republishes another store's snapshot at most once per interval. */
export interface BatchedStore {
	subscribe(listener: () => void): () => void;
	getSnapshot(): SessionSnapshot;
}

/** Timer functions (injectable for tests with fake timers). */
export interface Timers {
	setTimeout(callback: () => void, ms: number): unknown;
	clearTimeout(handle: unknown): void;
}

const REAL_TIMERS: Timers = {
	setTimeout: (callback, ms) => setTimeout(callback, ms),
	clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Wraps a {@link SessionStore}: the first change after a quiet period starts a timer of `intervalMs`;
 * when it fires, the wrapped store's snapshot is taken once and every listener is called once.
 * Changes during the wait join that batch. With no listener the source is not subscribed.
 * @param store the session (live or replayed).
 * @param intervalMs the batch window in ms (default 50).
 */
export function createBatchedStore(store: SessionStore, intervalMs = 50, timers: Timers = REAL_TIMERS): BatchedStore {
	let published = store.getSnapshot();
	let handle: unknown;
	let isPending = false;
	const listeners = new Set<() => void>();
	let unsubscribeSource: (() => void) | undefined;

	const flush = (): void => {
		isPending = false;
		handle = undefined;
		const next = store.getSnapshot();
		if (next === published) {
			return;
		}

		published = next;
		for (const listener of listeners) {
			listener();
		}
	};

	const onSourceChange = (): void => {
		if (isPending) {
			return;
		}

		isPending = true;
		handle = timers.setTimeout(flush, intervalMs);
	};

	return {
		subscribe(listener) {
			listeners.add(listener);
			if (!unsubscribeSource) {
				unsubscribeSource = store.subscribe(onSourceChange);
				// Changes between the first getSnapshot and this subscription are picked up at once.
				onSourceChange();
			}

			return () => {
				listeners.delete(listener);
				if (listeners.size === 0 && unsubscribeSource) {
					unsubscribeSource();
					unsubscribeSource = undefined;
					if (isPending) {
						timers.clearTimeout(handle);
						isPending = false;
					}
				}
			};
		},
		getSnapshot: () => published,
	};
}

/**
 * The current session snapshot, refreshed at most every `intervalMs` ms (default 50).
 * @param store the session store; a new store (after a re-run) starts a new subscription.
 */
export function useSession(store: SessionStore, intervalMs = 50): SessionSnapshot {
	const batched = useMemo(() => createBatchedStore(store, intervalMs), [store, intervalMs]);
	const snapshot = useSyncExternalStore(batched.subscribe, batched.getSnapshot, batched.getSnapshot);
	return snapshot;
}
