import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {
	ARENA,
	createRing,
	ENTRY,
	QUEUE_SLOTS,
	RING_RESERVE_BYTES,
	RingConsumer,
	RingProducer,
	URGENT_BYTES,
	WORKING_BYTES,
	type RingMemory,
} from '../../src/tap/capture-ring.js';

/** Queue slots kept for control entries (capture-ring.ts QUEUE_RESERVE, not exported). */
const QUEUE_RESERVE = 64;

/** The smallest ring: stdin and stdout arenas of 2 × RING_RESERVE_BYTES, and a control arena as large. */
const SMALL = 2 * RING_RESERVE_BYTES;

interface Seen {
	readonly kind: number;
	readonly stream: string;
	readonly tMs: number;
	readonly payload: number[];
}

const drainAll = (consumer: RingConsumer): Seen[] => {
	const out: Seen[] = [];
	consumer.drain((entry) => {
		out.push({kind: entry.kind, stream: entry.stream, tMs: entry.tMs, payload: [...entry.payload]});
	});
	return out;
};

/** A ring and both of its ends. */
function ring(bytes = SMALL): {memory: RingMemory; producer: RingProducer; consumer: RingConsumer} {
	const memory = createRing(bytes);
	return {memory, producer: new RingProducer(memory), consumer: new RingConsumer(memory)};
}

/** Reserve, fill and publish `bytes` as a chunk of `stream` (the in-place path). @returns its position */
function commitChunk(
	producer: RingProducer,
	stream: 'stdin' | 'stdout' | 'stderr',
	tMs: number,
	bytes: Uint8Array,
): number {
	const arena = ARENA[stream];
	const position = producer.reserve(arena, bytes.length);
	expect(position).toBeGreaterThanOrEqual(0);
	producer.view(arena, position, bytes.length).set(bytes);
	expect(producer.commit(ENTRY.chunk, stream, arena, tMs, position, bytes.length)).toBe(true);
	return position;
}

const pattern = (length: number, seed: number): Uint8Array =>
	Uint8Array.from({length}, (_, i) => (i * 31 + seed) & 0xff);

describe('capture ring: layout', () => {
	it('sizes the arenas: 2 × RING_RESERVE_BYTES at least, rounded to 8, control arena a quarter (≥ 1 MiB or the arena size)', () => {
		const sizes = (memory: RingMemory): number[] => memory.arenas.map((arena) => arena.byteLength);
		expect(sizes(createRing(1))).toEqual([SMALL, SMALL, SMALL]);
		expect(sizes(createRing(1024 * 1024 + 1))).toEqual([1024 * 1024 + 8, 1024 * 1024 + 8, 1024 * 1024]);
		expect(sizes(createRing(16 * 1024 * 1024))).toEqual([16 * 1024 * 1024, 16 * 1024 * 1024, 4 * 1024 * 1024]);
		expect(() => createRing(0)).toThrow(RangeError);
		expect(() => createRing(Number.NaN)).toThrow('ring size must be positive, got NaN');
	});
});

