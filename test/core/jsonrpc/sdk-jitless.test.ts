// The probe's TS SDK checks parse with zod's `jitless` option (src/core/jsonrpc/sdk-schemas.ts: the eval-based
// fast path cost a short-lived probe more than it saved). A verdict is a promise: the SDK client parses with
// the fast path, so both must give the same result (success, parsed data, every issue) on every JSON line of
// the field cases and on generated messages and results, for every schema the checks use.
import {
	CallToolResultSchema,
	CompleteResultSchema,
	EmptyResultSchema,
	GetPromptResultSchema,
	InitializeResultSchema,
	JSONRPCMessageSchema,
	ListPromptsResultSchema,
	ListResourcesResultSchema,
	ListResourceTemplatesResultSchema,
	ListToolsResultSchema,
	ReadResourceResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {fieldCaseJsonLines} from '../../fixtures/field-cases/json-lines.js';
import {messageArb, sdkResultArb} from './arbitraries.js';

type Schema = {
	safeParse(
		value: unknown,
		params?: {jitless?: boolean},
	): {success: boolean; data?: unknown; error?: {issues: unknown[]}};
};
const RESULT_SCHEMAS: readonly Schema[] = [
	EmptyResultSchema,
	ListToolsResultSchema,
	CallToolResultSchema,
	ListPromptsResultSchema,
	GetPromptResultSchema,
	ListResourcesResultSchema,
	ListResourceTemplatesResultSchema,
	ReadResourceResultSchema,
	CompleteResultSchema,
	InitializeResultSchema,
];

/** A parse as the test compares it: success, the data, the issues (zod's own objects, compared deeply). */
const outcome = (schema: Schema, value: unknown, jitless: boolean): unknown => {
	const parsed = jitless ? schema.safeParse(value, {jitless: true}) : schema.safeParse(value);
	return parsed.success ? {success: true, data: parsed.data} : {success: false, issues: parsed.error?.issues};
};

/** Each schema in both modes, a fresh value each time (a parse may not change its input, but it is not trusted to). */
function expectSame(value: unknown): void {
	const copy = (): unknown => structuredClone(value);
	expect(outcome(JSONRPCMessageSchema, copy(), true)).toEqual(outcome(JSONRPCMessageSchema, copy(), false));
	const result =
		value !== null && typeof value === 'object' && 'result' in value ? (value as {result: unknown}).result : value;
	for (const schema of RESULT_SCHEMAS)
		expect(outcome(schema, structuredClone(result), true)).toEqual(outcome(schema, structuredClone(result), false));
}

describe('zod with jitless parses the TS SDK schemas as the SDK client (fast path) does', () => {
	it('on every JSON line of the field cases', () => {
		let lines = 0;
		let rejected = 0;
		let rejectedResults = 0;
		for (const {message} of fieldCaseJsonLines()) {
			lines += 1;
			expectSame(message);
			if (!JSONRPCMessageSchema.safeParse(message).success) rejected += 1;
			const result =
				message !== null && typeof message === 'object' && 'result' in message
					? (message as {result: unknown}).result
					: message;
			if (!ListToolsResultSchema.safeParse(result).success) rejectedResults += 1;
		}
		expect(lines).toBeGreaterThan(100);
		// Lines the SDK rejects are among them: the issues are compared, not only the successes.
		expect(rejected).toBeGreaterThanOrEqual(1);
		expect(rejectedResults).toBeGreaterThan(20);
	});

	it('on generated JSON-RPC messages and generated results', () => {
		fc.assert(
			fc.property(messageArb, (message) => expectSame(message)),
			{numRuns: 1000},
		);
		let rejected = 0;
		fc.assert(
			fc.property(sdkResultArb, (result) => {
				expectSame({jsonrpc: '2.0', id: 1, result});
				if (!ListToolsResultSchema.safeParse(result).success) rejected += 1;
			}),
			{numRuns: 1000},
		);
		expect(rejected).toBeGreaterThan(100);
	});
});
