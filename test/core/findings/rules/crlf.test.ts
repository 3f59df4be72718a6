import {ruleTester} from '../rule-tester.js';
const NOTE = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

ruleTester('crlf', {
	valid: [
		{name: 'LF only', steps: [['stdout', 0, NOTE + '\n']]},
		{name: 'a CR inside a string', steps: [['stdout', 0, '{"jsonrpc":"2.0","method":"x\\r"}\n']]},
	],
	invalid: [
		{
			name: 'CR LF after a message',
			steps: [['stdout', 0, NOTE + '\r\n' + NOTE + '\r\n']],
			findings: [
				{severity: 'warning', stream: 'stdout', offset: NOTE.length, byteLength: 2},
				{severity: 'warning', stream: 'stdout', offset: 2 * NOTE.length + 2, byteLength: 2},
			],
		},
	],
});
