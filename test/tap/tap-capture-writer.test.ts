import {createHash} from 'node:crypto';
import {mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import net from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {decodeRecords} from '../../src/core/capture/record-codec.js';
import type {SessionMeta} from '../../src/core/types.js';
import {encodeEvent} from '../../src/core/capture/record-codec.js';
import {CaptureSink, encodeChunkLine} from '../../src/tap/capture-writer-worker.js';
import {createRing, ENTRY, ENTRY_HEADER_BYTES, RING_RESERVE_BYTES, RingConsumer, RingProducer, URGENT_BYTES, type RingEntry} from '../../src/tap/capture-writer.js';
import {LiveSocketServer} from '../../src/tap/live-socket.js';

const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.0.0'},
	node: 'v20.0.0',
	platform: 'linux-x64',
	command: ['server', 'arg'],
	envMode: 'inherit',
	startedAt: '2026-01-01T00:00:00.000Z',
	pid: 7,
	mode: 'tap',
	name: 'server',
};

const drainAll = (consumer: RingConsumer): {kind: number; stream: string; tMs: number; payload: number[]}[] => {
	const out: {kind: number; stream: string; tMs: number; payload: number[]}[] = [];
	consumer.drain((entry) => out.push({kind: entry.kind, stream: entry.stream, tMs: entry.tMs, payload: [...entry.payload]}));
	return out;
};

describe('ring buffer', () => {
	it('hands entries over in order with their stream, time and exact bytes, across the wrap-around', () => {
		const memory = createRing(2 * RING_RESERVE_BYTES);
		const producer = new RingProducer(memory);
		const consumer = new RingConsumer(memory);
		const size = memory.data.byteLength;
		// Fill most of the ring, drain, then write an entry that straddles the end.
		const filler = new Uint8Array(size - RING_RESERVE_BYTES - ENTRY_HEADER_BYTES - 100).fill(7);
		expect(producer.write(ENTRY.chunk, 'stdin', 1.5, filler)).toBe(true);
		expect(drainAll(consumer).map((e) => [e.kind, e.stream, e.tMs, e.payload.length])).toEqual([[ENTRY.chunk, 'stdin', 1.5, filler.length]]);
		const straddle = Uint8Array.from({length: 300}, (_, i) => i % 256);
		expect(producer.write(ENTRY.chunk, 'stdout', 2.25, straddle)).toBe(true);
		expect(producer.write(ENTRY.mark, 'stderr', 3, Uint8Array.of(1, 2, 3))).toBe(true);
		expect(drainAll(consumer)).toEqual([
			{kind: ENTRY.chunk, stream: 'stdout', tMs: 2.25, payload: [...straddle]},
			{kind: ENTRY.mark, stream: 'stderr', tMs: 3, payload: [1, 2, 3]},
		]);
		expect(producer.pendingBytes).toBe(0);
	});

	it('refuses a chunk that does not fit (keeping the reserve for control entries) and accepts it after a drain', () => {
		const memory = createRing(2 * RING_RESERVE_BYTES);
		const producer = new RingProducer(memory);
		const consumer = new RingConsumer(memory);
		const size = memory.data.byteLength;
		const half = new Uint8Array(size / 2 - ENTRY_HEADER_BYTES);
		expect(producer.write(ENTRY.chunk, 'stdout', 0, half)).toBe(true);
		expect(producer.write(ENTRY.chunk, 'stdout', 0, new Uint8Array(1))).toBe(false);
		expect(producer.write(ENTRY.exit, 'stdout', 0, new Uint8Array(100), true)).toBe(true);
		expect(drainAll(consumer).map((e) => e.kind)).toEqual([ENTRY.chunk, ENTRY.exit]);
		expect(producer.write(ENTRY.chunk, 'stdout', 0, new Uint8Array(1))).toBe(true);
	});

	it('keeps every byte across random entry sizes (property)', () => {
		fc.assert(
			fc.property(fc.array(fc.uint8Array({maxLength: 40_000}), {maxLength: 40}), fc.integer({min: 1, max: 8}), (payloads, drainEvery) => {
				const memory = createRing(2 * RING_RESERVE_BYTES);
				const producer = new RingProducer(memory);
				const consumer = new RingConsumer(memory);
				const seen: number[][] = [];
				payloads.forEach((payload, i) => {
					while (!producer.write(ENTRY.chunk, 'stdin', i, payload)) consumer.drain((e) => seen.push([...e.payload]));
					if (i % drainEvery === 0) consumer.drain((e) => seen.push([...e.payload]));
				});
				consumer.drain((e) => seen.push([...e.payload]));
				expect(seen).toEqual(payloads.map((p) => [...p]));
			}),
			{numRuns: 50},
		);
	});

	it('lets a napping consumer sleep through small entries and wakes it for a megabyte or the close', async () => {
		const memory = createRing(4 * URGENT_BYTES);
		const producer = new RingProducer(memory);
		const consumer = new RingConsumer(memory);
		const elapsed = async (write: () => void): Promise<number> => {
			const start = performance.now();
			const napping = consumer.waitForData(400);
			setTimeout(write, 5);
			await napping;
			consumer.drain(() => undefined);
			return performance.now() - start;
		};
		expect(await elapsed(() => producer.write(ENTRY.chunk, 'stdin', 0, new Uint8Array(100)))).toBeGreaterThanOrEqual(390);
		expect(await elapsed(() => producer.write(ENTRY.chunk, 'stdin', 0, new Uint8Array(URGENT_BYTES)))).toBeLessThan(200);
		expect(await elapsed(() => producer.write(ENTRY.close, 'stdout', 0, new Uint8Array(0), true))).toBeLessThan(200);
	});

	it('wakes a parked consumer', async () => {
		const memory = createRing(2 * RING_RESERVE_BYTES);
		const producer = new RingProducer(memory);
		const consumer = new RingConsumer(memory);
		const waiting = consumer.waitForData();
		setTimeout(() => producer.write(ENTRY.close, 'stdout', 0, new Uint8Array(0), true), 5);
		await waiting;
		expect(consumer.hasData).toBe(true);
	});
});

