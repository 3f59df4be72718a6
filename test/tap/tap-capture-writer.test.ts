import {execFileSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync} from 'node:fs';
import net from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {decodeCapture, encodeCaptureStart} from '../../src/core/capture/binary-codec.js';
import type {SessionMeta} from '../../src/core/types.js';
import {CaptureSink} from '../../src/tap/capture-writer-worker.js';
import {ARENA, ENTRY, RING_RESERVE_BYTES, type RingEntry} from '../../src/tap/capture-ring.js';
import {CaptureWriter} from '../../src/tap/capture-writer.js';
import {LiveSocketServer} from '../../src/tap/live-socket.js';
import {bundleSources, type BundledSources} from '../helpers/bundle-source.js';

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

const entry = (
	kind: RingEntry['kind'],
	stream: RingEntry['stream'],
	tMs: number,
	payload: Uint8Array | string,
): RingEntry => ({
	kind,
	stream,
	tMs,
	payload: typeof payload === 'string' ? new TextEncoder().encode(payload) : payload,
});

/** What CaptureWriter.header does before the worker gets the file: create it, write magic + header. */
function startFile(file: string): {fd: number; size: number} {
	const fd = openSync(file, 'w', 0o600);
	const start = encodeCaptureStart(META);
	writeSync(fd, start, 0, start.length, 0);
	return {fd, size: start.length};
}

/**
 * The worker and the binary codec bundled from their TypeScript sources (a worker thread and a `node -e` child
 * need .js files; the writer's default URL points at a .js next to its .ts, which only a build has).
 */
let bundled: BundledSources;
let WORKER_URL: URL;
beforeAll(async () => {
	bundled = await bundleSources({
		'capture-writer-worker': 'src/tap/capture-writer-worker.ts',
		'binary-codec': 'src/core/capture/binary-codec.ts',
	});
	WORKER_URL = bundled.urls['capture-writer-worker']!;
});
afterAll(() => {
	bundled.dispose();
});

