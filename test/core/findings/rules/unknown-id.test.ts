import {describe, expect, it} from 'vitest';
import {INIT, INITIALIZED, LIST, line, run} from '../harness.js';
import {ruleTester} from '../rule-tester.js';
import {handshake, lengthOn, request, result} from '../exchange.js';

describe('unknown-id (J5): an id echoed with another type', () => {
	it('"0" for request 0 matches for the TS and Python SDK clients: and for rmcp (Codex 0.171); VS Code not established, so the verdict is not fail', () => {
		const init = line({
			jsonrpc: '2.0',
			id: '0',
			result: {protocolVersion: '2025-11-25', capabilities: {tools: {}}, serverInfo: {name: 's', version: '1'}},
		});
		const list = line({jsonrpc: '2.0', id: '1', result: {tools: []}});
		const session = run([
			['stdin', 0, INIT],
			['stdout', 5, init],
			['stdin', 6, INITIALIZED + LIST(1)],
			['stdout', 8, list],
		]);
		const snapshot = session.getSnapshot();
		expect(snapshot.findings.map((f) => `${f.code}@${f.stream}:${f.offset}:${f.severity}`)).toEqual([
			'unknown-id@stdout:0:warning',
			`unknown-id@stdout:${init.length}:warning`,
		]);
		const [first] = snapshot.findings;
		expect(first!.detail).toEqual({id: '0', reason: 'id-type-changed', requestId: 0});
		expect(first!.message).toBe(
			'a response echoes id 0 as the string "0": the TS and Python SDK clients and current rmcp match it anyway (VS Code: not established)',
		);
		expect(Object.fromEntries(first!.impact.map((i) => [i.client, i.reaction]))).toEqual({
			'ts-sdk-v1': 'ok',
			'ts-sdk-v2': 'ok',
			'python-sdk': 'ok',
			vscode: 'unknown',
			rmcp: 'ok',
			cursor: 'unknown',
		});
		// Correlated as the answers (handshake done, tools counted), no unanswered-request.
		expect(snapshot.summary.tools).toBe(0);
		// The real TS SDK client works with this server (docs/clients.md), so it must not be called broken:
		// VS Code's reaction is not established (never run against it), rmcp is not mainstream.
		const outcome = Object.fromEntries((snapshot.summary.clients ?? []).map((c) => [c.client, c.outcome]));
		expect(outcome['ts-sdk-v1']).toBe('works');
		expect(outcome['python-sdk']).toBe('works');
		expect(outcome['rmcp']).toBe('works');
		expect(outcome['vscode']).toBe('unknown');
		expect(snapshot.summary.verdict).toBe('warn');
	});

	it('an id coerced to another value (F30 kind) stays an unknown-id error', () => {
		const session = run([
			['stdin', 0, INIT],
			['stdout', 5, line({jsonrpc: '2.0', id: '7', result: {}})],
		]);
		expect(session.getSnapshot().findings.map((f) => `${f.code}:${f.severity}`)).toEqual([
			'unknown-id:error',
			'unanswered-request:error',
		]);
	});
});

ruleTester('unknown-id', {
	valid: [
		{
			name: 'the id echoed unchanged',
			steps: [...handshake(), ['stdin', 12, request(1, 'ping')], ['stdout', 13, result(1)]],
		},
	],
	invalid: [
		{
			name: 'a response to an id nobody sent',
			steps: [...handshake(), ['stdin', 12, request(1, 'ping')], ['stdout', 13, result(7)]],
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: lengthOn('stdout', handshake()),
					byteLength: JSON.stringify(result(7)).length + 1,
					detail: {id: 7},
				},
			],
		},
	],
});
