import {ruleTester} from '../rule-tester.js';
const NOTE = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

ruleTester('blank-line', {
	valid: [{name: 'one message, one LF', steps: [['stdout', 0, NOTE + '\n']]}],
	invalid: [
		{
			name: 'an extra LF after a message',
			steps: [['stdout', 0, NOTE + '\n\n']],
			findings: [{severity: 'warning', stream: 'stdout', offset: NOTE.length + 1, byteLength: 1}],
		},
	],
});
