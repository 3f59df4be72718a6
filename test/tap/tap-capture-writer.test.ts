import {execFileSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import net from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {decodeRecords} from '../../src/core/capture/record-codec.js';
import type {SessionMeta} from '../../src/core/types.js';
import {encodeEvent} from '../../src/core/capture/record-codec.js';
import {CaptureSink, encodeChunkLine} from '../../src/tap/capture-writer-worker.js';
import {ARENA, ENTRY, RING_RESERVE_BYTES, type RingEntry} from '../../src/tap/capture-ring.js';
import {CaptureWriter} from '../../src/tap/capture-writer.js';
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

	it('refuses a path that is not a regular file (a device such as /dev/full) with one warning (issue 13)', async () => {
		const warnings: string[] = [];
		const sink = new CaptureSink({path: '/dev/full', lingerMs: 10, onWarning: (m) => warnings.push(m)});
		expect(await sink.open()).toBe(false);
		expect(warnings).toEqual(['capture disabled: cannot create /dev/full (not a regular file); forwarding goes on']);
	});

	it('stops with one warning when a write fails (a file-size limit: EFBIG with SIGXFSZ ignored)', () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-efbig-'));
		try {
			const file = path.join(dir, 'c.ndjson');
			const sinkUrl = new URL('../../dist/tap/capture-writer-worker.js', import.meta.url).href;
			const script = `
				process.on('SIGXFSZ', () => {});
				const {CaptureSink} = await import(${JSON.stringify(sinkUrl)});
				const warnings = [];
				const sink = new CaptureSink({path: ${JSON.stringify(file)}, lingerMs: 10, onWarning: (m) => warnings.push(m)});
				await sink.open();
				const enc = (t) => new TextEncoder().encode(t);
				sink.entry({kind: ${ENTRY.header}, stream: 'stdout', tMs: 0, payload: enc(${JSON.stringify(JSON.stringify(META))})});
				for (let i = 0; i < 8; i++) { sink.entry({kind: ${ENTRY.chunk}, stream: 'stdin', tMs: i, payload: new Uint8Array(1024)}); sink.flush(); }
				await sink.finish();
				process.stdout.write(JSON.stringify(warnings));`;
			const out = execFileSync('sh', ['-c', 'ulimit -f 4 && exec "$0" --input-type=module -e "$1"', process.execPath, script], {encoding: 'utf8'});
			expect(JSON.parse(out)).toEqual([expect.stringMatching(/^capture stopped: cannot write .*c\.ndjson \(EFBIG: .*\); forwarding goes on$/)]);
		} finally {
			rmSync(dir, {recursive: true, force: true});
		}
	});
});

/** The built worker (tests run after `npm run build`): the writer's default URL points at a .js next to its .ts. */
const WORKER_URL = new URL('../../dist/tap/capture-writer-worker.js', import.meta.url);

/** Deterministic bytes of every value (xorshift32), so an offset or length mistake shows. */
function noise(length: number, seed: number): Uint8Array {
	const out = new Uint8Array(length);
	let x = seed | 0 || 1;
	for (let i = 0; i < length; i++) {
		x ^= x << 13;
		x ^= x >>> 17;
		x ^= x << 5;
		out[i] = x & 0xff;
	}

	return out;
}

/** Each decoded event in a comparable form: chunks as [seq, stream, offset, tMs, sha256, length]. */
function summarize(file: string): {problems: unknown[]; header: unknown; events: unknown[]} {
	const decoded = decodeRecords(readFileSync(file, 'utf8'));
	return {
		problems: decoded.problems,
		header: decoded.header,
		events: decoded.events.map((e) => {
			if (e.type === 'chunk') return ['chunk', e.chunk.seq, e.chunk.stream, e.chunk.offset, e.chunk.tMs, createHash('sha256').update(e.chunk.bytes).digest('hex'), e.chunk.bytes.length];
			if (e.type === 'mark') return ['mark', e.mark];
			if (e.type === 'exit') return ['exit', e.exit];
			return [e.type];
		}),
	};
}