const entry = (kind: RingEntry['kind'], stream: RingEntry['stream'], tMs: number, payload: Uint8Array | string): RingEntry => ({
	kind,
	stream,
	tMs,
	payload: typeof payload === 'string' ? new TextEncoder().encode(payload) : payload,
});

describe('encodeChunkLine', () => {
	it('writes exactly the codec\'s chunk record plus LF, small and large chunks alike (property)', () => {
		fc.assert(
			fc.property(
				fc.oneof(fc.uint8Array({maxLength: 1100}), fc.uint8Array({minLength: 1000, maxLength: 70_000})),
				fc.nat(),
				fc.constantFrom('stdin', 'stdout', 'stderr') as fc.Arbitrary<'stdin' | 'stdout' | 'stderr'>,
				fc.double({min: 0, max: 1e9, noNaN: true}),
				fc.nat(),
				fc.nat({max: 64}),
				(bytes, seq, stream, tMs, offset, shift) => {
					// A view that does not start at its buffer's first byte, like a ring slice.
					const backing = new Uint8Array(bytes.length + shift);
					backing.set(bytes, shift);
					const chunk = {seq, stream, tMs, offset, bytes: backing.subarray(shift)};
					expect(encodeChunkLine(chunk).toString('utf8')).toBe(`${encodeEvent({type: 'chunk', chunk})}\n`);
				},
			),
			{numRuns: 300},
		);
	});
});

describe('CaptureSink', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-sink-'));
	});
	afterEach(() => {
		rmSync(dir, {recursive: true, force: true});
	});

	it('writes the header entry first, then numbered chunk, mark, exit and finding records, mode 0600', async () => {
		const file = path.join(dir, 'c.ndjson');
		const warnings: string[] = [];
		const sink = new CaptureSink({path: file, lingerMs: 10, onWarning: (m) => warnings.push(m)});
		expect(await sink.open()).toBe(true);
		sink.entry(entry(ENTRY.header, 'stdout', 0, JSON.stringify(META)));
		sink.entry(entry(ENTRY.chunk, 'stdin', 1, 'ab\n'));
		sink.entry(entry(ENTRY.chunk, 'stdout', 2, Uint8Array.of(0xff, 0x0a)));
		sink.entry(entry(ENTRY.chunk, 'stdin', 3, 'c'));
		sink.entry(entry(ENTRY.mark, 'stdout', 4, JSON.stringify({type: 'stdin-closed', tMs: 4})));
		sink.entry(entry(ENTRY.finding, 'stdout', 5, JSON.stringify({code: 'spawn-failed', stream: 'stdout', offset: 0, byteLength: 0, tMs: 5})));
		sink.entry(entry(ENTRY.exit, 'stdout', 6, JSON.stringify({code: 3, signal: null, tMs: 6})));
		sink.entry(entry(ENTRY.overflow, 'stdout', 7, '{}'));
		sink.flush();
		await sink.finish();
		expect(statSync(file).mode & 0o777).toBe(0o600);
		const decoded = decodeRecords(readFileSync(file, 'utf8'));
		expect(decoded.problems).toEqual([]);
		expect(decoded.header).toEqual({...META, format: 1});
		expect(decoded.events.map((e) => (e.type === 'chunk' ? [e.chunk.seq, e.chunk.stream, e.chunk.offset, e.chunk.tMs, [...e.chunk.bytes]] : e.type))).toEqual([
			[0, 'stdin', 0, 1, [0x61, 0x62, 0x0a]],
			[1, 'stdout', 0, 2, [0xff, 0x0a]],
			[2, 'stdin', 3, 3, [0x63]],
			'mark',
			'finding',
			'exit',
			'mark',
		]);
		const finding = decoded.events[4];
		expect(finding?.type === 'finding' && [finding.finding.code, finding.finding.origin, finding.finding.severity]).toEqual(['spawn-failed', 'probe', 'error']);
		const last = decoded.events[6];
		expect(last?.type === 'mark' && last.mark).toEqual({type: 'phase', name: 'capture-overflow', tMs: 7});
		expect(warnings).toEqual([]);
	});

	it('warns once and stays quiet when the file cannot be created', async () => {
		const warnings: string[] = [];
		const sink = new CaptureSink({path: path.join(dir, 'missing', 'c.ndjson'), lingerMs: 10, onWarning: (m) => warnings.push(m)});
		expect(await sink.open()).toBe(false);
		sink.entry(entry(ENTRY.chunk, 'stdin', 1, 'x'));
		sink.flush();
		await sink.finish();
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/^capture disabled: cannot create .*missing\/c\.ndjson \(ENOENT: .*\); forwarding goes on$/);
	});

	it('stops with one warning when a write fails (disk full)', async () => {
		const warnings: string[] = [];
		const sink = new CaptureSink({path: '/dev/full', lingerMs: 10, onWarning: (m) => warnings.push(m)});
		expect(await sink.open()).toBe(true);
		sink.entry(entry(ENTRY.header, 'stdout', 0, JSON.stringify(META)));
		sink.entry(entry(ENTRY.chunk, 'stdin', 1, 'x'));
		sink.flush();
		await sink.finish();
		expect(warnings).toEqual([expect.stringMatching(/^capture stopped: cannot write \/dev\/full \(ENOSPC: .*\); forwarding goes on$/)]);
	});
});

