import {ruleTester} from '../rule-tester.js';
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
