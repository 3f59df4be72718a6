import {describe, expect, it} from 'vitest';
import {bytesOf, codesAt, findingsOf, INIT, INITIALIZED, initOk, request, result, run} from '../exchange.js';

describe('message-before-initialize (R10)', () => {
	const listChanged = {jsonrpc: '2.0', method: 'notifications/tools/list_changed'};

	it('reports a notification the server sends before its initialize response, at that frame', () => {
		const session = run([
			['stdin', 0, INIT],
			['stdout', 5, listChanged],
			['stdout', 10, initOk({tools: {listChanged: true}})],
			['stdin', 11, INITIALIZED],
			['close', 20],
			['exit', 21],
		]);
		expect(codesAt(session)).toEqual(['message-before-initialize@stdout:0']);
		expect(findingsOf(session, 'message-before-initialize')[0]).toMatchObject({
			severity: 'warning',
			byteLength: bytesOf(listChanged).length,
			frameIndex: 1,
			tMs: 5,
			detail: {kind: 'notification', method: 'notifications/tools/list_changed'},
			message: 'the server sent the notification notifications/tools/list_changed before its initialize response',
			rules: ['R10'],
		});
		expect(session.getSnapshot().summary.verdict).toBe('warn');
	});

	it('reports a request other than ping before the initialize response, with its id', () => {
		const roots = request(7, 'roots/list');
		const session = run(
			[
				['stdin', 0, INIT],
				['stdout', 5, roots],
				['stdout', 10, initOk()],
				['stdin', 11, INITIALIZED],
			],
			{isComplete: false},
		);
		// The client did not declare roots: undeclared-capability (judged on the client's capabilities) too.
		expect(codesAt(session)).toEqual(['message-before-initialize@stdout:0', 'undeclared-capability@stdout:0']);
		expect(findingsOf(session, 'message-before-initialize')[0]!.detail).toEqual({
			kind: 'request',
			method: 'roots/list',
			id: 7,
		});
	});

	it('allows ping and logging before the response, and anything after it', () => {
		const log = {jsonrpc: '2.0', method: 'notifications/message', params: {level: 'info', data: 'starting'}};
		const session = run([
			['stdin', 0, INIT],
			['stdout', 2, log],
			['stdout', 3, request(99, 'ping')],
			['stdin', 4, result(99)],
			['stdout', 10, initOk({tools: {listChanged: true}})],
			['stdin', 11, INITIALIZED],
			['stdout', 12, listChanged],
			['close', 20],
			['exit', 21],
		]);
		expect(codesAt(session)).toEqual([]);
	});
});
