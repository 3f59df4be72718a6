// The session's JSON-RPC part: framer outputs become classified, correlated frames; the lifecycle and
// what the client asked are followed; the decoded object is reused.
import {describe, expect, it} from 'vitest';
import {createFramer} from '../../../src/core/framing/index.js';
import type {RawFrame} from '../../../src/core/framing/framer.js';
import {Conversation} from '../../../src/core/session/conversation.js';
import {RetainAllStore} from '../../../src/core/session/stores/retain-all.js';
import type {StreamName} from '../../../src/core/types.js';

const enc = new TextEncoder();
const offsets: Record<StreamName, number> = {stdin: 0, stdout: 0, stderr: 0};

/** Frame `text` on `stream` at `tMs` as the session's framer would (lines must be whole). */
function framed(stream: StreamName, tMs: number, text: string): RawFrame[] {
	const bytes = enc.encode(text);
	const out: RawFrame[] = [];
	const framer = createFramer(stream, {
		mode: stream === 'stderr' ? 'log' : 'protocol',
		startOffset: offsets[stream],
	});
	framer.push({seq: 0, stream, tMs, offset: offsets[stream], bytes}, (o) => out.push(o.frame));
	offsets[stream] += bytes.length;
	return out;
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

describe('Conversation', () => {
	it('classifies, pairs a response with its request, and follows the handshake', () => {
		const talk = new Conversation(new RetainAllStore());
		const [init] = framed(
			'stdin',
			10,
			line({
				jsonrpc: '2.0',
				id: 1,
				method: 'initialize',
				params: {protocolVersion: '2025-06-18', clientInfo: {name: 'c', version: '1'}},
			}),
		);
		const first = talk.decode(init!, 0);
		expect([first.frame.index, first.frame.kind, first.frame.method, first.frame.id]).toEqual([
			0,
			'request',
			'initialize',
			1,
		]);
		expect(first.facts?.correlation).toBeUndefined();
		expect(talk.outstanding('stdin').map((r) => [r.method, r.id, r.frame.index])).toEqual([['initialize', 1, 0]]);
		expect(talk.awaitedMethod('stdin', '1')).toBe('initialize');
		expect(talk.awaitedMethod('stdin', '"1"')).toBeUndefined();
		expect(talk.awaitedMethod('stdin', 'not json')).toBeUndefined();

		const [ok] = framed(
			'stdout',
			35,
			line({
				jsonrpc: '2.0',
				id: 1,
				result: {protocolVersion: '2025-06-18', capabilities: {tools: {}}, serverInfo: {name: 's', version: '2'}},
			}),
		);
		const reply = talk.decode(ok!, 1);
		expect(reply).toBe(first);
		expect(reply.frame.kind).toBe('response');
		expect(reply.frame.answers).toEqual({method: 'initialize', requestIndex: 0, latencyMs: 25});
		expect(reply.facts?.correlation?.type).toBe('answered');
		expect(reply.facts?.problems).toEqual([]);
		expect(talk.outstanding('stdin')).toEqual([]);
		expect(talk.firstReplyTMs).toBe(35);
		const {lifecycle} = talk;
		expect([lifecycle.offeredVersion, lifecycle.negotiatedVersion, lifecycle.era, lifecycle.handshakeDone]).toEqual([
			'2025-06-18',
			'2025-06-18',
			'legacy',
			true,
		]);
		expect([lifecycle.clientInfo, lifecycle.serverInfo]).toEqual([
			{name: 'c', version: '1'},
			{name: 's', version: '2'},
		]);
	});

	it('counts what the client asked, and reports an answer to an unknown id as unmatched', () => {
		const talk = new Conversation(new RetainAllStore());
		const [call] = framed('stdin', 1, line({jsonrpc: '2.0', id: 'a', method: 'tools/call', params: {name: 'echo'}}));
		talk.decode(call!, 0);
		const [stray] = framed('stdout', 2, line({jsonrpc: '2.0', id: 'b', result: {}}));
		const decoded = talk.decode(stray!, 1);
		expect(decoded.facts?.correlation).toEqual({type: 'unmatched', id: 'b', duplicate: false});
		expect(decoded.frame.answers).toBeUndefined();
		expect(talk.firstReplyTMs).toBe(2);
		expect(talk.exercised.value()).toEqual({requests: {'tools/call': 1}, called: ['echo'], read: [], prompts: []});
	});

	it('a text line, a blank line and a stderr line are frames without message facts', () => {
		const talk = new Conversation(new RetainAllStore());
		const [text, blank] = framed('stdout', 1, 'hello\n\n');
		expect([talk.decode(text!, 0).frame.kind, talk.decode(text!, 0).facts]).toEqual(['text', undefined]);
		expect(talk.decode(blank!, 1).frame.kind).toBe('blank');
		const [log] = framed('stderr', 1, '{"jsonrpc":"2.0","method":"x"}\n');
		const decoded = talk.decode(log!, 2);
		expect([decoded.frame.stream, decoded.facts]).toEqual(['stderr', undefined]);
		expect(talk.firstReplyTMs).toBeUndefined();
	});

	it('cuts a message that nests too deep and says so in its facts', () => {
		const talk = new Conversation(new RetainAllStore());
		let deep: unknown = 0;
		for (let i = 0; i < 2000; i++) deep = [deep];
		const [raw] = framed('stdout', 1, line({jsonrpc: '2.0', method: 'notifications/message', params: {deep}}));
		const decoded = talk.decode(raw!, 0);
		expect(decoded.facts?.nestingCut).toBe(true);
		expect(decoded.raw).not.toBe(raw);
		expect(decoded.raw.message).toBe(decoded.frame.message);
		expect(JSON.stringify(decoded.frame.message).length).toBeLessThan(JSON.stringify(raw!.message).length);
	});

	it('cuts the shortest body that nests too deep (202 levels in 404 bytes), not one level less', () => {
		const talk = new Conversation(new RetainAllStore());
		const [tooDeep, deepest] = framed(
			'stdin',
			1,
			`${'['.repeat(202)}${']'.repeat(202)}\n${'['.repeat(201)}${']'.repeat(201)}\n`,
		);
		expect([tooDeep!.bodyLength, deepest!.bodyLength]).toEqual([404, 402]);
		const cut = talk.decode(tooDeep!, 0);
		expect([cut.facts?.nestingCut, cut.raw === tooDeep]).toEqual([true, false]);
		const kept = talk.decode(deepest!, 1);
		expect([kept.facts?.nestingCut, kept.raw === deepest]).toEqual([false, true]);
	});
});
