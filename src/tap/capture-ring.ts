import type {StreamName} from '../core/types.js';

/**
 * The shared memory between the tap's forwarding thread and its capture worker (docs/capture-format.md#format-2-binary).
 *
 * ```
 *   arenas (one per stream)           queue (fixed-size descriptors, in the order things happened)
 *   stdin  [ …chunk bytes… ]   ◀──   {chunk, stdin,  arena 0, position, length, tMs}
 *   stdout [ …chunk bytes… ]   ◀──   {chunk, stdout, arena 1, position, length, tMs}
 *   stderr [ …bytes, JSON… ]   ◀──   {mark,  stdout, arena 2, position, length, tMs}
 * ```
 *
 * Zero copy: a pipe or socket is read by the kernel straight into its stream's arena
 * ({@link RingProducer.reserve} + Node's `net.Socket` `onread`), forwarded from there, and published
 * with {@link RingProducer.commit}; the worker encodes from the same memory. Streams that cannot be read
 * that way (a terminal, a file, the server's stderr) and control records (marks, exit, header, findings:
 * UTF-8 JSON, kept in the stderr arena) are copied in with {@link RingProducer.append}.
 *
 * A region is reused only after (a) the worker consumed it and (b) its forwarding write completed
 * ({@link RingProducer.beginWrite} / {@link RingProducer.endWrite}). Positions are byte counters that only
 * grow; `position % size` is the offset in the arena, and a region never wraps around the arena's end
 * (a reservation that would is moved to the arena's start). One producer (the forwarding thread), one
 * consumer (the worker).
 */

/** Entry kinds (5 was a finding: a spawn failure is an `observed` mark now, from which replay derives it). */
export const ENTRY = {chunk: 1, mark: 2, exit: 3, close: 6, header: 7, gap: 8} as const;
/** An entry kind. */
export type EntryKind = (typeof ENTRY)[keyof typeof ENTRY];

/** Arena index per stream; control records go to the stderr arena. */
export const ARENA: Readonly<Record<StreamName, number>> = {stdin: 0, stdout: 1, stderr: 2};
const STREAM_CODES: readonly StreamName[] = ['stdin', 'stdout', 'stderr'];

/**
 * Default arena size for stdin and stdout (bytes): how far the capture may fall behind on one stream.
 * 48 MiB: on a busy machine the capture worker can be off the CPU for tens of ms while forwarding runs
 * at hundreds of MB/s, and 16 MiB was too little for bench:tap's 1 GiB stream; only about
 * {@link WORKING_BYTES} of it is resident while the worker keeps up, all of it once the producer went
 * round the whole arena with the worker behind, still under the tap's 150 MiB budget
 * (docs/performance.md#tap-forwarding-and-capture).
 */
export const DEFAULT_RING_BYTES = 48 * 1024 * 1024;
/**
 * The part of a stdin/stdout arena a capture that keeps up cycles through (bytes): the producer goes
 * back to the arena's start once past it while at most a quarter of it is in use, so only these pages
 * are touched (resident) until the capture falls further behind; the rest of the arena is the margin
 * for a writer that stalls (a descheduled thread, a slow disk).
 */
export const WORKING_BYTES = 16 * 1024 * 1024;
/** Arena bytes and queue slots kept free for control entries (marks, exit, close) once chunks no longer fit. */
export const RING_RESERVE_BYTES = 64 * 1024;
/** Descriptor slots in the queue. */
export const QUEUE_SLOTS = 16_384;
const QUEUE_RESERVE = 64;
const SLOT_BYTES = 32;
/**
 * Pending bytes at which a napping consumer is woken before its timeout (a quarter of the smallest
 * arena when that is less, so a small ring is drained before it fills).
 */
export const URGENT_BYTES = 1024 * 1024;

/** The wake-up threshold of a ring: {@link URGENT_BYTES}, or a quarter of its smallest arena. */
function urgentBytes(memory: RingMemory): number {
	return Math.min(URGENT_BYTES, ...memory.arenas.map((arena) => Math.floor(arena.byteLength / 4)));
}

