/**
 * The compact frame index (docs/performance.md#tui-on-big-captures) over many frames: its records are decoded from checkpoints
 * every 32 frames and 32 chunks and span several pages, its times and offsets are left out when they
 * can be told from the chunks and the previous frame. A generated session of 40,000 frames on three
 * streams (chunks cut at random places, times that are not the chunks' after a gap, numeric, string,
 * float and huge ids, replies long after their request, gaps) gives every frame and chunk exactly as a
 * session that keeps everything.
 */
import {Buffer} from 'node:buffer';
import {describe, expect, it} from 'vitest';
import {CompactIndexStore} from '../../../../src/core/session/stores/compact-index-store.js';
import {IndexedSession} from '../../../../src/core/session/stores/indexed-session.js';
import {Session} from '../../../../src/core/session/session.js';
import type {Frame, SessionMeta, StreamName} from '../../../../src/core/types.js';

const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.0.0-test'},
	node: 'v20.0.0',
	platform: 'linux',
	command: ['server'],
	envMode: 'sdk-default',
	startedAt: '2026-01-01T00:00:00.000Z',
	mode: 'replay',
};

/** A small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
	let a = seed;
	return () => {
		a = (a + 0x6d_2b_79_f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};
}

/** An in-memory capture: each stream's recorded bytes by offset (gaps stay holes), read back as CaptureBytesReader.read. */
function memoryFile() {
	const parts: Record<StreamName, {offset: number; bytes: Uint8Array}[]> = {stdin: [], stdout: [], stderr: []};
	return {
		add(stream: StreamName, offset: number, bytes: Uint8Array): void {
			parts[stream].push({offset, bytes: Uint8Array.from(bytes)});
		},
		read(stream: StreamName, offset: number, length: number): Uint8Array {
			const out = new Uint8Array(length);
			const list = parts[stream];
			// The first part that ends after `offset` (parts are in offset order).
			let low = 0;
			let high = list.length;
			while (low < high) {
				const mid = (low + high) >>> 1;
				if (list[mid]!.offset + list[mid]!.bytes.length <= offset) low = mid + 1;
				else high = mid;
			}

			let filled = 0;
			for (let k = low; k < list.length && filled < length; k++) {
				const part = list[k]!;
				const want = offset + filled;
				if (part.offset > want) break;
				const piece = part.bytes.subarray(want - part.offset, want - part.offset + length - filled);
				out.set(piece, filled);
				filled += piece.length;
			}

			return out.subarray(0, filled);
		},
	};
}

const fields = (frame: Frame) => ({
	index: frame.index,
	stream: frame.stream,
	framing: frame.framing,
	offset: frame.offset,
	byteLength: frame.byteLength,
	bodyOffset: frame.bodyOffset,
	bodyLength: frame.bodyLength,
	terminator: frame.terminator,
	lineCount: frame.lineCount,
	tMs: frame.tMs,
	firstTMs: frame.firstTMs,
	firstSeq: frame.firstSeq,
	lastSeq: frame.lastSeq,
	kind: frame.kind,
	method: frame.method,
	id: frame.id,
	rawId: frame.rawId,
	answers: frame.answers,
	text: frame.text,
});

const FRAMES = 40_000;