describe('capture ring: entries', () => {
	it('hands entries over in order with their kind, stream, time and exact bytes, across the three arenas', () => {
		const {producer, consumer} = ring();
		const stdin = pattern(300, 1);
		const stdout = pattern(70_000, 2);
		expect(producer.append(ENTRY.chunk, 'stdin', ARENA.stdin, 1.5, stdin)).toBe(true);
		const at = commitChunk(producer, 'stdout', 2.25, stdout);
		expect(at).toBe(0);
		expect(producer.append(ENTRY.chunk, 'stderr', ARENA.stderr, 3, Uint8Array.of(0xff, 0x0a))).toBe(true);
		// A control record: it lives in the stderr arena but carries its own stream.
		expect(producer.append(ENTRY.mark, 'stdout', ARENA.stderr, 4, Uint8Array.of(0x7b, 0x7d), true)).toBe(true);
		expect(producer.append(ENTRY.close, 'stdout', ARENA.stderr, 0, new Uint8Array(0), true)).toBe(true);
		expect(producer.pendingBytes).toBe(300 + 70_000 + 2 + 2);
		expect(producer.pendingEntries).toBe(5);
		expect(consumer.hasData).toBe(true);
		expect(consumer.pendingBytes).toBe(70_304);
		expect(drainAll(consumer)).toEqual([
			{kind: ENTRY.chunk, stream: 'stdin', tMs: 1.5, payload: [...stdin]},
			{kind: ENTRY.chunk, stream: 'stdout', tMs: 2.25, payload: [...stdout]},
			{kind: ENTRY.chunk, stream: 'stderr', tMs: 3, payload: [0xff, 0x0a]},
			{kind: ENTRY.mark, stream: 'stdout', tMs: 4, payload: [0x7b, 0x7d]},
			{kind: ENTRY.close, stream: 'stdout', tMs: 0, payload: []},
		]);
		expect(producer.pendingBytes).toBe(0);
		expect(producer.pendingEntries).toBe(0);
		expect(consumer.hasData).toBe(false);
		expect(consumer.pendingBytes).toBe(0);
		expect(drainAll(consumer)).toEqual([]);
	});

	it('hands out payload views of the arena itself (no copy) and a claimed region publishes nothing', () => {
		const {memory, producer, consumer} = ring();
		const first = producer.reserve(ARENA.stdout, 10);
		producer.view(ARENA.stdout, first, 10).set(pattern(10, 9));
		producer.claim(ARENA.stdout, first, 10);
		expect(producer.pendingEntries).toBe(0);
		const second = commitChunk(producer, 'stdout', 7, pattern(5, 3));
		// Nothing was in use after the claim, so the published region restarted at the arena start.
		expect([first, second]).toEqual([0, SMALL]);
		const third = commitChunk(producer, 'stdout', 8, pattern(6, 4));
		expect(third).toBe(SMALL + 5);
		const views: Uint8Array[] = [];
		expect(
			consumer.drain((entry) => {
				views.push(entry.payload);
			}),
		).toBe(2);
		expect(views.map((v) => [v.buffer === memory.arenas[ARENA.stdout], v.byteOffset, v.length])).toEqual([
			[true, 0, 5],
			[true, 5, 6],
		]);
		expect(producer.pendingBytes).toBe(0);
	});
});