const digest = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('CaptureWriter (real worker thread)', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-writer-'));
		expect(existsSync(WORKER_URL), 'run `npm run build` first: the worker runs from dist/').toBe(true);
	});
	afterEach(() => {
		rmSync(dir, {recursive: true, force: true});
	});

	it('records chunks read in place (chunkAt) and copied (chunk) byte-exact, with per-stream offsets, in order', async () => {
		const file = path.join(dir, 'c.ndjson');
		const warnings: string[] = [];
		const writer = CaptureWriter.start({path: file, onWarning: (m) => warnings.push(m), workerUrl: WORKER_URL, lingerMs: 10});
		/** What pass-through does for a pipe read in place: reserve, the kernel fills, forward, record. */
		const inPlace = (stream: 'stdin' | 'stdout', tMs: number, bytes: Uint8Array, isWriting: boolean): void => {
			const arena = ARENA[stream];
			const position = writer.ring.reserve(arena, bytes.length);
			expect(position).toBeGreaterThanOrEqual(0);
			writer.ring.view(arena, position, bytes.length).set(bytes);
			if (isWriting) writer.ring.beginWrite(arena, position);
			writer.chunkAt(stream, tMs, position, bytes.length);
		};

		const out1 = noise(70_000, 1);
		const in1 = new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
		const out2 = Uint8Array.of(0xff, 0xfe, 0x00, 0x0d, 0x0a);
		const err1 = new TextEncoder().encode('server log\n');
		const in2 = noise(65_536, 2);
		const out3 = noise(1, 3);
		writer.header(META);
		inPlace('stdout', 1.25, out1, true);
		inPlace('stdin', 2, in1, false);
		inPlace('stdout', 3, out2, true);
		writer.chunk('stderr', 4, err1);
		writer.ring.endWrite(ARENA.stdout);
		inPlace('stdin', 5, in2, false);
		writer.mark({type: 'stdin-closed', tMs: 6});
		writer.ring.endWrite(ARENA.stdout);
		inPlace('stdout', 7, out3, false);
		writer.exit({code: 0, signal: null, tMs: 8});
		expect(writer.isRecording).toBe(true);
		await writer.close(10_000);
		expect(writer.isRecording).toBe(false);
		expect(warnings).toEqual([]);
		expect(summarize(file)).toEqual({
			problems: [],
			header: {...META, format: 1},
			events: [
				['chunk', 0, 'stdout', 0, 1.25, digest(out1), 70_000],
				['chunk', 1, 'stdin', 0, 2, digest(in1), in1.length],
				['chunk', 2, 'stdout', 70_000, 3, digest(out2), 5],
				['chunk', 3, 'stderr', 0, 4, digest(err1), err1.length],
				['chunk', 4, 'stdin', in1.length, 5, digest(in2), 65_536],
				['mark', {type: 'stdin-closed', tMs: 6}],
				['chunk', 5, 'stdout', 70_005, 7, digest(out3), 1],
				['exit', {code: 0, signal: null, tMs: 8}],
			],
		});
		const chunks = decodeRecords(readFileSync(file, 'utf8')).events.flatMap((e) => (e.type === 'chunk' ? [[...e.chunk.bytes]] : []));
		expect(chunks[2]).toEqual([0xff, 0xfe, 0x00, 0x0d, 0x0a]);
	});

	it('stops recording at an overflow with one warning and a capture-overflow mark; later marks and the exit are still recorded', async () => {
		const file = path.join(dir, 'o.ndjson');
		const warnings: string[] = [];
		const writer = CaptureWriter.start({path: file, onWarning: (m) => warnings.push(m), ringBytes: 2 * RING_RESERVE_BYTES, workerUrl: WORKER_URL, lingerMs: 10});
		writer.header(META);
		// 64 KiB read in place whose write to the client has not completed: however fast the worker
		// consumes it, the region stays taken, and a copied chunk needs its bytes plus the control reserve.
		const held = noise(RING_RESERVE_BYTES, 4);
		const position = writer.ring.reserve(ARENA.stdout, held.length);
		expect(position).toBe(0);
		writer.ring.view(ARENA.stdout, position, held.length).set(held);
		writer.ring.beginWrite(ARENA.stdout, position);
		writer.chunkAt('stdout', 1, position, held.length);
		writer.chunk('stdout', 2, noise(1000, 5));
		expect(writer.isRecording).toBe(false);
		// Nothing more is recorded, nor warned about.
		writer.chunk('stdin', 3, Uint8Array.of(0x78));
		const later = writer.ring.reserve(ARENA.stdout, 10);
		expect(later).toBe(RING_RESERVE_BYTES);
		writer.chunkAt('stdout', 3.5, later, 10);
		writer.mark({type: 'eof', stream: 'stdout', tMs: 4});
		writer.ring.endWrite(ARENA.stdout);
		writer.exit({code: 1, signal: null, tMs: 5});
		await writer.close(10_000);
		// How far behind depends on how much of the header and the chunk the worker had consumed.
		expect(warnings).toHaveLength(1);
		const behind = Number(/fell (\d+) bytes/.exec(warnings[0]!)?.[1]);
		const header = Buffer.byteLength(JSON.stringify(META));
		expect([0, header, RING_RESERVE_BYTES, header + RING_RESERVE_BYTES]).toContain(behind);
		expect(warnings[0]).toBe(`capture stopped: the capture writer fell ${behind} bytes behind; forwarding goes on, the capture ends here (${file})`);
		expect(summarize(file)).toEqual({
			problems: [],
			header: {...META, format: 1},
			events: [
				['chunk', 0, 'stdout', 0, 1, digest(held), RING_RESERVE_BYTES],
				['mark', {type: 'phase', name: 'capture-overflow', tMs: 2}],
				['mark', {type: 'eof', stream: 'stdout', tMs: 4}],
				['exit', {code: 1, signal: null, tMs: 5}],
			],
		});
	});

	it('stops at the first chunk that does not fit in a burst: the recorded bytes are an exact prefix, one warning', async () => {
		const file = path.join(dir, 'b.ndjson');
		const warnings: string[] = [];
		const writer = CaptureWriter.start({path: file, onWarning: (m) => warnings.push(m), ringBytes: 2 * RING_RESERVE_BYTES, workerUrl: WORKER_URL, lingerMs: 10});
		writer.header(META);
		// 40 × 48 KiB copied in one tick, while the worker is still booting: 1.9 MiB into a 128 KiB arena.
		const pieces = Array.from({length: 40}, (_, i) => noise(48 * 1024, 100 + i));
		pieces.forEach((piece, i) => writer.chunk('stdout', i, piece));
		writer.mark({type: 'eof', stream: 'stdout', tMs: 40});
		writer.exit({code: 0, signal: null, tMs: 41});
		await writer.close(10_000);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/^capture stopped: the capture writer fell \d+ bytes behind; forwarding goes on, the capture ends here \(.*b\.ndjson\)$/);
		const {events} = summarize(file);
		const chunks = events.filter((e) => (e as unknown[])[0] === 'chunk');
		// The first piece fits (64 KiB stay free for control entries); the second does not, unconsumed.
		expect(chunks).toEqual([['chunk', 0, 'stdout', 0, 0, digest(pieces[0]!), 48 * 1024]]);
		expect(events.slice(1)).toEqual([
			['mark', {type: 'phase', name: 'capture-overflow', tMs: 1}],
			['mark', {type: 'eof', stream: 'stdout', tMs: 40}],
			['exit', {code: 0, signal: null, tMs: 41}],
		]);
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