// Control words (BigInt64). Words written by the producer and words written by the consumer sit on
// separate 64-byte cache lines, so neither side's stores evict the line the other side keeps reading.
// producer line: queue head, published bytes
const QUEUE_HEAD = 0;
const PUBLISHED = 1;
// consumer line: queue tail, arena tails ×3, consumed bytes
const QUEUE_TAIL = 8;
const ARENA_TAIL = 9;
const CONSUMED = 12;
const CONTROL_WORDS = 16;
// signal words (Int32) on a third line: a counter to wait on, and the consumer's state
const SIGNAL = 0;
const WAITING = 1;
/** The consumer releases space at least every this many bytes while it drains (and at the end). */
const RELEASE_BYTES = 256 * 1024;
/** Consumer states: 0 running, 1 parked until data comes, 2 napping until a timeout or urgent data. */
const PARKED = 1;
const NAPPING = 2;

/** The shared memory of one ring. */
export interface RingMemory {
	readonly control: SharedArrayBuffer;
	readonly queue: SharedArrayBuffer;
	/** stdin, stdout, stderr (+ control records). */
	readonly arenas: readonly [SharedArrayBuffer, SharedArrayBuffer, SharedArrayBuffer];
}

/**
 * Allocate a ring whose stdin and stdout arenas hold `bytes` bytes each (rounded up to a multiple of 8,
 * at least 2 × {@link RING_RESERVE_BYTES}); the stderr/control arena holds a quarter of that (at least
 * 1 MiB). Pages are touched only as they are used.
 * @throws RangeError when `bytes` is not a positive finite number
 */
export function createRing(bytes: number = DEFAULT_RING_BYTES): RingMemory {
	if (!Number.isFinite(bytes) || bytes <= 0) throw new RangeError(`ring size must be positive, got ${bytes}`);
	const size = Math.max(2 * RING_RESERVE_BYTES, Math.ceil(bytes / 8) * 8);
	const small = Math.max(Math.min(size, 1024 * 1024), Math.ceil(size / 32) * 8);
	return {
		control: new SharedArrayBuffer(CONTROL_WORDS * 8 + 64),
		queue: new SharedArrayBuffer(QUEUE_SLOTS * SLOT_BYTES),
		arenas: [new SharedArrayBuffer(size), new SharedArrayBuffer(size), new SharedArrayBuffer(small)],
	};
}

/** One entry as the consumer sees it. `payload` is ring memory: valid only during the handler call. */
export interface RingEntry {
	readonly kind: EntryKind;
	readonly stream: StreamName;
	readonly tMs: number;
	readonly payload: Uint8Array;
}

/** Views shared by both ends. */
class RingViews {
	protected readonly words: BigInt64Array;
	protected readonly signal: Int32Array;
	protected readonly slots: Float64Array;
	protected readonly slotWords: Uint32Array;
	protected readonly arenas: readonly Uint8Array[];
	protected readonly urgent: number;

	constructor(memory: RingMemory) {
		this.urgent = urgentBytes(memory);
		this.words = new BigInt64Array(memory.control, 0, CONTROL_WORDS);
		this.signal = new Int32Array(memory.control, CONTROL_WORDS * 8, 2);
		this.slots = new Float64Array(memory.queue);
		this.slotWords = new Uint32Array(memory.queue);
		this.arenas = memory.arenas.map((arena) => new Uint8Array(arena));
	}

	protected load(word: number): number {
		return Number(Atomics.load(this.words, word));
	}

	protected store(word: number, value: number): void {
		Atomics.store(this.words, word, BigInt(value));
	}
}

/**
 * The writing end (the forwarding thread). Never blocks and never allocates on the chunk path: every
 * call that cannot fit returns false or -1 and the caller decides (record nothing, stop the capture).
 */
export class RingProducer extends RingViews {
	private readonly heads = [0, 0, 0];
	/** End of the last entry published per arena: the consumer holds space only while it is behind it. */
	private readonly published = [0, 0, 0];
	/**
	 * Per arena, the head at the last restart at the arena's start: everything before it was consumed,
	 * so the consumer's tail (still short of it until the next entry is consumed) holds nothing there.
	 */
	private readonly floors = [0, 0, 0];
	private isConsumerGone = false;
	/** Start positions of forwarding writes not yet completed, per arena, in order. */
	private readonly writes: number[][] = [[], [], []];
	private readonly writesHead = [0, 0, 0];
	private queueHead: number;
	private publishedBytes: number;