describe('capture ring: space', () => {
	it('never hands out a region that wraps: it moves to the arena start, and only when the bytes in use leave room there', () => {
		const {producer, consumer} = ring();
		const size = producer.arenaSize(ARENA.stdout);
		expect(size).toBe(SMALL);
		// [0, 1000) consumed and done; [1000, size - 100) consumed but still being written to the client.
		commitChunk(producer, 'stdout', 0, new Uint8Array(1000));
		const held = commitChunk(producer, 'stdout', 1, new Uint8Array(size - 1100));
		expect(held).toBe(1000);
		producer.beginWrite(ARENA.stdout, held);
		drainAll(consumer);
		// 300 bytes would cross the end (100 left): they go to the arena start, where 1000 bytes are free.
		const moved = producer.reserve(ARENA.stdout, 300);
		expect(moved).toBe(size);
		expect(moved % size).toBe(0);
		expect(producer.view(ARENA.stdout, moved, 300).byteOffset).toBe(0);
		expect(producer.reserve(ARENA.stdout, 1000)).toBe(size);
		expect(producer.reserve(ARENA.stdout, 1001)).toBe(-1);
		// 100 bytes fit before the end: no move.
		expect(producer.reserve(ARENA.stdout, 100)).toBe(size - 100);
		expect(producer.reserve(ARENA.stdout, size + 1)).toBe(-1);
	});

	it('keeps the space of payloads a handler holds (returns false) until release(), then gives all of it back', () => {
		const {producer, consumer} = ring();
		const size = producer.arenaSize(ARENA.stdout);
		commitChunk(producer, 'stdout', 0, pattern(1000, 1));
		commitChunk(producer, 'stdout', 1, pattern(2000, 2));
		const held: Uint8Array[] = [];
		expect(
			consumer.drain((entry) => {
				held.push(entry.payload);
				return false;
			}),
		).toBe(2);
		// Consumed but held: 3000 bytes still in use, so a region of size - 3000 + 1 does not fit.
		expect(producer.pendingBytes).toBe(3000);
		expect(producer.reserve(ARENA.stdout, size - 3000 + 1)).toBe(-1);
		expect(producer.reserve(ARENA.stdout, size - 3000)).toBe(3000);
		expect(held.map((view) => [...view])).toEqual([[...pattern(1000, 1)], [...pattern(2000, 2)]]);
		consumer.release();
		expect(producer.pendingBytes).toBe(0);
		// Nothing in use any more: the whole arena, from its start.
		expect(producer.reserve(ARENA.stdout, size)).toBe(size);
	});

	it('a handler that returns true after holding releases everything handed so far (a flush inside the drain)', () => {
		const {producer, consumer} = ring();
		commitChunk(producer, 'stdout', 0, pattern(1000, 1));
		commitChunk(producer, 'stdout', 1, pattern(500, 2));
		commitChunk(producer, 'stdout', 2, pattern(10, 3));
		const returns = [false, true, false];
		let i = 0;
		consumer.drain(() => returns[i++]);
		// The first two were released by the `true`; the third is still held.
		expect(producer.pendingBytes).toBe(10);
		consumer.release();
		expect(producer.pendingBytes).toBe(0);
	});

	it('past WORKING_BYTES of a large arena goes back to its start once the consumer has caught up, and not while it holds bytes', () => {
		const size = WORKING_BYTES * 3;
		const {producer, consumer} = ring(size);
		expect(producer.arenaSize(ARENA.stdout)).toBe(size);
		const piece = 1024 * 1024;
		const fill = (count: number, from: number): void => {
			for (let i = 0; i < count; i++)
				expect(commitChunk(producer, 'stdout', i, new Uint8Array(piece))).toBe(from + i * piece);
		};
		fill(WORKING_BYTES / piece, 0);
		// The last piece is still being written to the client (so the plain restart does not apply).
		producer.beginWrite(ARENA.stdout, WORKING_BYTES - piece);
		// The consumer holds 16 MiB: past the working part, the producer goes on (not back to the start).
		expect(producer.reserve(ARENA.stdout, piece)).toBe(WORKING_BYTES);
		// It holds only the last piece: still not back to the start (that piece would bound the producer).
		const seen: number[] = [];
		consumer.drain((entry) => {
			seen.push(entry.payload.length);
			return seen.length < WORKING_BYTES / piece;
		});
		expect(producer.pendingBytes).toBe(piece);
		expect(producer.reserve(ARENA.stdout, piece)).toBe(WORKING_BYTES);
		// Consumer caught up, one write in flight: back to the start.
		consumer.release();
		expect(producer.reserve(ARENA.stdout, piece)).toBe(size);
		// Once that write is done, a consumer that stalls now can fall the whole arena behind.
		producer.endWrite(ARENA.stdout);
		fill(size / piece, size);
		expect(producer.reserve(ARENA.stdout, 1)).toBe(-1);
		expect(producer.pendingBytes).toBe(size);
		expect(consumer.drain(() => undefined)).toBe(size / piece);
	});

	it('stays inside WORKING_BYTES of a large arena while the consumer keeps up (only those pages are touched)', () => {
		const size = WORKING_BYTES * 3;
		const {producer, consumer} = ring(size);
		const piece = 256 * 1024;
		let highest = 0;
		for (let i = 0; i < (4 * size) / piece; i++) {
			const position = commitChunk(producer, 'stdout', i, new Uint8Array(piece));
			highest = Math.max(highest, (position % size) + piece);
			// A write to the client is always in flight, and the consumer drains every 4 pieces (1 MiB).
			producer.beginWrite(ARENA.stdout, position);
			if (i > 0) producer.endWrite(ARENA.stdout);
			if (i % 4 === 3) consumer.drain(() => undefined);
		}

		expect(highest).toBeLessThanOrEqual(WORKING_BYTES + 1024 * 1024);
	});

	it('restarts at the arena start when nothing is in use', () => {
		const {producer, consumer} = ring();
		const size = producer.arenaSize(ARENA.stdin);
		commitChunk(producer, 'stdin', 0, new Uint8Array(5000));
		expect(producer.reserve(ARENA.stdin, 10)).toBe(5000);
		drainAll(consumer);
		// Everything consumed, nothing in flight: the next region starts at offset 0 again.
		expect(producer.reserve(ARENA.stdin, 10)).toBe(size);
		expect(producer.reserve(ARENA.stdin, size)).toBe(size);
		expect(commitChunk(producer, 'stdin', 1, pattern(10, 4))).toBe(size);
		expect(drainAll(consumer)).toEqual([{kind: ENTRY.chunk, stream: 'stdin', tMs: 1, payload: [...pattern(10, 4)]}]);
	});

	it('does not count the space before a restart as in use (the region after it leaves the rest of the arena free)', () => {
		// Regression: after a restart the consumer's tail still points before it, and used to make the
		// whole arena look full until the consumer caught up (spurious "capture stopped").
		const {producer, consumer} = ring(1024 * 1024);
		const size = producer.arenaSize(ARENA.stdin);
		expect(producer.append(ENTRY.chunk, 'stdin', ARENA.stdin, 0, new Uint8Array(65_536))).toBe(true);
		drainAll(consumer);
		expect(producer.append(ENTRY.chunk, 'stdin', ARENA.stdin, 1, pattern(65_536, 1))).toBe(true);
		// 64 KiB of a 1 MiB arena in use (unconsumed): 1 MiB − 64 KiB is free.
		expect(producer.reserve(ARENA.stdin, size - 65_536)).toBe(size + 65_536);
		expect(producer.reserve(ARENA.stdin, size - 65_536 + 1)).toBe(-1);
		expect(producer.append(ENTRY.chunk, 'stdin', ARENA.stdin, 2, pattern(65_536, 2))).toBe(true);
		expect(drainAll(consumer).map((e) => [e.tMs, e.payload.length])).toEqual([
			[1, 65_536],
			[2, 65_536],
		]);
	});

	it('keeps a region whose forwarding write is in flight, even once consumed, until endWrite', () => {
		const {producer, consumer} = ring();
		const size = producer.arenaSize(ARENA.stdout);
		const position = commitChunk(producer, 'stdout', 0, pattern(65_536, 5));
		producer.beginWrite(ARENA.stdout, position);
		expect(drainAll(consumer).length).toBe(1);
		expect(producer.pendingBytes).toBe(0);
		// Only the rest of the arena is free: [0, 64 KiB) is still being written.
		expect(producer.reserve(ARENA.stdout, size - 65_536)).toBe(65_536);
		expect(producer.reserve(ARENA.stdout, size - 65_536 + 1)).toBe(-1);
		expect(producer.reserve(ARENA.stdout, size)).toBe(-1);
		const next = commitChunk(producer, 'stdout', 1, new Uint8Array(size - 65_536));
		expect(next).toBe(65_536);
		drainAll(consumer);
		expect(producer.reserve(ARENA.stdout, 1)).toBe(-1);
		expect([...producer.view(ARENA.stdout, position, 65_536)]).toEqual([...pattern(65_536, 5)]);
		producer.endWrite(ARENA.stdout);
		expect(producer.reserve(ARENA.stdout, size)).toBe(size);
	});

	it('releases writes oldest first: the second write still holds its region after the first ended', () => {
		const {producer, consumer} = ring();
		const size = producer.arenaSize(ARENA.stdin);
		const a = producer.reserve(ARENA.stdin, 1000);
		producer.beginWrite(ARENA.stdin, a);
		producer.claim(ARENA.stdin, a, 1000);
		const b = producer.reserve(ARENA.stdin, 2000);
		producer.beginWrite(ARENA.stdin, b);
		producer.claim(ARENA.stdin, b, 2000);
		expect([a, b]).toEqual([0, 1000]);
		expect(producer.reserve(ARENA.stdin, size - 3000 + 1)).toBe(-1);
		expect(producer.reserve(ARENA.stdin, size - 3000)).toBe(3000);
		producer.claim(ARENA.stdin, 3000, size - 3000);
		// The arena is full up to its end; [0, 3000) is still being written.
		expect(producer.reserve(ARENA.stdin, 1)).toBe(-1);
		producer.endWrite(ARENA.stdin);
		// [0, 1000) is free now, [1000, 3000) is not.
		expect(producer.reserve(ARENA.stdin, 1000)).toBe(size);
		expect(producer.reserve(ARENA.stdin, 1001)).toBe(-1);
		producer.endWrite(ARENA.stdin);
		expect(producer.reserve(ARENA.stdin, size)).toBe(size);
		expect(producer.reserve(ARENA.stdin, size + 1)).toBe(-1);
		expect(drainAll(consumer)).toEqual([]);
	});

	it('frees every write in flight on abandonWrites (their target closed)', () => {
		const {producer} = ring();
		const size = producer.arenaSize(ARENA.stdout);
		for (let i = 0; i < 4; i++) {
			const position = producer.reserve(ARENA.stdout, 30_000);
			expect(position).toBe(i * 30_000);
			producer.beginWrite(ARENA.stdout, position);
			producer.claim(ARENA.stdout, position, 30_000);
		}

		expect(producer.reserve(ARENA.stdout, size - 120_000)).toBe(120_000);
		expect(producer.reserve(ARENA.stdout, size - 120_000 + 1)).toBe(-1);
		producer.abandonWrites(ARENA.stdout);
		expect(producer.reserve(ARENA.stdout, size)).toBe(size);
		// The other arenas' writes are not touched.
		producer.beginWrite(ARENA.stdin, producer.reserve(ARENA.stdin, 10));
		producer.claim(ARENA.stdin, 0, 10);
		producer.abandonWrites(ARENA.stdout);
		expect(producer.reserve(ARENA.stdin, size)).toBe(-1);
	});

	it('keeps published bytes until the consumer consumed them', () => {
		const {producer, consumer} = ring();
		const size = producer.arenaSize(ARENA.stdout);
		commitChunk(producer, 'stdout', 0, new Uint8Array(65_536));
		expect(producer.reserve(ARENA.stdout, size - 65_536)).toBe(65_536);
		expect(producer.reserve(ARENA.stdout, size - 65_536 + 1)).toBe(-1);
		// A chunk append keeps RING_RESERVE_BYTES free besides.
		expect(producer.append(ENTRY.chunk, 'stdout', ARENA.stdout, 1, new Uint8Array(1))).toBe(false);
		expect(producer.pendingEntries).toBe(1);
		drainAll(consumer);
		expect(producer.reserve(ARENA.stdout, size)).toBe(size);
		expect(producer.append(ENTRY.chunk, 'stdout', ARENA.stdout, 1, new Uint8Array(size - RING_RESERVE_BYTES))).toBe(
			true,
		);
	});

	it('frees everything once the consumer is gone, and publishes nothing more', () => {
		const {producer, consumer} = ring();
		const size = producer.arenaSize(ARENA.stdout);
		commitChunk(producer, 'stdout', 0, new Uint8Array(size));
		expect(producer.reserve(ARENA.stdout, 1)).toBe(-1);
		producer.consumerGone();
		expect(producer.reserve(ARENA.stdout, size)).toBe(size);
		// A write in flight still holds its bytes.
		producer.beginWrite(ARENA.stdout, size);
		producer.claim(ARENA.stdout, size, 100);
		expect(producer.reserve(ARENA.stdout, size)).toBe(-1);
		expect(producer.reserve(ARENA.stdout, size - 100)).toBe(size + 100);
		expect(producer.commit(ENTRY.chunk, 'stdout', ARENA.stdout, 1, size + 100, 10)).toBe(false);
		expect(producer.append(ENTRY.exit, 'stdout', ARENA.stderr, 1, Uint8Array.of(1), true)).toBe(false);
		expect(drainAll(consumer).map((e) => e.tMs)).toEqual([0]);
	});

	it('keeps the control reserve: a control entry fits where a chunk does not', () => {
		const {producer, consumer} = ring();
		const control = producer.arenaSize(ARENA.stderr);
		expect(control).toBe(SMALL);
		expect(producer.append(ENTRY.chunk, 'stderr', ARENA.stderr, 0, new Uint8Array(control - RING_RESERVE_BYTES))).toBe(
			true,
		);
		expect(producer.append(ENTRY.chunk, 'stderr', ARENA.stderr, 1, new Uint8Array(1))).toBe(false);
		expect(producer.append(ENTRY.mark, 'stdout', ARENA.stderr, 2, pattern(RING_RESERVE_BYTES - 1, 6), true)).toBe(true);
		expect(producer.append(ENTRY.exit, 'stdout', ARENA.stderr, 3, Uint8Array.of(0x31), true)).toBe(true);
		expect(producer.append(ENTRY.close, 'stdout', ARENA.stderr, 4, Uint8Array.of(0x31), true)).toBe(false);
		expect(drainAll(consumer).map((e) => [e.kind, e.stream, e.tMs, e.payload.length])).toEqual([
			[ENTRY.chunk, 'stderr', 0, control - RING_RESERVE_BYTES],
			[ENTRY.mark, 'stdout', 2, RING_RESERVE_BYTES - 1],
			[ENTRY.exit, 'stdout', 3, 1],
		]);
	});

	it('refuses entries once the queue is full: chunks leave the last slots to control entries', () => {
		const {producer, consumer} = ring();
		let chunks = 0;
		while (producer.append(ENTRY.chunk, 'stdin', ARENA.stdin, chunks, new Uint8Array(0))) chunks++;
		expect(chunks).toBe(QUEUE_SLOTS - QUEUE_RESERVE);
		expect(producer.commit(ENTRY.chunk, 'stdout', ARENA.stdout, 0, producer.reserve(ARENA.stdout, 1), 1)).toBe(false);
		let controls = 0;
		while (producer.append(ENTRY.mark, 'stdout', ARENA.stderr, controls, Uint8Array.of(controls & 0xff), true))
			controls++;
		expect(controls).toBe(QUEUE_RESERVE);
		expect(producer.pendingEntries).toBe(QUEUE_SLOTS);
		expect(producer.commit(ENTRY.close, 'stdout', ARENA.stderr, 0, 0, 0, true)).toBe(false);
		const seen = drainAll(consumer);
		expect(seen.length).toBe(QUEUE_SLOTS);
		expect(seen.slice(0, chunks).every((e, i) => e.kind === ENTRY.chunk && e.tMs === i && e.payload.length === 0)).toBe(
			true,
		);
		expect(seen.slice(chunks).map((e) => e.payload[0])).toEqual(Array.from({length: QUEUE_RESERVE}, (_, i) => i));
		expect(producer.pendingEntries).toBe(0);
		// The slots come around again.
		expect(producer.append(ENTRY.chunk, 'stdin', ARENA.stdin, 9, Uint8Array.of(9))).toBe(true);
		expect(drainAll(consumer)).toEqual([{kind: ENTRY.chunk, stream: 'stdin', tMs: 9, payload: [9]}]);
	});
});

