import {ruleTester} from '../rule-tester.js';
const NOTE = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

ruleTester('missing-newline', {
	valid: [
		{
			name: 'the last message ends with LF',
			steps: [
				['stdout', 0, NOTE + '\n'],
				['close', 5],
				['exit', 6],
			],
		},
	],
	invalid: [
		{
			name: 'the process exits with the last message unterminated',
			steps: [
				['stdout', 0, NOTE + '\n' + NOTE],
				['close', 5],
				['exit', 6],
			],
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: NOTE.length + 1,
					byteLength: NOTE.length,
					detail: {bytes: NOTE.length},
				},
			],
		},
	],
});
