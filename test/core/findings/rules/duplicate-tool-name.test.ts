import {describe, expect, it} from 'vitest';
import {bytesOf, handshake, lengthOn, request, result, run, findingsOf, type Step} from '../exchange.js';
import {ruleTester} from '../rule-tester.js';

const tool = (name: string) => ({name, inputSchema: {type: 'object'}});
const before: Step[] = [...handshake(), ['stdin', 12, request(1, 'tools/list')]];
const twice = result(1, {tools: [tool('search'), tool('fetch'), tool('search')]});
const page1 = result(1, {tools: [tool('search')], nextCursor: 'p2'});
const page2 = result(2, {tools: [tool('fetch'), tool('search')]});
const paged: Step[] = [
	...before,
	['stdout', 13, page1],
	['stdin', 14, request(2, 'tools/list', {cursor: 'p2'})],
	['stdout', 15, page2],
];
const relisted: Step[] = [
	...before,
	['stdout', 13, result(1, {tools: [tool('search')]})],
	['stdin', 14, request(2, 'tools/list')],
	['stdout', 15, result(2, {tools: [tool('search')]})],
];

ruleTester('duplicate-tool-name', {
	valid: [
		{name: 'distinct names', steps: [...before, ['stdout', 13, result(1, {tools: [tool('a'), tool('b')]})]]},
		{name: 'a second listing (no cursor) starts afresh', steps: relisted},
	],
	invalid: [
		{
			name: 'one result repeats a name',
			steps: [...before, ['stdout', 13, twice]],
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: lengthOn('stdout', before),
					byteLength: bytesOf(twice).length,
					detail: {index: 2, name: 'search', firstIndex: 0},
				},
			],
		},
		{
			name: 'the next page repeats a name',
			steps: paged,
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: lengthOn('stdout', before) + bytesOf(page1).length,
					byteLength: bytesOf(page2).length,
					detail: {index: 1, name: 'search', firstIndex: 0},
				},
			],
		},
	],
});

describe('duplicate-tool-name words', () => {
	it('quotes the Anthropic API and says what Codex does', () => {
		const [finding] = findingsOf(run([...before, ['stdout', 13, twice]]), 'duplicate-tool-name');
		expect(finding!.message).toBe(
			'tools[2] repeats the name "search" of tools[0]: the Anthropic API rejects every prompt (`tools: Tool names must be unique.`), Codex keeps one of them',
		);
		const [paging] = findingsOf(run(paged), 'duplicate-tool-name');
		expect(paging!.message).toContain('of tools[0] (an earlier page)');
		expect(finding!.impact.find((i) => i.client === 'rmcp')).toEqual({
			client: 'rmcp',
			reaction: 'ok',
			note: 'Codex keeps one of them, silently (tools are a map by name)',
		});
	});
});
