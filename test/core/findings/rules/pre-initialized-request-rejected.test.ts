import {describe, expect, it} from 'vitest';
import type {Mark} from '../../../../src/core/types.js';
import {
	bytesOf,
	codesAt,
	findingsOf,
	INIT,
	INITIALIZED,
	initOk,
	lengthOn,
	request,
	result,
	run,
	type Step,
} from '../exchange.js';

const CODE = 'pre-initialized-request-rejected';
const setLevel = (id: number) => request(id, 'logging/setLevel', {level: 'info'});

/** A healthy session with a server that advertises logging, as the default probe plays it. */
const healthy: Step[] = [
	['stdin', 0, INIT],
	['stdout', 10, initOk({tools: {}, logging: {}})],
	['stdin', 11, INITIALIZED],
	['stdin', 12, request(1, 'tools/list')],
	['stdout', 13, result(1, {tools: []})],
	['close', 20],
	['exit', 21],
];

/** The check session's outcome as the probe marks it in the main session (probe/pre-initialized.ts). */
const checked = (detail: Record<string, unknown>): Step => [
	'mark',
	400,
	{type: 'observed', what: 'pre-initialized-request', offset: lengthOn('stdout', healthy), tMs: 400, detail} as Mark,
];

describe('pre-initialized-request-rejected (R10, F47)', () => {
	it('the check session saw the server exit: an error at the main stdout byte count, VS Code fails', () => {
		const detail = {
			method: 'logging/setLevel',
			outcome: 'exited',
			exitCode: 1,
			signal: null,
			stderrTail: ['Error: expect initialized'],
		};
		const session = run([...healthy, checked(detail)]);
		expect(codesAt(session)).toEqual([`${CODE}@stdout:${lengthOn('stdout', healthy)}`]);
		const [finding] = findingsOf(session, CODE);
		expect(finding).toMatchObject({
			severity: 'error',
			byteLength: 0,
			tMs: 400,
			origin: 'probe',
			detail,
			message:
				'the server exited on logging/setLevel between the initialize result and notifications/initialized (as VS Code sends it) (exit code 1)',
			rules: ['R10', 'R9'],
		});
		expect(finding!.impact.map((i) => `${i.client}:${i.reaction}`)).toEqual([
			'ts-sdk-v1:ok',
			'ts-sdk-v2:ok',
			'python-sdk:ok',
			'vscode:fatal',
			'rmcp:ok',
			'cursor:unknown',
		]);
		expect(session.getSnapshot().summary.verdict).toBe('fail');
	});

	it('rejected (and accepted after initialized) or unanswered: a warning, VS Code goes on', () => {
		const rejected = run([
			...healthy,
			checked({method: 'logging/setLevel', outcome: 'rejected', errorCode: -32600, errorMessage: 'not initialized'}),
		]);
		expect(findingsOf(rejected, CODE)[0]).toMatchObject({
			severity: 'warning',
			message:
				'logging/setLevel between the initialize result and notifications/initialized (as VS Code sends it) was rejected with error -32600 "not initialized"; the same request after initialized succeeded',
		});
		expect(findingsOf(rejected, CODE)[0]!.impact.find((i) => i.client === 'vscode')?.reaction).toBe('skip-log');
		expect(rejected.getSnapshot().summary.verdict).toBe('warn');
		const unanswered = run([
			...healthy,
			checked({method: 'logging/setLevel', outcome: 'unanswered', waitedMs: 10_000}),
		]);
		expect(findingsOf(unanswered, CODE)[0]).toMatchObject({
			severity: 'warning',
			message:
				'logging/setLevel between the initialize result and notifications/initialized (as VS Code sends it) got no response in 10000 ms',
		});
		expect(findingsOf(unanswered, CODE)[0]!.impact.find((i) => i.client === 'vscode')?.reaction).toBe('ok');
	});

	it('says nothing when the check saw the request answered, or when no check ran', () => {
		expect(codesAt(run([...healthy, checked({method: 'logging/setLevel', outcome: 'answered'})]))).toEqual([]);
		const session = run(healthy);
		expect(codesAt(session)).toEqual([]);
		expect(session.getSnapshot().summary.verdict).toBe('ok');
	});

	it("VS Code's own opening in the session: the server exits with setLevel pending, named before early-exit", () => {
		const before: Step[] = [
			['stdin', 0, INIT],
			['stdout', 10, initOk({tools: {}, logging: {}})],
		];
		const at = lengthOn('stdin', before);
		const session = run([
			...before,
			['stdin', 11, setLevel(1)],
			['stdin', 11, INITIALIZED],
			['stdin', 11, request(2, 'tools/list')],
			['stderr', 12, 'Error: expect initialized notification, but received: Some(Request(SetLevelRequest))\n'],
			['exit', 13, {code: 1}],
		]);
		expect(codesAt(session).map((c) => c.split('@')[0])).toEqual([CODE, 'early-exit']);
		expect(findingsOf(session, CODE)[0]).toMatchObject({
			stream: 'stdin',
			offset: at,
			byteLength: bytesOf(setLevel(1)).length,
			severity: 'error',
			tMs: 13,
			detail: {method: 'logging/setLevel', outcome: 'exited', id: 1, exitCode: 1},
		});
	});

	it('not for a setLevel answered in the gap, one sent after initialized, or an exit at the shutdown', () => {
		const base: Step[] = [
			['stdin', 0, INIT],
			['stdout', 10, initOk({tools: {}, logging: {}})],
		];
		const answered = run([
			...base,
			['stdin', 11, setLevel(1)],
			['stdin', 11, INITIALIZED],
			['stdout', 12, result(1)],
			['close', 20],
			['exit', 21],
		]);
		expect(codesAt(answered)).toEqual([]);
		const after = run([...base, ['stdin', 11, INITIALIZED], ['stdin', 12, setLevel(1)], ['exit', 13, {code: 1}]]);
		expect(codesAt(after).map((c) => c.split('@')[0])).toEqual(['early-exit']);
		// Unanswered, but the process ended only when stdin was closed: the shutdown, not a reaction to it.
		const shutdown = run([
			...base,
			['stdin', 11, setLevel(1)],
			['stdin', 11, INITIALIZED],
			['close', 20],
			['exit', 21],
		]);
		expect(codesAt(shutdown).map((c) => c.split('@')[0])).toEqual(['unanswered-request']);
	});
});
