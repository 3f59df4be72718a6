import {describe, expect, it} from 'vitest';
import {Session} from '../../../../src/core/session/session.js';
import {
	bytesOf,
	codesAt,
	findingsOf,
	handshake,
	INIT,
	initOk,
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

	describe("the probe's own wait (10 s by default), shorter than the clients' 60 s", () => {
		const list = request(2, 'tools/list');
		const gaveUp = (timeoutMs: number, tMs = 10_015): Step => [
			'mark',
			tMs,
			{type: 'timeout', id: 2, method: 'tools/list', timeoutMs, tMs},
		];

		it("is a warning that names mcp-wire's limit, with no client outcome established", () => {
			const session = run([
				...before,
				['stdin', 15, list],
				gaveUp(10_000),
				['close', 10_016],
				['exit', 12_020, {code: null, signal: 'SIGTERM'}],
			]);
			expect(codesAt(session)).toEqual([`unanswered-request@stdin:${lengthOn('stdin', before)}`]);
			const [finding] = findingsOf(session, 'unanswered-request');
			expect(finding).toMatchObject({
				severity: 'warning',
				detail: {id: 2, method: 'tools/list', ownLimit: true, waitedMs: 10_000, clientLimitMs: 60_000},
				message:
					"tools/list (id 2) got no response within mcp-wire's own wait of 10000 ms, shorter than the clients' 60 s per request: not a client failure, and the server may just be slow",
				hint: "Probe again with `--timeout 60000` to see whether it answers within the clients' limit; if it never does, answer every request, with a result or an error.",
			});
			expect(new Set(finding!.impact.map((impact) => impact.reaction))).toEqual(new Set(['unknown']));
		});

		it("stays an error when the wait was the clients' own 60 s, or ended early on evidence", () => {
			const atLimit = run([
				...before,
				['stdin', 15, list],
				gaveUp(60_000, 60_015),
				['close', 60_016],
				['exit', 60_020],
			]);
			expect(findingsOf(atLimit, 'unanswered-request')[0]).toMatchObject({
				severity: 'error',
				message: 'tools/list (id 2) got no response before the session ended',
			});

			const early = run([
				...before,
				['stdin', 15, list],
				['mark', 2_015, {type: 'phase', name: 'stopped-early', tMs: 2_015}],
				gaveUp(2_000, 2_015),
				['close', 2_016],
				['exit', 2_020],
			]);
			expect(findingsOf(early, 'unanswered-request')[0]).toMatchObject({severity: 'error', detail: {id: 2}});
			expect(findingsOf(early, 'unanswered-request')[0]!.detail).not.toHaveProperty('ownLimit');
		});

		it('stays an error when a reply with a wrong id came after the request (J5: the likelier cause)', () => {
			const session = run([
				...before,
				['stdin', 15, list],
				['stdout', 20, result(0, {tools: []})],
				gaveUp(10_000),
				['close', 10_016],
				['exit', 10_020],
			]);
			expect(codesAt(session)).toEqual([
				`unknown-id@stdout:${lengthOn('stdout', before)}`,
				`unanswered-request@stdin:${lengthOn('stdin', before)}`,
			]);
			expect(findingsOf(session, 'unanswered-request')[0]).toMatchObject({severity: 'error', detail: {id: 2}});
		});

		it('keeps its own give-up to the request it names', () => {
			const other = request(3, 'prompts/list');
			const session = run([
				...before,
				['stdin', 15, list],
				['stdin', 16, other],
				gaveUp(10_000),
				['close', 10_016],
				['exit', 10_020],
			]);
			expect(findingsOf(session, 'unanswered-request').map((f) => [f.detail?.['id'], f.severity])).toEqual([
				[2, 'warning'],
				[3, 'error'],
			]);
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

describe('unanswered-request whose reply was glued after text on one line', () => {
	const glued = `Server ready${JSON.stringify(initOk())}\n`;

	it('names the glued reply as the cause, at its stdout offset, and does not ask the server to answer', () => {
		const session = run([
			['stdin', 0, INIT],
			['stdout', 5, glued],
			['close', 3000],
			['exit', 3006],
		]);
		expect(codesAt(session)).toEqual(['stray-output@stdout:0', 'unanswered-request@stdin:0']);
		const [finding] = findingsOf(session, 'unanswered-request');
		expect(finding).toMatchObject({
			severity: 'error',
			detail: {id: 0, method: 'initialize', cause: {code: 'stray-output', stream: 'stdout', offset: 12}},
			message:
				'initialize (id 0) got no response before the session ended: its reply was written (stdout offset 12), but glued after text on the same line, which clients drop whole',
			hint: 'The reply itself is whole: end the text before it with a newline, and better send that text to stderr (see `stray-output`); Python `print(..., end="")` and Node `process.stdout.write` write no newline of their own.',
		});
	});

	it('a glued copy of a reply that is then written on its own line leaves nothing unanswered', () => {
		const copy = `DEBUG:server:sending ${JSON.stringify(initOk())}\n`;
		const session = run([
			['stdin', 0, INIT],
			['stdout', 5, copy],
			['stdout', 6, initOk()],
			['close', 3000],
			['exit', 3006],
		]);
		expect(codesAt(session)).toEqual(['stray-output@stdout:0']);
	});
});
