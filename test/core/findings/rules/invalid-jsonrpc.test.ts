import {ruleTester} from '../rule-tester.js';
import {handshake, lengthOn, request} from '../exchange.js';
const NOTE = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

const LOG = '{"level":"info","msg":"ready"}\n';
ruleTester('invalid-jsonrpc', {
	valid: [{name: 'a notification', steps: [['stdout', 0, NOTE + '\n']]}],
	invalid: [
		{
			name: 'a structured log record',
			steps: [['stdout', 0, LOG]],
			findings: [
				{severity: 'error', stream: 'stdout', offset: 0, byteLength: LOG.length, detail: {reason: 'missing-jsonrpc'}},
			],
		},
		{
			name: 'a request id reused (J3)',
			steps: [...handshake(), ['stdin', 12, request(1, 'tools/list')], ['stdin', 13, request(1, 'tools/list')]],
			findings: [
				{
					severity: 'error',
					stream: 'stdin',
					offset: lengthOn('stdin', [...handshake(), ['stdin', 12, request(1, 'tools/list')]]),
					byteLength: JSON.stringify(request(1, 'tools/list')).length + 1,
					detail: {reason: 'duplicate-request-id', isInFlight: true},
				},
			],
		},
	],
});
