import {ruleTester} from '../rule-tester.js';
import {factTester} from '../fact-tester.js';

const CAFE = new Uint8Array([
	...new TextEncoder().encode('{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"caf'),
	0xe9,
	...new TextEncoder().encode('"}}\n'),
]);
ruleTester('invalid-utf8', {
	valid: [
		{
			name: 'UTF-8 text',
			steps: [['stdout', 0, '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"café"}}\n']],
		},
	],
	invalid: [
		{
			name: 'a cp1252 byte inside a string',
			steps: [['stdout', 0, CAFE]],
			findings: [
				{severity: 'error', stream: 'stdout', offset: CAFE.length - 5, byteLength: 1, detail: {inString: true}},
			],
		},
	],
});

factTester('invalid-utf8', {
	valid: [{name: 'a frame of valid UTF-8'}],
	invalid: [
		{
			name: 'the first invalid byte, inside a JSON string',
			frame: {isJson: false},
			facts: {invalidUtf8: {at: 108, length: 1, inString: true}},
			drafts: [{severity: 'error', offset: 108, byteLength: 1, detail: {inString: true}}],
		},
	],
});
