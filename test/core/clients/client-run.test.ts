import {describe, expect, it} from 'vitest';
import {handshakeFacts, judgeClient, PIPE_CAPACITY_BYTES} from '../../../src/core/clients/client-run.js';
import {clientProfile} from '../../../src/core/clients/registry.js';
import type {ClientOutcome} from '../../../src/core/types.js';
import {makeFrame} from '../../helpers/factories.js';

const works: ClientOutcome = {
	client: 'ts-sdk-v1',
	outcome: 'works',
	decidedBy: [],
	note: 'connects and lists tools (1 tool)',
	connects: true,
	toolsListed: true,
};
const reply = (tMs: number, protocolVersion: string) =>
	makeFrame({
		index: 3,
		stream: 'stdout',
		kind: 'response',
		tMs,
		message: {jsonrpc: '2.0', id: 0, result: {protocolVersion}},
		answers: {method: 'initialize', requestIndex: 0, latencyMs: tMs},
	});

describe('handshakeFacts', () => {
	it('the initialize result: its time and version, and the stderr bytes written before it', () => {
		const frames = [
			makeFrame({index: 0, stream: 'stderr', kind: 'text', offset: 0, byteLength: 70_000, tMs: 5}),
			makeFrame({index: 1, stream: 'stderr', kind: 'text', offset: 70_000, byteLength: 10, tMs: 8}),
			reply(11_000, '2025-11-25'),
			makeFrame({index: 4, stream: 'stderr', kind: 'text', offset: 70_010, byteLength: 99, tMs: 11_500}),
		];
		expect(handshakeFacts(frames)).toEqual({
			initializeReplyMs: 11_000,
			answeredVersion: '2025-11-25',
			stderrBytesBeforeReply: 70_010,
		});
	});

	it('the tools/list reply: its latency from the frame it answers', () => {
		const list = makeFrame({
			index: 6,
			stream: 'stdout',
			kind: 'response',
			tMs: 12_660,
			message: {jsonrpc: '2.0', id: 1, result: {tools: []}},
			answers: {method: 'tools/list', requestIndex: 5, latencyMs: 12_019},
		});
		expect(handshakeFacts([reply(612, '2025-11-25'), list])).toEqual({
			initializeReplyMs: 612,
			answeredVersion: '2025-11-25',
			stderrBytesBeforeReply: 0,
			toolsListReplyMs: 12_019,
		});
	});

	it('no result: every stderr byte counts', () => {
		const frames = [makeFrame({index: 0, stream: 'stderr', kind: 'text', offset: 0, byteLength: 12, tMs: 5})];
		expect(handshakeFacts(frames)).toEqual({stderrBytesBeforeReply: 12});
	});
});

