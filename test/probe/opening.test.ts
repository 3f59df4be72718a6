import {describe, expect, it} from 'vitest';
import {
	defaultOpening,
	initializeRequest,
	openingId,
	openingInitialize,
	withStepsAfterLists,
	STRING_ID_CHECK,
} from '../../src/probe/opening.js';

describe('the opening as a value', () => {
	it("the default opening's initialize is the bytes the probe has always written", () => {
		expect(JSON.stringify(initializeRequest('2025-11-25', '0.1.0'))).toBe(
			'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp-wire","version":"0.1.0"}}}',
		);
		expect(defaultOpening().afterInitialize.map((step) => step.method)).toEqual([
			'notifications/initialized',
			'tools/list',
			'prompts/list',
			'resources/list',
			'ping',
			'ping',
		]);
		// The last ping carries a string id (J2): the check of string-id-unanswered, after everything else.
		expect(defaultOpening().afterInitialize.at(-1)).toEqual({send: 'request', method: 'ping', id: STRING_ID_CHECK});
		expect(STRING_ID_CHECK).toBe('mcp-wire-1');
	});

	it('another client: its version, string ids and a request before initialized', () => {
		const base = defaultOpening('2025-06-18');
		const opening = {
			...base,
			initialize: {...base.initialize, id: 'init', clientName: 'other-client'},
			afterInitialize: [{send: 'request', method: 'tools/list'} as const, ...base.afterInitialize],
			ids: 'string' as const,
		};
		expect(openingInitialize(opening, '9.9')).toEqual({
			jsonrpc: '2.0',
			id: 'init',
			method: 'initialize',
			params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'other-client', version: '9.9'}},
		});
		expect(openingId(opening, 3)).toBe('3');
		expect(openingId(base, 3)).toBe(3);
	});

	it('withStepsAfterLists puts steps before the closing ping', () => {
		const opening = withStepsAfterLists(defaultOpening(), [
			{send: 'request', method: 'tools/call', params: {name: 'echo'}, ifCapability: 'tools'},
		]);
		expect(opening.afterInitialize.map((step) => step.method).slice(-3)).toEqual(['tools/call', 'ping', 'ping']);
	});
});
