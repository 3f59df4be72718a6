import {describe, expect, it} from 'vitest';
import {Session} from '../../../../src/core/session/session.js';
import {
	bytesOf,
	codesAt,
	findingsOf,
	handshake,
	INIT,
	lengthOn,
	META,
	request,
	result,
	run,
	type Step,
} from '../exchange.js';

describe('unanswered-request (R15)', () => {
	const before: Step[] = [
		...handshake(),
		['stdin', 12, request(1, 'tools/list')],
		['stdout', 13, result(1, {tools: []})],
	];

	it('reports a request still open at the end at its frame on stdin', () => {
		const at = lengthOn('stdin', before);
		const call = request(2, 'tools/call', {name: 'slow'});
		const session = run([...before, ['stdin', 15, call], ['close', 30], ['exit', 31]]);
		expect(codesAt(session)).toEqual([`unanswered-request@stdin:${at}`]);
		expect(findingsOf(session, 'unanswered-request')[0]).toMatchObject({
			severity: 'error',
			byteLength: bytesOf(call).length,
			frameIndex: 5,
			tMs: 31,
			detail: {id: 2, method: 'tools/call'},
			message: 'tools/call (id 2) got no response before the session ended',
		});
	});

	it('is silent when the probe or an early exit explains it, or when the capture has no end', () => {
		expect(codesAt(run([['stdin', 0, INIT]]))).toEqual(['unanswered-request@stdin:0']);

		const probed = new Session(META);
		probed.pushChunk('stdin', 0, bytesOf(INIT));
		probed.addFinding({
			code: 'no-response',
			stream: 'stdout',
			offset: 0,
			byteLength: 0,
			tMs: 10,
			detail: {timeoutMs: 10},
		});
		probed.finish(10);
		expect(codesAt(probed)).toEqual(['no-response@stdout:0']);

		expect(
			codesAt(
				run([
					['stdin', 0, INIT],
					['exit', 5],
				]),
			),
		).toEqual(['early-exit@stdout:0']);
		expect(codesAt(run([['stdin', 0, INIT]], {isComplete: false}))).toEqual([]);
	});

	it('names a reply written to stderr as its cause, reported first', () => {
		const at = lengthOn('stdin', before);
		const reply = result(2, {content: [{type: 'text', text: 'done'}]});
		const session = run([
			...before,
			['stdin', 15, request(2, 'tools/call', {name: 'x'})],
			['stderr', 16, reply],
			['close', 30],
			['exit', 31],
		]);
		expect(codesAt(session)).toEqual(['message-on-stderr@stderr:0', `unanswered-request@stdin:${at}`]);
		expect(findingsOf(session, 'unanswered-request')[0]).toMatchObject({
			detail: {id: 2, method: 'tools/call', cause: {code: 'message-on-stderr', stream: 'stderr', offset: 0}},
			message:
				'tools/call (id 2) got no response before the session ended: its reply was written to stderr (offset 0), which the client never reads',
		});
	});
});
