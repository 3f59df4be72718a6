import {ruleTester} from '../rule-tester.js';
import {factTester} from '../fact-tester.js';
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

factTester('missing-newline', {
	valid: [
		{name: 'a line ended by LF', frame: {terminator: 'lf'}},
		{
			name: 'a Content-Length body cut at the end (its own missingBytes)',
			frame: {framing: 'content-length', terminator: 'none'},
		},
	],
	invalid: [
		{
			name: 'a line without terminator at the end',
			frame: {terminator: 'none', byteLength: 17, bodyLength: 17},
			drafts: [{severity: 'error', offset: 100, byteLength: 17, detail: {bytes: 17, cutAt64KiB: false}}],
		},
		{
			name: 'the stream cut at 64 KiB, inside a JSON value',
			frame: {terminator: 'none', offset: 65_500, byteLength: 36, isJson: false},
			facts: {content: {kind: 'cut-json'}},
			drafts: [
				{
					severity: 'error',
					offset: 65_500,
					byteLength: 36,
					detail: {bytes: 36, cutAt64KiB: true, isTruncatedJson: true},
				},
			],
		},
	],
});
