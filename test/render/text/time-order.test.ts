import {describe, expect, it} from 'vitest';
import {createTimeOrder} from '../../../src/render/text/time-order.js';

describe('createTimeOrder', () => {
	it('writes at once what is earlier than the horizon, holds the rest, and writes held lines sorted by time (ties in arrival order)', () => {
		const out: string[] = [];
		const order = createTimeOrder((line) => out.push(line));
		order.add(10, ['a']);
		order.release(Number.POSITIVE_INFINITY);
		expect(out).toEqual(['a']);
		// A frame whose first byte came at 30 is held by the framer: later events wait for it.
		order.add(40, ['mark 40']);
		order.add(35, ['frame 35 (line 1)', 'frame 35 (line 2)']);
		order.add(40, ['mark 40 too']);
		order.release(30);
		expect(out).toEqual(['a']);
		expect(order.held).toBe(3);
		order.add(31, ['held frame 31']);
		order.release(Number.POSITIVE_INFINITY);
		expect(out).toEqual(['a', 'held frame 31', 'frame 35 (line 1)', 'frame 35 (line 2)', 'mark 40', 'mark 40 too']);
		expect(order.held).toBe(0);
	});

	it('writes the earliest once more than maxHeld events wait (memory stays bounded when a held frame never ends)', () => {
		const out: string[] = [];
		const order = createTimeOrder((line) => out.push(line), 3);
		for (const t of [5, 3, 4, 1]) order.add(t, [`t${t}`]);
		expect(out).toEqual(['t1']);
		expect(order.held).toBe(3);
		order.release(4.5);
		expect(out).toEqual(['t1', 't3', 't4']);
		order.release(Number.POSITIVE_INFINITY);
		expect(out).toEqual(['t1', 't3', 't4', 't5']);
	});
});