describe('CaptureSink', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-sink-'));
	});
	afterEach(() => {
		rmSync(dir, {recursive: true, force: true});
	});

	it('appends chunk, mark, exit, gap and end records after the header the main thread wrote', async () => {
		const file = path.join(dir, 'c.ndjson');
		const warnings: string[] = [];
		const sink = new CaptureSink({path: file, lingerMs: 10, onWarning: (m) => warnings.push(m)});
		await sink.open();
		const opened = startFile(file);
		sink.entry(entry(ENTRY.header, 'stdout', 0, JSON.stringify(opened)));
		sink.entry(entry(ENTRY.chunk, 'stdin', 1, 'ab\n'));
		sink.entry(entry(ENTRY.chunk, 'stdout', 2, Uint8Array.of(0xff, 0x0a)));
		sink.entry(entry(ENTRY.gap, 'stdin', 2.5, JSON.stringify({length: 100, reason: 'lag'})));
		sink.entry(entry(ENTRY.chunk, 'stdin', 3, 'c'));
		sink.entry(entry(ENTRY.mark, 'stdout', 4, JSON.stringify({type: 'stdin-closed', tMs: 4})));
		sink.entry(entry(ENTRY.exit, 'stdout', 6, JSON.stringify({code: 3, signal: null, tMs: 6})));
		// The main thread forwarded 2 more stdout bytes than were recorded: the end adds a gap for them.
		sink.entry(entry(ENTRY.close, 'stdout', 7, JSON.stringify({forwarded: {stdin: 104, stdout: 4, stderr: 0}})));
		await sink.finish();
		closeSync(opened.fd);
		expect(sink.hasWrittenEnd).toBe(true);
		const decoded = decodeCapture(readFileSync(file));
		expect(decoded.problems).toEqual([]);
		expect(decoded.format).toBe(2);
		expect(decoded.header).toEqual({...META, format: 1});
		expect(
			decoded.events.map((e) =>
				e.type === 'chunk'
					? [e.chunk.seq, e.chunk.stream, e.chunk.offset, e.chunk.tMs, [...e.chunk.bytes]]
					: e.type === 'mark'
						? e.mark
						: e.type,
			),
		).toEqual([
			[0, 'stdin', 0, 1, [0x61, 0x62, 0x0a]],
			[1, 'stdout', 0, 2, [0xff, 0x0a]],
			{type: 'gap', stream: 'stdin', offset: 3, length: 100, reason: 'lag', tMs: 2.5},
			[2, 'stdin', 103, 3, [0x63]],
			{type: 'stdin-closed', tMs: 4},
			'exit',
			{type: 'gap', stream: 'stdout', offset: 2, length: 2, reason: 'lag', tMs: 7},
		]);
		expect(decoded.end).toEqual({
			complete: false,
			recorded: {stdin: 4, stdout: 2, stderr: 0},
			missing: {stdin: 100, stdout: 2, stderr: 0},
			gaps: 2,
		});
		expect(warnings).toEqual([]);
	});

	it('writes chunk bytes from the payload itself (no copy): keeps it until the batch is written, and says when nothing is kept', async () => {
		const file = path.join(dir, 'v.ndjson');
		const sink = new CaptureSink({path: file, lingerMs: 10, onWarning: () => undefined});
		await sink.open();
		const opened = startFile(file);
		expect(sink.entry(entry(ENTRY.header, 'stdout', 0, JSON.stringify(opened)))).toBe(true);
		// A payload is kept (the ring must not reuse it) until the batch is written.
		const payload = Uint8Array.of(0x61, 0x62, 0x0a);
		expect(sink.entry(entry(ENTRY.chunk, 'stdout', 1, payload))).toBe(false);
		expect(sink.entry(entry(ENTRY.mark, 'stdout', 2, JSON.stringify({type: 'eof', stream: 'stdout', tMs: 2})))).toBe(
			false,
		);
		// The file gets the bytes as they are at the write: proof that they were not copied before.
		payload[0] = 0x7a;
		sink.flush();
		expect(sink.entry(entry(ENTRY.mark, 'stdout', 3, JSON.stringify({type: 'stdin-closed', tMs: 3})))).toBe(true);
		// A batch of a megabyte or more is written at once: the entry that fills it reports nothing kept.
		const big = new Uint8Array(1024 * 1024).fill(0x2e);
		expect(sink.entry(entry(ENTRY.chunk, 'stdout', 4, big))).toBe(true);
		sink.entry(
			entry(ENTRY.close, 'stdout', 5, JSON.stringify({forwarded: {stdin: 0, stdout: 3 + big.length, stderr: 0}})),
		);
		await sink.finish();
		closeSync(opened.fd);
		const decoded = decodeCapture(readFileSync(file));
		expect(decoded.problems).toEqual([]);
		expect(
			decoded.events.map((e) =>
				e.type === 'chunk'
					? [e.chunk.offset, e.chunk.bytes.length, e.chunk.bytes[0]]
					: e.type === 'mark'
						? e.mark.type
						: e.type,
			),
		).toEqual([[0, 3, 0x7a], 'eof', 'stdin-closed', [3, big.length, 0x2e]]);
		expect(decoded.end).toEqual({
			complete: true,
			recorded: {stdin: 0, stdout: 3 + big.length, stderr: 0},
			missing: {stdin: 0, stdout: 0, stderr: 0},
			gaps: 0,
		});
	});

	it('a write that fails (a file-size limit: EFBIG with SIGXFSZ ignored) keeps the file on a record boundary and records the rest as a write-failed gap', () => {
		const file = path.join(dir, 'c.ndjson');
		const sinkUrl = WORKER_URL.href;
		const codecUrl = bundled.urls['binary-codec']!.href;
		const script = `
			process.on('SIGXFSZ', () => {});
			const fs = await import('node:fs');
			const {CaptureSink} = await import(${JSON.stringify(sinkUrl)});
			const {encodeCaptureStart} = await import(${JSON.stringify(codecUrl)});
			const warnings = [];
			const sink = new CaptureSink({path: ${JSON.stringify(file)}, lingerMs: 10, onWarning: (m) => warnings.push(m)});
			await sink.open();
			const fd = fs.openSync(${JSON.stringify(file)}, 'w');
			const start = encodeCaptureStart(${JSON.stringify(META)});
			fs.writeSync(fd, start, 0, start.length, 0);
			const enc = (t) => new TextEncoder().encode(t);
			sink.entry({kind: ${ENTRY.header}, stream: 'stdout', tMs: 0, payload: enc(JSON.stringify({fd, size: start.length}))});
			for (let i = 0; i < 8; i++) { sink.entry({kind: ${ENTRY.chunk}, stream: 'stdin', tMs: i, payload: new Uint8Array(1024)}); sink.flush(); }
			sink.entry({kind: ${ENTRY.close}, stream: 'stdout', tMs: 9, payload: enc(JSON.stringify({forwarded: {stdin: 8192, stdout: 0, stderr: 0}}))});
			await sink.finish();
			process.stdout.write(JSON.stringify({warnings, ended: sink.hasWrittenEnd}));`;
		// ulimit -f 6: a few KiB (blocks of 512 or 1024 bytes, by shell) hold the header and some 1 KiB chunk records, not all 8.
		const out = execFileSync(
			'sh',
			['-c', 'ulimit -f 6 && exec "$0" --input-type=module -e "$1"', process.execPath, script],
			{encoding: 'utf8'},
		);
		const result = JSON.parse(out) as {warnings: string[]; ended: boolean};
		expect(result.warnings).toEqual([
			expect.stringMatching(
				/^capture stopped: cannot write .*c\.ndjson \(EFBIG: .*\); forwarding goes on, a gap record marks what is missing when it can be written$/,
			),
		]);
		expect(result.ended).toBe(true);
		const decoded = decodeCapture(readFileSync(file));
		expect(decoded.problems).toEqual([]);
		// Whole chunk records up to the limit, then one gap from there to the 8 KiB forwarded.
		const kept = decoded.events.filter((e) => e.type === 'chunk').length;
		expect(kept).toBeGreaterThanOrEqual(1);
		expect(kept).toBeLessThan(8);
		expect(
			decoded.events.map((e) =>
				e.type === 'chunk' ? ['chunk', e.chunk.offset, e.chunk.bytes.length] : e.type === 'mark' ? e.mark : e.type,
			),
		).toEqual([
			...Array.from({length: kept}, (_, i) => ['chunk', i * 1024, 1024]),
			{type: 'gap', stream: 'stdin', offset: kept * 1024, length: 8192 - kept * 1024, reason: 'write-failed', tMs: 9},
		]);
		expect(decoded.end).toEqual({
			complete: false,
			recorded: {stdin: kept * 1024, stdout: 0, stderr: 0},
			missing: {stdin: 8192 - kept * 1024, stdout: 0, stderr: 0},
			gaps: 1,
		});
	});
});

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
function summarize(file: string): {problems: unknown[]; header: unknown; events: unknown[]; end: unknown} {
	const decoded = decodeCapture(readFileSync(file));
	return {
		problems: decoded.problems,
		header: decoded.header,
		events: decoded.events.map((e) => {
			if (e.type === 'chunk')
				return [
					'chunk',
					e.chunk.seq,
					e.chunk.stream,
					e.chunk.offset,
					e.chunk.tMs,
					createHash('sha256').update(e.chunk.bytes).digest('hex'),
					e.chunk.bytes.length,
				];
			if (e.type === 'mark') return ['mark', e.mark];
			if (e.type === 'exit') return ['exit', e.exit];
			return [e.type];
		}),
		end: decoded.end,
	};
}

