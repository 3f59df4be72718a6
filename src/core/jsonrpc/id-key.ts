import type {JsonRpcId} from '../types.js';

/**
 * A map key for a JSON-RPC id that keeps the types apart, so `"1"` never matches `1`: the receiver must
 * echo the id unchanged (J5), and a client that matches by value type (VS Code) hangs on a changed type.
 */
export const idKey = (id: JsonRpcId): string => (typeof id === 'string' ? `s:${id}` : `n:${String(id)}`);

/**
 * A non-null JSON-RPC id as a `Map` key: the id itself. A `Map` matches keys as {@link idKey} spells
 * them (SameValueZero: `1` and `"1"` apart, `-0` as `0`, test/core/jsonrpc/id-key.test.ts), without a new
 * string to hash per lookup, which the per-frame maps (the correlator, the `tools/call` trackers) paid on
 * every message (docs/performance.md#replay).
 */
export type IdMapKey = string | number;