/** One step of the producer/consumer model. */
type Step =
	| {
			readonly op: 'put';
			readonly arena: 0 | 1;
			readonly length: number;
			readonly publish: boolean;
			readonly write: boolean;
	  }
	| {readonly op: 'endWrite'; readonly arena: 0 | 1}
	| {readonly op: 'drain'};

describe('capture ring: property', () => {
	it('never hands out bytes still unconsumed or in flight, and the consumer gets every committed byte exact', async () => {
		await checkRingProperty(SMALL, 70_000, 300, (length, serial) => pattern(length, serial));
	});

	it('the same on an arena larger than WORKING_BYTES (the producer goes back to the start early)', async () => {
		// Pieces up to 2 MiB so that 120 steps go past WORKING_BYTES and around; bytes filled with one
		// value per piece (cheap), distinct from its neighbours.
		await checkRingProperty(2 * WORKING_BYTES, 2 * 1024 * 1024, 40, (length, serial) =>
			new Uint8Array(length).fill((serial % 251) + 1),
		);
	});
});

/**
 * The ring property over random puts (published or claimed, written or not), write ends and drains. Each run
 * first yields to the event loop: a sweep is tens of seconds of synchronous work on a loaded machine, and a
 * worker that never yields cannot read vitest's replies, whose 60 s timeout then fails a green run.
 */
