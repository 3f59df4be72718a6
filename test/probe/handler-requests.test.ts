import {describe, expect, it} from 'vitest';
import {isReadOnlyTool, planHandlerRequests, NO_HANDLERS} from '../../src/probe/handler-requests.js';
import {handlerPlanOf, parseNamedRequest} from '../../src/cli/options.js';

const weather = {
	name: 'get_weather',
	inputSchema: {type: 'object', properties: {city: {type: 'string'}, units: {enum: ['c', 'f']}}, required: ['city']},
	annotations: {readOnlyHint: true},
};
const clear = {
	name: 'clear_cache',
	inputSchema: {type: 'object'},
	annotations: {readOnlyHint: true, destructiveHint: true},
};
const plain = {name: 'echo', inputSchema: {type: 'object'}};

describe('planHandlerRequests: what the probe sends after the lists', () => {
	it('asks nothing by default', () => {
		expect(planHandlerRequests(NO_HANDLERS, {tools: [weather]})).toEqual([]);
	});

	it('generates the arguments of a named call from its inputSchema and says so', () => {
		expect(planHandlerRequests({...NO_HANDLERS, calls: [{name: 'get_weather'}]}, {tools: [weather]})).toEqual([
			{
				method: 'tools/call',
				params: {name: 'get_weather', arguments: {city: ''}},
				says: 'tools/call get_weather, arguments generated from its inputSchema: {"city":""}',
			},
		]);
	});

	it('keeps given arguments, and calls a tool not listed with {} (the user asked)', () => {
		const plan = {...NO_HANDLERS, calls: [{name: 'get_weather', arguments: {city: 'Paris'}}, {name: 'nope'}]};
		expect(planHandlerRequests(plan, {tools: [weather]}).map((r) => [r.params, r.says])).toEqual([
			[
				{name: 'get_weather', arguments: {city: 'Paris'}},
				'tools/call get_weather, the given arguments: {"city":"Paris"}',
			],
			[{name: 'nope', arguments: {}}, 'tools/call nope, not in tools/list, so no inputSchema: arguments {}: {}'],
		]);
	});

	it('--call-read-only: readOnlyHint true and not destructiveHint, once each, after the named calls', () => {
		const plan = {...NO_HANDLERS, calls: [{name: 'echo'}], callReadOnly: true};
		expect(planHandlerRequests(plan, {tools: [weather, clear, plain]}).map((r) => r.params['name'])).toEqual([
			'echo',
			'get_weather',
		]);
		expect([weather, clear, plain, {name: 'x', annotations: {readOnlyHint: 'true'}}].map(isReadOnlyTool)).toEqual([
			true,
			false,
			false,
			false,
		]);
	});

	it('reads and prompts follow the calls; a prompt gets its required arguments as ""', () => {
		const plan = {...NO_HANDLERS, reads: ['file:///a.txt'], prompts: [{name: 'review'}]};
		const prompts = [{name: 'review', arguments: [{name: 'code', required: true}, {name: 'style'}]}];
		expect(planHandlerRequests(plan, {prompts})).toEqual([
			{method: 'resources/read', params: {uri: 'file:///a.txt'}, says: 'resources/read file:///a.txt'},
			{
				method: 'prompts/get',
				params: {name: 'review', arguments: {code: ''}},
				says: 'prompts/get review, its required arguments as "": {"code":""}',
			},
		]);
	});
});

describe('the handler options', () => {
	it('NAME, NAME=JSON, and one-line errors for what is not', () => {
		expect(parseNamedRequest('get_weather', '--call')).toEqual({name: 'get_weather'});
		expect(parseNamedRequest('a={"x":1}', '--call')).toEqual({name: 'a', arguments: {x: 1}});
		expect(() => parseNamedRequest('={"x":1}', 'probe: --call')).toThrow('probe: --call: no name in "={\\"x\\":1}"');
		expect(() => parseNamedRequest('a={x}', '--call')).toThrow(`--call a: the arguments after '=' are not JSON: "{x}"`);
		expect(() => parseNamedRequest('a=[1]', '--call')).toThrow(
			"--call a: the arguments after '=' must be a JSON object",
		);
		expect(() => handlerPlanOf({call: [], read: [''], getPrompt: []}, 'probe')).toThrow('probe: --read needs a URI');
	});
});
