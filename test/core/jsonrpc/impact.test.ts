import {describe, expect, it} from 'vitest';
import {CLIENT_FAMILIES, classifyMessage, impactForProblems} from '../../../src/core/jsonrpc/index.js';
import type {ClassifyOptions} from '../../../src/core/jsonrpc/index.js';

const S2C: ClassifyOptions = {direction: 'server-to-client'};

function reactions(message: unknown, options: ClassifyOptions = S2C): string[] {
	const {problems} = classifyMessage(message, options);
	return impactForProblems(problems, message).map((item) => `${item.client}: ${item.reaction}`);
}

function notes(message: unknown, options: ClassifyOptions = S2C): Record<string, string> {
	const {problems} = classifyMessage(message, options);
	return Object.fromEntries(impactForProblems(problems, message).map((item) => [item.client, item.note]));
}

describe('impactForProblems: docs/protocol.md "Client reactions" rows', () => {
	it('lists the six families in §6 column order', () => {
		expect(CLIENT_FAMILIES).toEqual(['ts-sdk-v1', 'ts-sdk-v2', 'python-sdk', 'vscode', 'rmcp', 'cursor']);
	});

	it('a valid message is ok everywhere', () => {
		const message = {jsonrpc: '2.0', id: 1, result: {}};
		expect(impactForProblems(classifyMessage(message, S2C).problems, message)).toEqual([
			{client: 'ts-sdk-v1', reaction: 'ok', note: 'accepted by JSONRPCMessageSchema'},
			{client: 'ts-sdk-v2', reaction: 'ok', note: 'accepted by JSONRPCMessageSchema'},
			{client: 'python-sdk', reaction: 'ok', note: 'accepted'},
			{client: 'vscode', reaction: 'ok', note: 'accepted'},
			{client: 'rmcp', reaction: 'ok', note: 'accepted'},
			{client: 'cursor', reaction: 'ok', note: 'accepted'},
		]);
	});

	it('valid JSON, not JSON-RPC: DROP+LOG | DROP+LOG | DROP+LOG | ignored | Invalid Request | logs zod error', () => {
		const message = {level: 'info', msg: 'started'};
		expect(impactForProblems(classifyMessage(message, S2C).problems, message)).toEqual([
			{
				client: 'ts-sdk-v1',
				reaction: 'drop-log',
				note: 'dropped by JSONRPCMessageSchema, onerror: jsonrpc: Invalid input: expected "2.0"',
			},
			{
				client: 'ts-sdk-v2',
				reaction: 'drop-log',
				note: 'dropped by JSONRPCMessageSchema, onerror: jsonrpc: Invalid input: expected "2.0"',
			},
			{
				client: 'python-sdk',
				reaction: 'drop-log',
				note: '1.29 logs "Failed to parse JSONRPC message from server" and drops it: jsonrpc: Input should be \'2.0\'',
			},
			{client: 'vscode', reaction: 'skip', note: 'ignored: duck typing finds no method, result or error'},
			{
				client: 'rmcp',
				reaction: 'drop-log',
				note: '≥2.1 rejects it and writes an Invalid Request error back (<1.7: transport closed)',
			},
			{client: 'cursor', reaction: 'drop-log', note: '2025 builds log the zod error and drop the line'},
		]);
		expect(reactions(42)).toEqual([
			'ts-sdk-v1: drop-log',
			'ts-sdk-v2: drop-log',
			'python-sdk: drop-log',
			'vscode: skip',
			'rmcp: drop-log',
			'cursor: drop-log',
		]);
	});

	it('missing / wrong jsonrpc: DROP+LOG | DROP+LOG | DROP+LOG | OK | Invalid Request | ?', () => {
		for (const message of [
			{id: 1, result: {}},
			{jsonrpc: '1.0', id: 1, result: {}},
		]) {
			expect(reactions(message)).toEqual([
				'ts-sdk-v1: drop-log',
				'ts-sdk-v2: drop-log',
				'python-sdk: drop-log',
				'vscode: ok',
				'rmcp: drop-log',
				'cursor: unknown',
			]);
		}
		expect(notes({id: 1, result: {}})).toMatchObject({
			vscode: 'jsonrpc is not checked',
			rmcp: 'rejected with an Invalid Request reply (inferred from source)',
			cursor: 'not established (no source settles it)',
		});
	});

	it('extra top-level key: DROP+LOG | DROP+LOG | OK | OK | OK (Codex 0.171) | ?', () => {
		// Measured: a Python server adding `"meta":{"server":"x"}` to every reply; Codex connects and lists tools.
		const message = {jsonrpc: '2.0', id: 1, result: {}, extra: 1};
		expect(reactions(message)).toEqual([
			'ts-sdk-v1: drop-log',
			'ts-sdk-v2: drop-log',
			'python-sdk: ok',
			'vscode: ok',
			'rmcp: ok',
			'cursor: unknown',
		]);
		expect(notes(message)).toMatchObject({
			'ts-sdk-v1': 'dropped by JSONRPCMessageSchema, onerror: Unrecognized key: "extra"',
			'python-sdk': 'accepted: extra keys are allowed',
			vscode: 'no schema validation',
		});
	});

	it('result and error both: DROP+LOG | DROP+LOG | fails as an error (mcp 2.3) | OK as result | SKIP (Codex 0.171) | ?', () => {
		const message = {jsonrpc: '2.0', id: 1, result: {}, error: {code: -32603, message: 'x'}};
		expect(reactions(message)).toEqual([
			'ts-sdk-v1: drop-log',
			'ts-sdk-v2: drop-log',
			'python-sdk: drop-log',
			'vscode: ok',
			'rmcp: skip',
			'cursor: unknown',
		]);
		expect(notes(message)).toMatchObject({
			'python-sdk':
				'read as an error response: the result is dropped and the request fails with the error it carries (MCPError)',
			vscode: 'read as a result; the error is ignored',
		});
	});

	it('"_meta": null in a result: dropped by the TS SDK, read by Python, VS Code and rmcp (Codex 0.171)', () => {
		const message = {jsonrpc: '2.0', id: 0, result: {_meta: null}};
		expect(reactions(message)).toEqual([
			'ts-sdk-v1: drop-log',
			'ts-sdk-v2: drop-log',
			'python-sdk: ok',
			'vscode: ok',
			'rmcp: ok',
			'cursor: unknown',
		]);
		expect(reactions({jsonrpc: '2.0', id: 0, result: {_meta: 'x'}}).slice(3)).toEqual([
			'vscode: unknown',
			'rmcp: unknown',
			'cursor: unknown',
		]);
	});

	it('"error": null beside a result: the Python SDK reads the result', () => {
		const message = {jsonrpc: '2.0', id: 1, result: {}, error: null};
		expect(reactions(message)).toEqual([
			'ts-sdk-v1: drop-log',
			'ts-sdk-v2: drop-log',
			'python-sdk: ok',
			'vscode: ok',
			'rmcp: skip',
			'cursor: unknown',
		]);
		expect(notes(message)['python-sdk']).toBe(
			'accepted as the result: `"error": null` is no error object, so it rides along as an extra key',
		);
	});

	it('result: null: DROP+LOG | DROP+LOG | DROP+LOG | OK | ? | ?', () => {
		expect(reactions({jsonrpc: '2.0', id: 1, result: null})).toEqual([
			'ts-sdk-v1: drop-log',
			'ts-sdk-v2: drop-log',
			'python-sdk: drop-log',
			'vscode: ok',
			'rmcp: unknown',
			'cursor: unknown',
		]);
	});

	it('error with id null: DROP+LOG | DROP+LOG | DROP+LOG (1.29) | HANG | ? | ?', () => {
		const message = {jsonrpc: '2.0', id: null, error: {code: -32700, message: 'Parse error'}};
		expect(reactions(message)).toEqual([
			'ts-sdk-v1: drop-log',
			'ts-sdk-v2: drop-log',
			'python-sdk: drop-log',
			'vscode: hang',
			'rmcp: unknown',
			'cursor: unknown',
		]);
		expect(notes(message)).toMatchObject({
			'ts-sdk-v1': 'dropped by JSONRPCMessageSchema, onerror: id: expected string | number, received null',
			'python-sdk':
				'1.29 logs "Failed to parse JSONRPC message from server" and drops it: id: Input should be a valid string or integer (main accepts id null)',
		});
	});

	it('error without id: HANG | HANG | DROP+LOG | HANG | parses | ?, whether or not the version allows it', () => {
		const message = {jsonrpc: '2.0', error: {code: -32700, message: 'Parse error'}};
		const expected = [
			'ts-sdk-v1: hang',
			'ts-sdk-v2: hang',
			'python-sdk: drop-log',
			'vscode: hang',
			'rmcp: ok',
			'cursor: unknown',
		];
		expect(reactions(message, {...S2C, protocolVersion: '2025-11-25'})).toEqual(expected);
		expect(reactions(message, {...S2C, protocolVersion: '2025-06-18'})).toEqual(expected);
		expect(notes(message)).toMatchObject({
			'ts-sdk-v1':
				'accepted, but no request matches a missing id: onerror "unknown message ID"; the request waits for its timeout',
			'python-sdk': '1.29 logs "Failed to parse JSONRPC message from server" and drops it: id: Field required',
			rmcp: 'parses (id optional since 1.7.0)',
		});
	});

	it('fractional id: DROP+LOG | DROP+LOG | DROP+LOG | HANG | ? | ?', () => {
		expect(reactions({jsonrpc: '2.0', id: 1.5, result: {}})).toEqual([
			'ts-sdk-v1: drop-log',
			'ts-sdk-v2: drop-log',
			'python-sdk: drop-log',
			'vscode: hang',
			'rmcp: unknown',
			'cursor: unknown',
		]);
	});

	it('batch array: DROP+LOG | DROP+LOG | DROP+LOG | OK (expanded) | ? | ?, also on 2025-03-26', () => {
		const message = [{jsonrpc: '2.0', id: 1, result: {}}];
		const expected = [
			'ts-sdk-v1: drop-log',
			'ts-sdk-v2: drop-log',
			'python-sdk: drop-log',
			'vscode: ok',
			'rmcp: unknown',
			'cursor: unknown',
		];
		expect(reactions(message)).toEqual(expected);
		expect(reactions(message, {...S2C, protocolVersion: '2025-03-26'})).toEqual(expected);
		expect(notes(message)).toMatchObject({vscode: 'the array is expanded into single messages'});
	});
});

