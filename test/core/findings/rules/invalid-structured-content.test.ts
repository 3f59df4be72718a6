import {describe, expect, it} from 'vitest';
import {bytesOf, findingsOf, handshake, lengthOn, request, result, run, type Step} from '../exchange.js';
import {ruleTester} from '../rule-tester.js';

const outputSchema = {type: 'object', properties: {temp: {type: 'number'}}, required: ['temp']};
const listing = (schema: unknown = outputSchema) =>
	result(1, {
		tools: [{name: 'get_weather', inputSchema: {type: 'object'}, ...(schema === null ? {} : {outputSchema: schema})}],
	});
const call = (id = 2) => request(id, 'tools/call', {name: 'get_weather', arguments: {}});
const text = [{type: 'text', text: '21'}];
const listed = (schema: unknown = outputSchema): Step[] => [
	...handshake(),
	['stdin', 12, request(1, 'tools/list')],
	['stdout', 13, listing(schema)],
	['stdin', 20, call()],
];
const before = listed();
const at = lengthOn('stdout', before);

ruleTester('invalid-structured-content', {
	valid: [
		{
			name: 'structuredContent that matches',
			steps: [...before, ['stdout', 21, result(2, {content: text, structuredContent: {temp: 21}})]],
		},
		{
			name: 'an isError result without structuredContent (both SDKs skip the check)',
			steps: [...before, ['stdout', 21, result(2, {content: text, isError: true})]],
		},
		{
			name: 'a tool without outputSchema',
			steps: [...listed(null), ['stdout', 21, result(2, {content: text})]],
		},
		{
			name: 'a call of a tool that was never listed',
			steps: [...handshake(), ['stdin', 20, call()], ['stdout', 21, result(2, {content: text})]],
		},
	],
	invalid: [
		{
			name: 'no structuredContent',
			steps: [...before, ['stdout', 21, result(2, {content: text})]],
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: at,
					byteLength: bytesOf(result(2, {content: text})).length,
					detail: {method: 'tools/call', name: 'get_weather', reason: 'missing'},
				},
			],
		},
		{
			name: 'structuredContent the schema rejects',
			steps: [...before, ['stdout', 21, result(2, {content: text, structuredContent: {temp: '21'}})]],
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: at,
					byteLength: bytesOf(result(2, {content: text, structuredContent: {temp: '21'}})).length,
					detail: {name: 'get_weather', reason: 'mismatch', sdkError: 'data/temp must be number'},
				},
			],
		},
	],
});

describe('invalid-structured-content words and clients', () => {
	it('says what the SDK clients throw, and both fail the call', () => {
		const session = run([...before, ['stdout', 21, result(2, {content: text, structuredContent: {temp: '21'}})]]);
		const [finding] = findingsOf(session, 'invalid-structured-content');
		expect(finding!.message).toBe(
			'tools/call "get_weather" returned structuredContent its outputSchema rejects: data/temp must be number; the SDK clients fail the call',
		);
		expect(finding!.impact.map((i) => `${i.client}:${i.reaction}`)).toEqual([
			'ts-sdk-v1:drop-log',
			'ts-sdk-v2:drop-log',
			'python-sdk:drop-log',
			'vscode:unknown',
			'rmcp:unknown',
			'cursor:unknown',
		]);
		const clients = session.getSnapshot().summary.clients!;
		expect(clients.find((c) => c.client === 'ts-sdk-v1')).toMatchObject({
			outcome: 'fails',
			decidedBy: ['invalid-structured-content'],
		});
		expect(clients.find((c) => c.client === 'python-sdk')).toMatchObject({
			outcome: 'fails',
			connects: true,
			toolsListed: true,
		});
		expect(session.getSnapshot().summary.verdict).toBe('fail');
	});
});
