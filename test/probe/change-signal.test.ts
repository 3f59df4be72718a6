import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {createChangeSignal} from '../../src/probe/change-signal.js';

describe('createChangeSignal().waitUntil', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('resolves with the value check returns, looked at again on each notify', async () => {
		const changes = createChangeSignal();
		let value: number | undefined = undefined;
		const wait = changes.waitUntil(() => value, 1000);
		changes.notify();
		value = 7;
		await vi.advanceTimersByTimeAsync(10);
		changes.notify();
		await expect(wait).resolves.toEqual({value: 7});
	});

	it('resolves at once when the value is there already, and on timeout after exactly ms', async () => {
		const changes = createChangeSignal();
		await expect(changes.waitUntil(() => 'now', 1000)).resolves.toEqual({value: 'now'});
		let outcome: unknown;
		void changes.waitUntil(() => undefined, 1000).then((o) => (outcome = o));
		await vi.advanceTimersByTimeAsync(999);
		expect(outcome).toBeUndefined();
		await vi.advanceTimersByTimeAsync(1);
		expect(outcome).toBe('timeout');
	});

	it('ends with eof when isEof turns true, and stopped when stop resolves', async () => {
		const changes = createChangeSignal();
		let eof = false;
		const waitEof = changes.waitUntil(
			() => undefined,
			1000,
			() => eof,
		);
		eof = true;
		changes.notify();
		await expect(waitEof).resolves.toBe('eof');
		let stop!: () => void;
		const stopped = new Promise<void>((resolve) => (stop = resolve));
		const waitStop = changes.waitUntil(() => undefined, 1000, undefined, stopped);
		stop();
		await expect(waitStop).resolves.toBe('stopped');
	});

	it('clear drops every wait: a later notify does not end it', async () => {
		const changes = createChangeSignal();
		let value: number | undefined = undefined;
		let outcome: unknown;
		void changes.waitUntil(() => value, 1000).then((o) => (outcome = o));
		changes.clear();
		value = 1;
		changes.notify();
		await vi.advanceTimersByTimeAsync(500);
		expect(outcome).toBeUndefined();
		await vi.advanceTimersByTimeAsync(500);
		expect(outcome).toBe('timeout');
	});
});
