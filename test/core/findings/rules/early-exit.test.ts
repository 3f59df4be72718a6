import {ruleTester} from '../rule-tester.js';
import {handshake, INIT} from '../exchange.js';

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
