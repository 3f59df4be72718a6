import {createHash} from 'node:crypto';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {Readable, Writable} from 'node:stream';
import {pathToFileURL} from 'node:url';
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {decodeCapture, type CaptureEnd} from '../../src/core/capture/binary-codec.js';
import type {SessionMeta} from '../../src/core/types.js';
import {RING_RESERVE_BYTES} from '../../src/tap/capture-ring.js';
import {CaptureWriter} from '../../src/tap/capture-writer.js';
import {createClock} from '../../src/process/clock.js';
import {runTap} from '../../src/tap/pass-through.js';
import {bundleSources, type BundledSources} from '../helpers/bundle-source.js';

/**
 * `tap --capture-wait` (docs/performance.md#tap-forwarding-and-capture): when the capture ring has no room for a read, the read is
 * forwarded at once, the capture keeps it and the source pauses until the writer made room (at most
 * the wait limit, then the read is a gap of its exact bytes). The writer here is the real worker,
 * held stopped: a worker module that loads the real one only once the test creates a release file.
 * Wait times come from a fake clock, so the figures asserted do not depend on the machine's speed.
 */

const KIB = 1024;

const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.0.0'},
	node: 'v20.0.0',
	platform: 'linux-x64',
	command: ['server'],
	envMode: 'inherit',
	startedAt: '2026-01-01T00:00:00.000Z',
	pid: 7,
	mode: 'tap',
	name: 'server',
};

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

const digest = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The capture's records, compactly: chunks as [stream, offset, tMs, sha256, length], marks as themselves. */
function records(file: string): {problems: unknown[]; events: unknown[]; end: CaptureEnd | undefined} {
	const decoded = decodeCapture(readFileSync(file));
	return {
		problems: decoded.problems,
		events: decoded.events.map((e) =>
			e.type === 'chunk'
				? ['chunk', e.chunk.stream, e.chunk.offset, e.chunk.tMs, digest(e.chunk.bytes), e.chunk.bytes.length]
				: e.type === 'mark'
					? ['mark', e.mark]
					: [e.type],
		),
		end: decoded.end,
	};
}

async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
	const started = Date.now();
	while (!condition()) {
		if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for a condition');
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
}

