import {describe, expect, it} from 'vitest';
import {bytesOf, findingsOf, handshake, lengthOn, request, result, run, type Step} from '../exchange.js';
import {ruleTester} from '../rule-tester.js';

const call = request(2, 'tools/call', {name: 'get_weather', arguments: {city: ''}});
const failed = result(2, {content: [{type: 'text', text: 'city must not be empty'}], isError: true});
const before: Step[] = [...handshake(), ['stdin', 20, call]];

ruleTester('tool-error', {
	valid: [
		{name: 'a result without isError', steps: [...before, ['stdout', 21, result(2, {content: []})]]},
		{name: 'isError false', steps: [...before, ['stdout', 21, result(2, {content: [], isError: false})]]},
		{
			name: 'isError in the reply to another method',
			steps: [
				...handshake(),
				['stdin', 20, request(2, 'prompts/get', {name: 'p'})],
				['stdout', 21, result(2, {messages: [], isError: true})],
			],
		},
	],
	invalid: [
		{
			name: 'isError true, with its text',
			steps: [...before, ['stdout', 21, failed]],
			findings: [
				{
					severity: 'info',
					stream: 'stdout',
					offset: lengthOn('stdout', before),
					byteLength: bytesOf(failed).length,
					detail: {method: 'tools/call', name: 'get_weather', text: 'city must not be empty'},
				},
			],
		},
	],
});

describe('tool-error words and clients', () => {
	it("is the tool's own error: every client works and the verdict stays ok", () => {
		const session = run([...before, ['stdout', 21, failed]]);
		const [finding] = findingsOf(session, 'tool-error');
		expect(finding!.message).toBe(
			'tools/call "get_weather" returned isError: true: "city must not be empty" (the tool\'s own error, not a wire fault)',
		);
		const summary = session.getSnapshot().summary;
		expect(summary.clients!.map((c) => c.outcome)).toEqual(['works', 'works', 'works', 'works', 'works', 'works']);
		expect(summary.verdict).toBe('ok');
	});
});
