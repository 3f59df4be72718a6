import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {BoundedMap, RecentKeys} from '../../src/core/bounded-map.js';

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
