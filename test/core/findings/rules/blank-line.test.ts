import {ruleTester} from '../rule-tester.js';
import {factTester} from '../fact-tester.js';
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

factTester('blank-line', {
	valid: [{name: 'a message line'}],
	invalid: [
		{
			name: 'an empty CR LF line: the whole frame',
			frame: {isJson: false, isBlank: true, byteLength: 2, bodyLength: 0, terminator: 'crlf'},
			facts: {content: {kind: 'blank', clientError: 'Unexpected end of JSON input'}},
			drafts: [
				{severity: 'warning', offset: 100, byteLength: 2, detail: {clientError: 'Unexpected end of JSON input'}},
			],
		},
	],
});