	constructor(memory: RingMemory) {
		super(memory);
		this.queueHead = this.load(QUEUE_HEAD);
		this.publishedBytes = this.load(PUBLISHED);
	}

	/** Size in bytes of `arena`. */
	arenaSize(arena: number): number {
		return this.arenas[arena]!.length;
	}

	/** Bytes published and not yet consumed, all arenas. */
	get pendingBytes(): number {
		return this.publishedBytes - this.load(CONSUMED);
	}

	/** Descriptors published and not yet consumed. */
	get pendingEntries(): number {
		return this.queueHead - this.load(QUEUE_TAIL);
	}

	/**
	 * Find room for `length` contiguous bytes in `arena` (nothing is taken until {@link commit} or
	 * {@link claim}; only one reservation per arena may be open at a time).
	 * @param keepFree bytes that must stay free besides (the control reserve)
	 * @returns the position, or -1 when the bytes do not fit now
	 */
	reserve(arena: number, length: number, keepFree = 0): number {
		const size = this.arenas[arena]!.length;
		const bound = this.bound(arena);
		let head = this.heads[arena]!;
		let at = head % size;
		if (bound === Infinity && at !== 0) {
			// Nothing in use: start over at the arena's start, whose pages are warm in the cache.
			head += size - at;
			at = 0;
			this.heads[arena] = head;
			this.floors[arena] = head;
		}

		const fits = (start: number): boolean => (bound === Infinity ? length : start + length - bound) + keepFree <= size;
		if (at + length > size) return fits(head + (size - at)) ? head + (size - at) : -1;
		// Past the working size, once the consumer has caught up (only forwarding writes, not many, still
		// hold bytes here): go back to the arena's start (its pages are resident already), as a restart
		// does. So a capture that keeps up touches about WORKING_BYTES of a large arena, and a consumer
		// that stalls right after still has all of it but those writes (bytes it held would bound it).
		if (
			at + length > WORKING_BYTES &&
			this.consumerLag(arena) === 0 &&
			head - bound <= WORKING_BYTES / 4 &&
			fits(head + (size - at))
		) {
			head += size - at;
			this.heads[arena] = head;
			this.floors[arena] = head;
			return head;
		}

		return fits(head) ? head : -1;
	}

	/** A view of `length` bytes at `position` of `arena` (position from {@link reserve}). */
	view(arena: number, position: number, length: number): Uint8Array {
		const array = this.arenas[arena]!;
		const at = position % array.length;
		return array.subarray(at, at + length);
	}

	/**
	 * Publish `length` bytes at `position` of `arena` (already there: read in place or copied) as one
	 * entry, and wake the consumer when it asked for it.
	 * @param useReserve allow the last {@link QUEUE_RESERVE} queue slots (control entries)
	 * @returns false (and publishes nothing, takes nothing) when the queue is full
	 */
	commit(
		kind: EntryKind,
		stream: StreamName,
		arena: number,
		tMs: number,
		position: number,
		length: number,
		useReserve = false,
	): boolean {
		if (this.isConsumerGone) return false;
		const tail = this.load(QUEUE_TAIL);
		const free = QUEUE_SLOTS - (this.queueHead - tail);
		if (free <= (useReserve ? 0 : QUEUE_RESERVE)) return false;
		const slot = this.queueHead % QUEUE_SLOTS;
		this.slots[slot * 4] = tMs;
		this.slots[slot * 4 + 1] = position;
		this.slotWords[slot * 8 + 4] = length;
		this.slotWords[slot * 8 + 5] = kind | (ARENA[stream] << 8) | (arena << 16);
		this.heads[arena] = position + length;
		this.published[arena] = position + length;
		this.publishedBytes += length;
		this.queueHead++;
		this.store(PUBLISHED, this.publishedBytes);
		this.store(QUEUE_HEAD, this.queueHead);
		// No syscall on the hot path: a napping consumer wakes on its own timer and is only woken early
		// once a megabyte (less for a small ring) or a quarter of the queue is pending (or at close); a parked one by any entry.
		const state = Atomics.load(this.signal, WAITING);
		if (
			state === PARKED ||
			(state === NAPPING &&
				(kind === ENTRY.close ||
					this.publishedBytes - this.load(CONSUMED) >= this.urgent ||
					this.queueHead - tail >= QUEUE_SLOTS / 4))
		) {
			Atomics.store(this.signal, WAITING, 0);
			Atomics.add(this.signal, SIGNAL, 1);
			Atomics.notify(this.signal, SIGNAL);
		}

		return true;
	}

