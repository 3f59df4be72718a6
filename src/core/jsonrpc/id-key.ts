import type {JsonRpcId} from '../types.js';

/**
 * A map key for a JSON-RPC id that keeps the types apart, so `"1"` never matches `1`: the receiver must
 * echo the id unchanged (J5), and a client that matches by value type (VS Code) hangs on a changed type.
 */
export const idKey = (id: JsonRpcId): string => (typeof id === 'string' ? `s:${id}` : `n:${String(id)}`);
