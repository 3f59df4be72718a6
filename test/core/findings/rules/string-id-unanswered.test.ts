import {describe, expect, it} from 'vitest';
import {bytesOf, codesAt, findingsOf, handshake, lengthOn, request, result, run, type Step} from '../exchange.js';

const stringPing = {jsonrpc: '2.0', id: 'mcp-wire-1', method: 'ping'};

describe('string-id-unanswered (J2, J5)', () => {
	const before: Step[] = [
		...handshake(),
		['stdin', 12, request(1, 'tools/list')],
		['stdout', 13, result(1, {tools: []})],
		['stdin', 20, request(2, 'ping')],
		['stdout', 21, result(2)],
	];

	it('reports a string-id ping left unanswered while integer ids were answered, at the request on stdin', () => {
		const at = lengthOn('stdin', before);
		const session = run([...before, ['stdin', 22, stringPing], ['close', 10_022], ['exit', 10_030]]);
		// Neither unanswered-request nor ping-error repeats it.
		expect(codesAt(session)).toEqual([`string-id-unanswered@stdin:${at}`]);
		expect(findingsOf(session, 'string-id-unanswered')[0]).toMatchObject({
			severity: 'error',
			byteLength: bytesOf(stringPing).length,
			tMs: 10_030,
			detail: {id: 'mcp-wire-1', method: 'ping'},
			message: 'ping with the string id "mcp-wire-1" got no response, while requests with integer ids were answered',
			rules: ['J2', 'J5'],
		});
		// No client family of the table sends string ids (cursor: not established): the verdict is warn, not fail.
		const impact = findingsOf(session, 'string-id-unanswered')[0]!.impact;
		expect(impact.map((i) => `${i.client}:${i.reaction}`)).toEqual([
			'ts-sdk-v1:ok',
			'ts-sdk-v2:ok',
			'python-sdk:ok',
			'vscode:ok',
			'rmcp:ok',
			'cursor:unknown',
		]);
		expect(session.getSnapshot().summary.verdict).toBe('warn');
	});

	it("is timed at the client's give-up when the probe recorded one (a replay of the dump knows it too)", () => {
		const session = run([
			...before,
			['stdin', 22, stringPing],
			['mark', 10_022, {type: 'timeout', id: 'mcp-wire-1', method: 'ping', timeoutMs: 10_000, tMs: 10_022}],
			['close', 10_023],
			['exit', 10_030],
		]);
		expect(findingsOf(session, 'string-id-unanswered')[0]).toMatchObject({tMs: 10_022, detail: {id: 'mcp-wire-1'}});
	});

	it('says with which id the server answered instead (a number of its own)', () => {
		const at = lengthOn('stdin', before);
		const session = run([
			...before,
			['stdin', 22, stringPing],
			['stdout', 23, result(3)],
			['close', 10_022],
			['exit', 10_030],
		]);
		expect(codesAt(session)).toEqual([
			`unknown-id@stdout:${lengthOn('stdout', before)}`,
			`string-id-unanswered@stdin:${at}`,
		]);
		expect(findingsOf(session, 'string-id-unanswered')[0]).toMatchObject({
			detail: {id: 'mcp-wire-1', method: 'ping', answeredWith: 3},
			message:
				'ping with the string id "mcp-wire-1" was answered with id 3 instead, while requests with integer ids were answered',
		});
	});

	it('says nothing for a string id answered unchanged', () => {
		const session = run([
			...before,
			['stdin', 22, stringPing],
			['stdout', 23, {jsonrpc: '2.0', id: 'mcp-wire-1', result: {}}],
			['close', 30],
			['exit', 31],
		]);
		expect(codesAt(session)).toEqual([]);
		expect(session.getSnapshot().summary.verdict).toBe('ok');
	});

	it('says nothing when no integer id was answered either, for a capture cut short, or after an early exit', () => {
		// Nothing answered at all: nothing tells ids apart (unanswered-request says it).
		const silent = run([
			['stdin', 0, {...request(0, 'initialize'), id: 'a-0'}],
			['close', 10_000],
			['exit', 10_001],
		]);
		expect(codesAt(silent).map((c) => c.split('@')[0])).toEqual(['unanswered-request']);
		expect(codesAt(run([...before, ['stdin', 22, stringPing]], {isComplete: false}))).toEqual([]);
		// The server exited before stdin was closed: early-exit says it all.
		const died = run([...before, ['stdin', 22, stringPing], ['exit', 25]]);
		expect(codesAt(died).map((c) => c.split('@')[0])).toEqual(['early-exit']);
	});

	it('leaves an unanswered integer-id request to unanswered-request', () => {
		const at = lengthOn('stdin', before);
		const session = run([
			...before,
			['stdin', 22, request(3, 'tools/call', {name: 'x'})],
			['close', 10_022],
			['exit', 10_030],
		]);
		expect(codesAt(session)).toEqual([`unanswered-request@stdin:${at}`]);
	});
});
