// The session's event bus: every event to every listener, in order, event listeners before store listeners.
import {describe, expect, it} from 'vitest';
import {EventBus} from '../../../src/core/session/event-bus.js';
import type {SessionEvent} from '../../../src/core/types.js';

const exit = (tMs: number): SessionEvent => ({type: 'exit', exit: {code: 0, signal: null, tMs}});

describe('EventBus', () => {
	it('hands each event to the event listeners in the order added, then tells the store listeners', () => {
		const bus = new EventBus();
		const seen: string[] = [];
		bus.subscribe(() => seen.push('store'));
		bus.on((e) => seen.push(`a ${e.type}`));
		bus.on((e) => seen.push(`b ${e.type}`));
		bus.emit(exit(1));
		bus.emit({type: 'mark', mark: {type: 'stdin-closed', tMs: 2}});
		expect(seen).toEqual(['a exit', 'b exit', 'store', 'a mark', 'b mark', 'store']);
	});

	it('unsubscribes each kind of listener on its own', () => {
		const bus = new EventBus();
		const seen: string[] = [];
		const offEvents = bus.on(() => seen.push('event'));
		const offStore = bus.subscribe(() => seen.push('store'));
		bus.emit(exit(1));
		offEvents();
		bus.emit(exit(2));
		offStore();
		bus.emit(exit(3));
		expect(seen).toEqual(['event', 'store', 'store']);
	});
});
