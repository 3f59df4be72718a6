import type {JsonRpcId} from '../../types.js';

/** A dense slot with nothing in it. Stored values are frame indices (≥ 0) or `-index - 1` (< 0), never this. */
const EMPTY = -0x8000_0000;

/** Dense slots are added only while the dense part stays at most this many times the ids stored in it (plus {@link DENSE_SLACK}). */
const DENSE_SPREAD = 2;
const DENSE_SLACK = 1024;

/**
 * A map from JSON-RPC request id (number or string, never null) to an int32 (a frame index, or its
 * `-index - 1`), compact for the ids real clients send: counters from 0 or 1. Integer ids in
 * `[0, 2^31)` that fall near the ids already stored live in one growing `Int32Array` indexed by the id
 * (4 bytes per id, at most about {@link DENSE_SPREAD}× that with sparse ids); every other id (strings,
 * negatives, fractions, far outliers) and values outside int32 live in a `Map` keyed by the id itself
 * (so `"1"` and `1` stay apart, as J5 requires). For replay (docs/performance.md#replay), the J3 detector must remember every id of a
 * legacy session; as strings in a `Map` that was ~50 bytes per request and most of `view`'s growth.
 */
export class IdTable {
	private dense = new Int32Array(0);
	private denseCount = 0;
	private readonly sparse = new Map<JsonRpcId, number>();

	/** The value stored for `id`, or undefined. */
	get(id: Exclude<JsonRpcId, null>): number | undefined {
		if (isSlot(id) && id < this.dense.length) {
			const value = this.dense[id]!;
			if (value !== EMPTY) return value;
		}

		return this.sparse.size === 0 ? undefined : this.sparse.get(id);
	}

	/** Store `value` (an integer) for `id`, replacing what was there. */
	set(id: Exclude<JsonRpcId, null>, value: number): void {
		if (isSlot(id) && value > EMPTY && value <= 0x7fff_ffff && this.makeRoom(id)) {
			if (this.dense[id] === EMPTY) this.denseCount += 1;
			this.dense[id] = value;
			if (this.sparse.size > 0) this.sparse.delete(id);
			return;
		}

		if (isSlot(id)) this.clearSlot(id);
		this.sparse.set(id, value);
	}

	/** Forget `id`. */
	delete(id: Exclude<JsonRpcId, null>): void {
		if (isSlot(id)) this.clearSlot(id);
		if (this.sparse.size > 0) this.sparse.delete(id);
	}

	/** Forget every id whose value satisfies `drop`. */
	deleteWhere(drop: (value: number) => boolean): void {
		for (let id = 0; id < this.dense.length; id++) {
			const value = this.dense[id]!;
			if (value !== EMPTY && drop(value)) {
				this.dense[id] = EMPTY;
				this.denseCount -= 1;
			}
		}

		for (const [id, value] of this.sparse) if (drop(value)) this.sparse.delete(id);
	}

	private clearSlot(id: number): void {
		if (id < this.dense.length && this.dense[id] !== EMPTY) {
			this.dense[id] = EMPTY;
			this.denseCount -= 1;
		}
	}

	/** Grow the dense part to hold slot `id` if it stays dense enough; false when `id` belongs in the map. */
	private makeRoom(id: number): boolean {
		if (id < this.dense.length) return true;
		if (id >= DENSE_SPREAD * (this.denseCount + 1) + DENSE_SLACK) return false;
		let length = Math.max(64, this.dense.length);
		while (length <= id) length *= 2;
		const grown = new Int32Array(length).fill(EMPTY);
		grown.set(this.dense);
		this.dense = grown;
		return true;
	}
}

/** True for an id that can have a dense slot: an integer in `[0, 2^31)`. */
function isSlot(id: JsonRpcId): id is number {
	return typeof id === 'number' && Number.isInteger(id) && id >= 0 && id < 0x8000_0000;
}
