import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {IdTable} from '../../../../src/core/findings/support/id-table.js';

describe('IdTable', () => {
	it('keeps "1" and 1 apart and holds values on both sides of zero', () => {
		const table = new IdTable();
		table.set(1, 7);
		table.set('1', -8);
		expect(table.get(1)).toBe(7);
		expect(table.get('1')).toBe(-8);
		expect(table.get(2)).toBeUndefined();
		table.delete(1);
		expect(table.get(1)).toBeUndefined();
		expect(table.get('1')).toBe(-8);
	});

	it('stores far, negative, fractional and out-of-int32 entries beside the dense counter ids', () => {
		const table = new IdTable();
		for (let id = 0; id < 5000; id++) table.set(id, id * 2);
		table.set(2 ** 40, 1);
		table.set(-3, 2);
		table.set(1.5, 3);
		table.set(10, 2 ** 33);
		table.set(0x7fff_ffff, -5);
		expect([
			table.get(2 ** 40),
			table.get(-3),
			table.get(1.5),
			table.get(10),
			table.get(0x7fff_ffff),
			table.get(4999),
			table.get(11),
		]).toEqual([1, 2, 3, 2 ** 33, -5, 9998, 22]);
		// -0 and 0 are the same JSON-RPC id.
		expect(table.get(-0)).toBe(0);
	});

	it('answers like a Map on any sequence of set, delete and deleteWhere', () => {
		const id = fc.oneof(
			fc.integer({min: 0, max: 3000}),
			fc.integer({min: -5, max: 2 ** 32}),
			fc.constantFrom(0.5, 1e20, 7),
			fc.string({maxLength: 3}),
		);
		const op = fc.oneof(
			fc.tuple(
				fc.constant('set' as const),
				id,
				fc.oneof(fc.integer({min: -(2 ** 31) + 1, max: 2 ** 31 - 1}), fc.constantFrom(2 ** 35, -(2 ** 35))),
			),
			fc.tuple(fc.constant('delete' as const), id, fc.constant(0)),
			fc.tuple(fc.constant('dropNegative' as const), fc.constant(0), fc.constant(0)),
		);
		fc.assert(
			fc.property(fc.array(op, {maxLength: 300}), fc.array(id, {maxLength: 40}), (ops, probes) => {
				const table = new IdTable();
				const reference = new Map<string | number, number>();
				for (const [kind, key, value] of ops) {
					if (kind === 'set') {
						table.set(key, value);
						reference.set(key, value);
					} else if (kind === 'delete') {
						table.delete(key);
						reference.delete(key);
					} else {
						table.deleteWhere((v) => v < 0);
						for (const [k, v] of reference) if (v < 0) reference.delete(k);
					}
				}

				for (const key of [...probes, ...reference.keys()]) expect(table.get(key)).toBe(reference.get(key));
			}),
			{numRuns: 300},
		);
	});
});
