import {describe, expect, it} from 'vitest';
import {INIT, INIT_OK, INITIALIZED, LIST, line, run} from '../harness.js';
import {factTester} from '../fact-tester.js';
import {FRAMING_LIMITS} from '../../../../src/core/framing/limits.js';

/** A tools/list reply of about `bytes` bytes (many tools with long descriptions, GitHub-server sized). */
function bigToolsList(id: number, bytes: number): string {
	const tool = (i: number) => ({
		name: `tool_${i}`,
		description: 'd'.repeat(900),
		inputSchema: {type: 'object', properties: {}},
	});
	const tools = Array.from({length: Math.ceil(bytes / 980)}, (_, i) => tool(i));
	return line({jsonrpc: '2.0', id, result: {tools}});
}

describe('oversize-frame (C1: > 64 KiB info, > 10 MiB error)', () => {
	it('a 2 MiB tools/list is info only: verdict ok (mainstream clients read it)', () => {
		const reply = bigToolsList(1, 2 * 1024 * 1024);
		const session = run([
			['stdin', 0, INIT],
			['stdout', 5, INIT_OK],
			['stdin', 6, INITIALIZED + LIST(1)],
			['stdout', 20, reply],
		]);
		const snapshot = session.getSnapshot();
		const found = snapshot.findings;
		expect(found).toHaveLength(1);
		expect(found[0]).toMatchObject({
			code: 'oversize-frame',
			severity: 'info',
			stream: 'stdout',
			offset: INIT_OK.length,
			byteLength: reply.length,
			detail: {limit: 65_536, bytes: reply.length},
		});
		expect(found[0]!.message).toContain('mainstream clients read it');
		expect(found[0]!.impact.find((i) => i.client === 'ts-sdk-v1')?.reaction).toBe('ok');
		expect(snapshot.summary.verdict).toBe('ok');
		expect(reply.length).toBeGreaterThan(2 * 1024 * 1024);
	});

	it('a frame over 10 MiB is an error: the TS SDK closes the connection', () => {
		const reply = line({jsonrpc: '2.0', id: 1, result: {content: [{type: 'text', text: 'x'.repeat(10_485_760)}]}});
		const session = run([
			['stdin', 0, INIT],
			['stdout', 5, INIT_OK],
			['stdin', 6, INITIALIZED + LIST(1)],
			['stdout', 20, reply],
		]);
		const [finding] = session.getSnapshot().findings;
		expect(finding).toMatchObject({
			code: 'oversize-frame',
			severity: 'error',
			offset: INIT_OK.length,
			byteLength: reply.length,
			detail: {limit: 10_485_760, bytes: reply.length},
		});
		expect(finding!.impact.find((i) => i.client === 'ts-sdk-v1')?.reaction).toBe('fatal');
		expect(session.getSnapshot().summary.verdict).toBe('fail');
	});
});

factTester('oversize-frame', {
	valid: [{name: 'a frame of exactly 65,536 bytes', frame: {byteLength: 65_536}}],
	invalid: [
		{
			name: 'one byte over 64 KiB: info',
			frame: {byteLength: 65_537},
			drafts: [{severity: 'info', offset: 100, byteLength: 65_537, detail: {limit: 65_536, bytes: 65_537}}],
		},
		{
			name: 'over 10 MiB: error, against the TS SDK limit',
			frame: {byteLength: 10_485_761, framing: 'content-length'},
			drafts: [
				{severity: 'error', offset: 100, byteLength: 10_485_761, detail: {limit: 10_485_760, bytes: 10_485_761}},
			],
		},
		{
			name: 'the framer limits decide (small limits in tests)',
			frame: {byteLength: 65},
			facts: {limits: {...FRAMING_LIMITS, oversizeWarnBytes: 64, oversizeErrorBytes: 256}},
			drafts: [{severity: 'info', offset: 100, byteLength: 65, detail: {limit: 64, bytes: 65}}],
		},
	],
});
