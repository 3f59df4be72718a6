import {describe, expect, it} from 'vitest';
import {
	bytesOf,
	codesAt,
	error,
	findingsOf,
	handshake,
	lengthOn,
	request,
	result,
	run,
	type Step,
} from '../exchange.js';

describe('ping-error (R16, F39)', () => {
	const before: Step[] = [
		...handshake(),
		['stdin', 12, request(1, 'tools/list')],
		['stdout', 13, result(1, {tools: []})],
	];

	it('reports a ping answered with -32601 at the error response, with its code and message', () => {
		const replyAt = lengthOn('stdout', before);
		const reply = error(2, -32601, 'Method not found');
		const session = run([
			...before,
			['stdin', 20, request(2, 'ping')],
			['stdout', 21, reply],
			['close', 30],
			['exit', 31],
		]);
		expect(codesAt(session)).toEqual([`ping-error@stdout:${replyAt}`]);
		const [finding] = findingsOf(session, 'ping-error');
		expect(finding).toMatchObject({
			severity: 'error',
			byteLength: bytesOf(reply).length,
			tMs: 21,
			detail: {id: 2, answered: true, errorCode: -32601, errorMessage: 'Method not found'},
			message: 'ping (id 2) was answered with error -32601 "Method not found" instead of an empty result',
			rules: ['R16'],
		});
		// Neither SDK client pings by itself (the real clients connect and list tools): no mainstream client
		// is established to fail, so the error finding gives warn (docs/clients.md, "The verdict").
		expect(session.getSnapshot().summary.verdict).toBe('warn');
	});

	it('reports an unanswered ping once, at the request on stdin, instead of unanswered-request', () => {
		const pingAt = lengthOn('stdin', before);
		const session = run([...before, ['stdin', 20, request(2, 'ping')], ['close', 10_030], ['exit', 10_031]]);
		expect(codesAt(session)).toEqual([`ping-error@stdin:${pingAt}`]);
		expect(findingsOf(session, 'ping-error')[0]).toMatchObject({
			severity: 'error',
			byteLength: bytesOf(request(2, 'ping')).length,
			detail: {id: 2, answered: false},
			message: 'ping (id 2) got no response before the session ended',
		});
	});

	it('says nothing for a ping answered with {}, for a capture cut short, or when the process died early', () => {
		expect(
			codesAt(
				run([...before, ['stdin', 20, request(2, 'ping')], ['stdout', 21, result(2)], ['close', 30], ['exit', 31]]),
			),
		).toEqual([]);
		expect(codesAt(run([...before, ['stdin', 20, request(2, 'ping')]], {isComplete: false}))).toEqual([]);
		// The server exited before stdin was closed: early-exit says it all.
		const died = run([...before, ['stdin', 20, request(2, 'ping')], ['exit', 25]]);
		expect(codesAt(died).map((c) => c.split('@')[0])).toEqual(['early-exit']);
	});

	it('does not judge a server that answers the client ping of another method, or an error to a non-ping request', () => {
		const session = run([
			...before,
			['stdin', 20, request(2, 'tools/call', {name: 'x'})],
			['stdout', 21, error(2, -32601, 'Method not found')],
			['close', 30],
			['exit', 31],
		]);
		expect(codesAt(session)).toEqual([]);
	});
});
