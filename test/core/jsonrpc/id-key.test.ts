import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {idKey, type IdMapKey} from '../../../src/core/jsonrpc/id-key.js';

// The correlator and the tools/call trackers key their maps by the id itself (IdMapKey) where they used
// idKey's string: the same ids must match (docs/performance.md#replay).

const id: fc.Arbitrary<IdMapKey> = fc.oneof(
	fc.string({maxLength: 6}),
	fc.constantFrom('1', '0', '-0', 'n:1', 's:1', 'NaN', '1e21', ''),
	fc.integer({min: -3, max: 3}),
	fc.double(),
	fc.constantFrom(0, -0, Number.NaN, 1e21, Number.MAX_SAFE_INTEGER, Number.POSITIVE_INFINITY),
);

describe('IdMapKey (an id as its own Map key)', () => {
	it('matches exactly the ids idKey gives the same string (property)', () => {
		fc.assert(
			fc.property(id, id, (a, b) => {
				expect(new Map([[a, true]]).has(b)).toBe(idKey(a) === idKey(b));
			}),
			{numRuns: 5000},
		);
	});

	it('keeps 1 and "1" apart and takes -0 as 0, as idKey does', () => {
		const map = new Map<IdMapKey, string>([[1, 'number']]);
		expect(map.get('1')).toBeUndefined();
		expect(idKey('1')).not.toBe(idKey(1));
		map.set(0, 'zero');
		expect(map.get(-0)).toBe('zero');
		expect(idKey(-0)).toBe(idKey(0));
	});
});