	/**
	 * Copy `payload` into `arena` and publish it.
	 * @param useReserve allow the reserved arena bytes and queue slots (control entries)
	 * @returns false (and writes nothing) when it does not fit
	 */
	append(
		kind: EntryKind,
		stream: StreamName,
		arena: number,
		tMs: number,
		payload: Uint8Array,
		useReserve = false,
	): boolean {
		if (this.isConsumerGone) return false;
		const position = this.reserve(arena, payload.length, useReserve ? 0 : RING_RESERVE_BYTES);
		if (position < 0) return false;
		if (QUEUE_SLOTS - this.pendingEntries <= (useReserve ? 0 : QUEUE_RESERVE)) return false;
		this.view(arena, position, payload.length).set(payload);
		return this.commit(kind, stream, arena, tMs, position, payload.length, useReserve);
	}

	/** Take `length` bytes at `position` of `arena` without publishing them (forwarded, not recorded). */
	claim(arena: number, position: number, length: number): void {
		this.heads[arena] = position + length;
	}

	/** A forwarding write of the bytes at `position` of `arena` started: keep them until {@link endWrite}. */
	beginWrite(arena: number, position: number): void {
		this.writes[arena]!.push(position);
	}

	/** The oldest forwarding write from `arena` completed (writes to one target complete in order). */
	endWrite(arena: number): void {
		const writes = this.writes[arena]!;
		const head = ++this.writesHead[arena]!;
		if (head >= writes.length) {
			writes.length = 0;
			this.writesHead[arena] = 0;
		} else if (head > 1024) {
			writes.splice(0, head);
			this.writesHead[arena] = 0;
		}
	}

	/** Forget the writes in flight from `arena` (their target closed; the bytes are no longer read). */
	abandonWrites(arena: number): void {
		this.writes[arena]!.length = 0;
		this.writesHead[arena] = 0;
	}

	/** The consumer stopped for good (the worker exited): its unconsumed entries no longer hold space. */
	consumerGone(): void {
		this.isConsumerGone = true;
	}

	/** Bytes of `arena` published and not yet released by the consumer (0 once it is gone). */
	consumerLag(arena: number): number {
		return this.isConsumerGone
			? 0
			: Math.max(0, this.published[arena]! - Math.max(this.load(ARENA_TAIL + arena), this.floors[arena]!));
	}

	/** The oldest position of `arena` still in use (Infinity when none is). */
	private bound(arena: number): number {
		const writes = this.writes[arena]!;
		const forward = this.writesHead[arena]! < writes.length ? writes[this.writesHead[arena]!]! : Infinity;
		if (this.isConsumerGone) return forward;
		const tail = Math.max(this.load(ARENA_TAIL + arena), this.floors[arena]!);
		return Math.min(tail >= this.published[arena]! ? Infinity : tail, forward);
	}
}

/** The reading end (the capture worker). */
export class RingConsumer extends RingViews {
	private tail: number;
	private consumed: number;
	/** End of the last entry consumed per arena, and how much of it was published to the producer. */
	private readonly tails = [0, 0, 0];
	private readonly released = [0, 0, 0];

	constructor(memory: RingMemory) {
		super(memory);
		this.tail = this.load(QUEUE_TAIL);
		this.consumed = this.load(CONSUMED);
		for (let arena = 0; arena < 3; arena++) this.tails[arena] = this.released[arena] = this.load(ARENA_TAIL + arena);
	}

	/** True when an entry is waiting. */
	get hasData(): boolean {
		return this.tail < this.load(QUEUE_HEAD);
	}

