import {ruleTester} from '../rule-tester.js';
import {handshake, lengthOn} from '../exchange.js';

ruleTester('shutdown-timeout', {
	valid: [{name: 'exit on stdin EOF', steps: [...handshake(), ['close', 20], ['exit', 21]]}],
	invalid: [
		{
			name: 'SIGTERM needed',
			steps: [
				...handshake(),
				['close', 100],
				['mark', 2100, {type: 'signal-sent', signal: 'SIGTERM', tMs: 2100}],
				['exit', 2101, {code: null, signal: 'SIGTERM'}],
			],
			findings: [
				{
					severity: 'warning',
					stream: 'stdout',
					offset: lengthOn('stdout', handshake()),
					byteLength: 0,
					detail: {signal: 'SIGTERM', afterStdinClosedMs: 2001},
				},
			],
		},
		{
			name: 'SIGKILL needed',
			steps: [
				...handshake(),
				['close', 100],
				['mark', 2100, {type: 'signal-sent', signal: 'SIGTERM', tMs: 2100}],
				['mark', 4100, {type: 'signal-sent', signal: 'SIGKILL', tMs: 4100}],
				['exit', 4101, {code: null, signal: 'SIGKILL'}],
			],
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: lengthOn('stdout', handshake()),
					byteLength: 0,
					detail: {signal: 'SIGKILL'},
				},
			],
		},
	],
});