async function checkRingProperty(
	ringBytes: number,
	maxLength: number,
	numRuns: number,
	makeBytes: (length: number, serial: number) => Uint8Array,
): Promise<void> {
	const step: fc.Arbitrary<Step> = fc.oneof(
		{
			weight: 6,
			arbitrary: fc.record({
				op: fc.constant('put' as const),
				arena: fc.constantFrom(0 as const, 1 as const),
				length: fc.oneof(fc.integer({min: 0, max: 200}), fc.integer({min: 1, max: maxLength})),
				publish: fc.boolean(),
				write: fc.boolean(),
			}),
		},
		{
			weight: 2,
			arbitrary: fc.record({op: fc.constant('endWrite' as const), arena: fc.constantFrom(0 as const, 1 as const)}),
		},
		{weight: 2, arbitrary: fc.record({op: fc.constant('drain' as const)})},
	);
	await fc.assert(
		fc.asyncProperty(fc.array(step, {maxLength: 120}), async (steps) => {
			await new Promise((resolve) => setImmediate(resolve));
			const {producer, consumer} = ring(ringBytes);
			const size = producer.arenaSize(0);
			/** Published and not consumed, and written and not ended: [arena offset, length, bytes]. */
			const unconsumed: {arena: number; at: number; length: number; bytes: Uint8Array; tMs: number}[] = [];
			const inFlight: {at: number; length: number; bytes: Uint8Array}[][] = [[], []];
			let serial = 0;
			const overlaps = (arena: number, at: number, length: number): boolean => {
				const hit = (other: {at: number; length: number}): boolean =>
					length > 0 && other.length > 0 && at < other.at + other.length && other.at < at + length;
				return unconsumed.some((u) => u.arena === arena && hit(u)) || inFlight[arena]!.some(hit);
			};

			const checkDrain = (): void => {
				const seen = drainAll(consumer);
				expect(seen.map((e) => e.tMs)).toEqual(unconsumed.map((u) => u.tMs));
				seen.forEach((e, i) => {
					expect(Buffer.from(e.payload).equals(Buffer.from(unconsumed[i]!.bytes))).toBe(true);
				});
				unconsumed.length = 0;
			};

			for (const s of steps) {
				if (s.op === 'drain') {
					checkDrain();
				} else if (s.op === 'endWrite') {
					const write = inFlight[s.arena]!.shift();
					if (write === undefined) continue;
					// The bytes were still there for the whole write.
					expect(Buffer.from(producer.view(s.arena, write.at, write.length)).equals(Buffer.from(write.bytes))).toBe(
						true,
					);
					producer.endWrite(s.arena);
				} else {
					const position = producer.reserve(s.arena, s.length);
					if (position < 0) {
						// Nothing in use at all: everything that fits the arena must fit.
						if (unconsumed.length === 0 && inFlight[s.arena]!.length === 0) expect(s.length).toBeGreaterThan(size);
						continue;
					}

					const at = position % size;
					expect(at + s.length).toBeLessThanOrEqual(size);
					expect(overlaps(s.arena, at, s.length)).toBe(false);
					const bytes = makeBytes(s.length, serial);
					const tMs = serial++;
					producer.view(s.arena, position, s.length).set(bytes);
					if (s.write) {
						producer.beginWrite(s.arena, position);
						inFlight[s.arena]!.push({at, length: s.length, bytes});
					}

					if (
						s.publish &&
						producer.commit(ENTRY.chunk, s.arena === 0 ? 'stdin' : 'stdout', s.arena, tMs, position, s.length)
					) {
						unconsumed.push({arena: s.arena, at, length: s.length, bytes, tMs});
					} else {
						producer.claim(s.arena, position, s.length);
					}
				}
			}

			checkDrain();
			expect(producer.pendingBytes).toBe(0);
		}),
		{numRuns},
	);
}

