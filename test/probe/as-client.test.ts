import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {clientProfile} from '../../src/core/clients/registry.js';
import {clientOpening, openingKey} from '../../src/probe/as-client.js';
import {playSteps} from '../../src/probe/exchange.js';
import {defaultOpening, openingInitialize} from '../../src/probe/opening.js';
import {linkServer} from '../../src/probe/server-link.js';
import {dateClock, fakeProbeOptions, fakeServer} from '../helpers/fake-server.js';

describe('clientOpening', () => {
	it('Codex: initialize id 0 offering 2025-06-18 with elicitation, as codex-mcp-client; nothing assumed', () => {
		const {opening, assumed} = clientOpening(clientProfile('codex'));
		expect(assumed).toEqual([]);
		expect(openingInitialize(opening, '0.1.0')).toEqual({
			jsonrpc: '2.0',
			id: 0,
			method: 'initialize',
			params: {
				protocolVersion: '2025-06-18',
				capabilities: {elicitation: {form: {}, url: {}}},
				clientInfo: {name: 'codex-mcp-client', version: '0.1.0'},
			},
		});
		expect(opening.afterInitialize).toEqual([
			{send: 'notification', method: 'notifications/initialized'},
			{send: 'request', method: 'tools/list', ifCapability: 'tools'},
		]);
		expect(opening.firstStepId).toBe(1);
	});

	it('VS Code: ids from 1, logging/setLevel before initialized when logging is advertised (F47)', () => {
		const {opening, assumed} = clientOpening(clientProfile('vscode'));
		expect(assumed).toEqual(['protocolVersion', 'capabilities', 'clientInfo']);
		expect(opening.initialize.id).toBe(1);
		expect(opening.firstStepId).toBe(2);
		expect(opening.afterInitialize).toEqual([
			{
				send: 'request',
				method: 'logging/setLevel',
				params: {level: 'info'},
				ifCapability: 'logging',
				awaitReply: false,
			},
			{send: 'notification', method: 'notifications/initialized'},
			{send: 'request', method: 'tools/list', ifCapability: 'tools'},
		]);
	});

	it('Gemini CLI offers 2025-06-18 and pings after initialized; the TS SDK v1 opening is the default one', () => {
		const gemini = clientOpening(clientProfile('gemini-cli')).opening;
		expect(gemini.initialize.protocolVersion).toBe('2025-06-18');
		expect(gemini.afterInitialize.map((step) => step.method)).toEqual(['notifications/initialized', 'ping']);
		const v1 = clientOpening(clientProfile('ts-sdk-v1')).opening;
		expect(v1.initialize).toEqual(defaultOpening().initialize);
		expect(openingKey(v1)).toBe(openingKey(clientOpening(clientProfile('ts-sdk-v2')).opening));
		expect(openingKey(v1)).not.toBe(openingKey(gemini));
	});

	it('a client whose opening nobody recorded is the default opening, every part assumed', () => {
		const {opening, assumed} = clientOpening(clientProfile('cursor'));
		expect(assumed).toEqual(['protocolVersion', 'capabilities', 'clientInfo', 'ids', 'order']);
		expect(opening.afterInitialize).toEqual(defaultOpening().afterInitialize);
		expect(opening.initialize.id).toBe(0);
	});
});

describe('playing VS Code’s opening', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('sends logging/setLevel (id 2) before initialized, then tools/list (id 3), to a server that advertises logging', async () => {
		const clock = dateClock();
		const server = fakeServer(clock);
		server.onWrite = (text) => {
			const message = JSON.parse(text) as {id?: unknown};
			if (message.id !== undefined) server.stdout(`${JSON.stringify({jsonrpc: '2.0', id: message.id, result: {}})}\n`);
		};
		const link = linkServer(fakeProbeOptions([]), 'probe', {clock, server}, fakeProbeOptions().schemas!);
		const {opening} = clientOpening(clientProfile('vscode'));
		expect(await playSteps(link, opening, opening.afterInitialize, {tools: {}, logging: {}}, 1000)).toBe('done');
		expect(server.stdin.map((line) => line.trim())).toEqual([
			'{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"info"}}',
			'{"jsonrpc":"2.0","method":"notifications/initialized"}',
			'{"jsonrpc":"2.0","id":3,"method":"tools/list"}',
		]);
		link.detach();
	});

	it('does not wait for the logging/setLevel reply: initialized and tools/list follow a server that never answers it', async () => {
		const clock = dateClock();
		const server = fakeServer(clock);
		server.onWrite = (text) => {
			const message = JSON.parse(text) as {id?: unknown; method?: string};
			if (message.id !== undefined && message.method !== 'logging/setLevel')
				server.stdout(`${JSON.stringify({jsonrpc: '2.0', id: message.id, result: {}})}\n`);
		};
		const link = linkServer(fakeProbeOptions([]), 'probe', {clock, server}, fakeProbeOptions().schemas!);
		const {opening} = clientOpening(clientProfile('vscode'));
		// No timer advanced: nothing waited for the unanswered request (VS Code does not await it, F47).
		expect(await playSteps(link, opening, opening.afterInitialize, {tools: {}, logging: {}}, 1000)).toBe('done');
		expect(server.stdin.map((line) => line.trim())).toEqual([
			'{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"info"}}',
			'{"jsonrpc":"2.0","method":"notifications/initialized"}',
			'{"jsonrpc":"2.0","id":3,"method":"tools/list"}',
		]);
		link.detach();
	});
});
