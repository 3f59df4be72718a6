import {ruleTester} from '../rule-tester.js';
import {handshake, lengthOn} from '../exchange.js';

const NULL_ERROR = '{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found"}}\n';
ruleTester('response-to-notification', {
	valid: [{name: 'a notification left unanswered', steps: handshake()}],
	invalid: [
		{
			name: 'method not found after notifications/initialized',
			steps: [...handshake(), ['stdout', 12, NULL_ERROR]],
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: lengthOn('stdout', handshake()),
					byteLength: NULL_ERROR.length,
					detail: {method: 'notifications/initialized'},
				},
			],
		},
	],
});