describe('capture ring: wake-ups', () => {
	it('lets a napping consumer sleep through small entries and wakes it for a megabyte or the close', async () => {
		const {producer, consumer} = ring(4 * URGENT_BYTES);
		const elapsed = async (write: () => void): Promise<number> => {
			const start = performance.now();
			const napping = consumer.waitForData(400);
			setTimeout(write, 5);
			await napping;
			consumer.drain(() => undefined);
			return performance.now() - start;
		};

		expect(
			await elapsed(() => producer.append(ENTRY.chunk, 'stdin', ARENA.stdin, 0, new Uint8Array(100))),
		).toBeGreaterThanOrEqual(390);
		expect(
			await elapsed(() => producer.append(ENTRY.chunk, 'stdin', ARENA.stdin, 0, new Uint8Array(URGENT_BYTES))),
		).toBeLessThan(200);
		expect(
			await elapsed(() => producer.append(ENTRY.close, 'stdout', ARENA.stderr, 0, new Uint8Array(0), true)),
		).toBeLessThan(200);
	});

	it('returns at once from a nap when a megabyte is already pending', async () => {
		const {producer, consumer} = ring(4 * URGENT_BYTES);
		expect(producer.append(ENTRY.chunk, 'stdout', ARENA.stdout, 0, new Uint8Array(URGENT_BYTES))).toBe(true);
		const start = performance.now();
		await consumer.waitForData(2000);
		expect(performance.now() - start).toBeLessThan(1000);
		expect(consumer.pendingBytes).toBe(URGENT_BYTES);
	});

	it('wakes a parked consumer for any entry, and does not park when one is waiting', async () => {
		const {producer, consumer} = ring();
		const start = performance.now();
		const waiting = consumer.waitForData();
		setTimeout(() => producer.append(ENTRY.chunk, 'stdin', ARENA.stdin, 0, Uint8Array.of(1)), 5);
		await waiting;
		expect(consumer.hasData).toBe(true);
		await consumer.waitForData();
		expect(performance.now() - start).toBeLessThan(5000);
		expect(drainAll(consumer)).toEqual([{kind: ENTRY.chunk, stream: 'stdin', tMs: 0, payload: [1]}]);
	});
});
