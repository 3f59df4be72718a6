import {describe, expect, it} from 'vitest';
import {INIT, INIT_OK, INITIALIZED, LIST, line, run} from '../harness.js';
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

describe("unknown-id (J5): an answer to the client's answer", () => {
	// A server that sends its own request (here ping, id 0), gets the client's answer and answers that
	// answer with an error: a naive dispatcher that replies to every message with an id. Run against the
	// real clients (TS SDK 1.x and 2.x connect, list tools and log `Received a response for an unknown
	// message ID`; Python SDK 2.3 connects and lists tools): no request is lost, so no client fails.
	const serverPing = line({jsonrpc: '2.0', id: 0, method: 'ping'});
	const clientAnswer = line({jsonrpc: '2.0', id: 0, result: {}});
	const answerToAnswer = line({jsonrpc: '2.0', id: 0, error: {code: -32601, message: 'Method not found'}});
	const tools = line({jsonrpc: '2.0', id: 1, result: {tools: []}});
	const steps = (): Parameters<typeof run>[0] => [
		['stdin', 0, INIT],
		['stdout', 5, INIT_OK + serverPing],
		['stdin', 6, clientAnswer + INITIALIZED + LIST(1)],
		['stdout', 8, answerToAnswer],
		['stdout', 9, tools],
	];

	it('is a warning that names the request it answers, not a lost reply: no client fails, the verdict is warn', () => {
		const snapshot = run(steps()).getSnapshot();
		expect(snapshot.findings.map((f) => `${f.code}@${f.stream}:${f.offset}:${f.severity}`)).toEqual([
			`unknown-id@stdout:${INIT_OK.length + serverPing.length}:warning`,
		]);
		const [finding] = snapshot.findings;
		expect(finding!.detail).toEqual({id: 0, reason: 'answers-a-response', method: 'ping'});
		expect(finding!.message).toBe(
			"a response with id 0 answers the client's response to the server's own ping with that id: no request waits for it, nothing is lost",
		);
		expect(Object.fromEntries(finding!.impact.map((i) => [i.client, i.reaction]))).toEqual({
			'ts-sdk-v1': 'skip-log',
			'ts-sdk-v2': 'skip-log',
			'python-sdk': 'skip',
			vscode: 'skip',
			rmcp: 'skip',
			cursor: 'unknown',
		});
		expect(Object.fromEntries((snapshot.summary.clients ?? []).map((c) => [c.client, c.outcome]))).toEqual({
			'ts-sdk-v1': 'degraded',
			'ts-sdk-v2': 'degraded',
			'python-sdk': 'works',
			vscode: 'works',
			rmcp: 'works',
			cursor: 'unknown',
		});
		expect(snapshot.summary.verdict).toBe('warn');
	});

	it('with nothing waiting, the same id as the answered initialize: still an answer to the answer, not a duplicate-response', () => {
		// The server's ping (id 0) comes after tools/list is answered; its answer to the client's answer has
		// id 0 like initialize, and the correlator alone would call it a second response to initialize.
		const snapshot = run([
			['stdin', 0, INIT],
			['stdout', 5, INIT_OK],
			['stdin', 6, INITIALIZED + LIST(1)],
			['stdout', 8, tools + serverPing],
			['stdin', 9, clientAnswer],
			['stdout', 10, answerToAnswer],
		]).getSnapshot();
		expect(snapshot.findings.map((f) => `${f.code}@${f.stream}:${f.offset}:${f.severity}`)).toEqual([
			`unknown-id@stdout:${INIT_OK.length + tools.length + serverPing.length}:warning`,
		]);
		expect(snapshot.findings[0]!.detail).toEqual({id: 0, reason: 'answers-a-response', method: 'ping'});
		expect(snapshot.summary.clients!.find((c) => c.client === 'python-sdk')?.outcome).toBe('works');
	});

	it('an id the server used for its own request, but not yet answered by the client, stays a lost reply', () => {
		const snapshot = run([
			['stdin', 0, INIT],
			['stdout', 5, INIT_OK + serverPing],
			['stdin', 6, INITIALIZED + LIST(1)],
			['stdout', 8, answerToAnswer],
		]).getSnapshot();
		const finding = snapshot.findings.find((f) => f.code === 'unknown-id');
		expect(finding?.severity).toBe('error');
		expect(finding?.detail).toEqual({id: 0});
		expect(snapshot.summary.verdict).toBe('fail');
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
