import {describe, expect, it} from 'vitest';
import {classifyMessage, JSON_RPC_PROBLEM_REASONS} from '../../../src/core/jsonrpc/index.js';
import type {ClassifyOptions} from '../../../src/core/jsonrpc/index.js';

const S2C: ClassifyOptions = {direction: 'server-to-client'};
const C2S: ClassifyOptions = {direction: 'client-to-server'};

/** [reason, rule, key, severity, index] of each problem, in order. */
function brief(message: unknown, options: ClassifyOptions = S2C) {
	return classifyMessage(JSON.parse(JSON.stringify(message)), options).problems.map((item) => [
		item.reason,
		item.rule,
		item.key,
		item.severity,
		item.index,
	]);
}

describe('classifyMessage: valid messages', () => {
	it('reads a request, with the shared frozen empty problem list', () => {
		const result = classifyMessage(
			{jsonrpc: '2.0', id: 0, method: 'initialize', params: {protocolVersion: '2025-11-25'}},
			C2S,
		);
		expect(result).toEqual({kind: 'request', method: 'initialize', id: 0, hasId: true, problems: []});
		expect(Object.isFrozen(result.problems)).toBe(true);
		expect(classifyMessage({jsonrpc: '2.0', id: 'a', method: 'x'}, S2C).problems).toBe(result.problems);
	});

	it('reads a notification, a response and an error', () => {
		expect(classifyMessage({method: 'notifications/initialized', jsonrpc: '2.0'}, C2S)).toEqual({
			kind: 'notification',
			method: 'notifications/initialized',
			hasId: false,
			problems: [],
		});
		expect(classifyMessage({jsonrpc: '2.0', id: '7', result: {}}, S2C)).toEqual({
			kind: 'response',
			id: '7',
			hasId: true,
			problems: [],
		});
		expect(
			classifyMessage({jsonrpc: '2.0', id: 3, error: {code: -32601, message: 'Method not found', data: null}}, S2C),
		).toEqual({
			kind: 'error',
			id: 3,
			hasId: true,
			problems: [],
		});
	});

	it('accepts an error without id from 2025-11-25 on, and when no version is known', () => {
		const message = {jsonrpc: '2.0', error: {code: -32700, message: 'Parse error'}};
		for (const protocolVersion of [undefined, '2025-11-25', '2026-07-28', '2099-01-01']) {
			const options: ClassifyOptions = protocolVersion === undefined ? S2C : {...S2C, protocolVersion};
			expect(classifyMessage(message, options)).toEqual({kind: 'error', hasId: false, problems: []});
		}
	});

	it('ignores inherited members: "constructor" and "toString" are own keys only when sent', () => {
		expect(brief({jsonrpc: '2.0', id: 1, result: {}})).toEqual([]);
		expect(brief({jsonrpc: '2.0', id: 1, result: {}, constructor: 1})).toEqual([
			['unknown-key', 'C1', 'constructor', undefined, undefined],
		]);
	});
});

