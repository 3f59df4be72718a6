import {ruleTester} from '../rule-tester.js';
import {handshake} from '../exchange.js';
import {expect, it} from 'vitest';
import {Session} from '../../../../src/core/session/session.js';
import {META} from '../exchange.js';

// Only the spawn can see it: no bytes ever cross (the probe's spawn mark, docs/findings.md#spawn-failed).
ruleTester('spawn-failed', {
	valid: [{name: 'a server that started', steps: [...handshake(), ['close', 20], ['exit', 21]]}],
	invalid: [
		{
			name: 'the probe observed the spawn error',
			steps: [
				[
					'mark',
					3,
					{type: 'observed', what: 'spawn-failed', offset: 0, detail: {file: 'uvx', errno: 'ENOENT'}, tMs: 3},
				],
			],
			findings: [
				{severity: 'error', stream: 'stdout', offset: 0, byteLength: 0, detail: {file: 'uvx', errno: 'ENOENT'}},
			],
		},
	],
});

it('spawn-failed: the probe adds it with what the spawn error said', () => {
	const session = new Session(META);
	session.addFinding({
		code: 'spawn-failed',
		stream: 'stdout',
		offset: 0,
		byteLength: 0,
		tMs: 3,
		detail: {file: 'uvx', errno: 'ENOENT'},
	});
	expect(session.getSnapshot().findings.map((f) => [f.code, f.severity, f.offset, f.message])).toEqual([
		['spawn-failed', 'error', 0, 'cannot start `uvx`: ENOENT'],
	]);
});
