import {describe, expect, it} from 'vitest';
import {ruleTester} from '../rule-tester.js';
import {findingsOf, handshake, INIT, run} from '../exchange.js';

ruleTester('early-exit', {
	valid: [{name: 'exit after stdin closed', steps: [...handshake(), ['close', 20], ['exit', 21]]}],
	invalid: [
		{
			name: 'exit 1 before the handshake',
			steps: [
				['stdin', 0, INIT],
				['stderr', 40, "KeyError: 'API_KEY'\n"],
				['exit', 41, {code: 1}],
			],
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: 0,
					byteLength: 0,
					detail: {exitCode: 1, phase: 'before-handshake', stderrTail: ["KeyError: 'API_KEY'"]},
				},
			],
		},
	],
});

describe('early-exit: the fix names a cause only when stderr or stdout shows one', () => {
	it('stderr has a line: the message quotes it and the fix points at it', () => {
		const session = run([
			['stdin', 0, INIT],
			['stderr', 40, "KeyError: 'API_KEY'\n"],
			['exit', 41, {code: 1}],
		]);
		expect(findingsOf(session, 'early-exit')[0]).toMatchObject({
			message: "the process exited (code 1) before the handshake completed; stderr ends: KeyError: 'API_KEY'",
			hint: 'Read the stderr tail: the server crashed or printed usage. Check the command, its arguments and the environment the client passes.',
		});
	});

	it('exit 0 with an empty stderr: says stderr is empty and lists the likely causes', () => {
		const session = run([...handshake(), ['exit', 30, {code: 0}]]);
		const [finding] = findingsOf(session, 'early-exit');
		expect(finding!.message).toBe('the process exited (code 0) in the middle of the session; stderr is empty');
		expect(finding!.hint).toMatch(/^It exited on purpose \(code 0\) and said nothing on stderr\. Likely causes: /);
		expect(finding!.hint).not.toMatch(/Read the stderr tail/);
	});

	it('exit 1 with an empty stderr: no pointer at an empty stderr', () => {
		const session = run([
			['stdin', 0, INIT],
			['exit', 5, {code: 1}],
		]);
		expect(findingsOf(session, 'early-exit')[0]!.hint).toBe(
			'It said nothing on stderr. Check the command, its arguments and the environment the client passes; run the command by hand to see its output.',
		);
	});
});