const sleep = async (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('CaptureWriter: a source waits for room (tap --capture-wait)', () => {
	let dir: string;
	let release: string;
	let heldWorker: URL;
	let time: number;
	const now = (): number => time;
	// The worker bundled from its TypeScript source (a worker thread needs a .js file; no prior build).
	let bundled: BundledSources;
	let workerUrl: URL;
	beforeAll(async () => {
		bundled = await bundleSources({'capture-writer-worker': 'src/tap/capture-writer-worker.ts'});
		workerUrl = bundled.urls['capture-writer-worker']!;
	});
	afterAll(() => {
		bundled.dispose();
	});
	beforeEach(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-wait-'));
		release = path.join(dir, 'release');
		// The real worker, held stopped until the release file exists (nothing of the ring is consumed before).
		const held = path.join(dir, 'held-worker.mjs');
		writeFileSync(
			held,
			`import {existsSync} from 'node:fs';\nconst timer = setInterval(() => {\n  if (!existsSync(${JSON.stringify(release)})) return;\n  clearInterval(timer);\n  void import(${JSON.stringify(workerUrl.href)});\n}, 5);\n`,
		);
		heldWorker = pathToFileURL(held);
		time = 1000;
	});
	afterEach(() => {
		rmSync(dir, {recursive: true, force: true});
	});

	it('pauses the source while the ring is full and resumes it once the writer made room; every byte is recorded, in order', async () => {
		const file = path.join(dir, 'a.ndjson');
		const warnings: string[] = [];
		const writer = CaptureWriter.start({
			path: file,
			onWarning: (m) => warnings.push(m),
			ringBytes: 2 * RING_RESERVE_BYTES,
			waitMs: 60_000,
			now,
			workerUrl: heldWorker,
			lingerMs: 10,
		});
		writer.header(META);
		const resumed: string[] = [];
		const first = noise(48 * KIB, 1);
		const second = noise(48 * KIB, 2);
		const typed = noise(100, 3);
		// 48 KiB fits (with the 64 KiB control reserve kept free); the next 48 KiB does not.
		expect(writer.chunk('stdout', 1, first, () => resumed.push('stdout'))).toBe(true);
		expect(writer.chunk('stdout', 2, second, () => resumed.push('stdout'))).toBe(false);
		// Another stream's read waits behind it (the file keeps the order things happened in), and so does a mark.
		expect(writer.chunk('stdin', 3, typed, () => resumed.push('stdin'))).toBe(false);
		writer.mark({type: 'phase', name: 'note', tMs: 4});
		// However long the writer stays stopped (within the limit), nothing is dropped and nothing resumes.
		time = 1250;
		await sleep(200);
		expect(resumed).toEqual([]);
		expect(writer.missingBytes).toEqual({stdin: 0, stdout: 0, stderr: 0});
		writeFileSync(release, '');
		await until(() => resumed.length === 2);
		expect(resumed).toEqual(['stdout', 'stdin']);
		const third = noise(10, 4);
		expect(writer.chunk('stdout', 5, third, () => resumed.push('stdout'))).toBe(true);
		writer.exit({code: 0, signal: null, tMs: 6});
		await writer.close(10_000);
		expect(records(file)).toEqual({
			problems: [],
			events: [
				['chunk', 'stdout', 0, 1, digest(first), 48 * KIB],
				['chunk', 'stdout', 48 * KIB, 2, digest(second), 48 * KIB],
				['chunk', 'stdin', 0, 3, digest(typed), 100],
				['mark', {type: 'phase', name: 'note', tMs: 4}],
				['chunk', 'stdout', 96 * KIB, 5, digest(third), 10],
				['exit'],
			],
			end: {
				complete: true,
				recorded: {stdin: 100, stdout: 96 * KIB + 10, stderr: 0},
				missing: {stdin: 0, stdout: 0, stderr: 0},
				gaps: 0,
				// Two waits of 250 ms on the fake clock (both started at 1000, both ended after it read 1250).
				stalls: {count: 2, totalMs: 500, longestMs: 250, timedOut: 0},
			},
		});
		expect(warnings).toEqual([
			`reading paused 2 times for the capture to catch up (500 ms in all, longest 250 ms; --capture-wait 60000 ms each at most) (${file})`,
		]);
	});

	it('a wait that reaches the limit: the read becomes a gap of its exact bytes, the stream stops waiting until a read is recorded again', async () => {
		const file = path.join(dir, 'b.ndjson');
		const warnings: string[] = [];
		const writer = CaptureWriter.start({
			path: file,
			onWarning: (m) => warnings.push(m),
			ringBytes: 2 * RING_RESERVE_BYTES,
			waitMs: 500,
			now,
			workerUrl: heldWorker,
			lingerMs: 10,
		});
		writer.header(META);
		const resumed: number[] = [];
		const pieces = [1, 2, 3, 4, 5].map((seed) => noise(48 * KIB, seed));
		expect(writer.chunk('stdout', 1, pieces[0]!, () => resumed.push(1))).toBe(true);
		expect(writer.chunk('stdout', 2, pieces[1]!, () => resumed.push(2))).toBe(false);
		time = 1499;
		await sleep(100);
		expect(resumed).toEqual([]);
		time = 1500;
		await until(() => resumed.length === 1);
		expect(resumed).toEqual([2]);
		expect(writer.missingBytes).toEqual({stdin: 0, stdout: 48 * KIB, stderr: 0});
		// The writer is still stopped: the next read does not wait again, it is not recorded at once.
		expect(writer.chunk('stdout', 3, pieces[2]!, () => resumed.push(3))).toBe(true);
		expect(writer.missingBytes).toEqual({stdin: 0, stdout: 96 * KIB, stderr: 0});
		writeFileSync(release, '');
		await until(() => writer.ring.pendingBytes === 0);
		// Recorded again: waits are back on (a read that does not fit pauses its source once more).
		expect(writer.chunk('stdout', 4, pieces[3]!, () => resumed.push(4))).toBe(true);
		time = 1600;
		const fifth = writer.chunk('stdout', 5, pieces[4]!, () => resumed.push(5));
		if (!fifth) await until(() => resumed.includes(5));
		writer.exit({code: 0, signal: null, tMs: 6});
		await writer.close(10_000);
		const result = records(file);
		expect(result.problems).toEqual([]);
		expect(result.events.slice(0, 4)).toEqual([
			['chunk', 'stdout', 0, 1, digest(pieces[0]!), 48 * KIB],
			['mark', {type: 'gap', stream: 'stdout', offset: 48 * KIB, length: 48 * KIB, reason: 'lag', tMs: 2}],
			['mark', {type: 'gap', stream: 'stdout', offset: 96 * KIB, length: 48 * KIB, reason: 'lag', tMs: 3}],
			['chunk', 'stdout', 144 * KIB, 4, digest(pieces[3]!), 48 * KIB],
		]);
		expect(result.events.slice(4)).toEqual([['chunk', 'stdout', 192 * KIB, 5, digest(pieces[4]!), 48 * KIB], ['exit']]);
		expect(result.end).toMatchObject({
			complete: false,
			recorded: {stdout: 144 * KIB},
			missing: {stdin: 0, stdout: 96 * KIB, stderr: 0},
			gaps: 2,
		});
		// The first wait ran out at 500 ms; the fifth read waited only if the worker had not consumed the fourth yet.
		expect(result.end?.stalls).toEqual(
			fifth
				? {count: 1, totalMs: 500, longestMs: 500, timedOut: 1}
				: {count: 2, totalMs: 500, longestMs: 500, timedOut: 1},
		);
		expect(warnings[0]).toMatch(
			/^the capture fell \d+ bytes behind forwarding \(MCP_WIRE_CAPTURE_LAG_MB\) and did not catch up within --capture-wait 500 ms; reads it has no room for are not recorded/,
		);
		expect(warnings.at(-1)).toBe(
			`the capture is incomplete: ${96 * KIB} bytes of stdout not recorded (gap records mark them) (${file})`,
		);
	});

	it('--capture-wait 0: a read that does not fit is a gap at once, nothing pauses and no wait is recorded (the behaviour before waits)', async () => {
		const file = path.join(dir, 'c.ndjson');
		const warnings: string[] = [];
		const writer = CaptureWriter.start({
			path: file,
			onWarning: (m) => warnings.push(m),
			ringBytes: 2 * RING_RESERVE_BYTES,
			waitMs: 0,
			now,
			workerUrl: heldWorker,
			lingerMs: 10,
		});
		writer.header(META);
		const resumed: number[] = [];
		const pieces = [1, 2].map((seed) => noise(48 * KIB, seed));
		expect(writer.chunk('stdout', 1, pieces[0]!, () => resumed.push(1))).toBe(true);
		expect(writer.chunk('stdout', 2, pieces[1]!, () => resumed.push(2))).toBe(true);
		expect(writer.missingBytes).toEqual({stdin: 0, stdout: 48 * KIB, stderr: 0});
		writeFileSync(release, '');
		writer.exit({code: 0, signal: null, tMs: 3});
		await writer.close(10_000);
		expect(resumed).toEqual([]);
		const result = records(file);
		expect(result.events).toEqual([
			['chunk', 'stdout', 0, 1, digest(pieces[0]!), 48 * KIB],
			['mark', {type: 'gap', stream: 'stdout', offset: 48 * KIB, length: 48 * KIB, reason: 'lag', tMs: 2}],
			['exit'],
		]);
		expect(result.end).toEqual({
			complete: false,
			recorded: {stdin: 0, stdout: 48 * KIB, stderr: 0},
			missing: {stdin: 0, stdout: 48 * KIB, stderr: 0},
			gaps: 1,
		});
		expect(warnings).toHaveLength(2);
		expect(warnings[0]).toMatch(
			/^the capture fell \d+ bytes behind forwarding \(MCP_WIRE_CAPTURE_LAG_MB\); reads it has no room for are not recorded \(a gap record marks them\) until it catches up; forwarding goes on \(.*c\.ndjson\)$/,
		);
	});

	it(
		'a read in place that waits behind another stream: the next read does not go into the ring region its copy is written to (real server, runTap)',
		{timeout: 120_000},
		async () => {
			// The server floods stderr first (the held writer leaves it waiting, stderr paused), then writes
			// random bytes to stdout: its first read waits behind the stderr read (the file keeps the order), so
			// it is copied into the stdout arena later, while its source is paused. Node asks for the buffer of
			// the next read right after each read: that buffer must not be a region of the same arena, or the
			// kernel reads into the copy before the writer wrote it. (Honest limit: the overlap needs the
			// writer still behind on that arena when the copy goes in, a timing this test does not force; it
			// did not fail on the code without the guard. `MCP_WIRE_CAPTURE_LAG_MB=1 node
			// bench/tap-concurrent.mjs --taps 10 --mb 16` showed it: 1 record with other bytes, none with it.)
			const server = path.join(dir, 'server.sh');
			writeFileSync(server, 'head -c 2097152 /dev/zero >&2 &\nsleep 1\nhead -c 786432 /dev/urandom\nwait\n');
			const received: Buffer[] = [];
			const stdout = new Writable({
				write(chunk: Buffer, _encoding, callback) {
					received.push(Buffer.from(chunk));
					callback();
				},
			});
			const stderr = new Writable({
				write(_chunk: Buffer, _encoding, callback) {
					callback();
				},
			});
			const file = path.join(dir, 'order.ndjson');
			const tapped = runTap({
				command: ['sh', server],
				env: process.env,
				io: {stdin: Readable.from([]), stdout, stderr},
				clock: createClock(),
				forwardSignals: false,
				captureCloseMs: 30_000,
				capture: {
					start: (warn) =>
						CaptureWriter.start({
							path: file,
							onWarning: warn,
							ringBytes: 1024 * KIB,
							waitMs: 60_000,
							workerUrl: heldWorker,
							lingerMs: 10,
						}),
					meta: (pid) => ({...META, ...(pid === undefined ? {} : {pid})}),
				},
			});
			await until(() => received.length > 0, 60_000);
			await sleep(200);
			writeFileSync(release, '');
			const result = await tapped;
			expect(result.exitCode).toBe(0);
			const forwarded = Buffer.concat(received);
			expect(forwarded.length).toBe(786_432);
			const decoded = decodeCapture(readFileSync(file));
			expect(decoded.problems).toEqual([]);
			expect(decoded.end).toMatchObject({complete: true, recorded: {stdout: 786_432, stderr: 2_097_152}, gaps: 0});
			let at = 0;
			for (const event of decoded.events) {
				if (event.type !== 'chunk' || event.chunk.stream !== 'stdout') continue;
				expect(event.chunk.offset).toBe(at);
				expect(digest(event.chunk.bytes), `stdout bytes ${at}..${at + event.chunk.bytes.length}`).toBe(
					digest(forwarded.subarray(at, at + event.chunk.bytes.length)),
				);
				at += event.chunk.bytes.length;
			}

			expect(at).toBe(786_432);
		},
	);

	it(
		'a real server through runTap with the writer held: its stdout stops at the ring size plus one read, then all of it is forwarded and captured',
		{timeout: 120_000},
		async () => {
			const total = 8 * 1024 * KIB;
			const ringBytes = 1024 * KIB;
			const server = path.join(dir, 'server.mjs');
			writeFileSync(
				server,
				// 8 MiB of deterministic bytes, written with backpressure.
				`let x = 7; const data = Buffer.alloc(${total}); for (let i = 0; i < data.length; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; data[i] = x & 0xff; }\n` +
					`let at = 0; const pump = () => { while (at < data.length) { const piece = data.subarray(at, at + 65536); at += piece.length; if (!process.stdout.write(piece)) { process.stdout.once('drain', pump); return; } } }; pump();\n`,
			);
			const expected = noise(total, 7);
			let received = 0;
			const hash = createHash('sha256');
			const stdout = new Writable({
				write(chunk: Buffer, _encoding, callback) {
					received += chunk.length;
					hash.update(chunk);
					callback();
				},
			});
			let stderr = '';
			const stderrSink = new Writable({
				write(chunk: Buffer, _encoding, callback) {
					stderr += chunk.toString();
					callback();
				},
			});
			const file = path.join(dir, 'tap.ndjson');
			const tapped = runTap({
				command: ['node', server],
				env: process.env,
				io: {stdin: Readable.from([]), stdout, stderr: stderrSink},
				clock: createClock(),
				forwardSignals: false,
				captureCloseMs: 30_000,
				capture: {
					start: (warn) =>
						CaptureWriter.start({
							path: file,
							onWarning: warn,
							ringBytes,
							waitMs: 60_000,
							workerUrl: heldWorker,
							lingerMs: 10,
						}),
					meta: (pid) => ({...META, ...(pid === undefined ? {} : {pid})}),
				},
			});
			// While the writer is held, forwarding stops at what the ring holds plus the one read that did not fit.
			await until(() => received >= ringBytes - 256 * KIB, 60_000);
			await sleep(500);
			const whileHeld = received;
			expect(whileHeld).toBeLessThanOrEqual(ringBytes + 256 * KIB);
			writeFileSync(release, '');
			const result = await tapped;
			expect(result.exitCode).toBe(0);
			expect(received).toBe(total);
			expect(hash.digest('hex')).toBe(digest(expected));
			const decoded = decodeCapture(readFileSync(file));
			expect(decoded.problems).toEqual([]);
			expect(decoded.end).toMatchObject({
				complete: true,
				recorded: {stdout: total},
				missing: {stdin: 0, stdout: 0, stderr: 0},
				gaps: 0,
				stalls: {timedOut: 0},
			});
			expect(decoded.end?.stalls?.count).toBeGreaterThanOrEqual(1);
			// The capture holds the stream exactly.
			const bytes = Buffer.concat(
				decoded.events.flatMap((e) => (e.type === 'chunk' && e.chunk.stream === 'stdout' ? [e.chunk.bytes] : [])),
			);
			expect(digest(bytes)).toBe(digest(expected));
			expect(stderr).toMatch(
				/^mcp-wire: warning: reading paused \d+ times? for the capture to catch up \(\d+ ms in all, longest \d+ ms; --capture-wait 60000 ms each at most\) \(.*tap\.ndjson\)\n$/,
			);
		},
	);
});
