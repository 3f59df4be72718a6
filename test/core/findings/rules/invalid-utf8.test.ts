import {ruleTester} from '../rule-tester.js';

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
