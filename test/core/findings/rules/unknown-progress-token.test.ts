import {describe, expect, it} from 'vitest';
import {bytesOf, handshake, lengthOn, request, result, run, findingsOf, type Step} from '../exchange.js';
import {ruleTester} from '../rule-tester.js';

const progress = (progressToken: unknown, value = 10) => ({
	jsonrpc: '2.0',
	method: 'notifications/progress',
	params: {progressToken, progress: value},
});
const withToken = (id: number, token: unknown) => request(id, 'tools/call', {name: 'x', _meta: {progressToken: token}});
const own: Step[] = [...handshake(), ['stdin', 12, request(1, 'tools/list')]];
const F46_TOKEN = '7724c5f0-30e0';

ruleTester('unknown-progress-token', {
	valid: [
		{
			name: "progress under the request's token, before its response",
			steps: [
				...handshake(),
				['stdin', 12, withToken(1, 'abc')],
				['stdout', 13, progress('abc')],
				['stdout', 14, result(1)],
			],
		},
		{name: 'an integer token', steps: [...handshake(), ['stdin', 12, withToken(1, 7)], ['stdout', 13, progress(7)]]},
	],
	invalid: [
		{
			name: 'a token of its own (F46)',
			steps: [...own, ['stdout', 13, progress(F46_TOKEN)]],
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: lengthOn('stdout', own),
					byteLength: bytesOf(progress(F46_TOKEN)).length,
					detail: {token: F46_TOKEN, reason: 'unknown'},
				},
			],
		},
		{
			name: 'after the request was answered',
			steps: [
				...handshake(),
				['stdin', 12, withToken(1, 'abc')],
				['stdout', 13, result(1)],
				['stdout', 14, progress('abc', 20)],
			],
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: lengthOn('stdout', handshake()) + bytesOf(result(1)).length,
					byteLength: bytesOf(progress('abc', 20)).length,
					detail: {token: 'abc', reason: 'completed'},
				},
			],
		},
		{
			name: 'the string "7" is not the integer 7',
			steps: [...handshake(), ['stdin', 12, withToken(1, 7)], ['stdout', 13, progress('7')]],
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: lengthOn('stdout', handshake()),
					byteLength: bytesOf(progress('7')).length,
					detail: {token: '7'},
				},
			],
		},
	],
});

describe('unknown-progress-token words and clients', () => {
	it('says no request carried it; Cursor drops the transport, the TS SDK logs it, the Python SDK ignores it', () => {
		const [finding] = findingsOf(run([...own, ['stdout', 13, progress(F46_TOKEN)]]), 'unknown-progress-token');
		expect(finding!.message).toBe(`notifications/progress for token "${F46_TOKEN}", which no request carried`);
		expect(finding!.impact.map((i) => `${i.client}:${i.reaction}`)).toEqual([
			'ts-sdk-v1:skip-log',
			'ts-sdk-v2:skip',
			'python-sdk:skip',
			'vscode:unknown',
			'rmcp:unknown',
			'cursor:fatal',
		]);
	});
});
