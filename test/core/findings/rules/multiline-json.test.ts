import {ruleTester} from '../rule-tester.js';
import {factTester} from '../fact-tester.js';
const NOTE = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

ruleTester('multiline-json', {
	valid: [{name: 'one line', steps: [['stdout', 0, NOTE + '\n']]}],
	invalid: [
		{
			name: 'an indented message',
			steps: [['stdout', 0, '{\n  "jsonrpc": "2.0",\n  "method": "notifications/initialized"\n}\n']],
			findings: [{severity: 'error', stream: 'stdout', offset: 0, byteLength: 64, detail: {lines: 4}}],
		},
	],
});

factTester('multiline-json', {
	valid: [{name: 'a one-line message'}],
	invalid: [
		{
			name: 'a value over 3 lines: the whole frame',
			frame: {byteLength: 40, lineCount: 3},
			facts: {
				content: {kind: 'multiline', lines: 3, clientError: "Expected property name or '}' in JSON at position 1"},
			},
			drafts: [
				{
					severity: 'error',
					offset: 100,
					byteLength: 40,
					detail: {lines: 3, clientError: "Expected property name or '}' in JSON at position 1"},
				},
			],
		},
	],
});
