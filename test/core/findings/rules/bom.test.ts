import {ruleTester} from '../rule-tester.js';
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
