/**
 * The rmcp reading model where the real Codex 0.171 settled a cell (docs/clients.md#codex): each session is
 * synthetic, and the rmcp outcome must be what Codex did with the same fault.
 */
import {describe, expect, it} from 'vitest';
import type {ClientOutcome, Finding} from '../../../src/core/types.js';
import {INIT, INITIALIZED, LIST, line, run, type Step} from '../findings/harness.js';

const initResult = (result: object, id: unknown = 0): string => line({jsonrpc: '2.0', id, result});
const OK_RESULT = {protocolVersion: '2025-11-25', capabilities: {tools: {}}, serverInfo: {name: 's', version: '1'}};
const TOOL = {name: 'echo', inputSchema: {type: 'object'}};

/** The session's rmcp outcome and the rmcp reaction of each finding (code → reaction). */
function rmcp(steps: readonly Step[]): {outcome: ClientOutcome; reactions: Record<string, string>} {
	const snapshot = run(steps).getSnapshot();
	const outcome = snapshot.summary.clients?.find((c) => c.client === 'rmcp');
	if (outcome === undefined) throw new Error('no rmcp outcome');
	const reactions: Record<string, string> = {};
	for (const f of snapshot.findings as readonly Finding[])
		reactions[f.code] = f.impact.find((i) => i.client === 'rmcp')?.reaction ?? 'none';
	return {outcome, reactions};
}

/** A handshake and a `tools/list` whose reply is `listReply`. */
const session = (initReply: string, listReply: string | Uint8Array): Step[] => [
	['stdin', 0, INIT],
	['stdout', 5, initReply],
	['stdin', 6, INITIALIZED + LIST(1)],
	['stdout', 8, listReply],
];

describe('rmcp as Codex 0.171 reads the wire', () => {
	it('a notification before the initialize result: connects and lists tools', () => {
		const {outcome, reactions} = rmcp([
			['stdin', 0, INIT],
			['stdout', 3, line({jsonrpc: '2.0', method: 'notifications/tools/list_changed'})],
			...session(initResult(OK_RESULT), line({jsonrpc: '2.0', id: 1, result: {tools: [TOOL]}})).slice(1),
		]);
		expect(reactions).toEqual({'message-before-initialize': 'ok', 'undeclared-capability': 'ok'});
		expect([outcome.outcome, outcome.connects, outcome.toolsListed]).toEqual(['works', true, true]);
	});

	it('ids echoed as strings: works', () => {
		const {outcome, reactions} = rmcp(
			session(initResult(OK_RESULT, '0'), line({jsonrpc: '2.0', id: '1', result: {tools: [TOOL]}})),
		);
		expect(reactions).toEqual({'unknown-id': 'ok'});
		expect([outcome.outcome, outcome.connects, outcome.toolsListed]).toEqual(['works', true, true]);
	});

	it('ids written 0.0 and 1.0: works', () => {
		const init = `{"jsonrpc":"2.0","id":0.0,"result":${JSON.stringify(OK_RESULT)}}\n`;
		const list = `{"jsonrpc":"2.0","id":1.0,"result":{"tools":[]}}\n`;
		const {outcome, reactions} = rmcp(session(init, list));
		expect(reactions).toEqual({'invalid-jsonrpc': 'ok'});
		expect([outcome.outcome, outcome.connects, outcome.toolsListed]).toEqual(['works', true, true]);
	});

	it('a lone surrogate escape inside the tools/list reply: the line is dropped, tools/list fails', () => {
		const list =
			'{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","description":"cut \\ud83d","inputSchema":{"type":"object"}}]}}\n';
		const {outcome, reactions} = rmcp(session(initResult(OK_RESULT), list));
		expect(reactions['non-portable-json']).toBe('skip');
		expect([outcome.outcome, outcome.connects, outcome.toolsListed]).toEqual(['fails', true, false]);
		expect(outcome.decidedBy).toContain('non-portable-json');
	});

	it('bytes that are not UTF-8 inside the tools/list reply: the line is dropped, tools/list fails', () => {
		const head = new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","description":"');
		const tail = new TextEncoder().encode('","inputSchema":{"type":"object"}}]}}\n');
		const list = new Uint8Array([...head, 0xc7, 0xd1, ...tail]);
		const {outcome, reactions} = rmcp(session(initResult(OK_RESULT), list));
		expect(reactions['invalid-utf8']).toBe('skip');
		expect([outcome.outcome, outcome.connects, outcome.toolsListed]).toEqual(['fails', true, false]);
	});

	it('an answered version nobody offered is accepted; an initialize error is not', () => {
		const fixed = rmcp(
			session(
				initResult({...OK_RESULT, protocolVersion: '2024-01-01'}),
				line({jsonrpc: '2.0', id: 1, result: {tools: []}}),
			),
		);
		expect(fixed.reactions).toEqual({'protocol-version': 'ok'});
		expect(fixed.outcome.outcome).toBe('works');
		const rejected = rmcp([
			['stdin', 0, INIT],
			['stdout', 5, line({jsonrpc: '2.0', id: 0, error: {code: -32602, message: 'Unsupported protocol version'}})],
		]);
		expect(rejected.reactions['protocol-version']).toBe('fatal');
		expect([rejected.outcome.outcome, rejected.outcome.connects]).toEqual(['fails', false]);
	});

	it('an initialize result without serverInfo: does not connect', () => {
		const {outcome, reactions} = rmcp(
			session(
				initResult({protocolVersion: '2025-11-25', capabilities: {tools: {}}}),
				line({jsonrpc: '2.0', id: 1, result: {tools: []}}),
			),
		);
		expect(reactions['invalid-initialize']).toBe('fatal');
		expect([outcome.outcome, outcome.connects]).toEqual(['fails', false]);
	});

	it('a tool without inputSchema fails tools/list; an outputSchema that is not an object schema does not', () => {
		const noInput = rmcp(
			session(initResult(OK_RESULT), line({jsonrpc: '2.0', id: 1, result: {tools: [{name: 'echo'}]}})),
		);
		expect(noInput.reactions).toEqual({'invalid-result': 'drop-log'});
		expect([noInput.outcome.outcome, noInput.outcome.connects, noInput.outcome.toolsListed]).toEqual([
			'fails',
			true,
			false,
		]);
		const output = rmcp(
			session(
				initResult(OK_RESULT),
				line({jsonrpc: '2.0', id: 1, result: {tools: [{...TOOL, outputSchema: {type: 'array'}}]}}),
			),
		);
		expect(output.reactions).toEqual({'invalid-result': 'ok'});
		expect(output.outcome.outcome).toBe('works');
	});

	it('a reply to tools/list sent twice: the second is ignored', () => {
		const reply = line({jsonrpc: '2.0', id: 1, result: {tools: [TOOL]}});
		const {outcome, reactions} = rmcp([...session(initResult(OK_RESULT), reply), ['stdout', 9, reply]]);
		expect(reactions).toEqual({'duplicate-response': 'skip'});
		expect([outcome.outcome, outcome.toolsListed]).toEqual(['works', true]);
	});
});