	/** Bytes published and not yet consumed. */
	get pendingBytes(): number {
		return this.load(PUBLISHED) - this.consumed;
	}

	/**
	 * Hand every entry published so far to `handler`, in order. The payload is a view of the arena: its
	 * space is released to the producer only after the handler is done with it. A handler that returns
	 * nothing is done with each payload when it returns: space is released every {@link RELEASE_BYTES}
	 * and at the end. A handler that keeps payload views (to write them later, without a copy) returns
	 * false while it holds any: nothing is released until it returns true (every payload handed so far
	 * is written and may be reused) or the caller calls {@link release}.
	 * @returns the number of entries consumed
	 */
	drain(handler: (entry: RingEntry) => boolean | void): number {
		const head = this.load(QUEUE_HEAD);
		let count = 0;
		let released = this.consumed;
		while (this.tail < head) {
			const slot = this.tail % QUEUE_SLOTS;
			const tMs = this.slots[slot * 4]!;
			const position = this.slots[slot * 4 + 1]!;
			const length = this.slotWords[slot * 8 + 4]!;
			const word = this.slotWords[slot * 8 + 5]!;
			const arena = (word >>> 16) & 0xff;
			const array = this.arenas[arena]!;
			const at = position % array.length;
			const done = handler({
				kind: (word & 0xff) as EntryKind,
				stream: STREAM_CODES[(word >>> 8) & 0xff] ?? 'stdout',
				tMs,
				payload: array.subarray(at, at + length),
			});
			this.consumed += length;
			this.tail++;
			this.tails[arena] = position + length;
			count++;
			if (done === false) this.isHolding = true;
			else if (done === true) this.isHolding = false;
			// Release in batches: fewer stores to shared memory, while the producer still gets room early.
			if (!this.isHolding && (done === true || this.consumed - released >= RELEASE_BYTES)) {
				this.publishTails();
				released = this.consumed;
			}
		}

		if (count > 0 && !this.isHolding) this.publishTails();
		return count;
	}

	/**
	 * The handler of {@link drain} is done with every payload it was handed (it wrote the views it
	 * kept): give their space back to the producer.
	 */
	release(): void {
		this.isHolding = false;
		this.publishTails();
	}

	/** True while a {@link drain} handler keeps payload views (their space is not released). */
	private isHolding = false;

	/** Publish how far the consumer got: every arena's tail, then the bytes, then the queue tail. */
	private publishTails(): void {
		for (let arena = 0; arena < 3; arena++) {
			if (this.tails[arena]! > this.released[arena]!) {
				this.store(ARENA_TAIL + arena, this.tails[arena]!);
				this.released[arena] = this.tails[arena]!;
			}
		}

		this.store(CONSUMED, this.consumed);
		this.store(QUEUE_TAIL, this.tail);
	}

	/**
	 * Without `napMs`: park until the producer publishes (at once when data is already waiting). With it:
	 * sleep `napMs`, or less when {@link URGENT_BYTES} (see {@link urgentBytes}) or a quarter of the queue become pending (at once
	 * when they already are). The producer notifies only when this state asks for it.
	 */
	async waitForData(napMs?: number): Promise<void> {
		const seen = Atomics.load(this.signal, SIGNAL);
		Atomics.store(this.signal, WAITING, napMs === undefined ? PARKED : NAPPING);
		const entries = this.load(QUEUE_HEAD) - this.tail;
		if ((napMs === undefined && entries > 0) || this.pendingBytes >= this.urgent || entries >= QUEUE_SLOTS / 4) {
			Atomics.store(this.signal, WAITING, 0);
			return;
		}

		const result = waitAsync(this.signal, SIGNAL, seen, napMs);
		if (result.async) await result.value;
		Atomics.store(this.signal, WAITING, 0);
	}
}

/** `Atomics.waitAsync` (ES2024; in Node since 16, missing from the ES2023 lib typings). */
const waitAsync = (
	Atomics as unknown as {
		waitAsync(
			array: Int32Array,
			index: number,
			value: number,
			timeoutMs?: number,
		): {readonly async: false; readonly value: string} | {readonly async: true; readonly value: Promise<string>};
	}
).waitAsync;
