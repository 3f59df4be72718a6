import type {SessionEvent} from '../types.js';

/**
 * A session's listeners: those that take every event (`on`: renderers, captures, `--json`) and those
 * told only that something changed (`subscribe`: the TUI's store, which batches its redraws). Every event
 * goes to all of them, synchronously, in the order they were added; event listeners first.
 */
export class EventBus {
	private readonly listeners = new Set<(event: SessionEvent) => void>();
	private readonly storeListeners = new Set<() => void>();

	/** Listen to every event. Returns an unsubscribe function. */
	on(listener: (event: SessionEvent) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Be told after every event that the session changed. Returns an unsubscribe function. */
	subscribe(listener: () => void): () => void {
		this.storeListeners.add(listener);
		return () => this.storeListeners.delete(listener);
	}

	/** Hand `event` to every listener. */
	emit(event: SessionEvent): void {
		for (const listener of this.listeners) listener(event);
		for (const listener of this.storeListeners) listener();
	}
}
