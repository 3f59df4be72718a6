import {ruleTester} from '../rule-tester.js';
import {handshake, lengthOn, request, result, type Step} from '../exchange.js';

const before: Step[] = [...handshake(), ['stdin', 12, request(1, 'ping')], ['stdout', 13, result(1)]];
ruleTester('duplicate-response', {
	valid: [{name: 'one response', steps: before}],
	invalid: [
		{
			name: 'the same response twice',
			steps: [...before, ['stdout', 13, result(1)]],
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: lengthOn('stdout', before),
					byteLength: JSON.stringify(result(1)).length + 1,
					detail: {id: 1},
				},
			],
		},
	],
});