const digest = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('CaptureWriter (real worker thread)', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-writer-'));
	});
	afterEach(() => {
		rmSync(dir, {recursive: true, force: true});
	});

	it('writes the header synchronously at header(), before the worker runs', async () => {
		const file = path.join(dir, 'h.ndjson');
		const writer = CaptureWriter.start({path: file, onWarning: () => undefined, workerUrl: WORKER_URL, lingerMs: 10});
		writer.header(META);
		// No await in between: the file and its header exist already.
		expect(readFileSync(file)).toEqual(encodeCaptureStart(META));
		expect(statSync(file).mode & 0o777).toBe(0o600);
		await writer.close(10_000);
		expect(summarize(file)).toMatchObject({
			problems: [],
			header: {...META, format: 1},
			events: [],
			end: {complete: true, gaps: 0},
		});
	});

	it('refuses a path that is not a regular file (a device such as /dev/full) with one warning', async () => {
		const warnings: string[] = [];
		const writer = CaptureWriter.start({
			path: '/dev/full',
			onWarning: (m) => warnings.push(m),
			workerUrl: WORKER_URL,
			lingerMs: 10,
		});
		writer.header(META);
		expect(writer.isRecording).toBe(false);
		await writer.close(10_000);
		expect(warnings).toEqual(['capture disabled: cannot create /dev/full (not a regular file); forwarding goes on']);
	});

	it('records chunks read in place (chunkAt) and copied (chunk) byte-exact, with per-stream offsets, in order', async () => {
		const file = path.join(dir, 'c.ndjson');
		const warnings: string[] = [];
		const writer = CaptureWriter.start({
			path: file,
			onWarning: (m) => warnings.push(m),
			workerUrl: WORKER_URL,
			lingerMs: 10,
		});
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
			end: {
				complete: true,
				recorded: {stdin: in1.length + 65_536, stdout: 70_006, stderr: err1.length},
				missing: {stdin: 0, stdout: 0, stderr: 0},
				gaps: 0,
			},
		});
		const chunks = decodeCapture(readFileSync(file)).events.flatMap((e) =>
			e.type === 'chunk' ? [[...e.chunk.bytes]] : [],
		);
		expect(chunks[2]).toEqual([0xff, 0xfe, 0x00, 0x0d, 0x0a]);
	});

	it('at the lag limit records a gap with the exact bytes it could not hold, one warning, and resumes when there is room', async () => {
		const file = path.join(dir, 'o.ndjson');
		const warnings: string[] = [];
		const writer = CaptureWriter.start({
			path: file,
			onWarning: (m) => warnings.push(m),
			ringBytes: 2 * RING_RESERVE_BYTES,
			workerUrl: WORKER_URL,
			lingerMs: 10,
		});
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
		writer.chunk('stdout', 2.5, noise(500, 6));
		expect(writer.isRecording).toBe(true);
		expect(writer.missingBytes).toEqual({stdin: 0, stdout: 1500, stderr: 0});
		// Another stream is not affected.
		writer.chunk('stdin', 3, Uint8Array.of(0x78));
		writer.ring.endWrite(ARENA.stdout);
		// The write completed and the worker consumed what it had: there is room again, and the next chunk is recorded after the gap.
		for (let i = 0; i < 1000 && writer.ring.pendingBytes > 0; i++)
			await new Promise((resolve) => setTimeout(resolve, 10));
		const later = noise(10, 7);
		writer.chunk('stdout', 3.5, later);
		writer.mark({type: 'eof', stream: 'stdout', tMs: 4});
		writer.exit({code: 1, signal: null, tMs: 5});
		await writer.close(10_000);
		expect(warnings).toHaveLength(2);
		expect(warnings[0]).toMatch(
			/^the capture fell \d+ bytes behind forwarding \(MCP_WIRE_CAPTURE_LAG_MB\); reads it has no room for are not recorded \(a gap record marks them\) until it catches up; forwarding goes on \(.*o\.ndjson\)$/,
		);
		expect(warnings[1]).toBe(
			`the capture is incomplete: 1500 bytes of stdout not recorded (gap records mark them) (${file})`,
		);
		expect(summarize(file)).toEqual({
			problems: [],
			header: {...META, format: 1},
			events: [
				['chunk', 0, 'stdout', 0, 1, digest(held), RING_RESERVE_BYTES],
				['chunk', 1, 'stdin', 0, 3, digest(Uint8Array.of(0x78)), 1],
				['mark', {type: 'gap', stream: 'stdout', offset: RING_RESERVE_BYTES, length: 1500, reason: 'lag', tMs: 2}],
				['chunk', 2, 'stdout', RING_RESERVE_BYTES + 1500, 3.5, digest(later), 10],
				['mark', {type: 'eof', stream: 'stdout', tMs: 4}],
				['exit', {code: 1, signal: null, tMs: 5}],
			],
			end: {
				complete: false,
				recorded: {stdin: 1, stdout: RING_RESERVE_BYTES + 10, stderr: 0},
				missing: {stdin: 0, stdout: 1500, stderr: 0},
				gaps: 1,
			},
		});
	});

	it('a burst that does not fit: every byte is either recorded or in a gap of exact length, one lag warning', async () => {
		const file = path.join(dir, 'b.ndjson');
		const warnings: string[] = [];
		const writer = CaptureWriter.start({
			path: file,
			onWarning: (m) => warnings.push(m),
			ringBytes: 2 * RING_RESERVE_BYTES,
			workerUrl: WORKER_URL,
			lingerMs: 10,
		});
		writer.header(META);
		// 40 × 48 KiB copied in one tick, while the worker is still booting: 1.9 MiB into a 128 KiB arena.
		const pieces = Array.from({length: 40}, (_, i) => noise(48 * 1024, 100 + i));
		pieces.forEach((piece, i) => writer.chunk('stdout', i, piece));
		writer.mark({type: 'eof', stream: 'stdout', tMs: 40});
		writer.exit({code: 0, signal: null, tMs: 41});
		await writer.close(10_000);
		expect(warnings[0]).toMatch(/^the capture fell \d+ bytes behind forwarding/);
		const decoded = decodeCapture(readFileSync(file));
		expect(decoded.problems).toEqual([]);
		// Walk the stream: chunks and gaps tile it exactly, and each chunk holds the piece at its offset.
		let at = 0;
		let recorded = 0;
		let missing = 0;
		for (const event of decoded.events) {
			if (event.type === 'chunk') {
				expect(event.chunk.offset).toBe(at);
				expect(event.chunk.offset % (48 * 1024)).toBe(0);
				expect(digest(event.chunk.bytes)).toBe(digest(pieces[event.chunk.offset / (48 * 1024)]!));
				at += event.chunk.bytes.length;
				recorded += event.chunk.bytes.length;
			} else if (event.type === 'mark' && event.mark.type === 'gap') {
				expect(event.mark.offset).toBe(at);
				expect(event.mark.length % (48 * 1024)).toBe(0);
				at += event.mark.length;
				missing += event.mark.length;
			}
		}

		expect(at).toBe(40 * 48 * 1024);
		expect(recorded).toBeGreaterThanOrEqual(48 * 1024);
		expect(missing).toBeGreaterThan(0);
		expect(decoded.end).toMatchObject({complete: false, missing: {stdout: missing}, recorded: {stdout: recorded}});
		expect(decoded.events.slice(-2).map((e) => e.type)).toEqual(['mark', 'exit']);
	});

	it('a writer that cannot finish in time: the tap cuts the file to what was written and records the rest as a writer-timeout gap', async () => {
		const file = path.join(dir, 't.ndjson');
		const warnings: string[] = [];
		// A worker that never runs: the module does nothing (no worker code), as a writer stuck on a busy machine.
		const idle = path.join(dir, 'idle-worker.mjs');
		writeFileSync(idle, 'setInterval(() => {}, 1000);\n');
		const writer = CaptureWriter.start({
			path: file,
			onWarning: (m) => warnings.push(m),
			workerUrl: new URL(`file://${idle}`),
			lingerMs: 10,
		});
		writer.header(META);
		writer.chunk('stdout', 1, noise(3000, 9));
		writer.chunk('stdin', 2, noise(20, 10));
		writer.exit({code: 0, signal: null, tMs: 3});
		await writer.close(200);
		expect(warnings).toEqual([
			`the capture is incomplete: 20 bytes of stdin and 3000 bytes of stdout not recorded (gap records mark them) (${file})`,
		]);
		const decoded = decodeCapture(readFileSync(file));
		expect(decoded.problems).toEqual([]);
		expect(decoded.events.map((e) => (e.type === 'mark' ? e.mark : e.type))).toEqual([
			// Dated at the last event the writer was given (the exit, 3 ms), when it gave up on them; not at 0.
			{type: 'gap', stream: 'stdin', offset: 0, length: 20, reason: 'writer-timeout', tMs: 3},
			{type: 'gap', stream: 'stdout', offset: 0, length: 3000, reason: 'writer-timeout', tMs: 3},
		]);
		expect(decoded.end).toEqual({
			complete: false,
			recorded: {stdin: 0, stdout: 0, stderr: 0},
			missing: {stdin: 20, stdout: 3000, stderr: 0},
			gaps: 2,
		});
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
		// 'fourth' only after the client's first data brought 'third' (under load that can take longer than any
		// fixed wait; appending 'fourth' first would put it before 'third' in the file and on the socket).
		let thirdAppended!: () => void;
		const third = new Promise<void>((resolve) => (thirdAppended = resolve));
		const received = readAll(address, () => {
			append('third\n');
			thirdAppended();
		});
		await third;
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
		const bad = new LiveSocketServer(path.join(dir, 'no', 'such', 'dir.sock'), {path: address, size: () => 0}, (m) =>
			warnings.push(m),
		);
		expect(await bad.listen()).toBe(false);
		expect(warnings).toEqual([
			expect.stringMatching(/^live attach unavailable: cannot listen on .*dir\.sock \(listen E[A-Z]+: /),
		]);
	});
});
