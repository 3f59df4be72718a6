/**
 * How deep a JSON value nests, measured without deep recursion, so that no walk of a frame's value
 * (classification, NDJSON, redaction, report, TUI) ever meets more nesting than it can take.
 *
 * The limit is the deepest nesting the Python SDK reads: `jsonrpc_message_adapter.validate_json`
 * (pydantic-core's JSON parser, mcp 2.3.0) accepts 201 levels of `{`/`[` and fails the line with
 * "recursion limit exceeded" at 202, and the client logs and drops it (measured). V8's `JSON.parse`
 * and the TS SDK schema take any depth (20,000 levels measured with SDK 1.32).
 */

/**
 * The deepest nesting (levels of `{` / `[`; a scalar is 0) mcp-wire keeps of a frame's parsed value;
 * past it a value is replaced by {@link NESTING_PLACEHOLDER} (see {@link cutNesting}).
 */
export const MAX_JSON_DEPTH = 201;

/** What stands for a value nested deeper than {@link MAX_JSON_DEPTH} in a cut frame value. */
export const NESTING_PLACEHOLDER = `[nested deeper than ${MAX_JSON_DEPTH} levels: see the bytes]`;

/**
 * A copy of `value` in which every object or array at nesting level `limit + 1` is replaced by
 * {@link NESTING_PLACEHOLDER}, so that it nests at most `limit` levels. The top levels (jsonrpc, id,
 * method, result's first members) are kept, so the frame still classifies and correlates as what it
 * is (the TS SDK reads such a frame); the exact bytes stay in the chunks. Recursion bounded by `limit`.
 */
export function cutNesting(value: unknown, limit: number = MAX_JSON_DEPTH): unknown {
	if (value === null || typeof value !== 'object') return value;
	if (limit <= 0) return NESTING_PLACEHOLDER;
	if (Array.isArray(value)) return value.map((item) => cutNesting(item, limit - 1));
	const out: Record<string, unknown> = {};
	for (const key in value) {
		const item = cutNesting((value as Record<string, unknown>)[key], limit - 1);
		// defineProperty: a "__proto__" key stays an own data member, as JSON.parse made it.
		Object.defineProperty(out, key, {value: item, enumerable: true, writable: true, configurable: true});
	}
	return out;
}

/**
 * True when `value` (a value `JSON.parse` returned) nests deeper than `limit` levels: `{}` and `[]`
 * are 1, `{"a": [1]}` is 2. Stops descending at `limit + 1`, so its recursion is bounded by the limit,
 * whatever the input; never throws.
 */
export function nestsDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
	return deeper(value, limit);
}

function deeper(value: unknown, budget: number): boolean {
	if (value === null || typeof value !== 'object') return false;
	if (budget <= 0) return true;
	if (Array.isArray(value)) {
		for (const item of value) if (item !== null && typeof item === 'object' && deeper(item, budget - 1)) return true;
		return false;
	}
	for (const key in value) {
		const item = (value as Record<string, unknown>)[key];
		if (item !== null && typeof item === 'object' && deeper(item, budget - 1)) return true;
	}
	return false;
}