describe('impactForProblems: combinations and problems without a row', () => {
	it('the worst reaction wins and keeps its note', () => {
		const message = {jsonrpc: '2.0', id: 1.5, result: {}, extra: 1};
		expect(reactions(message)).toEqual([
			'ts-sdk-v1: drop-log',
			'ts-sdk-v2: drop-log',
			'python-sdk: drop-log',
			'vscode: hang',
			'rmcp: unknown',
			'cursor: unknown',
		]);
		expect(notes(message)['vscode']).toBe(
			'ignored: pending requests are keyed by the integer id sent; the request waits',
		);
	});

	it('a problem with no §6 row is unknown for the table families; SDK models still decide', () => {
		const message = {jsonrpc: '2.0', id: 3, method: 'notifications/progress', params: {progressToken: 1, progress: 1}};
		expect(reactions(message)).toEqual([
			'ts-sdk-v1: ok',
			'ts-sdk-v2: ok',
			'python-sdk: ok',
			'vscode: unknown',
			'rmcp: unknown',
			'cursor: unknown',
		]);
		expect(notes(message)['vscode']).toBe('not established for notification-with-id (no §6 row)');
	});

	it('python reads a request with a bad id as a notification', () => {
		const message = {jsonrpc: '2.0', id: null, method: 'roots/list'};
		expect(reactions(message)).toEqual([
			'ts-sdk-v1: drop-log',
			'ts-sdk-v2: drop-log',
			'python-sdk: ok',
			'vscode: unknown',
			'rmcp: unknown',
			'cursor: unknown',
		]);
		expect(notes(message)['python-sdk']).toBe(
			'accepted as a notification: the bad id is kept as an extra key, so the request is never answered',
		);
		expect(notes(message)['ts-sdk-v1']).toBe('dropped by JSONRPCMessageSchema, onerror: Unrecognized key: "id"');
	});

	it('fractional id on a request has no §6 row', () => {
		expect(reactions({jsonrpc: '2.0', id: 0.5, method: 'x'})).toEqual([
			'ts-sdk-v1: drop-log',
			'ts-sdk-v2: drop-log',
			'python-sdk: ok',
			'vscode: unknown',
			'rmcp: unknown',
			'cursor: unknown',
		]);
	});
});
