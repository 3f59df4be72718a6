/**
 * slow-response on synthetic streams with their own timestamps (the fake clock: no real wait): a reply past
 * half the strictest client's limit is slow; a tool call past the limit itself (the TS SDK's 60 s, R15) is an
 * error, and the clients with that limit time out, progress or not (R18: the TS SDK 1.x restarts the clock
 * only when the host asks).
 */
import {describe, expect, it} from 'vitest';
import {strictestLimitMs} from '../../../../src/core/findings/rules/slow-response.js';
import {bytesOf, findingsOf, handshake, lengthOn, request, result, run, type Step} from '../exchange.js';
import {ruleTester} from '../rule-tester.js';

const call = (id: number, token?: number) =>
	request(id, 'tools/call', {
		name: 'slow_report',
		arguments: {},
		...(token === undefined ? {} : {_meta: {progressToken: token}}),
	});
const progress = (token: unknown, value: number) => ({
	jsonrpc: '2.0',
	method: 'notifications/progress',
	params: {progressToken: token, progress: value},
});
const REPLY = result(1, {content: [{type: 'text', text: 'done'}]});
/** A call at t = 100 ms answered `latencyMs` later, with a progress notification every 20 s before it. */
function slowCall(latencyMs: number, withProgress: boolean): Step[] {
	const steps: Step[] = [...handshake(), ['stdin', 100, call(1, withProgress ? 1 : undefined)]];
	if (withProgress) for (let t = 20_000; t < latencyMs; t += 20_000) steps.push(['stdout', 100 + t, progress(1, t)]);
	steps.push(['stdout', 100 + latencyMs, REPLY]);
	return steps;
}
const replyOffset = (steps: readonly Step[]): number => lengthOn('stdout', steps) - bytesOf(REPLY).length;

/** {@link slowCall} with the probe's own output held from `fromMs` to `toMs` (phase marks; `toMs` undefined: never resumed). */
function heldCall(latencyMs: number, fromMs: number, toMs: number | undefined): Step[] {
	const steps = slowCall(latencyMs, false);
	const held: Step[] = [['mark', fromMs, {type: 'phase', name: 'output-stalled', tMs: fromMs}]];
	if (toMs !== undefined) held.push(['mark', toMs, {type: 'phase', name: 'output-resumed', tMs: toMs}]);
	return [...steps.slice(0, -1), ...held, steps.at(-1)!];
}

ruleTester('slow-response', {
	valid: [
		{name: 'a call answered in 29 s (under half the 60 s limit)', steps: slowCall(29_000, false)},
		{
			name: 'read after 40 s, 20 s of them with our output held (20 s of its own: not slow)',
			steps: heldCall(40_000, 10_000, 30_000),
		},
		{
			name: 'read after 65 s while our output was still held from 5 s on',
			steps: heldCall(65_000, 5_000, undefined),
		},
		{
			name: 'initialize answered in 3 s',
			steps: [
				['stdin', 0, handshake()[0]![2]],
				...handshake()
					.slice(1)
					.map(([s, , m]) => [s, 3_000, m] as Step),
			],
		},
	],
	invalid: [
		{
			name: 'a call answered in 40 s: slow, within every limit (warning)',
			steps: slowCall(40_000, false),
			findings: [
				{
					severity: 'warning',
					stream: 'stdout',
					offset: replyOffset(slowCall(40_000, false)),
					byteLength: bytesOf(REPLY).length,
					detail: {method: 'tools/call', latencyMs: 40_000, limitMs: 60_000},
				},
			],
		},
		{
			name: 'read after 70 s, 20 s of them with our output held: slow by its own 50 s (heldMs said)',
			steps: heldCall(70_000, 1_000, 21_000),
			findings: [
				{
					severity: 'warning',
					stream: 'stdout',
					offset: replyOffset(heldCall(70_000, 1_000, 21_000)),
					byteLength: bytesOf(REPLY).length,
					detail: {method: 'tools/call', latencyMs: 50_000, limitMs: 60_000, heldMs: 20_000},
				},
			],
		},
		{
			name: 'a call answered in 65 s without progress: past the 60 s limit (error)',
			steps: slowCall(65_000, false),
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: replyOffset(slowCall(65_000, false)),
					byteLength: bytesOf(REPLY).length,
					detail: {method: 'tools/call', latencyMs: 65_000, limitMs: 60_000, overLimit: true, progress: 0},
				},
			],
		},
		{
			name: 'a call answered in 65 s after 3 progress notifications under its token',
			steps: slowCall(65_000, true),
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: replyOffset(slowCall(65_000, true)),
					byteLength: bytesOf(REPLY).length,
					detail: {method: 'tools/call', latencyMs: 65_000, overLimit: true, progress: 3},
				},
			],
		},
	],
});

describe('slow-response: each client against its own limit', () => {
	const outcomeOf = (steps: Step[]) =>
		Object.fromEntries(
			(run(steps).getSnapshot().summary.clients ?? []).map((o) => [o.client, `${o.outcome}: ${o.note}`]),
		);
	const reactions = (steps: Step[]) =>
		findingsOf(run(steps), 'slow-response')[0]!.impact.map((i) => `${i.client}:${i.reaction}`);

	it('the strictest established limit is the TS SDK 60 s, for requests and for initialize', () => {
		expect(strictestLimitMs('tools/call')).toBe(60_000);
		expect(strictestLimitMs('initialize')).toBe(60_000);
	});

	it('under the limit every client with a known limit waits (the reply is slow, not lost)', () => {
		expect(reactions(slowCall(40_000, false))).toEqual([
			'ts-sdk-v1:ok',
			'ts-sdk-v2:ok',
			'python-sdk:ok',
			'vscode:ok',
			'rmcp:ok',
			'cursor:unknown',
		]);
	});

	it('past 60 s without progress: both TS SDKs time out, Python SDK and VS Code wait, rmcp and Cursor are not established', () => {
		expect(reactions(slowCall(65_000, false))).toEqual([
			'ts-sdk-v1:hang',
			'ts-sdk-v2:hang',
			'python-sdk:ok',
			'vscode:ok',
			'rmcp:unknown',
			'cursor:unknown',
		]);
		const out = outcomeOf(slowCall(65_000, false));
		expect(out['ts-sdk-v1']).toBe(
			'fails: connects; tools/call hangs: slow-response: the tools/call times out after 60 s (`MCP error -32001: Request timed out`) and the late reply is dropped',
		);
		expect(out['python-sdk']).toBe('works: connects');
		expect(run(slowCall(65_000, false)).getSnapshot().summary.verdict).toBe('fail');
	});

	it('past 60 s with progress: the TS SDK 1.x and 2.x still time out (no reset by default)', () => {
		expect(reactions(slowCall(65_000, true))).toEqual([
			'ts-sdk-v1:hang',
			'ts-sdk-v2:hang',
			'python-sdk:ok',
			'vscode:ok',
			'rmcp:unknown',
			'cursor:unknown',
		]);
		const v1 = findingsOf(run(slowCall(65_000, true)), 'slow-response')[0]!.impact[0]!;
		expect(v1.note).toMatch(
			/; progress does not restart the clock \(@modelcontextprotocol\/sdk 1\.32\.2 .*resetTimeoutOnProgress/,
		);
	});

	it('progress under another token is not counted', () => {
		const steps: Step[] = [
			...handshake(),
			['stdin', 100, call(1, 1)],
			['stdout', 20_100, progress(2, 1)],
			['stdout', 65_100, REPLY],
		];
		expect(findingsOf(run(steps), 'slow-response')[0]!.detail).toMatchObject({progress: 0});
	});
});
