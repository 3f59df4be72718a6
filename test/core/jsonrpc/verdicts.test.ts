import {describe, expect, it} from 'vitest';
import {pythonSdkVerdict, tsSdkVerdict} from '../../../src/core/jsonrpc/index.js';

describe('tsSdkVerdict (the real JSONRPCMessageSchema, sdk 1.32.2)', () => {
	it('accepts the four message kinds, and an error without id', () => {
		for (const message of [
			{jsonrpc: '2.0', id: 0, method: 'initialize', params: {protocolVersion: '2025-11-25', capabilities: {}}},
			{jsonrpc: '2.0', method: 'notifications/initialized'},
			{jsonrpc: '2.0', id: 'a', result: {content: [], _meta: {progressToken: 'p'}}},
			{jsonrpc: '2.0', id: 1, error: {code: -32601, message: 'Method not found', data: {x: 1}, extra: 1}},
			{jsonrpc: '2.0', error: {code: -32700, message: 'Parse error'}},
			{jsonrpc: '2.0', id: 7, method: 'notifications/progress'},
		]) {
			expect(tsSdkVerdict(message)).toEqual({accepted: true});
		}
	});

	it.each([
		['a number', 5, 'expected object, received number'],
		['a batch array', [{jsonrpc: '2.0', id: 1, method: 'x'}], 'expected object, received array'],
		['a log object', {event: 'x'}, 'jsonrpc: Invalid input: expected "2.0"'],
		['missing jsonrpc', {id: 1, result: {}}, 'jsonrpc: Invalid input: expected "2.0"'],
		['an extra key', {jsonrpc: '2.0', id: 1, result: {}, extra: 1}, 'Unrecognized key: "extra"'],
		[
			'result and error',
			{jsonrpc: '2.0', id: 1, result: {}, error: {code: 1, message: 'm'}},
			'Unrecognized key: "result"',
		],
		['result null', {jsonrpc: '2.0', id: 1, result: null}, 'result: Invalid input: expected object, received null'],
		[
			'error id null',
			{jsonrpc: '2.0', id: null, error: {code: -32700, message: 'Parse error'}},
			'id: expected string | number, received null',
		],
		['fractional id', {jsonrpc: '2.0', id: 1.5, result: {}}, 'id: expected string | int, received number'],
		[
			'unsafe integer id',
			{jsonrpc: '2.0', id: 2 ** 53, result: {}},
			'id: Too big: expected int to be <=9007199254740991',
		],
		['request id null', {jsonrpc: '2.0', id: null, method: 'x'}, 'Unrecognized key: "id"'],
		['method not a string', {jsonrpc: '2.0', method: 3}, 'method: Invalid input: expected string, received number'],
		[
			'params array',
			{jsonrpc: '2.0', id: 1, method: 'x', params: [1]},
			'params: Invalid input: expected object, received array',
		],
		[
			'error code string',
			{jsonrpc: '2.0', id: 1, error: {code: 'E', message: 'm'}},
			'error.code: Invalid input: expected number, received string',
		],
		['result without id', {jsonrpc: '2.0', result: {}}, 'id: expected string | number, received undefined'],
		[
			'progress token in result._meta',
			{jsonrpc: '2.0', id: 1, result: {_meta: {progressToken: 1.5}}},
			'result._meta.progressToken: expected string | int, received number',
		],
	])('drops %s with a short issue', (_name, message, issue) => {
		expect(tsSdkVerdict(message)).toEqual({accepted: false, issue});
	});

	it('keeps the issue to one line of at most 160 characters', () => {
		const verdict = tsSdkVerdict({jsonrpc: '2.0', id: 1, result: {}, ['k'.repeat(300)]: 1});
		expect(verdict.accepted).toBe(false);
		if (!verdict.accepted) {
			expect(verdict.issue).toHaveLength(160);
			expect(verdict.issue.endsWith('…')).toBe(true);
		}
	});
});

describe('pythonSdkVerdict (model of the Python SDK 1.29 pydantic union)', () => {
	it.each([
		['extra keys', {jsonrpc: '2.0', id: 1, result: {}, extra: 1}],
		['result and error (as the error)', {jsonrpc: '2.0', id: 1, result: {}, error: {code: 1, message: 'm'}}],
		['result null with a valid error', {jsonrpc: '2.0', id: 1, result: null, error: {code: 1, message: 'm'}}],
		['a request with id null (as a notification)', {jsonrpc: '2.0', id: null, method: 'x'}],
		['a request with id true and params null', {jsonrpc: '2.0', id: true, method: 'x', params: null}],
		['a notification carrying error: 5', {jsonrpc: '2.0', method: 'x', error: 5}],
		['a response carrying method: 5', {jsonrpc: '2.0', id: 1, result: {}, method: 5}],
		['an error id true (lax str | int)', {jsonrpc: '2.0', id: true, error: {code: 1, message: 'm'}}],
		['a numeric-string error code', {jsonrpc: '2.0', id: '1', error: {code: ' -32_600 ', message: 'm'}}],
		['a boolean error code', {jsonrpc: '2.0', id: '1', error: {code: false, message: 'm'}}],
		['an unsafe integer id', {jsonrpc: '2.0', id: 2 ** 53, result: {}}],
		['an invalid progress token in _meta', {jsonrpc: '2.0', id: 1, method: 'x', params: {_meta: {progressToken: 1.5}}}],
	])('accepts %s', (_name, message) => {
		expect(pythonSdkVerdict(message)).toEqual({accepted: true});
	});

	it.each([
		['a batch array', [], 'a batch array: no list branch in JSONRPCMessage'],
		['a string', 'x', 'not a JSON object'],
		['missing jsonrpc', {id: 1, result: {}}, "jsonrpc: Input should be '2.0'"],
		['result null', {jsonrpc: '2.0', id: 1, result: null}, 'result: Input should be a valid dictionary'],
		['a fractional result id', {jsonrpc: '2.0', id: 1.5, result: {}}, 'id: Input should be a valid integer or string'],
		['a boolean result id', {jsonrpc: '2.0', id: true, result: {}}, 'id: Input should be a valid integer or string'],
		['a result without id', {jsonrpc: '2.0', result: {}}, 'id: Field required'],
		[
			'an error with id null',
			{jsonrpc: '2.0', id: null, error: {code: 1, message: 'm'}},
			'id: Input should be a valid string or integer',
		],
		['an error without id', {jsonrpc: '2.0', error: {code: 1, message: 'm'}}, 'id: Field required'],
		['an error that is not an object', {jsonrpc: '2.0', id: 1, error: []}, 'error: Input should be a valid dictionary'],
		[
			'a fractional error code',
			{jsonrpc: '2.0', id: 1, error: {code: 1.5, message: 'm'}},
			'error.code: Input should be a valid integer',
		],
		[
			'a hex-string error code',
			{jsonrpc: '2.0', id: 1, error: {code: '0x1', message: 'm'}},
			'error.code: Input should be a valid integer',
		],
		[
			'an error message that is a number',
			{jsonrpc: '2.0', id: '1', error: {code: 1, message: 5}},
			'error.message: Input should be a valid string',
		],
		[
			'params as an array',
			{jsonrpc: '2.0', id: 1, method: 'x', params: []},
			'params: Input should be a valid dictionary',
		],
		['method as a number', {jsonrpc: '2.0', id: 1, method: 5}, 'method: Input should be a valid string'],
		['a log object', {jsonrpc: '2.0', event: 'x'}, 'no method, result or error'],
	])('rejects %s', (_name, message, issue) => {
		expect(pythonSdkVerdict(message)).toEqual({accepted: false, issue});
	});
});
