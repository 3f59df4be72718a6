// The rules' view of a session reads its parts live: what a getter says changes as the parts do.
import {describe, expect, it} from 'vitest';
import {createFramer} from '../../../src/core/framing/index.js';
import type {RawFrame} from '../../../src/core/framing/framer.js';
import {Conversation} from '../../../src/core/session/conversation.js';
import {ruleFacts} from '../../../src/core/session/rule-facts.js';
import {RetainAllStore} from '../../../src/core/session/stores/retain-all.js';
import {Timeline} from '../../../src/core/session/timeline.js';
import type {SessionMeta, StreamName} from '../../../src/core/types.js';

const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.0.0-test'},
	node: 'v20.0.0',
	platform: 'linux',
	command: ['python', 'server.py'],
	envMode: 'inherit',
	startedAt: '2026-01-01T00:00:00.000Z',
	mode: 'probe',
};

function frameOf(stream: StreamName, tMs: number, value: unknown): RawFrame {
	const out: RawFrame[] = [];
	const bytes = new TextEncoder().encode(`${JSON.stringify(value)}\n`);
	createFramer(stream, {mode: 'protocol'}).push({seq: 0, stream, tMs, offset: 0, bytes}, (o) => out.push(o.frame));
	return out[0]!;
}

describe('ruleFacts', () => {
	it('reads the lifecycle, the outstanding requests, the timeline and the stderr tail as of now', () => {
		const conversation = new Conversation(new RetainAllStore());
		const timeline = new Timeline();
		const facts = ruleFacts({meta: META, runtime: 'python', conversation, timeline, stderrTail: (n) => [`tail ${n}`]});
		expect([facts.handshakeDone, facts.negotiatedVersion, facts.exit, facts.stdinClosedAt]).toEqual([
			false,
			undefined,
			undefined,
			undefined,
		]);
		conversation.decode(
			frameOf('stdin', 1, {jsonrpc: '2.0', id: 1, method: 'initialize', params: {protocolVersion: '2025-06-18'}}),
			0,
		);
		expect(facts.outstanding('stdin').map((r) => [r.method, r.id])).toEqual([['initialize', 1]]);
		expect(facts.offeredVersion).toBe('2025-06-18');
		conversation.decode(
			frameOf('stdout', 4, {jsonrpc: '2.0', id: 1, result: {protocolVersion: '2025-03-26', capabilities: {}}}),
			1,
		);
		expect([facts.handshakeDone, facts.negotiatedVersion, facts.firstReplyTMs, facts.serverCapabilities]).toEqual([
			true,
			'2025-03-26',
			4,
			{},
		]);
		expect(facts.outstanding('stdin')).toEqual([]);
		timeline.chunk('stdout', 4, new Uint8Array(12));
		timeline.mark({type: 'stdin-closed', tMs: 9});
		timeline.exit({code: 0, signal: null, tMs: 10});
		expect([facts.streamLength('stdout'), facts.stdinClosedAt, facts.exit?.tMs]).toEqual([12, 9, 10]);
		expect([facts.meta, facts.runtime, facts.stderrTail(3)]).toEqual([META, 'python', ['tail 3']]);
	});
});
