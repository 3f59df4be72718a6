/**
 * Output backpressure on a live probe (docs/json-records.md#mark, `output-stalled`): while our stdout is
 * backed up the probe reads nothing of the server, records the hold as phase marks, and its waits leave the
 * held time out, so our own stall never makes the server look slow or silent.
 */
import {EventEmitter} from 'node:events';
import type {Writable} from 'node:stream';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {createPresenter} from '../../src/cli/present.js';
import {decodeRecords, encodeEvent, encodeHeader} from '../../src/core/capture/record-codec.js';
import {Session} from '../../src/core/session/session.js';
import type {SessionEvent, SessionMeta} from '../../src/core/types.js';
import {sendRequest} from '../../src/probe/exchange-request.js';
import {linkServer} from '../../src/probe/server-link.js';
import {dateClock, fakeProbeOptions, fakeServer} from '../helpers/fake-server.js';

/**
 * A writable whose every write reports backpressure (`write()` returns false) until the test calls
 * `drain()`: the pipe of a reader that stopped reading.
 */
class StuckOutput extends EventEmitter {
	readonly parts: string[] = [];
	writableLength = 0;
	writableNeedDrain = false;
	write(chunk: string | Uint8Array): boolean {
		const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
		this.parts.push(text);
		this.writableLength += Buffer.byteLength(text);
		this.writableNeedDrain = true;
		return false;
	}
	/** The reader took everything: empty, and 'drain'. */
	drain(): void {
		this.writableLength = 0;
		this.writableNeedDrain = false;
		this.emit('drain');
	}
	get bytes(): number {
		return Buffer.byteLength(this.parts.join(''));
	}
}

const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.1.0'},
	node: 'v20.0.0',
	platform: 'linux-x64',
	command: ['fake-server'],
	envMode: 'sdk-default',
	startedAt: '2026-01-01T00:00:00.000Z',
	mode: 'probe',
	protocolVersion: '2025-11-25',
};
const line = (n: number): string =>
	`${JSON.stringify({jsonrpc: '2.0', method: 'notifications/message', params: {level: 'info', data: n}})}\n`;
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A probe link to a fake server whose session a json presenter writes to `out`, held at any backlog. */
function setUp() {
	const clock = dateClock();
	const server = fakeServer(clock);
	const out = new StuckOutput();
	const presenter = createPresenter({
		mode: 'json',
		isColor: false,
		hex: false,
		redact: false,
		redactPayloads: false,
		out: out as unknown as Writable,
	});
	const events: SessionEvent[] = [];
	const options = fakeProbeOptions([], {
		createSession: () => {
			const session = new Session(META, {retain: false});
			presenter.attach(session);
			session.on((event) => events.push(event));
			return session;
		},
		outputBacklog: () => presenter.whenWritable(1),
	});
	const link = linkServer(options, 'probe', {clock, server}, options.schemas!);
	return {link, server, out, events};
}
/** The bytes of the records of `events` as the presenter writes them (one line each). */
const bytesOf = (events: readonly SessionEvent[]): number =>
	events.reduce((sum, event) => sum + Buffer.byteLength(`${encodeEvent(event)}\n`), 0);

describe('probe output backpressure', () => {
	it('stops reading the server while stdout is backed up, resumes at drain; exact bytes before and after', async () => {
		const {server, out, events} = setUp();
		server.stdout(line(1));
		await turn();
		// The header and frame 1's records went out; the write said "full".
		const first = Buffer.byteLength(`${encodeHeader(META)}\n`) + bytesOf(events);
		expect(out.bytes).toBe(first);
		expect(server.paused).toEqual([]);

		server.stdout(line(2));
		// Read, then the backlog seen: the server's output is paused.
		expect(server.paused).toEqual([true]);
		server.stdout(line(3));
		server.stdout(line(4));
		await turn();
		await turn();
		// Frames 3 and 4 wait in the pipe: nothing of them was read or written.
		expect(events.map((e) => (e.type === 'mark' && e.mark.type === 'phase' ? e.mark.name : e.type))).toEqual([
			'chunk',
			'frame',
			'chunk',
			'frame',
			'output-stalled',
		]);
		const beforeDrain = Buffer.byteLength(`${encodeHeader(META)}\n`) + bytesOf(events);
		expect(out.bytes).toBe(beforeDrain);
		expect(out.bytes - first).toBe(bytesOf(events.slice(2)));

		out.drain();
		await Promise.resolve();
		expect(server.paused).toEqual([true, false]);
		await turn();
		// Resumed: the mark, then frames 3 and 4 (read now), and their records written.
		expect(events.slice(5).map((e) => (e.type === 'mark' && e.mark.type === 'phase' ? e.mark.name : e.type))).toEqual([
			'output-resumed',
			'chunk',
			'frame',
			'chunk',
			'frame',
		]);
		expect(out.bytes - beforeDrain).toBe(bytesOf(events.slice(5)));
		// Frames 3 and 4 were read before their records made the output "full" again: no second hold yet.
		expect(server.paused).toEqual([true, false]);
		server.stdout(line(5));
		expect(server.paused).toEqual([true, false, true]);
		const decoded = decodeRecords(out.parts.join(''));
		expect(decoded.problems).toEqual([]);
		const stdout = decoded.events.flatMap((e) => (e.type === 'chunk' ? [Buffer.from(e.chunk.bytes).toString()] : []));
		expect(stdout.join('')).toBe(line(1) + line(2) + line(3) + line(4));
	});
});

describe('probe waits leave out the held time', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('a reply the server wrote in time but that sat unread during a 5 s hold is a reply, not a timeout', async () => {
		const {link, server, out} = setUp();
		server.stdout(line(1));
		await vi.advanceTimersByTimeAsync(1);
		server.stdout(line(2));
		expect(link.hold.isHeld()).toBe(true);
		const pending = sendRequest(link, {jsonrpc: '2.0', id: 1, method: 'ping'}, 2500);
		// The server answers at once, but it waits in the pipe.
		server.stdout('{"jsonrpc":"2.0","id":1,"result":{}}\n');
		await vi.advanceTimersByTimeAsync(5000);
		let settled = false;
		void pending.then(() => (settled = true));
		await vi.advanceTimersByTimeAsync(0);
		expect(settled).toBe(false);
		out.drain();
		const outcome = await pending;
		expect(outcome.type === 'frame' && [outcome.frame.id, outcome.frame.kind]).toEqual([1, 'response']);
		expect(link.hold.heldMs()).toBe(5000);
	});

	it('a silent server still times out: at its limit plus the time held, not before', async () => {
		const {link, server, out} = setUp();
		server.stdout(line(1));
		await vi.advanceTimersByTimeAsync(1);
		const pending = sendRequest(link, {jsonrpc: '2.0', id: 1, method: 'ping'}, 2500);
		await vi.advanceTimersByTimeAsync(1000);
		server.stdout(line(2));
		expect(link.hold.isHeld()).toBe(true);
		await vi.advanceTimersByTimeAsync(3000);
		out.drain();
		// Held 3000 ms of the wait: the limit moves from 2501 to 5501 ms after the first byte.
		await vi.advanceTimersByTimeAsync(1400);
		let outcome: Awaited<typeof pending> | undefined;
		void pending.then((o) => (outcome = o));
		await vi.advanceTimersByTimeAsync(0);
		expect(outcome).toBeUndefined();
		await vi.advanceTimersByTimeAsync(200);
		expect(outcome).toEqual({type: 'timeout', tMs: 5502, waitedMs: 5501});
	});
});
