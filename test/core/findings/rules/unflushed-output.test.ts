import {describe, expect, it} from 'vitest';
import {Session} from '../../../../src/core/session/session.js';
import type {Mark, SessionMeta, StreamName} from '../../../../src/core/types.js';
import {evidence, evidenceMark, proc, readingStdin} from '../../../helpers/evidence.js';

const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.0.0'},
	node: 'v20.0.0',
	platform: 'linux-x64',
	command: ['python3', 'server.py'],
	envMode: 'inherit',
	startedAt: '2026-01-01T00:00:00.000Z',
	mode: 'tap',
};

const enc = new TextEncoder();
const line = (value: unknown): Uint8Array => enc.encode(`${JSON.stringify(value)}\n`);
const request = (id: number, method = 'tools/call'): Uint8Array => line({jsonrpc: '2.0', id, method, params: {}});
const reply = (id: number, pad = 0): Uint8Array => line({jsonrpc: '2.0', id, result: {pad: 'x'.repeat(pad)}});
const concat = (...parts: Uint8Array[]): Uint8Array => {
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
};

type Step = readonly [StreamName, number, Uint8Array] | readonly ['close', number] | readonly ['mark', Mark];

/** A session fed with steps in order (a fake clock: every time comes with its step), finished at the last time. */
function sessionOf(steps: readonly Step[]): Session {
	const session = new Session(META);
	let last = 0;
	for (const step of steps) {
		if (step[0] === 'close') session.mark({type: 'stdin-closed', tMs: step[1]});
		else if (step[0] === 'mark') session.mark(step[1]);
		else session.pushChunk(step[0], step[1], step[2]);
		last = step[0] === 'mark' ? step[1].tMs : step[1];
	}
	session.finish(last);
	return session;
}

const unflushed = (session: Session) => session.getSnapshot().findings.filter((f) => f.code === 'unflushed-output');

/** Three replies whose bytes make one `unit`-byte stdout write followed by the rest. */
function burstBytes(unit = 4096): {first: Uint8Array; rest: Uint8Array; r1: Uint8Array} {
	const r1 = reply(1);
	const all = concat(r1, reply(2), reply(3, unit));
	return {first: all.subarray(0, unit), rest: all.subarray(unit), r1};
}

