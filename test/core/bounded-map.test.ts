import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {BoundedMap, RecentKeyLog, RecentKeys} from '../../src/core/bounded-map.js';

describe('BoundedMap', () => {
	it('holds what a Map trimmed to its oldest-first limit holds, on any sequence of sets', () => {
		fc.assert(
			fc.property(
				fc.integer({min: 1, max: 8}),
				fc.array(fc.tuple(fc.integer({min: 0, max: 20}), fc.integer()), {maxLength: 200}),
				(limit, sets) => {
					const bounded = new BoundedMap<number, number>(limit);
					const reference = new Map<number, number>();
					for (const [key, value] of sets) {
						bounded.set(key, value);
						reference.set(key, value);
						if (reference.size > limit) reference.delete(reference.keys().next().value!);
						expect(bounded.size).toBe(reference.size);
					}

					for (let key = 0; key <= 20; key++)
						expect([bounded.has(key), bounded.get(key)]).toEqual([reference.has(key), reference.get(key)]);
				},
			),
			{numRuns: 300},
		);
	});

	it('forgets the oldest key first, and a set of a present key keeps its place', () => {
		const map = new BoundedMap<string, number>(2);
		map.set('a', 1);
		map.set('b', 2);
		map.set('a', 3);
		map.set('c', 4);
		expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([undefined, 2, 4]);
	});
});

describe('RecentKeys', () => {
	it('answers like an LRU Map of `limit` keys (delete, set, drop the oldest) on any sequence of touches', () => {
		fc.assert(
			fc.property(
				fc.integer({min: 1, max: 6}),
				fc.array(fc.integer({min: 0, max: 15}), {maxLength: 300}),
				(limit, touches) => {
					const recent = new RecentKeys(limit);
					const reference = new Map<string, true>();
					for (const touched of touches) {
						const key = String(touched);
						recent.touch(key);
						reference.delete(key);
						reference.set(key, true);
						if (reference.size > limit) reference.delete(reference.keys().next().value!);
						for (let k = 0; k <= 15; k++) expect(recent.has(String(k))).toBe(reference.has(String(k)));
					}
				},
			),
			{numRuns: 300},
		);
	});
});

describe('RecentKeyLog (keys made only when asked)', () => {
	it('answers as RecentKeys given each key at its touch, on any sequence of touches and questions (property)', () => {
		const op = fc.oneof(
			{weight: 9, arbitrary: fc.record({touch: fc.integer({min: 0, max: 40})})},
			{weight: 1, arbitrary: fc.record({ask: fc.integer({min: 0, max: 40})})},
		);
		fc.assert(
			fc.property(fc.integer({min: 1, max: 6}), fc.array(op, {maxLength: 400}), (limit, ops) => {
				const keyOf = (item: {readonly n: number}): string => `k${item.n % 20}`;
				const lazy = new RecentKeyLog(limit, keyOf);
				const reference = new RecentKeys(limit);
				for (const step of ops) {
					if ('touch' in step) {
						lazy.touch({n: step.touch});
						reference.touch(keyOf({n: step.touch}));
					} else {
						expect(lazy.has(`k${step.ask}`)).toBe(reference.has(`k${step.ask}`));
					}
				}
				for (let k = 0; k <= 20; k++) expect(lazy.has(`k${k}`)).toBe(reference.has(`k${k}`));
			}),
			{numRuns: 500},
		);
	});

	it('makes no key until asked or until 4 × limit touches piled up, then only the newest distinct ones', () => {
		const made: number[] = [];
		const log = new RecentKeyLog<number>(2, (n) => {
			made.push(n);
			return `k${n}`;
		});
		for (let n = 0; n < 7; n++) log.touch(n);
		expect(made).toEqual([]);
		log.touch(7);
		expect(made).toEqual([7, 6]);
		expect([log.has('k7'), log.has('k6'), log.has('k5')]).toEqual([true, true, false]);
		log.touch(1);
		log.touch(1);
		expect(log.has('k1')).toBe(true);
		expect(log.has('k6')).toBe(false);
		expect(made).toEqual([7, 6, 1, 1]);
	});
});