describe('classifyMessage: each reason with a minimal message', () => {
	it('not-object', () => {
		expect(classifyMessage(5, S2C)).toEqual({
			kind: 'json',
			hasId: false,
			problems: [{reason: 'not-object', rule: 'R6', message: 'the integer 5 is not a JSON-RPC message object'}],
		});
		expect(brief('hello')).toEqual([['not-object', 'R6', undefined, undefined, undefined]]);
		expect(brief(null)).toEqual([['not-object', 'R6', undefined, undefined, undefined]]);
		expect(brief(true)).toEqual([['not-object', 'R6', undefined, undefined, undefined]]);
	});

	it('batch outside the 2025-03-26 window: json, one error problem', () => {
		expect(classifyMessage([{jsonrpc: '2.0', id: 1, result: {}}], {...S2C, protocolVersion: '2025-06-18'})).toEqual({
			kind: 'json',
			hasId: false,
			problems: [
				{
					reason: 'batch',
					rule: 'R6',
					message:
						'a JSON-RPC batch array (1 elements); MCP allows batches only in 2025-03-26 and no SDK client accepts them',
				},
			],
		});
		expect(brief([])).toEqual([['batch', 'R6', undefined, undefined, undefined]]);
	});

	it('batch inside the 2025-03-26 window: a warning, and the elements are checked with their index', () => {
		const options: ClassifyOptions = {...C2S, protocolVersion: '2025-03-26'};
		expect(
			brief(
				[
					{jsonrpc: '2.0', id: 1, method: 'ping'},
					{jsonrpc: '2.0', method: 'notifications/x'},
				],
				options,
			),
		).toEqual([['batch', 'R6', undefined, 'warning', undefined]]);
		expect(
			brief([{jsonrpc: '2.0', method: 'a'}, [1], {id: 1}, {jsonrpc: '2.0', id: 1.5, method: 'b'}], options),
		).toEqual([
			['batch', 'R6', undefined, 'warning', undefined],
			['not-object', 'J8', undefined, undefined, 1],
			['missing-jsonrpc', 'J1', 'jsonrpc', undefined, 2],
			['no-method-or-result', 'R6', undefined, undefined, 2],
			['id-fractional', 'J2', 'id', undefined, 3],
		]);
		expect(brief([], options)).toEqual([
			['batch', 'R6', undefined, 'warning', undefined],
			['batch-empty', 'J8', undefined, undefined, undefined],
		]);
	});

	it('missing-jsonrpc keeps the best reading (a response)', () => {
		expect(classifyMessage({id: 1, result: {}}, S2C)).toEqual({
			kind: 'response',
			id: 1,
			hasId: true,
			problems: [
				{
					reason: 'missing-jsonrpc',
					rule: 'J1',
					key: 'jsonrpc',
					message: 'no "jsonrpc" member; it must be exactly "2.0"',
				},
			],
		});
	});

	it('wrong-jsonrpc', () => {
		expect(classifyMessage({jsonrpc: '1.0', id: 1, result: {}}, S2C).problems).toEqual([
			{reason: 'wrong-jsonrpc', rule: 'J1', key: 'jsonrpc', message: '"jsonrpc" is "1.0"; it must be exactly "2.0"'},
		]);
		expect(classifyMessage({jsonrpc: 2, method: 'x'}, S2C).problems[0]?.message).toBe(
			'"jsonrpc" is the integer 2; it must be exactly "2.0"',
		);
	});

	it('no-method-or-result: a log object is json', () => {
		expect(classifyMessage({event: 'x'}, S2C)).toEqual({
			kind: 'json',
			hasId: false,
			problems: [
				{
					reason: 'missing-jsonrpc',
					rule: 'J1',
					key: 'jsonrpc',
					message: 'no "jsonrpc" member; it must be exactly "2.0"',
				},
				{
					reason: 'no-method-or-result',
					rule: 'R6',
					message: 'valid JSON with no "method", "result" or "error": not a JSON-RPC message',
				},
			],
		});
		expect(classifyMessage({jsonrpc: '2.0', id: 4}, S2C)).toMatchObject({kind: 'json', id: 4, hasId: true});
	});

	it('method-not-string', () => {
		expect(classifyMessage({jsonrpc: '2.0', method: 3}, S2C)).toEqual({
			kind: 'notification',
			hasId: false,
			problems: [
				{
					reason: 'method-not-string',
					rule: 'J2',
					key: 'method',
					message: 'method is the integer 3; it must be a string',
				},
			],
		});
	});

	it('id-null on a request is an error; on an error response a warning', () => {
		expect(classifyMessage({jsonrpc: '2.0', id: null, method: 'tools/list'}, S2C)).toEqual({
			kind: 'request',
			method: 'tools/list',
			id: null,
			hasId: true,
			problems: [
				{reason: 'id-null', rule: 'J2', key: 'id', message: 'id is null; MCP requires a string or integer id'},
			],
		});
		expect(brief({jsonrpc: '2.0', id: null, result: {}})).toEqual([['id-null', 'J2', 'id', undefined, undefined]]);
		expect(classifyMessage({jsonrpc: '2.0', id: null, error: {code: -32700, message: 'Parse error'}}, S2C)).toEqual({
			kind: 'error',
			id: null,
			hasId: true,
			problems: [
				{
					reason: 'id-null',
					rule: 'J5',
					key: 'id',
					severity: 'warning',
					message:
						'error has id null; JSON-RPC allows it for an unreadable id, but MCP omits id instead and TS SDK clients drop the line',
				},
			],
		});
	});

	it('id-boolean, id-object, id-fractional, id-unsafe-integer', () => {
		expect(classifyMessage({jsonrpc: '2.0', id: true, method: 'x'}, S2C)).toEqual({
			kind: 'request',
			method: 'x',
			hasId: true,
			problems: [
				{reason: 'id-boolean', rule: 'J2', key: 'id', message: 'id is true; MCP requires a string or integer id'},
			],
		});
		expect(brief({jsonrpc: '2.0', id: {}, method: 'x'})).toEqual([['id-object', 'J2', 'id', undefined, undefined]]);
		expect(brief({jsonrpc: '2.0', id: [1], result: {}})).toEqual([['id-object', 'J2', 'id', undefined, undefined]]);
		expect(classifyMessage({jsonrpc: '2.0', id: 1.5, result: {}}, S2C)).toEqual({
			kind: 'response',
			id: 1.5,
			hasId: true,
			problems: [
				{
					reason: 'id-fractional',
					rule: 'J2',
					key: 'id',
					message: 'id 1.5 is not an integer; MCP ids are strings or integers',
				},
			],
		});
		expect(brief({jsonrpc: '2.0', id: 2 ** 53, result: {}})).toEqual([
			['id-unsafe-integer', 'C1', 'id', undefined, undefined],
		]);
		expect(brief({jsonrpc: '2.0', id: 2 ** 53 - 1, result: {}})).toEqual([]);
		expect(brief({jsonrpc: '2.0', id: -(2 ** 53 - 1), result: {}})).toEqual([]);
	});

	it('missing-id on a result', () => {
		expect(classifyMessage({jsonrpc: '2.0', result: {}}, S2C)).toEqual({
			kind: 'response',
			hasId: false,
			problems: [
				{
					reason: 'missing-id',
					rule: 'J5',
					key: 'id',
					message: 'a result without "id"; it cannot be matched to a request',
				},
			],
		});
	});

	it('error-without-id before 2025-11-25 only', () => {
		const message = {jsonrpc: '2.0', error: {code: -32700, message: 'Parse error'}};
		expect(classifyMessage(message, {...S2C, protocolVersion: '2025-06-18'}).problems).toEqual([
			{
				reason: 'error-without-id',
				rule: 'J5',
				key: 'id',
				message: 'error without "id"; 2025-06-18 requires it (it may be omitted only from 2025-11-25)',
			},
		]);
		for (const protocolVersion of ['2024-10-07', '2024-11-05', '2025-03-26']) {
			expect(brief(message, {...S2C, protocolVersion})).toEqual([
				['error-without-id', 'J5', 'id', undefined, undefined],
			]);
		}
	});

	it('notification-with-id: id null reads as a notification; a valid id stays a request', () => {
		expect(classifyMessage({jsonrpc: '2.0', id: null, method: 'notifications/initialized'}, C2S)).toEqual({
			kind: 'notification',
			method: 'notifications/initialized',
			id: null,
			hasId: true,
			problems: [
				{
					reason: 'notification-with-id',
					rule: 'J4',
					key: 'id',
					message: 'notification notifications/initialized carries an "id"; notifications MUST NOT include one',
				},
			],
		});
		expect(classifyMessage({jsonrpc: '2.0', id: 7, method: 'notifications/progress'}, S2C)).toMatchObject({
			kind: 'request',
			id: 7,
			problems: [{reason: 'notification-with-id', key: 'id'}],
		});
		expect(brief({jsonrpc: '2.0', id: true, method: 'notifications/progress'})).toEqual([
			['id-boolean', 'J2', 'id', undefined, undefined],
			['notification-with-id', 'J4', 'id', undefined, undefined],
		]);
	});

	it('params-not-object: null, array, scalar', () => {
		expect(classifyMessage({jsonrpc: '2.0', id: 1, method: 'x', params: [1]}, S2C).problems).toEqual([
			{reason: 'params-not-object', rule: 'J2', key: 'params', message: 'params is an array; MCP params are an object'},
		]);
		expect(brief({jsonrpc: '2.0', method: 'x', params: null})).toEqual([
			['params-not-object', 'J2', 'params', undefined, undefined],
		]);
		expect(brief({jsonrpc: '2.0', method: 'x', params: 'a'})).toEqual([
			['params-not-object', 'J2', 'params', undefined, undefined],
		]);
	});

	it('meta-not-object, progress-token-invalid, related-task-invalid (params and result)', () => {
		expect(classifyMessage({jsonrpc: '2.0', id: 1, method: 'x', params: {_meta: 5}}, S2C).problems).toEqual([
			{
				reason: 'meta-not-object',
				rule: 'C1',
				key: 'params._meta',
				message: 'params._meta is the integer 5, not an object',
			},
		]);
		expect(brief({jsonrpc: '2.0', id: 1, result: {_meta: []}})).toEqual([
			['meta-not-object', 'C1', 'result._meta', undefined, undefined],
		]);
		expect(
			classifyMessage({jsonrpc: '2.0', id: 1, method: 'x', params: {_meta: {progressToken: 1.5}}}, S2C).problems,
		).toEqual([
			{
				reason: 'progress-token-invalid',
				rule: 'R18',
				key: 'params._meta.progressToken',
				message: 'params._meta.progressToken is the number 1.5; it must be a string or integer',
			},
		]);
		expect(brief({jsonrpc: '2.0', method: 'n', params: {_meta: {progressToken: null}}})).toEqual([
			['progress-token-invalid', 'R18', 'params._meta.progressToken', undefined, undefined],
		]);
		expect(
			brief({jsonrpc: '2.0', id: 1, result: {_meta: {'io.modelcontextprotocol/related-task': {taskId: 3}}}}),
		).toEqual([
			['related-task-invalid', 'C1', 'result._meta.io.modelcontextprotocol/related-task', undefined, undefined],
		]);
		expect(
			brief({
				jsonrpc: '2.0',
				id: 1,
				result: {_meta: {progressToken: 'p', 'io.modelcontextprotocol/related-task': {taskId: 't', x: 1}, other: 1}},
			}),
		).toEqual([]);
	});

	it('result-and-error reads as an error', () => {
		expect(classifyMessage({jsonrpc: '2.0', id: 1, result: {}, error: {code: 1, message: 'm'}}, S2C)).toEqual({
			kind: 'error',
			id: 1,
			hasId: true,
			problems: [
				{
					reason: 'result-and-error',
					rule: 'J5',
					key: 'result',
					message: 'both "result" and "error"; a response carries exactly one of them',
				},
			],
		});
	});

	it('"error": null beside a result reads as the result (what the clients that accept it read)', () => {
		expect(classifyMessage({jsonrpc: '2.0', id: 1, result: {}, error: null}, S2C)).toEqual({
			kind: 'response',
			id: 1,
			hasId: true,
			problems: [
				{
					reason: 'result-and-error',
					rule: 'J5',
					key: 'error',
					message: '"error": null beside "result"; a success response has no "error" member',
				},
			],
		});
		expect(classifyMessage({jsonrpc: '2.0', id: 1, error: null}, S2C).kind).toBe('error');
	});

	it('result-not-object: null, array, scalar', () => {
		expect(classifyMessage({jsonrpc: '2.0', id: 1, result: null}, S2C).problems).toEqual([
			{
				reason: 'result-not-object',
				rule: 'J5',
				key: 'result',
				message: 'result is null; MCP results are objects (use {} for an empty result)',
			},
		]);
		expect(brief({jsonrpc: '2.0', id: 1, result: []})).toEqual([
			['result-not-object', 'J5', 'result', undefined, undefined],
		]);
		expect(brief({jsonrpc: '2.0', id: 1, result: 'ok'})).toEqual([
			['result-not-object', 'J5', 'result', undefined, undefined],
		]);
	});

	it('error-not-object, error-code-not-integer, error-code-unsafe-integer, error-message-not-string', () => {
		expect(classifyMessage({jsonrpc: '2.0', id: 1, error: 'boom'}, S2C).problems).toEqual([
			{
				reason: 'error-not-object',
				rule: 'J6',
				key: 'error',
				message: 'error is a string, not an object with code and message',
			},
		]);
		expect(classifyMessage({jsonrpc: '2.0', id: 1, error: {code: 'E1', message: 'm'}}, S2C).problems).toEqual([
			{
				reason: 'error-code-not-integer',
				rule: 'J6',
				key: 'error.code',
				message: 'error.code is a string; it must be an integer',
			},
		]);
		expect(brief({jsonrpc: '2.0', id: 1, error: {code: -32600.5, message: 'm'}})).toEqual([
			['error-code-not-integer', 'J6', 'error.code', undefined, undefined],
		]);
		expect(brief({jsonrpc: '2.0', id: 1, error: {code: 2 ** 53, message: 'm'}})).toEqual([
			['error-code-unsafe-integer', 'C1', 'error.code', undefined, undefined],
		]);
		expect(classifyMessage({jsonrpc: '2.0', id: 1, error: {code: 1}}, S2C).problems).toEqual([
			{
				reason: 'error-message-not-string',
				rule: 'J6',
				key: 'error.message',
				message: 'error.message is missing; it must be a string',
			},
		]);
		expect(brief({jsonrpc: '2.0', id: 1, error: {}})).toEqual([
			['error-code-not-integer', 'J6', 'error.code', undefined, undefined],
			['error-message-not-string', 'J6', 'error.message', undefined, undefined],
		]);
	});

	it('unknown-key names each key, in member order, per kind', () => {
		expect(classifyMessage({jsonrpc: '2.0', id: 1, result: {}, extra: 1}, S2C).problems).toEqual([
			{
				reason: 'unknown-key',
				rule: 'C1',
				key: 'extra',
				message: 'unknown top-level key "extra"; the TS SDK\'s strict schema drops the message',
			},
		]);
		expect(brief({jsonrpc: '2.0', method: 'n', params: {}, b: 1, a: 2})).toEqual([
			['unknown-key', 'C1', 'b', undefined, undefined],
			['unknown-key', 'C1', 'a', undefined, undefined],
		]);
		expect(brief({jsonrpc: '2.0', id: 1, method: 'x', result: {}})).toEqual([
			['unknown-key', 'C1', 'method', undefined, undefined],
		]);
		expect(brief({jsonrpc: '2.0', id: 1, error: {code: 1, message: 'm'}, params: {}})).toEqual([
			['unknown-key', 'C1', 'params', undefined, undefined],
		]);
		expect(brief(JSON.parse('{"jsonrpc":"2.0","method":"x","__proto__":1}'))).toEqual([
			['unknown-key', 'C1', '__proto__', undefined, undefined],
		]);
	});

	it('server-request and client-response on 2026-07-28 only', () => {
		const modern = '2026-07-28';
		const request = {jsonrpc: '2.0', id: 1, method: 'sampling/createMessage'};
		expect(classifyMessage(request, {direction: 'server-to-client', protocolVersion: modern}).problems).toEqual([
			{
				reason: 'server-request',
				rule: 'R6',
				message: 'the server wrote a request; on 2026-07-28 stdio the server MUST NOT write requests to stdout',
			},
		]);
		expect(brief(request, {direction: 'client-to-server', protocolVersion: modern})).toEqual([]);
		expect(brief(request, {direction: 'server-to-client', protocolVersion: '2025-11-25'})).toEqual([]);
		expect(
			brief(
				{jsonrpc: '2.0', method: 'notifications/message'},
				{direction: 'server-to-client', protocolVersion: modern},
			),
		).toEqual([]);
		expect(
			classifyMessage(
				{jsonrpc: '2.0', id: 1, error: {code: 1, message: 'm'}},
				{direction: 'client-to-server', protocolVersion: modern},
			).problems,
		).toEqual([
			{
				reason: 'client-response',
				rule: 'R6',
				message: 'the client wrote a response; on 2026-07-28 stdio the client MUST NOT write responses',
			},
		]);
		expect(
			brief(
				{jsonrpc: '2.0', id: 1, result: {resultType: 'complete'}},
				{direction: 'client-to-server', protocolVersion: modern},
			),
		).toEqual([['client-response', 'R6', undefined, undefined, undefined]]);
	});

	it('missing-result-type and invalid-result-type: warnings on 2026-07-28 results', () => {
		const options: ClassifyOptions = {direction: 'server-to-client', protocolVersion: '2026-07-28'};
		expect(classifyMessage({jsonrpc: '2.0', id: 1, result: {}}, options).problems).toEqual([
			{
				reason: 'missing-result-type',
				rule: 'J5',
				key: 'result.resultType',
				severity: 'warning',
				message: 'a 2026-07-28 result without "resultType"; clients read it as "complete"',
			},
		]);
		expect(classifyMessage({jsonrpc: '2.0', id: 1, result: {resultType: 'done'}}, options).problems).toEqual([
			{
				reason: 'invalid-result-type',
				rule: 'J5',
				key: 'result.resultType',
				severity: 'warning',
				message: 'result.resultType is "done"; it must be "complete" or "input_required"',
			},
		]);
		expect(brief({jsonrpc: '2.0', id: 1, result: {resultType: 'input_required'}}, options)).toEqual([]);
		expect(
			brief({jsonrpc: '2.0', id: 1, result: {}}, {direction: 'server-to-client', protocolVersion: '2025-11-25'}),
		).toEqual([]);
	});

	it('orders problems: jsonrpc, shape, id, body, unknown keys', () => {
		expect(
			brief(
				{x: 1, id: true, error: 5, result: null, jsonrpc: '3'},
				{direction: 'client-to-server', protocolVersion: '2026-07-28'},
			),
		).toEqual([
			['wrong-jsonrpc', 'J1', 'jsonrpc', undefined, undefined],
			['result-and-error', 'J5', 'result', undefined, undefined],
			['client-response', 'R6', undefined, undefined, undefined],
			['id-boolean', 'J2', 'id', undefined, undefined],
			['error-not-object', 'J6', 'error', undefined, undefined],
			['unknown-key', 'C1', 'x', undefined, undefined],
		]);
	});

	it('the message reasons are exactly these, in this order (a public interface)', () => {
		const messageReasons = JSON_RPC_PROBLEM_REASONS.slice(
			0,
			JSON_RPC_PROBLEM_REASONS.indexOf('initialize-result-not-object'),
		);
		expect(messageReasons).toEqual([
			'not-object',
			'batch',
			'batch-empty',
			'missing-jsonrpc',
			'wrong-jsonrpc',
			'no-method-or-result',
			'method-not-string',
			'id-null',
			'id-boolean',
			'id-object',
			'id-fractional',
			'id-not-integer',
			'id-unsafe-integer',
			'missing-id',
			'error-without-id',
			'notification-with-id',
			'params-not-object',
			'meta-not-object',
			'progress-token-invalid',
			'related-task-invalid',
			'result-and-error',
			'result-not-object',
			'error-not-object',
			'error-code-not-integer',
			'error-code-unsafe-integer',
			'error-message-not-string',
			'unknown-key',
			'server-request',
			'client-response',
			'missing-result-type',
			'invalid-result-type',
		]);
	});
});
