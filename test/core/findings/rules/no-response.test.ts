import {expect, it} from 'vitest';
import {ruleTester} from '../rule-tester.js';
import {codesAt, handshake, INIT, run, type Step} from '../exchange.js';

// Only a live probe sees the silence; it records an `observed` mark, and the rule derives the finding from
// it, so a replay of the dump without its finding records says the same (docs/findings.md#no-response).
const silent: Step[] = [
	['stdin', 0, INIT],
	['mark', 30_000, {type: 'observed', what: 'no-reply', offset: 0, detail: {timeoutMs: 30_000}, tMs: 30_000}],
	['close', 30_001],
	['exit', 30_002],
];

ruleTester('no-response', {
	valid: [{name: 'an answered initialize', steps: [...handshake(), ['close', 20], ['exit', 21]]}],
	invalid: [
		{
			name: 'the probe observed no reply',
			steps: silent,
			findings: [{severity: 'error', stream: 'stdout', offset: 0, byteLength: 0, detail: {timeoutMs: 30_000}}],
		},
		{
			name: "the wait was mcp-wire's own --timeout",
			steps: [
				['stdin', 0, INIT],
				[
					'mark',
					5000,
					{type: 'observed', what: 'no-reply', offset: 0, detail: {timeoutMs: 5000, ownLimit: true}, tMs: 5000},
				],
			],
			findings: [{severity: 'warning', stream: 'stdout', offset: 0, byteLength: 0, detail: {ownLimit: true}}],
		},
	],
});

it('no-response from the mark explains the unanswered initialize (no unanswered-request)', () => {
	expect(codesAt(run(silent))).toEqual(['no-response@stdout:0']);
});

it('a replayed probe finding that the mark already derived is kept once', () => {
	const session = run(silent, {finish: false});
	session.addFinding({
		code: 'no-response',
		stream: 'stdout',
		offset: 0,
		byteLength: 0,
		tMs: 30_000,
		detail: {timeoutMs: 30_000},
	});
	session.finish(30_002);
	expect(codesAt(session)).toEqual(['no-response@stdout:0']);
});
