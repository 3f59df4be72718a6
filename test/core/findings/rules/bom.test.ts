import {ruleTester} from '../rule-tester.js';
import {factTester} from '../fact-tester.js';
const NOTE = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

ruleTester('bom', {
	valid: [{name: 'no BOM', steps: [['stdout', 0, NOTE + '\n']]}],
	invalid: [
		{
			name: 'EF BB BF before the first message',
			steps: [['stdout', 0, new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(NOTE + '\n')])]],
			findings: [{severity: 'error', stream: 'stdout', offset: 0, byteLength: 3}],
		},
	],
});

factTester('bom', {
	valid: [{name: 'a frame without BOM'}],
	invalid: [
		{
			name: 'a BOM before a message: at the frame start, with the parse error of the line',
			frame: {bodyOffset: 103, byteLength: 21},
			facts: {bom: {clientError: 'Unexpected token \uFEFF, "\uFEFF{"jsonrpc"... is not valid JSON'}},
			drafts: [
				{
					severity: 'error',
					offset: 100,
					byteLength: 3,
					detail: {clientError: 'Unexpected token \uFEFF, "\uFEFF{"jsonrpc"... is not valid JSON'},
				},
			],
		},
		{
			name: 'a BOM before text that is no JSON: no clientError',
			frame: {isJson: false},
			facts: {bom: {clientError: undefined}},
			drafts: [{severity: 'error', offset: 100, byteLength: 3}],
		},
	],
});
