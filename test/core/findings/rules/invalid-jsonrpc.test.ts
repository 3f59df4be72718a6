import {describe, expect, it} from 'vitest';
import {SDK_SCHEMAS} from '../../../../src/core/jsonrpc/sdk-schemas.js';
import {ruleTester} from '../rule-tester.js';
import {findingsOf, handshake, INIT, INITIALIZED, lengthOn, request, run, type Step} from '../exchange.js';
const NOTE = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

const LOG = '{"level":"info","msg":"ready"}\n';
ruleTester('invalid-jsonrpc', {
	valid: [{name: 'a notification', steps: [['stdout', 0, NOTE + '\n']]}],
	invalid: [
		{
			name: 'a structured log record',
			steps: [['stdout', 0, LOG]],
			findings: [
				{severity: 'error', stream: 'stdout', offset: 0, byteLength: LOG.length, detail: {reason: 'missing-jsonrpc'}},
			],
		},
		{
			name: 'a request id reused (J3)',
			steps: [...handshake(), ['stdin', 12, request(1, 'tools/list')], ['stdin', 13, request(1, 'tools/list')]],
			findings: [
				{
					severity: 'error',
					stream: 'stdin',
					offset: lengthOn('stdin', [...handshake(), ['stdin', 12, request(1, 'tools/list')]]),
					byteLength: JSON.stringify(request(1, 'tools/list')).length + 1,
					detail: {reason: 'duplicate-request-id', isInFlight: true},
				},
			],
		},
	],
});

/**
 * A Java server whose JSON-RPC library writes `"error":null` beside every result (the bytes it wrote). Real
 * clients, measured: the TS SDK 1.32 and 2.4 drop the line (strict schema) and time out; Codex 0.171 (rmcp)
 * skips it as an "unrecognized JSON-RPC message" and its handshake times out; the Python SDK 2.3 reads the
 * result and connects. Before, mcp-wire read the line as an error reply: Python "not established", rmcp
 * "not established", and the probe stopped after initialize.
 */
describe('invalid-jsonrpc: "error": null beside a result', () => {
	const INIT_REPLY =
		'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"java","version":"1"}},"error":null}\n';
	const LIST_REPLY =
		'{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]},"error":null}\n';
	const steps: Step[] = [
		['stdin', 0, INIT],
		['stdout', 10, INIT_REPLY],
		['stdin', 11, INITIALIZED],
		['stdin', 12, request(1, 'tools/list')],
		['stdout', 13, LIST_REPLY],
		['close', 20],
		['exit', 21],
	];

	it('is a result with a result-and-error problem on "error", and each client reads it as measured', () => {
		const session = run(steps, {schemas: SDK_SCHEMAS});
		const found = findingsOf(session, 'invalid-jsonrpc');
		expect(found.map((f) => [f.offset, f.byteLength, f.detail?.['reason'], f.detail?.['key']])).toEqual([
			[0, INIT_REPLY.length, 'result-and-error', 'error'],
			[INIT_REPLY.length, LIST_REPLY.length, 'result-and-error', 'error'],
		]);
		expect(found[0]!.message).toBe(
			'valid JSON but not a valid MCP JSON-RPC message: "error": null beside "result"; a success response has no "error" member',
		);
		expect(found[0]!.impact.map((i) => `${i.client}:${i.reaction}`)).toEqual([
			'ts-sdk-v1:drop-log',
			'ts-sdk-v2:drop-log',
			'python-sdk:ok',
			'vscode:ok',
			'rmcp:skip',
			'cursor:unknown',
		]);
		const snapshot = session.getSnapshot();
		expect(snapshot.frames.filter((f) => f.stream === 'stdout').map((f) => f.kind)).toEqual(['response', 'response']);
		const outcome = Object.fromEntries(snapshot.summary.clients!.map((c) => [c.client, [c.outcome, c.connects]]));
		expect(outcome).toEqual({
			'ts-sdk-v1': ['fails', false],
			'ts-sdk-v2': ['fails', false],
			'python-sdk': ['works', true],
			vscode: ['works', true],
			rmcp: ['fails', false],
			cursor: ['unknown', null],
		});
		expect(snapshot.summary.verdict).toBe('fail');
	});
});
