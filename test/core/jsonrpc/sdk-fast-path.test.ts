import fc from 'fast-check';
import {CallToolResultSchema} from '@modelcontextprotocol/sdk/types.js';
import {describe, expect, it} from 'vitest';
import {isPlainTextCallResult, tsSdkResult} from '../../../src/core/jsonrpc/sdk-schemas.js';

type Json = ReturnType<typeof JSON.parse>;
const textItem = fc.record({type: fc.constant('text'), text: fc.string()});
const plain = fc.record(
	{content: fc.array(textItem, {maxLength: 3}), isError: fc.boolean()},
	{requiredKeys: ['content']},
) as fc.Arbitrary<Record<string, Json>>;

/** One step off the plain text shape: a key of the result or of one item added, changed or removed. */
const step = fc.oneof(
	fc.record({
		itemKey: fc.constantFrom('type', 'text', 'annotations', '_meta', 'data', 'mimeType'),
		value: fc.jsonValue(),
	}),
	fc.record({itemKey: fc.constantFrom('type', 'text'), remove: fc.constant(true)}),
	fc.record({
		itemKey: fc.constant('type'),
		value: fc.constantFrom('image', 'audio', 'resource', 'resource_link', 'TEXT'),
	}),
	fc.record({item: fc.jsonValue()}),
	fc.record({key: fc.constantFrom('content', 'isError', 'structuredContent', '_meta', 'extra'), value: fc.jsonValue()}),
	fc.record({key: fc.constantFrom('content', 'isError'), remove: fc.constant(true)}),
);

/** Apply `steps` to a copy of `result` (an item step to its first item, when it has one). */
function offBy(result: Record<string, Json>, steps: readonly Record<string, Json>[]): Json {
	const out: Json = structuredClone(result);
	for (const s of steps) {
		const items = Array.isArray(out.content) ? out.content : undefined;
		if ('itemKey' in s && items?.[0] !== undefined && typeof items[0] === 'object' && items[0] !== null) {
			if (s.remove) delete items[0][s.itemKey];
			else items[0][s.itemKey] = s.value;
		} else if ('item' in s && items !== undefined) items.push(s.item);
		else if ('key' in s) {
			if (s.remove) delete out[s.key];
			else out[s.key] = s.value;
		}
	}
	return out;
}

/** CallToolResults: the plain text shape, and results one or two steps off it, and any JSON. */
const result = fc.oneof(
	{weight: 2, arbitrary: plain},
	{weight: 6, arbitrary: fc.tuple(plain, fc.array(step, {minLength: 1, maxLength: 2})).map(([r, s]) => offBy(r, s))},
	{weight: 1, arbitrary: fc.jsonValue()},
);

describe('isPlainTextCallResult (the fast path of tsSdkResult for tools/call)', () => {
	it('never says true where CallToolResultSchema rejects, on plain and near-plain results (property)', () => {
		fc.assert(
			fc.property(result, (value) => {
				// As a capture carries it: parsed from JSON text.
				const parsed: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
				if (isPlainTextCallResult(parsed)) expect(CallToolResultSchema.safeParse(parsed).success).toBe(true);
			}),
			{numRuns: 3000},
		);
	});

	it('takes the shape most tool calls answer with, and leaves anything else to zod', () => {
		expect(isPlainTextCallResult({content: [{type: 'text', text: 'hi'}]})).toBe(true);
		expect(isPlainTextCallResult({content: [], isError: true})).toBe(true);
		expect(isPlainTextCallResult({content: [{type: 'text', text: 'hi', annotations: {priority: 2}}]})).toBe(false);
		expect(isPlainTextCallResult({content: [{type: 'text', text: 1}]})).toBe(false);
		expect(isPlainTextCallResult({content: [{type: 'text', text: 'a'}], isError: 'yes'})).toBe(false);
		expect(isPlainTextCallResult({content: [{type: 'text', text: 'a'}], _meta: {}})).toBe(false);
		expect(isPlainTextCallResult({isError: false})).toBe(false);
		expect(isPlainTextCallResult(JSON.parse('{"content":[{"type":"text","text":"a","__proto__":{}}]}'))).toBe(false);
	});

	it('answers as zod does through tsSdkResult: accepted results give no issues, rejected ones the same issues', () => {
		expect(tsSdkResult('tools/call', '2025-11-25', {content: [{type: 'text', text: 'hi'}]})).toBeUndefined();
		expect(tsSdkResult('tools/call', '2025-11-25', {content: [{type: 'text', text: 1}]})).toEqual([
			{path: 'content.0', message: 'Invalid input'},
		]);
	});
});