describe('the frame index over 40,000 frames', () => {
	it('rebuilds every frame and chunk as a retaining session has them', () => {
		const next = random(12);
		const kept = new Session(META);
		const store = new CompactIndexStore((stream, offset, length) => file.read(stream, offset, length));
		const streaming = new Session(META, {store});
		const file = memoryFile();
		const indexed = new IndexedSession(streaming, store);
		streaming.on((event) => {
			if (event.type === 'chunk') file.add(event.chunk.stream, event.chunk.offset, event.chunk.bytes);
		});
		const pending: Record<StreamName, Buffer[]> = {stdin: [], stdout: [], stderr: []};
		let tMs = 0;
		const push = (stream: StreamName, bytes: Uint8Array): void => {
			kept.pushChunk(stream, tMs, bytes);
			streaming.pushChunk(stream, tMs, bytes);
		};

		/** Sends the stream's pending bytes in 1–3 chunks cut at random places, each at a later time. */
		const flush = (stream: StreamName): void => {
			const all = Buffer.concat(pending[stream]);
			pending[stream] = [];
			let at = 0;
			while (at < all.length) {
				const size = next() < 0.15 ? all.length - at : 1 + Math.floor(next() * Math.min(all.length - at, 50));
				tMs += next() * 3;
				push(stream, all.subarray(at, at + size));
				at += size;
			}
		};

		const ids: unknown[] = [];
		const methods = ['tools/call', 'tools/list', 'ping', 'resources/read', 'x/'.repeat(3) + 'odd'];
		let frames = 0;
		while (frames < FRAMES) {
			const r = next();
			const id =
				r < 0.6
					? ids.length + 1
					: r < 0.75
						? `s-${ids.length}`
						: r < 0.8
							? ids.length + 0.5
							: r < 0.83
								? -ids.length
								: r < 0.85
									? 2 ** 53 - ids.length
									: ids.length * 1e20;
			ids.push(id);
			pending.stdin.push(
				Buffer.from(
					`${JSON.stringify({jsonrpc: '2.0', id, method: methods[Math.floor(next() * methods.length)], params: {n: frames}})}\n`,
				),
			);
			frames++;
			if (next() < 0.5) flush('stdin');
			// A reply to a recent request, or (rarely) to one long ago.
			if (next() < 0.8) {
				const which =
					next() < 0.01
						? Math.floor(next() * ids.length)
						: ids.length - 1 - Math.floor(next() * Math.min(3, ids.length));
				pending.stdout.push(
					Buffer.from(
						`${JSON.stringify({jsonrpc: '2.0', id: ids[which], result: {content: [{type: 'text', text: 'ok'.repeat(1 + Math.floor(next() * 80))}]}})}${next() < 0.05 ? '\r\n' : '\n'}`,
					),
				);
				frames++;
			}

			if (next() < 0.2) {
				pending.stderr.push(Buffer.from(`log line ${frames} ${'é'.repeat(Math.floor(next() * 4))}\n`));
				frames++;
			}

			if (next() < 0.4) flush('stdout');
			if (next() < 0.3) flush('stderr');
			if (next() < 0.0005) {
				// Bytes the capture lost: offsets jump, framing starts again after the next line end.
				for (const stream of ['stdin', 'stdout', 'stderr'] as const) flush(stream);
				const gap = {
					type: 'gap',
					stream: 'stdout',
					offset: kept.getSnapshot().streamLength('stdout'),
					length: 1000,
					reason: 'unrecorded',
					tMs,
				} as const;
				kept.mark(gap);
				streaming.mark(gap);
			}
		}

		for (const stream of ['stdin', 'stdout', 'stderr'] as const) flush(stream);
		tMs += 1;
		kept.finish(tMs);
		streaming.finish(tMs);

		const want = kept.getSnapshot();
		const got = indexed.getSnapshot();
		expect(want.frames.length).toBeGreaterThan(FRAMES - 100);
		expect(got.frames.length).toBe(want.frames.length);
		expect(indexed.index.chunkCount('stdout')).toBeGreaterThan(25_000);
		let mismatches = 0;
		// In order, backwards, and in a random order (decoding from checkpoints, and reading on).
		const order = [
			...want.frames.keys(),
			...[...want.frames.keys()].reverse().slice(0, 5000),
			...Array.from({length: 5000}, () => Math.floor(next() * want.frames.length)),
		];
		for (const i of order) {
			const frame = got.frames.at(i)!;
			const wanted = want.frames[i]!;
			const a = fields(frame);
			const b = fields(wanted);
			if (JSON.stringify(a) !== JSON.stringify(b) || !Object.is(a.tMs, b.tMs) || !Object.is(a.id, b.id)) {
				if (mismatches++ < 3) expect(a).toEqual(b);
			}

			if (got.frames.streamAt!(i) !== wanted.stream) mismatches++;
			if (i % 97 === 0) {
				const chunks = got.chunksOf(frame).map(({seq, stream, tMs: t, offset, bytes}) => ({
					seq,
					stream,
					tMs: t,
					offset,
					bytes: Buffer.from(bytes).toString('base64'),
				}));
				const wantedChunks = want.chunksOf(wanted).map(({seq, stream, tMs: t, offset, bytes}) => ({
					seq,
					stream,
					tMs: t,
					offset,
					bytes: Buffer.from(bytes).toString('base64'),
				}));
				expect(chunks).toEqual(wantedChunks);
			}
		}

		expect(mismatches).toBe(0);
		expect(got.summary).toEqual(want.summary);
		expect(Array.from({length: got.findings.length}, (_, i) => got.findings.at(i))).toEqual(want.findings);
	});
});
