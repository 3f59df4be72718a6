// The TS SDK checks parse jitless for the first parses of a process (a probe's few) and with zod's compiled
// parsers after (a replay's million; src/core/jsonrpc/sdk-schemas.ts). Across that switch every verdict and
// issue must stay the same. This file has its own module instance, so its first checks are the jitless ones.
import {describe, expect, it} from 'vitest';
import {tsSdkInitializeResult, tsSdkResult, tsSdkVerdict} from '../../../src/core/jsonrpc/sdk-schemas.js';

const MESSAGES: unknown[] = [
	{jsonrpc: '2.0', id: 1, method: 'tools/list'},
	{jsonrpc: '2.0', id: 1, result: {tools: []}},
	{jsonrpc: '2.0', method: 'notifications/initialized'},
	{jsonrpc: '2.0', id: 2, error: {code: -32601, message: 'no'}},
	{id: 1, method: 'tools/list'},
	{jsonrpc: '2.0', id: {}, method: 'x'},
	{jsonrpc: '2.0', id: 1, error: {code: 'bad'}},
	{jsonrpc: '1.0', id: 1, result: {}},
	[1, 2],
	'text',
];
const RESULTS: Array<[string, unknown]> = [
	['tools/list', {tools: [{name: 't', inputSchema: {type: 'object'}}]}],
	['tools/list', {tools: [{name: 't'}]}],
	['tools/list', {tools: 'none'}],
	['tools/call', {content: [{type: 'text', text: 'ok'}]}],
	['tools/call', {content: [{type: 'text'}]}],
	['ping', {}],
	['ping', {extra: 1}],
];
const INITS: unknown[] = [
	{protocolVersion: '2025-06-18', capabilities: {}, serverInfo: {name: 's', version: '1'}},
	{protocolVersion: '2025-06-18', capabilities: {}},
	{},
];

/** Every check once, as plain data. */
const verdicts = (): unknown => ({
	messages: MESSAGES.map((m) => tsSdkVerdict(m)),
	results: RESULTS.map(([method, result]) => tsSdkResult(method, '2025-06-18', result)),
	inits: INITS.map((r) => tsSdkInitializeResult(r)),
});

describe('TS SDK checks: jitless first, compiled after', () => {
	it('give the same verdicts and issues before and after the switch (300 parses later)', () => {
		const first = verdicts();
		for (let i = 0; i < 300; i++) tsSdkVerdict(MESSAGES[i % MESSAGES.length]);
		const later = verdicts();
		expect(later).toEqual(first);
		const shown = first as {messages: Array<{accepted: boolean}>; results: unknown[]; inits: unknown[]};
		// Real verdicts both ways: some accepted, some rejected with an issue.
		expect(shown.messages.map((v) => v.accepted)).toEqual([
			true,
			true,
			true,
			true,
			false,
			false,
			false,
			false,
			false,
			false,
		]);
		expect(shown.results.map((r) => r === undefined)).toEqual([true, false, false, true, false, true, false]);
		expect(shown.inits.map((r) => r === undefined)).toEqual([true, false, false]);
	});
});
