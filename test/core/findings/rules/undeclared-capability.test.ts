import {describe, expect, it} from 'vitest';
import {
	bytesOf,
	codesAt,
	findingsOf,
	handshake,
	INIT,
	INITIALIZED,
	initOk,
	lengthOn,
	request,
	result,
	run,
	type Step,
} from '../exchange.js';

const listChanged = (feature: string) => ({jsonrpc: '2.0', method: `notifications/${feature}/list_changed`});

describe('undeclared-capability (R12)', () => {
	it('reports list_changed for a feature without listChanged, or absent, at the notification', () => {
		const steps: Step[] = [...handshake({tools: {}})];
		const toolsAt = lengthOn('stdout', steps);
		steps.push(['stdout', 20, listChanged('tools')]);
		const promptsAt = lengthOn('stdout', steps);
		steps.push(['stdout', 21, listChanged('prompts')], ['close', 30], ['exit', 31]);
		const session = run(steps);
		expect(codesAt(session)).toEqual([
			`undeclared-capability@stdout:${toolsAt}`,
			`undeclared-capability@stdout:${promptsAt}`,
		]);
		const [tools, prompts] = findingsOf(session, 'undeclared-capability');
		expect(tools).toMatchObject({
			severity: 'warning',
			byteLength: bytesOf(listChanged('tools')).length,
			detail: {
				kind: 'notification',
				method: 'notifications/tools/list_changed',
				capability: 'tools.listChanged',
				declared: 'no-list-changed',
			},
			message:
				'the server sent notifications/tools/list_changed without advertising `tools.listChanged` in its capabilities',
		});
		expect(prompts!.detail).toMatchObject({capability: 'prompts.listChanged', declared: 'absent'});
		expect(tools!.impact.find((i) => i.client === 'ts-sdk-v1')?.reaction).toBe('skip');
	});

	it('accepts list_changed when the feature advertises listChanged: true', () => {
		expect(
			codesAt(
				run([
					...handshake({resources: {listChanged: true}}),
					['stdout', 20, listChanged('resources')],
					['close', 30],
					['exit', 31],
				]),
			),
		).toEqual([]);
	});

	it('judges a list_changed sent before the initialize result once the capabilities arrive', () => {
		const session = run([
			['stdin', 0, INIT],
			['stdout', 5, listChanged('tools')],
			['stdout', 10, initOk({})],
			['stdin', 11, INITIALIZED],
			['close', 30],
			['exit', 31],
		]);
		expect(codesAt(session)).toEqual(['message-before-initialize@stdout:0', 'undeclared-capability@stdout:0']);
	});

	it('reports a request to the client for a capability the client did not declare', () => {
		const steps: Step[] = [...handshake()];
		const at = lengthOn('stdout', steps);
		const sampling = request(5, 'sampling/createMessage', {messages: [], maxTokens: 10});
		steps.push(
			['stdout', 20, sampling],
			['stdin', 21, {jsonrpc: '2.0', id: 5, error: {code: -32601, message: 'Method not found'}}],
			['close', 30],
			['exit', 31],
		);
		const session = run(steps);
		expect(codesAt(session)).toEqual([`undeclared-capability@stdout:${at}`]);
		expect(findingsOf(session, 'undeclared-capability')[0]).toMatchObject({
			detail: {kind: 'request', method: 'sampling/createMessage', id: 5, capability: 'sampling'},
			message: 'the server sent sampling/createMessage although the client did not declare the `sampling` capability',
		});
	});

	it('accepts a request whose capability the client declared, and ping', () => {
		const init = {...INIT, params: {...INIT.params, capabilities: {roots: {listChanged: true}}}};
		const session = run([
			['stdin', 0, init],
			['stdout', 10, initOk()],
			['stdin', 11, INITIALIZED],
			['stdout', 20, request(5, 'roots/list')],
			['stdin', 21, result(5, {roots: []})],
			['stdout', 22, request(6, 'ping')],
			['stdin', 23, result(6)],
			['close', 30],
			['exit', 31],
		]);
		expect(codesAt(session)).toEqual([]);
	});
});