describe('unflushed-output: a reply released when stdin closed', () => {
	it('is reported at the reply when the server was seen blocked reading stdin while it was due', () => {
		const session = sessionOf([
			['stdin', 0, request(0, 'initialize')],
			['mark', readingStdin(1000)],
			['close', 2500],
			['stdout', 2503.1, reply(0)],
		]);
		const [finding] = unflushed(session);
		expect(finding).toMatchObject({
			code: 'unflushed-output',
			severity: 'error',
			stream: 'stdout',
			offset: 0,
			byteLength: reply(0).length,
			tMs: 2503.1,
		});
		expect(finding?.detail).toMatchObject({
			method: 'initialize',
			latencyMs: 2503.1,
			evidenceTMs: 1000,
			runtime: 'python',
			waiting: 'pid 100 (python3 server.py) blocked reading stdin',
		});
		expect(finding?.detail?.['afterStdinClosedMs']).toBeCloseTo(3.1, 6);
		expect(finding?.hint).toContain('flush=True');
	});

	it('names the cause as the likely one, and for an awk server the input side (mawk holds the request too)', () => {
		const steps: Step[] = [
			['stdin', 0, request(0, 'initialize')],
			['mark', readingStdin(1000)],
			['close', 2500],
			['stdout', 2503, reply(0)],
		];
		const python = unflushed(sessionOf(steps))[0];
		expect(python?.message).toBe(
			'the reply arrived only when stdin was closed, and while it was due the server was seen waiting for input: it was held in a buffer until EOF, most likely an unflushed stdout (or a reader that waits for a full block or for EOF)',
		);
		expect(python?.detail?.['awk']).toBeUndefined();
		const awkSession = new Session({...META, command: ['/usr/bin/mawk', '-f', 'server.awk']});
		for (const step of steps) {
			if (step[0] === 'close') awkSession.mark({type: 'stdin-closed', tMs: step[1]});
			else if (step[0] === 'mark') awkSession.mark(step[1]);
			else awkSession.pushChunk(step[0], step[1], step[2]);
		}
		awkSession.finish(2503);
		const [awk] = unflushed(awkSession);
		expect(awk?.detail).toMatchObject({awk: true, method: 'initialize'});
		expect(awk?.detail?.['runtime']).toBeUndefined();
		expect(awk?.hint).toContain('`mawk -W interactive -f …`');
		expect(awk?.hint).not.toContain('flush=True');
	});

	it('counts an event loop idle with no timer as waiting for input, behind a wrapper that waits for it', () => {
		const observed = evidence('stall', [
			proc(100, 'waiting-child', {command: ['sh', '-c', 'node server.js'], comm: 'sh', syscall: {name: 'wait4'}}),
			proc(101, 'idle', {
				ppid: 100,
				command: ['node', 'server.js'],
				comm: 'node',
				startTMs: 30,
				syscall: {name: 'epoll_pwait', timeoutMs: null},
			}),
		]);
		const session = sessionOf([
			['stdin', 0, request(0, 'initialize')],
			['mark', evidenceMark(1000, observed)],
			['close', 2000],
			['stdout', 2001, reply(0)],
		]);
		expect(unflushed(session).map((f) => f.offset)).toEqual([0]);
	});

	it('is not reported without evidence (the `echo … | server` test closes stdin at once; an 11 s start answers after it)', () => {
		const session = sessionOf([
			['stdin', 0, request(0, 'initialize')],
			['close', 1],
			['stdout', 11_000, reply(0)],
		]);
		expect(
			session
				.getSnapshot()
				.findings.map((f) => f.code)
				.filter((code) => code !== 'invalid-initialize'),
		).toEqual([]);
	});

	it('is not reported when the evidence shows a cause: asleep, busy, on the network, waiting for a new child, or not observed', () => {
		const causes = [
			evidence('stall', [proc(100, 'timer', {syscall: {name: 'clock_nanosleep'}})]),
			evidence('stall', [proc(100, 'busy', {state: 'R'})]),
			evidence('stall', [proc(100, 'network', {connecting: ['10.0.0.1:5432']})]),
			evidence('stall', [proc(100, 'idle', {syscall: {name: 'epoll_wait', timeoutMs: 20_000}, activity: 'timer'})]),
			{reason: 'stall' as const, observed: false, note: 'not on darwin', processes: []},
		];
		for (const observed of causes) {
			const session = sessionOf([
				['stdin', 0, request(0, 'initialize')],
				['mark', evidenceMark(1000, observed)],
				['close', 5000],
				['stdout', 5001, reply(0)],
			]);
			expect(unflushed(session), JSON.stringify(observed)).toEqual([]);
		}
	});

	it('uses only evidence taken while the request was outstanding and before stdin closed (the last one decides)', () => {
		const before = sessionOf([
			['mark', readingStdin(0.5)],
			['stdin', 1, request(0, 'initialize')],
			['close', 2000],
			['stdout', 2001, reply(0)],
		]);
		expect(unflushed(before)).toEqual([]);
		const busyLast = sessionOf([
			['stdin', 0, request(0, 'initialize')],
			['mark', readingStdin(1000)],
			['mark', evidenceMark(1900, evidence('stall', [proc(100, 'busy')]))],
			['close', 2000],
			['stdout', 2001, reply(0)],
		]);
		expect(unflushed(busyLast)).toEqual([]);
	});

	it('reports one finding per chunk that released held replies', () => {
		const session = sessionOf([
			['stdin', 0, request(1)],
			['stdin', 10, request(2)],
			['mark', readingStdin(1000)],
			['close', 2000],
			['stdout', 2001, concat(reply(1), reply(2))],
		]);
		expect(unflushed(session).map((f) => f.offset)).toEqual([0]);
	});
});

