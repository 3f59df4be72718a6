import {describe, expect, it} from 'vitest';
import {checkToolSchema, plainSchema} from '../../../../src/core/jsonrpc/json-schema.js';
import {bytesOf, handshake, lengthOn, request, result, run, findingsOf, type Step} from '../exchange.js';
import {ruleTester} from '../rule-tester.js';

const before: Step[] = [...handshake(), ['stdin', 12, request(1, 'tools/list')]];
const at = lengthOn('stdout', before);
const listing = (tools: unknown[]) => result(1, {tools});
const badOutput = listing([
	{name: 'ok', inputSchema: {type: 'object'}},
	{name: 'search', inputSchema: {type: 'object'}, outputSchema: {type: 'object', properties: {hits: {type: 'strnig'}}}},
]);
const badInput = listing([{name: 'search', inputSchema: {type: 'object', required: ['q', 'q']}}]);
const metaOnly = listing([
	{
		name: 'search',
		inputSchema: {type: 'object'},
		outputSchema: {type: 'object', properties: {q: {type: 'string', minLength: -1}}},
	},
]);

ruleTester('invalid-tool-schema', {
	valid: [
		{
			name: 'plain and $ref schemas that resolve',
			steps: [
				...before,
				[
					'stdout',
					13,
					listing([
						{
							name: 'a',
							inputSchema: {type: 'object', properties: {q: {type: 'string', description: 'x'}}, required: ['q']},
						},
						{
							name: 'b',
							inputSchema: {type: 'object', $defs: {s: {type: 'string'}}, properties: {q: {$ref: '#/$defs/s'}}},
						},
						{
							name: 'c',
							inputSchema: {type: 'object'},
							outputSchema: {type: 'object', properties: {n: {type: 'integer', pattern: '^a'}}},
						},
					]),
				],
			],
		},
		{
			name: "a non-object schema is invalid-result's",
			steps: [...before, ['stdout', 13, listing([{name: 'a', inputSchema: {type: 'strnig'}}])]],
		},
	],
	invalid: [
		{
			name: 'an outputSchema the TS SDK cannot compile',
			steps: [...before, ['stdout', 13, badOutput]],
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: at,
					byteLength: bytesOf(badOutput).length,
					detail: {
						index: 1,
						name: 'search',
						member: 'outputSchema',
						path: '/properties/hits/type',
						sdkError: 'type must be JSONType or JSONType[]: strnig',
					},
				},
			],
		},
		{
			name: 'an inputSchema with a repeated required name',
			steps: [...before, ['stdout', 13, badInput]],
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: at,
					byteLength: bytesOf(badInput).length,
					detail: {member: 'inputSchema', path: '/required'},
				},
			],
		},
		{
			name: 'an outputSchema only the meta-schema rejects',
			steps: [...before, ['stdout', 13, metaOnly]],
			findings: [
				{
					severity: 'warning',
					stream: 'stdout',
					offset: at,
					byteLength: bytesOf(metaOnly).length,
					detail: {member: 'outputSchema', path: '/properties/q/minLength'},
				},
			],
		},
	],
});

describe('invalid-tool-schema words and clients', () => {
	it('names the member at fault and the SDK error; the TS SDK client fails', () => {
		const [finding] = findingsOf(run([...before, ['stdout', 13, badOutput]]), 'invalid-tool-schema');
		expect(finding!.message).toBe(
			'tools[1].outputSchema at `/properties/hits/type` of "search" is not valid JSON Schema 2020-12: must be equal to one of the allowed values; the TS SDK client\'s listTools() throws `type must be JSONType or JSONType[]: strnig`',
		);
		expect(finding!.hint).toMatch(/^Fix tools\[1\]\.outputSchema at `\/properties\/hits\/type`/);
		expect(finding!.impact.find((i) => i.client === 'ts-sdk-v1')!.reaction).toBe('drop-log');
		expect(finding!.impact.find((i) => i.client === 'python-sdk')!.reaction).toBe('ok');
	});
});

describe('plainSchema', () => {
	it('accepts only what needs no validator', () => {
		expect(
			plainSchema({type: 'object', properties: {a: {type: ['string', 'null'], enum: ['x']}}, required: ['a']}),
		).toBe(true);
		expect(plainSchema({type: 'object', properties: {a: {$ref: '#/x'}}})).toBe(false);
		expect(plainSchema({type: 'object', properties: {a: {type: 'strnig'}}})).toBe(false);
	});
	it('every schema it accepts, Ajv accepts too', () => {
		for (const schema of [
			{type: 'object', additionalProperties: false},
			{type: 'object', properties: {a: {anyOf: [{type: 'string'}, {type: 'null'}], default: null}}},
			{
				type: 'object',
				properties: {n: {type: 'number', minimum: 0, multipleOf: 0.5}},
				$schema: 'http://json-schema.org/draft-07/schema#',
			},
		]) {
			expect(plainSchema(schema)).toBe(true);
			expect(
				checkToolSchema('outputSchema', {
					...schema,
					properties: {...(schema as {properties?: object}).properties, z: {$comment: 'force Ajv', not: {$ref: '#'}}},
				}),
			).toBeUndefined();
		}
	});
	it('does not judge a dialect it does not know', () => {
		expect(
			checkToolSchema('inputSchema', {
				$schema: 'https://json-schema.org/draft/2019-09/schema',
				type: 'object',
				required: 'q',
			}),
		).toBeUndefined();
	});
});
