import {ruleTester} from '../rule-tester.js';
const NOTE = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

ruleTester('ansi-escape', {
	valid: [{name: 'plain JSON', steps: [['stdout', 0, NOTE + '\n']]}],
	invalid: [
		{
			name: 'a coloured log line',
			steps: [['stdout', 0, '\x1b[33mwarning\x1b[0m\n']],
			findings: [{severity: 'error', stream: 'stdout', offset: 0, byteLength: 5, detail: {sequence: 'CSI'}}],
		},
	],
});
