import {describe, expect, it} from 'vitest';
import {bytesOf, codesAt, findingsOf, handshake, lengthOn, request, result, run, type Step} from '../exchange.js';

describe('message-on-stderr (R5, R7)', () => {
	const before: Step[] = [...handshake()];

	it('reports the reply to an open request written to stderr as an error, cause first, then unanswered-request', () => {
		const logLine = 'server: handling tools/list\n';
		const reply = result(1, {tools: []});
		const requestAt = lengthOn('stdin', before);
		const session = run([
			...before,
			['stdin', 12, request(1, 'tools/list')],
			['stderr', 13, logLine],
			['stderr', 14, reply],
			['close', 10_000],
			['exit', 10_001],
		]);
		expect(codesAt(session)).toEqual([
			`message-on-stderr@stderr:${logLine.length}`,
			`unanswered-request@stdin:${requestAt}`,
		]);
		expect(findingsOf(session, 'message-on-stderr')[0]).toMatchObject({
			severity: 'error',
			byteLength: bytesOf(reply).length,
			tMs: 14,
			detail: {kind: 'response', id: 1, method: 'tools/list', unanswered: true},
			message:
				'the reply to tools/list (id 1) was written to stderr, not stdout: the client never reads it, so the request hangs',
			rules: ['R5', 'R7'],
		});
		expect(findingsOf(session, 'message-on-stderr')[0]!.impact.every((i) => i.reaction === 'hang')).toBe(true);
	});

	it('names it as the cause of an unanswered ping too (ping-error)', () => {
		const pingAt = lengthOn('stdin', before);
		const session = run([
			...before,
			['stdin', 12, request(2, 'ping')],
			['stderr', 13, result(2)],
			['close', 10_000],
			['exit', 10_001],
		]);
		expect(codesAt(session)).toEqual(['message-on-stderr@stderr:0', `ping-error@stdin:${pingAt}`]);
		expect(findingsOf(session, 'ping-error')[0]!.detail).toEqual({
			id: 2,
			answered: false,
			cause: {code: 'message-on-stderr', stream: 'stderr', offset: 0},
		});
	});

	it('calls a copy of a message that also crossed stdout or stdin info (a debug log of the wire), whichever came first', () => {
		const reply = result(1, {tools: []});
		const copyBefore = run([
			...before,
			['stdin', 12, request(1, 'tools/list')],
			['stderr', 13, reply],
			['stdout', 14, reply],
			['close', 20],
			['exit', 21],
		]);
		expect(
			findingsOf(copyBefore, 'message-on-stderr').map((f) => [
				f.severity,
				f.detail?.['echoOf'],
				f.detail?.['unanswered'],
			]),
		).toEqual([['info', 'stdout', false]]);
		expect(findingsOf(copyBefore, 'message-on-stderr')[0]!.impact.every((i) => i.reaction === 'ok')).toBe(true);
		expect(copyBefore.getSnapshot().summary.verdict).toBe('ok');

		const received = run([
			...before,
			['stdin', 12, request(1, 'tools/list')],
			['stderr', 13, `  ${JSON.stringify(request(1, 'tools/list'))}\n`],
			['stdout', 14, reply],
			['close', 20],
			['exit', 21],
		]);
		expect(
			findingsOf(received, 'message-on-stderr').map((f) => [
				f.severity,
				f.offset,
				f.detail?.['kind'],
				f.detail?.['echoOf'],
			]),
		).toEqual([['info', 0, 'request', 'stdin']]);
	});

	it('calls a message that matches nothing a warning, and ignores JSON log records and text', () => {
		const session = run([
			...before,
			['stderr', 12, '{"level":"info","id":1,"msg":"started"}\n'],
			['stderr', 13, 'INFO {"jsonrpc":"2.0","method":"x"}\n'],
			['stderr', 14, {jsonrpc: '2.0', method: 'notifications/progress', params: {progressToken: 't', progress: 1}}],
			['close', 20],
			['exit', 21],
		]);
		const at =
			bytesOf('{"level":"info","id":1,"msg":"started"}\n').length +
			bytesOf('INFO {"jsonrpc":"2.0","method":"x"}\n').length;
		expect(codesAt(session)).toEqual([`message-on-stderr@stderr:${at}`]);
		expect(findingsOf(session, 'message-on-stderr')[0]).toMatchObject({
			severity: 'warning',
			detail: {kind: 'notification', method: 'notifications/progress', unanswered: false},
			message:
				'the notification notifications/progress was written to stderr: if it was meant for the client, the client never sees it',
		});
		expect(findingsOf(session, 'message-on-stderr')[0]!.impact.every((i) => i.reaction === 'ok')).toBe(true);
		expect(session.getSnapshot().summary.verdict).toBe('warn');
	});
});
