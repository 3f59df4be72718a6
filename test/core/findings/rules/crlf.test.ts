import {ruleTester} from '../rule-tester.js';
import {factTester} from '../fact-tester.js';
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

factTester('crlf', {
	valid: [
		{name: 'a message ended by LF', frame: {terminator: 'lf'}},
		{name: 'a blank CR LF line', frame: {terminator: 'crlf', isBlank: true, isJson: false, byteLength: 2}},
		{
			name: 'a stray line ended by CR LF (F48)',
			frame: {terminator: 'crlf', isJson: false},
			facts: {content: {kind: 'text', length: 16, strayKind: 'text', clientError: undefined}},
		},
	],
	invalid: [
		{
			name: 'a message ended by CR LF: at the CR',
			frame: {terminator: 'crlf', byteLength: 19},
			drafts: [{severity: 'warning', offset: 117, byteLength: 2}],
		},
		{
			name: 'a message that does not parse, ended by CR LF',
			frame: {terminator: 'crlf', isJson: false, byteLength: 30},
			facts: {
				content: {
					kind: 'unparsed-message',
					at: 110,
					length: 1,
					looksLike: 'a JSON-RPC message',
					clientError: 'Bad control character in string literal in JSON at position 10',
					position: 10,
				},
			},
			drafts: [{severity: 'warning', offset: 128, byteLength: 2}],
		},
	],
});