describe('judgeClient', () => {
	const gemini = clientProfile('gemini-cli');

	describe('`claude mcp list` waits 5 s for tools/list', () => {
		const facts = (toolsListReplyMs: number) => ({
			initializeReplyMs: 600,
			answeredVersion: '2025-11-25',
			stderrBytesBeforeReply: 0,
			toolsListReplyMs,
		});

		it('Claude Code: a 5001 ms reply is degraded, named as measured for `claude mcp list` only', () => {
			const run = judgeClient(clientProfile('claude-code'), works, facts(5_001), 1);
			expect(run).toEqual({
				client: 'claude-code',
				displayName: 'Claude Code',
				outcome: 'degraded',
				connects: true,
				toolsListed: true,
				tools: 1,
				note: 'connects and lists tools (1 tool); but `claude mcp list` shows "tools fetch failed": tools/list answered after 5001 ms, over the 5000 ms that command waits for it (measured for `claude mcp list` only)',
				startMs: 600,
				startupLimitMs: 30_000,
				knob: 'MCP_TIMEOUT',
			});
		});

		it('Claude Code at 5000 ms, and Codex (no such check) at 12 s: works', () => {
			expect(judgeClient(clientProfile('claude-code'), works, facts(5_000), 1).outcome).toBe('works');
			expect(judgeClient(clientProfile('codex'), works, facts(12_000), 1).outcome).toBe('works');
		});
	});

	it('Gemini CLI: an 11 s start is over its 5 s limit, named with the knob', () => {
		const run = judgeClient(gemini, works, {
			initializeReplyMs: 11_000,
			answeredVersion: '2025-06-18',
			stderrBytesBeforeReply: 0,
		});
		expect(run).toMatchObject({
			client: 'gemini-cli',
			outcome: 'fails',
			connects: false,
			startMs: 11_000,
			startupLimitMs: 5_000,
			knob: 'timeout',
			firstFailure: {
				code: 'startup-limit',
				note: "initialize answered after 11000 ms, over Gemini CLI's start-up limit of 5000 ms (raise it with `timeout`)",
			},
		});
	});

	it('Gemini CLI: 2025-11-25 answered is a version it does not support; Codex takes it', () => {
		const facts = {initializeReplyMs: 40, answeredVersion: '2025-11-25', stderrBytesBeforeReply: 0};
		expect(judgeClient(gemini, works, facts).firstFailure?.code).toBe('protocol-version');
		expect(judgeClient(clientProfile('codex'), {...works, client: 'rmcp'}, facts)).toMatchObject({
			outcome: 'works',
			connects: true,
			startupLimitMs: 30_000,
		});
	});

	it('Gemini CLI: a pipe of stderr before the result blocks the server; one byte less does not', () => {
		const at = (bytes: number) =>
			judgeClient(gemini, works, {initializeReplyMs: 40, answeredVersion: '2025-06-18', stderrBytesBeforeReply: bytes});
		expect(at(PIPE_CAPACITY_BYTES).firstFailure?.code).toBe('stderr-unread');
		expect(at(PIPE_CAPACITY_BYTES - 1).outcome).toBe('works');
		// Codex drains stderr.
		expect(
			judgeClient(
				clientProfile('codex'),
				{...works, client: 'rmcp'},
				{stderrBytesBeforeReply: 300_000, initializeReplyMs: 40},
			).outcome,
		).toBe('works');
	});

	it('a reply the family never reads (no newline, cut, glued) is no late start and no version to judge', () => {
		const unread: ClientOutcome = {
			...works,
			client: 'ts-sdk-v1',
			outcome: 'fails',
			decidedBy: ['missing-newline'],
			note: 'does not connect (initialize hangs): missing-newline: waits for the newline',
			connects: false,
			toolsListed: false,
		};
		// The framer closes the reply's frame only at EOF, after the client's limit: the client never read it.
		for (const answeredVersion of ['2025-06-18', '2025-11-25'])
			expect(
				judgeClient(gemini, unread, {initializeReplyMs: 5_979, answeredVersion, stderrBytesBeforeReply: 0}),
			).toMatchObject({
				outcome: 'fails',
				connects: false,
				firstFailure: {code: 'missing-newline', note: unread.note},
				note: unread.note,
			});
		// A server blocked on a full stderr pipe is still that, whatever the family read.
		expect(judgeClient(gemini, unread, {stderrBytesBeforeReply: PIPE_CAPACITY_BYTES}).firstFailure?.code).toBe(
			'stderr-unread',
		);
	});

	it('the family decides otherwise, its first deciding code as the first failure; no family is not established', () => {
		const failing: ClientOutcome = {
			...works,
			outcome: 'fails',
			decidedBy: ['bom'],
			note: 'does not connect (initialize hangs): bom',
			connects: false,
			toolsListed: false,
		};
		expect(judgeClient(clientProfile('ts-sdk-v2'), failing, {stderrBytesBeforeReply: 0})).toMatchObject({
			outcome: 'fails',
			firstFailure: {code: 'bom', note: 'does not connect (initialize hangs): bom'},
			startupLimitMs: 60_000,
		});
		expect(
			judgeClient(clientProfile('zed'), undefined, {stderrBytesBeforeReply: 0, initializeReplyMs: 5}),
		).toMatchObject({
			outcome: 'unknown',
			connects: null,
			note: 'how Zed reads the wire is not established',
		});
	});
});

describe('judgeClient with the limit raised by its knob', () => {
	it('Gemini CLI with `timeout` 20000: an 11 s start connects', () => {
		const facts = {initializeReplyMs: 11_000, answeredVersion: '2025-06-18', stderrBytesBeforeReply: 0};
		expect(judgeClient(clientProfile('gemini-cli'), works, facts, 1, 20_000)).toMatchObject({
			outcome: 'works',
			connects: true,
			tools: 1,
			startupLimitMs: 20_000,
		});
	});
});
