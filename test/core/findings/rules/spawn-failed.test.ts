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

it('spawn-failed: a command and its arguments given as one word get a fix that says so', () => {
	const session = new Session(META);
	session.addFinding({
		code: 'spawn-failed',
		stream: 'stdout',
		offset: 0,
		byteLength: 0,
		tMs: 3,
		detail: {file: 'python3 examples/server.py', errno: 'ENOENT', reason: 'command not found (ENOENT)'},
	});
	expect(session.getSnapshot().findings.at(0)!.hint).toBe(
		'A command and its arguments in one word: it runs without a shell, so no program has that whole name. Put the program in "command" and each argument in "args" (on the command line: `mcp-wire probe -- python3 server.py`, not quoted as one word).',
	);
	// A path with a space in it is a path: its first word holds a separator.
	const path = new Session(META);
	path.addFinding({
		code: 'spawn-failed',
		stream: 'stdout',
		offset: 0,
		byteLength: 0,
		tMs: 3,
		detail: {file: '/Users/me/My Tools/server', errno: 'ENOENT'},
	});
	expect(path.getSnapshot().findings.at(0)!.hint).toMatch(/^Nothing runnable at that path/);
});
