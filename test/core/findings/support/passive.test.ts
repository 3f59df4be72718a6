import {describe, expect, it} from 'vitest';
import {detectDuplicateRequestIds, detectPassive} from '../../../../src/core/findings/support/passive.js';
import {Session} from '../../../../src/core/session/session.js';
import type {SessionMeta, StreamName} from '../../../../src/core/types.js';

const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.0.0'},
	node: 'v20.0.0',
	platform: 'linux-x64',
	command: ['server'],
	envMode: 'inherit',
	startedAt: '2026-01-01T00:00:00.000Z',
	mode: 'tap',
};

const enc = new TextEncoder();
const line = (value: unknown): Uint8Array => enc.encode(`${JSON.stringify(value)}\n`);
const request = (id: number | string, method = 'tools/call'): Uint8Array =>
	line({jsonrpc: '2.0', id, method, params: {}});
const reply = (id: number | string, pad = 0): Uint8Array => line({jsonrpc: '2.0', id, result: {pad: 'x'.repeat(pad)}});
const concat = (...parts: Uint8Array[]): Uint8Array => {
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}

	return out;
};

/** A session fed with `[stream, tMs, bytes]` steps, finished at the last time. */
function sessionOf(
	steps: readonly (readonly [StreamName, number, Uint8Array] | readonly ['close', number])[],
): Session {
	const session = new Session(META);
	let last = 0;
	for (const step of steps) {
		if (step[0] === 'close') session.mark({type: 'stdin-closed', tMs: step[1]});
		else session.pushChunk(step[0], step[1], step[2]);
		last = step[1];
	}

	session.finish(last);
	return session;
}

const initialize = (id: number, version = '2025-06-18'): Uint8Array =>
	line({
		jsonrpc: '2.0',
		id,
		method: 'initialize',
		params: {protocolVersion: version, capabilities: {}, clientInfo: {name: 'c', version: '1'}},
	});
const initialized = (version: string): Uint8Array =>
	line({
		jsonrpc: '2.0',
		id: 0,
		result: {protocolVersion: version, capabilities: {}, serverInfo: {name: 's', version: '1'}},
	});

describe('detectDuplicateRequestIds', () => {
	it('reports a client id reused after its answer (legacy era, J3) at the reusing request', () => {
		const second = request(1, 'tools/list');
		const session = sessionOf([
			['stdin', 0, initialize(0)],
			['stdout', 5, initialized('2025-06-18')],
			['stdin', 10, request(1, 'tools/list')],
			['stdout', 15, reply(1)],
			['stdin', 20, second],
			['stdout', 25, reply(1)],
		]);
		const stdinBefore = initialize(0).length + request(1, 'tools/list').length;
		expect(detectDuplicateRequestIds(session.getSnapshot().frames)).toEqual([
			{
				code: 'invalid-jsonrpc',
				stream: 'stdin',
				offset: stdinBefore,
				byteLength: second.length,
				frameIndex: 4,
				tMs: 20,
				message: 'request id 1 was already used by request #2 (J3)',
				detail: {
					reason: 'duplicate-request-id',
					id: 1,
					firstIndex: 2,
					isInFlight: false,
					rule: 'J3',
					problem: 'request id reused within the session',
				},
			},
		]);
	});

	it('reports an id reused while the first request is still in flight', () => {
		const session = sessionOf([
			['stdin', 0, request('a')],
			['stdin', 1, request('a')],
			['stdout', 2, reply('a')],
		]);
		const drafts = detectDuplicateRequestIds(session.getSnapshot().frames);
		expect(drafts.map((d) => [d.stream, d.offset, d.frameIndex, d.detail?.['isInFlight'], d.message])).toEqual([
			[
				'stdin',
				request('a').length,
				1,
				true,
				'request id "a" was already used by request #0, which is still awaiting its response (J3)',
			],
		]);
	});

	it('keeps "1" and 1 apart', () => {
		const session = sessionOf([
			['stdin', 0, request(1)],
			['stdout', 1, reply(1)],
			['stdin', 2, request('1')],
			['stdout', 3, reply('1')],
		]);
		expect(detectDuplicateRequestIds(session.getSnapshot().frames)).toEqual([]);
	});

	it('allows reusing an answered id from 2026-07-28 on, but not an id in flight', () => {
		const session = sessionOf([
			['stdin', 0, initialize(0, '2026-07-28')],
			['stdout', 1, initialized('2026-07-28')],
			['stdin', 2, request(1)],
			['stdout', 3, reply(1)],
			['stdin', 4, request(1)],
			['stdin', 5, request(1)],
		]);
		const drafts = detectDuplicateRequestIds(session.getSnapshot().frames);
		expect(drafts.map((d) => [d.frameIndex, d.detail?.['isInFlight']])).toEqual([[5, true]]);
	});

	it("checks the server's own requests on stdout", () => {
		const ask = line({jsonrpc: '2.0', id: 7, method: 'roots/list'});
		const answer = line({jsonrpc: '2.0', id: 7, result: {roots: []}});
		const session = sessionOf([
			['stdout', 0, ask],
			['stdin', 1, answer],
			['stdout', 2, ask],
		]);
		const drafts = detectDuplicateRequestIds(session.getSnapshot().frames);
		expect(drafts.map((d) => [d.code, d.stream, d.offset, d.detail?.['reason']])).toEqual([
			['invalid-jsonrpc', 'stdout', ask.length, 'duplicate-request-id'],
		]);
	});
});

describe('detectPassive', () => {
	it("runs the duplicate-id detector over a snapshot (buffer-sized bursts are the unflushed-output rule's, on evidence)", () => {
		const session = sessionOf([
			['stdin', 0, request(1)],
			['stdin', 100, request(2)],
			['stdin', 150, request(2)],
			['stdout', 2000, concat(reply(1), reply(2))],
		]);
		expect(detectPassive(session.getSnapshot()).map((d) => d.code)).toEqual(['invalid-jsonrpc']);
	});
});
