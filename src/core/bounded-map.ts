/**
 * A `Map` that holds at most `limit` keys: setting a new key when it is full first forgets the oldest key
 * (the one inserted longest ago; setting a key that is present keeps its place, as in a `Map`). The same
 * as `map.set(k, v); if (map.size > limit) map.delete(map.keys().next().value)`, without that
 * `keys().next()`: after many deletions at its front a V8 `Map` iterator steps over every deleted slot
 * until the table is rebuilt, a few µs per frame on the replay hot path (docs/performance.md#replay). The order of the
 * keys is kept in a ring of `limit` slots.
 */
export class BoundedMap<K, V> {
	private readonly map = new Map<K, V>();
	private readonly ring: K[] = [];
	private head = 0;

	/** @param limit the most keys held, ≥ 1 */
	constructor(private readonly limit: number) {}

	/** The number of keys held. */
	get size(): number {
		return this.map.size;
	}

	get(key: K): V | undefined {
		return this.map.get(key);
	}

	has(key: K): boolean {
		return this.map.has(key);
	}

	/** Store `value` under `key`; a new key beyond `limit` pushes out the oldest one. */
	set(key: K, value: V): void {
		// Set first: the size tells whether the key is new (one lookup fewer than `has` then `set`).
		const size = this.map.size;
		this.map.set(key, value);
		if (this.map.size === size) return;
		if (size < this.limit) {
			this.ring.push(key);
			return;
		}

		this.map.delete(this.ring[this.head]!);
		this.ring[this.head] = key;
		this.head = this.head + 1 === this.limit ? 0 : this.head + 1;
	}
}

/**
 * The `limit` keys touched most recently (distinct keys; touching a key again makes it the most recent),
 * as an LRU `Map` would hold them (delete, set, drop the oldest), but without a `keys().next()` per touch
 * on the hot path: the oldest keys are dropped in batches, and each key holds the count of its last
 * touch, so that {@link RecentKeys.has} can tell whether it is still among the most recent.
 */
export class RecentKeys {
	private readonly last = new Map<string, number>();
	private touches = 0;

	/** @param limit how many distinct keys count as recent, ≥ 1 */
	constructor(private readonly limit: number) {}

	/** Make `key` the most recent. */
	touch(key: string): void {
		// Deleted and set again, the map's order is the order of the last touches: the oldest come first.
		this.last.delete(key);
		this.last.set(key, ++this.touches);
		if (this.last.size >= 2 * this.limit) {
			let drop = this.last.size - this.limit;
			for (const k of this.last.keys()) {
				if (drop-- === 0) break;
				this.last.delete(k);
			}
		}
	}

	/** True when `key` is among the `limit` most recently touched distinct keys. */
	has(key: string): boolean {
		const mine = this.last.get(key);
		if (mine === undefined) return false;
		let newer = 0;
		for (const n of this.last.values()) if (n > mine) newer++;
		return newer < this.limit;
	}
}

/**
 * {@link RecentKeys} of items whose keys are made only when asked: `touch` keeps the item, and the keys
 * are made when {@link RecentKeyLog.has} is called or when `4 × limit` touches have piled up, newest
 * first and only until `limit` distinct keys are found (older touches cannot be among the most recent).
 * The same answers as `RecentKeys` given `keyOf(item)` at each touch (test/core/bounded-map.test.ts), at
 * a fraction of the keys: `message-on-stderr` made a key string per message and asks only when a JSON-RPC
 * message shows up on stderr (docs/performance.md#replay).
 */
export class RecentKeyLog<T> {
	/** Touches not yet folded into {@link RecentKeyLog.recent}, oldest first. */
	private log: T[] = [];
	/** The most recently touched distinct keys (at most `limit`) as of the last fold, newest first. */
	private recent: string[] = [];

	/**
	 * @param limit how many distinct keys count as recent, ≥ 1
	 * @param keyOf an item's key (pure)
	 */
	constructor(
		private readonly limit: number,
		private readonly keyOf: (item: T) => string,
	) {}

	/** Make `item`'s key the most recent. */
	touch(item: T): void {
		this.log.push(item);
		if (this.log.length >= 4 * this.limit) this.fold();
	}

	/** True when `key` is among the `limit` most recently touched distinct keys. */
	has(key: string): boolean {
		this.fold();
		return this.recent.includes(key);
	}

	private fold(): void {
		if (this.log.length === 0) return;
		const seen = new Set<string>();
		const recent: string[] = [];
		const add = (key: string): void => {
			if (seen.has(key)) return;
			seen.add(key);
			recent.push(key);
		};
		for (let i = this.log.length - 1; i >= 0 && recent.length < this.limit; i--) add(this.keyOf(this.log[i]!));
		for (let i = 0; i < this.recent.length && recent.length < this.limit; i++) add(this.recent[i]!);
		this.recent = recent;
		this.log = [];
	}
}
