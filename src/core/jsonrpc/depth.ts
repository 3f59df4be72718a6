/**
 * How deep a JSON value nests, measured without deep recursion, so that no walk of a frame's value
 * (classification, NDJSON, redaction, report, TUI) ever meets more nesting than it can take.
 *
 * The limit is the deepest nesting the Python SDK reads: `jsonrpc_message_adapter.validate_json`
 * (pydantic-core's JSON parser, mcp 2.3.0) accepts 201 levels of `{`/`[` and fails the line with
 * "recursion limit exceeded" at 202, and the client logs and drops it (measured). V8's `JSON.parse`
 * and the TS SDK schema take any depth (20,000 levels measured with SDK 1.32).
 */
import type {ClientImpact, FindingDraft, StreamName} from '../types.js';

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

/**
 * The finding for a frame that nests deeper than {@link MAX_JSON_DEPTH}: `invalid-jsonrpc` with
 * `detail.reason: 'nesting'` (no new code: for a Python client it is a line that does not parse as a
 * JSON-RPC message). Evidence is the whole frame (`offset`, `byteLength` in bytes). The impact is what
 * was measured: the TS SDK reads it, the Python SDK logs and drops it; the rest is unknown.
 */
export function nestingDraft(
	frame: {readonly stream: StreamName; readonly offset: number; readonly byteLength: number; readonly tMs: number},
	frameIndex: number,
): FindingDraft {
	const impact: ClientImpact[] = [
		{client: 'ts-sdk-v1', reaction: 'ok', note: "V8's JSON.parse and the SDK schema take any depth"},
		{client: 'ts-sdk-v2', reaction: 'unknown', note: 'not established'},
		{
			client: 'python-sdk',
			reaction: 'drop-log',
			note: `pydantic-core stops at ${MAX_JSON_DEPTH} levels ("recursion limit exceeded"); the line is logged and dropped`,
		},
		{client: 'vscode', reaction: 'unknown', note: 'not established'},
		{client: 'rmcp', reaction: 'unknown', note: 'not established (serde_json stops at 128 levels by default)'},
		{client: 'cursor', reaction: 'unknown', note: 'not established'},
	];
	return {
		code: 'invalid-jsonrpc',
		stream: frame.stream,
		offset: frame.offset,
		byteLength: frame.byteLength,
		frameIndex,
		tMs: frame.tMs,
		message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels: the Python SDK rejects it; mcp-wire shows the deeper levels as a placeholder (the bytes are all there)`,
		detail: {
			reason: 'nesting',
			problem: `nested deeper than ${MAX_JSON_DEPTH} levels`,
			maxDepth: MAX_JSON_DEPTH,
			problems: ['nesting'],
			impact,
		},
	};
}
