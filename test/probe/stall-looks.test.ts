import {describe, expect, it} from 'vitest';
import {createFinalLooks, stallLookDelays} from '../../src/probe/stall-looks.js';

describe('stallLookDelays', () => {
	it('looks at 1, 2, 3, 5 s, then every 5 s before the limit', () => {
		expect(stallLookDelays(30_000, 0)).toEqual([1000, 2000, 3000, 5000, 10_000, 15_000, 20_000, 25_000]);
		expect(stallLookDelays(10_000, 0)).toEqual([1000, 2000, 3000, 5000]);
		expect(stallLookDelays(2_500, 0)).toEqual([1000, 2000]);
	});

	it('counts from the write: a request written 1,500 ms ago looks now for the 1 s mark', () => {
		expect(stallLookDelays(10_000, 1500)).toEqual([0, 500, 1500, 3500]);
	});
});

describe('createFinalLooks', () => {
	it('ends the wait after two final looks in a row at least 500 ms apart', () => {
		const see = createFinalLooks();
		expect(see(true, 1000)).toBe(false);
		expect(see(true, 1200)).toBe(false); // the same instant, as far as the server goes
		expect(see(true, 1500)).toBe(true);
	});

	it('starts over after a look that is not final', () => {
		const see = createFinalLooks();
		expect(see(true, 1000)).toBe(false);
		expect(see(false, 2000)).toBe(false);
		expect(see(true, 3000)).toBe(false);
		expect(see(true, 5000)).toBe(true);
	});
});