describe('unflushed-output: buffer-sized bursts (O2, O3)', () => {
	it('reports a 4096-byte burst carrying replies to requests sent long before, at the first late reply, on evidence', () => {
		const {first, rest, r1} = burstBytes();
		const session = sessionOf([
			['stdin', 0, request(1)],
			['stdin', 100, request(2)],
			['mark', readingStdin(1100)],
			['stdin', 1500, request(3)],
			['stdout', 2000, first],
			['stdout', 2001, rest],
		]);
		const found = unflushed(session);
		expect(found).toHaveLength(1);
		expect(found[0]).toMatchObject({stream: 'stdout', offset: 0, byteLength: r1.length, frameIndex: 3, tMs: 2000});
		expect(found[0]?.detail).toMatchObject({
			method: 'tools/call',
			latencyMs: 2000,
			burstBytes: 4096,
			burstOffset: 0,
			chunkSeq: 3,
			bufferBytes: 4096,
			responses: 3,
			lateResponses: 2,
			oldestRequestAgeMs: 2000,
			evidenceTMs: 1100,
		});
		expect(found[0]?.message).toContain('buffer-sized burst');
	});

	it('names an 8192-byte buffer (Python) when the burst is a multiple of 8192', () => {
		const {first, rest} = burstBytes(8192);
		const session = sessionOf([
			['stdin', 0, request(1)],
			['stdin', 10, request(2)],
			['stdin', 20, request(3)],
			['mark', readingStdin(1000)],
			['stdout', 3000, first],
			['stdout', 3001, rest],
		]);
		expect(unflushed(session)[0]?.detail).toMatchObject({
			burstBytes: 8192,
			bufferBytes: 8192,
			responses: 3,
			lateResponses: 3,
			oldestRequestAgeMs: 3000,
		});
	});

	it('ignores a burst without evidence that the server was waiting for input (a slow batch job that writes 4 KiB at a time)', () => {
		const {first, rest} = burstBytes();
		const bare = sessionOf([
			['stdin', 0, request(1)],
			['stdin', 100, request(2)],
			['stdin', 1500, request(3)],
			['stdout', 2000, first],
			['stdout', 2001, rest],
		]);
		expect(unflushed(bare)).toEqual([]);
		const busy = sessionOf([
			['stdin', 0, request(1)],
			['stdin', 100, request(2)],
			['mark', evidenceMark(1100, evidence('stall', [proc(100, 'busy')]))],
			['stdin', 1500, request(3)],
			['stdout', 2000, first],
			['stdout', 2001, rest],
		]);
		expect(unflushed(busy)).toEqual([]);
	});

	it('ignores a chunk whose length is not a multiple of 4096, one big reply, and pipelined requests answered at once', () => {
		const {first, rest} = burstBytes();
		const odd = sessionOf([
			['stdin', 0, request(1)],
			['stdin', 100, request(2)],
			['mark', readingStdin(1100)],
			['stdin', 1500, request(3)],
			['stdout', 2000, first.subarray(0, 4000)],
			['stdout', 2001, concat(first.subarray(4000), rest)],
		]);
		expect(unflushed(odd)).toEqual([]);
		const big = reply(1, 5000);
		const one = sessionOf([
			['stdin', 0, request(1)],
			['mark', readingStdin(1000)],
			['stdout', 5000, big.subarray(0, 4096)],
			['stdout', 5001, big.subarray(4096)],
		]);
		expect(unflushed(one)).toEqual([]);
		const quick = sessionOf([
			['stdin', 0, request(1)],
			['stdin', 1, request(2)],
			['stdin', 2, request(3)],
			['mark', readingStdin(500)],
			['stdout', 999, first],
			['stdout', 1000, rest],
		]);
		expect(unflushed(quick)).toEqual([]);
	});
});
