import {ruleTester} from '../rule-tester.js';
import {factTester} from '../fact-tester.js';
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

factTester('ansi-escape', {
	valid: [{name: 'a frame without ESC'}],
	invalid: [
		{
			name: 'the first escape sequence and how many ESC bytes',
			frame: {isJson: false},
			facts: {escape: {at: 100, length: 5, kind: 'CSI', isPrivate: false, count: 2}},
			drafts: [{severity: 'error', offset: 100, byteLength: 5, detail: {sequence: 'CSI', isPrivate: false, count: 2}}],
		},
	],
});
