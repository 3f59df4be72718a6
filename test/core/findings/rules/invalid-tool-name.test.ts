import {describe, expect, it} from 'vitest';
import {judgeToolName} from '../../../../src/core/findings/support/tool-names.js';
import {suggestName} from '../../../../src/core/findings/rules/invalid-tool-name.js';
import {bytesOf, handshake, lengthOn, request, result, run, findingsOf, type Step} from '../exchange.js';
import {ruleTester} from '../rule-tester.js';

const tool = (name: string) => ({name, inputSchema: {type: 'object'}});
/** A session whose tools/list (id 1) is answered with `tools`; the reply starts at `at`. */
function listing(tools: unknown[]): {steps: Step[]; at: number; length: number} {
	const before: Step[] = [...handshake(), ['stdin', 12, request(1, 'tools/list')]];
	const reply = result(1, {tools});
	return {
		steps: [...before, ['stdout', 13, reply]],
		at: lengthOn('stdout', before),
		length: bytesOf(reply).length,
	};
}

const spaces = listing([tool('get_build'), tool('Get Gradle Project Info')]);
const dotted = listing([tool('admin.tools.list')]);
const long = listing([tool('a'.repeat(60))]);

ruleTester('invalid-tool-name', {
	valid: [
		{
			name: 'names every API takes',
			steps: listing([tool('getUser'), tool('DATA_EXPORT_v2'), tool('a'.repeat(56))]).steps,
		},
		{
			name: 'a tools/call result is not a listing',
			steps: [
				...handshake(),
				['stdin', 12, request(1, 'tools/call', {name: 'x'})],
				['stdout', 13, result(1, {content: [], tools: [tool('a b')]})],
			],
		},
	],
	invalid: [
		{
			name: "spaces (F44): outside MCP's rule",
			steps: spaces.steps,
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: spaces.at,
					byteLength: spaces.length,
					detail: {
						index: 1,
						name: 'Get Gradle Project Info',
						reason: 'characters',
						chars: ' ',
						suggestion: 'Get_Gradle_Project_Info',
					},
				},
			],
		},
		{
			name: 'a dot: allowed by MCP, rejected by the model APIs',
			steps: dotted.steps,
			findings: [
				{
					severity: 'warning',
					stream: 'stdout',
					offset: dotted.at,
					byteLength: dotted.length,
					detail: {
						index: 0,
						reason: 'characters',
						chars: '.',
						rejectedBy: ['anthropic', 'claude-desktop', 'claude-code', 'openai'],
					},
				},
			],
		},
		{
			name: '60 characters: over 64 once Claude Code adds mcp__<server>__',
			steps: long.steps,
			findings: [
				{
					severity: 'warning',
					stream: 'stdout',
					offset: long.at,
					byteLength: long.length,
					detail: {reason: 'length', rejectedBy: ['claude-code']},
				},
			],
		},
	],
});

describe('invalid-tool-name words', () => {
	it('names the characters and the hosts, and suggests a name', () => {
		const [finding] = findingsOf(run(spaces.steps), 'invalid-tool-name');
		expect(finding!.message).toBe(
			'tools[1] name "Get Gradle Project Info" has " ", outside MCP\'s `[A-Za-z0-9_.-]`: tools/list loads; then the Anthropic API, Claude Desktop, Claude Code (`mcp__<server>__<tool>`), the OpenAI API (Codex), the Gemini API reject it',
		);
		expect(finding!.hint).toContain('e.g. `Get_Gradle_Project_Info`');
		expect(finding!.impact.find((i) => i.client === 'ts-sdk-v1')!.reaction).toBe('ok');
	});
	it('says a dot is allowed by MCP', () => {
		const [finding] = findingsOf(run(dotted.steps), 'invalid-tool-name');
		expect(finding!.message).toBe(
			'tools[0] name "admin.tools.list" has ".", which MCP allows: tools/list loads; then the Anthropic API, Claude Desktop, Claude Code (`mcp__<server>__<tool>`), the OpenAI API (Codex) reject it',
		);
	});
});

describe('judgeToolName', () => {
	it.each([
		['get_weather', undefined],
		['a'.repeat(56), undefined],
		['', 'error'],
		['a'.repeat(129), 'error'],
		['files/search', 'error'],
		['ns:tool', 'error'],
		['a'.repeat(65), 'warning'],
		['2fa_check', 'warning'],
	] as const)('%s', (name, severity) => {
		expect(judgeToolName(name)?.severity).toBe(severity);
	});
	it('Gemini alone rejects a digit first', () => {
		expect(judgeToolName('2fa_check')).toEqual({
			severity: 'warning',
			reason: 'start',
			chars: '',
			rejectedBy: ['gemini'],
		});
	});
	it('suggests a name every rule takes', () => {
		expect(suggestName(' Get  Gradle / Info ')).toBe('Get_Gradle_Info');
		expect(judgeToolName(suggestName('x'.repeat(100) + '.y'))).toBeUndefined();
	});
});
