import {describe, expect, it} from 'vitest';
import type {RuleContext} from '../../../../src/core/findings/engine.js';
import {ToolCalls, toolCallsOf} from '../../../../src/core/findings/support/tool-calls.js';
import {UNCHECKED_SDK_SCHEMAS} from '../../../../src/core/jsonrpc/sdk-checks.js';
import type {Frame} from '../../../../src/core/types.js';

const base = {
	framing: 'newline',
	byteLength: 10,
	bodyOffset: 0,
	bodyLength: 9,
	terminator: 'lf',
	lineCount: 1,
	firstSeq: 0,
	lastSeq: 0,
} as const;

const call = (index: number, id: number, name: string): Frame => ({
	...base,
	index,
	stream: 'stdin',
	offset: index * 10,
	tMs: index,
	firstTMs: index,
	kind: 'request',
	method: 'tools/call',
	id,
	message: {jsonrpc: '2.0', id, method: 'tools/call', params: {name, arguments: {}}},
});

const reply = (index: number, id: number, result: unknown): Frame => ({
	...base,
	index,
	stream: 'stdout',
	offset: index * 10,
	tMs: index,
	firstTMs: index,
	kind: 'response',
	id,
	message: {jsonrpc: '2.0', id, result},
	answers: {method: 'tools/call', requestIndex: index - 1, latencyMs: 1},
});

const context = (): RuleContext => ({report: () => undefined, facts: undefined!, schemas: UNCHECKED_SDK_SCHEMAS});

describe('ToolCalls', () => {
	it('gives the same reply when asked again about the frame it was last fed, and follows the frame once', () => {
		const calls = new ToolCalls();
		const result = {content: [], isError: true};
		expect(calls.frame(call(0, 7, 'echo'))).toBeUndefined();
		const answer = reply(1, 7, result);
		const first = calls.frame(answer);
		expect(first).toEqual({name: 'echo', tool: undefined, result});
		// A second rule asking about the same reply still learns the tool's name (the call was not forgotten twice).
		expect(calls.frame(answer)).toBe(first);
		// The call was answered once: the same id answered again by another frame names no tool.
		expect(calls.frame(reply(2, 7, result))).toEqual({name: undefined, tool: undefined, result});
	});

	it('is one tracker per rule context: the rules of a session share it, another session has its own', () => {
		const session = context();
		expect(toolCallsOf(session)).toBe(toolCallsOf(session));
		expect(toolCallsOf(context())).not.toBe(toolCallsOf(session));
	});
});