/** Connect and collect everything until the server ends the connection. */
async function readAll(address: string, onFirstData?: () => void): Promise<Buffer> {
	return new Promise<Buffer>((resolve, reject) => {
		const parts: Buffer[] = [];
		const socket = net.connect(address);
		let isFirst = true;
		socket.on('data', (data: Buffer) => {
			parts.push(data);
			if (isFirst) {
				isFirst = false;
				onFirstData?.();
			}
		});
		socket.on('end', () => resolve(Buffer.concat(parts)));
		socket.on('error', reject);
	});
}

describe('LiveSocketServer', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-live-'));
	});
	afterEach(() => {
		rmSync(dir, {recursive: true, force: true});
	});

	it('sends a late client the file from its first byte, then live bytes, and ends it at close', async () => {
		const file = path.join(dir, 'c.ndjson');
		let size = 0;
		const append = (text: string): void => {
			writeFileSync(file, text, {flag: 'a'});
			const start = size;
			size += Buffer.byteLength(text);
			server.appended(Buffer.from(text), start);
		};
		const address = path.join(dir, 's.sock');
		const warnings: string[] = [];
		const server = new LiveSocketServer(address, {path: file, size: () => size}, (m) => warnings.push(m));
		writeFileSync(file, '');
		expect(await server.listen()).toBe(true);
		expect(statSync(address).mode & 0o777).toBe(0o600);
		append('first\n');
		append('second\n');
		const received = readAll(address, () => append('third\n'));
		await new Promise((resolve) => setTimeout(resolve, 50));
		append('fourth\n');
		await new Promise((resolve) => setTimeout(resolve, 20));
		await server.close(1000);
		expect((await received).toString()).toBe('first\nsecond\nthird\nfourth\n');
		expect(warnings).toEqual([]);
		expect(() => statSync(address)).toThrow(/ENOENT/);
	});

	it('gives a slow reader the same bytes as the file (catch-up from the file under backpressure)', async () => {
		const file = path.join(dir, 'big.ndjson');
		writeFileSync(file, '');
		let size = 0;
		const address = path.join(dir, 'b.sock');
		const server = new LiveSocketServer(address, {path: file, size: () => size}, () => undefined);
		await server.listen();
		const chunks: Buffer[] = [];
		const socket = net.connect(address);
		socket.pause();
		const done = new Promise<void>((resolve) => socket.on('end', () => resolve()));
		await new Promise((resolve) => socket.once('connect', resolve));
		for (let i = 0; i < 200; i++) {
			const text = `${String(i).padStart(4, '0')}:${'y'.repeat(20_000)}\n`;
			writeFileSync(file, text, {flag: 'a'});
			const start = size;
			size += text.length;
			server.appended(Buffer.from(text), start);
		}

		const closing = server.close(5000);
		socket.on('data', (data: Buffer) => chunks.push(data));
		socket.resume();
		await Promise.all([done, closing]);
		const hash = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
		expect(hash(Buffer.concat(chunks))).toBe(hash(readFileSync(file)));
	});

	it('replaces a stale socket file and warns once when it cannot listen', async () => {
		const address = path.join(dir, 'stale.sock');
		writeFileSync(address, 'stale');
		const ok = new LiveSocketServer(address, {path: address, size: () => 0}, () => undefined);
		expect(await ok.listen()).toBe(true);
		await ok.close(10);
		const warnings: string[] = [];
		const bad = new LiveSocketServer(path.join(dir, 'no', 'such', 'dir.sock'), {path: address, size: () => 0}, (m) => warnings.push(m));
		expect(await bad.listen()).toBe(false);
		expect(warnings).toEqual([expect.stringMatching(/^live attach unavailable: cannot listen on .*dir\.sock \(listen E[A-Z]+: /)]);
	});
});
