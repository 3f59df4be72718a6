import {ruleTester} from '../rule-tester.js';
const NOTE = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

ruleTester('concatenated-json', {
	valid: [{name: 'two lines', steps: [['stdout', 0, NOTE + '\n' + NOTE + '\n']]}],
	invalid: [
		{
			name: 'two values on one line',
			steps: [['stdout', 0, NOTE + NOTE + '\n']],
			findings: [
				{severity: 'error', stream: 'stdout', offset: NOTE.length, byteLength: NOTE.length, detail: {values: 2}},
			],
		},
	],
});
