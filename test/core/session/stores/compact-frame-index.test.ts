/**
 * The TUI's compact frame index (docs/performance.md#tui-on-big-captures) rebuilds every frame from numbers and the bytes read
 * back: for every field case and every recorded example capture, the frames, bytes, chunks, findings,
 * summary and stderr tail of an {@link IndexedSession} (a session that keeps nothing, plus the index)
 * equal those of a session that keeps everything. The "file" here is in memory: each stream's bytes.
 */
import {Buffer} from 'node:buffer';
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {decodeRecords} from '../../../../src/core/capture/record-codec.js';
import {BIG_BODY_BYTES} from '../../../../src/core/session/stores/compact-frame-index.js';
import {CompactIndexStore} from '../../../../src/core/session/stores/compact-index-store.js';
import {IndexedSession} from '../../../../src/core/session/stores/indexed-session.js';
import {createReplay} from '../../../../src/core/session/replay.js';
import {Session} from '../../../../src/core/session/session.js';
import type {Frame, SessionEvent, SessionMeta, StreamName} from '../../../../src/core/types.js';
import {FIELD_CASES, type FieldCase} from '../../../fixtures/field-cases/cases.js';

const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.0.0-test'},
	node: 'v20.0.0',
	platform: 'linux',
	command: ['server'],
	envMode: 'sdk-default',
	startedAt: '2026-01-01T00:00:00.000Z',
	mode: 'replay',
};

const CAPTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'captures');

/** Every field of a frame, read through its getters (an indexed frame parses `message` on first use). */
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
	message: frame.message,
	method: frame.method,
	id: frame.id,
	rawId: frame.rawId,
	answers: frame.answers,
	text: frame.text,
});

/** An in-memory capture file: the bytes of each stream, read back by stream offset (as CaptureBytesReader.read). */
function memoryFile() {
	const streams: Record<StreamName, Buffer[]> = {stdin: [], stdout: [], stderr: []};
	let reads = 0;
	return {
		add(stream: StreamName, bytes: Uint8Array): void {
			streams[stream].push(Buffer.from(bytes));
		},
		get reads() {
			return reads;
		},
		read: (stream: StreamName, offset: number, length: number): Uint8Array => {
			reads++;
			const whole = Buffer.concat(streams[stream]);
			streams[stream] = [whole];
			return Uint8Array.from(whole.subarray(offset, offset + length));
		},
	};
}

/** Feed the same events to a retaining session and to an indexed one. */
function both(feed: (session: Session, before: (event: SessionEvent) => void) => void) {
	const kept = new Session(META);
	feed(kept, () => undefined);
	const file = memoryFile();
	const store = new CompactIndexStore((stream, offset, length) => file.read(stream, offset, length));
	const streaming = new Session(META, {store});
	const indexed = new IndexedSession(streaming, store);
	feed(streaming, (event) => {
		if (event.type === 'chunk') file.add(event.chunk.stream, event.chunk.bytes);
	});
	return {kept, indexed, file};
}

function runCase(fieldCase: FieldCase) {
	return both((session, before) => {
		const steps: Array<{tMs: number; order: number; run: () => void}> = [];
		let order = 0;
		for (const chunk of fieldCase.chunks)
			steps.push({
				tMs: chunk.tMs,
				order: order++,
				run: () => {
					before({type: 'chunk', chunk: {seq: 0, stream: chunk.stream, tMs: chunk.tMs, offset: 0, bytes: chunk.bytes}});
					session.pushChunk(chunk.stream, chunk.tMs, chunk.bytes);
				},
			});
		for (const mark of fieldCase.marks ?? [])
			steps.push({tMs: mark.tMs, order: order++, run: () => session.mark(mark)});
		const exit = fieldCase.exit;
		if (exit) steps.push({tMs: exit.tMs, order: order++, run: () => session.exit(exit)});
		steps.sort((a, b) => a.tMs - b.tMs || a.order - b.order);
		for (const step of steps) step.run();
		session.finish(Math.max(0, ...steps.map((s) => s.tMs)));
	});
}

/** Byte arrays compared as buffers (a deep equality walks megabytes element by element). */
function expectSameBytes(got: Uint8Array, want: Uint8Array): void {
	expect(got.length).toBe(want.length);
	expect(
		Buffer.from(got.buffer, got.byteOffset, got.length).equals(Buffer.from(want.buffer, want.byteOffset, want.length)),
	).toBe(true);
}

function expectSame(kept: Session, indexed: IndexedSession): void {
	const want = kept.getSnapshot();
	const got = indexed.getSnapshot();
	expect(got.frames.length).toBe(want.frames.length);
	for (let i = 0; i < want.frames.length; i++) {
		const frame = got.frames.at(i)!;
		expect(fields(frame)).toEqual(fields(want.frames[i]!));
		expect(got.frames.streamAt!(i)).toBe(want.frames[i]!.stream);
		expectSameBytes(
			got.bytes(frame.stream, frame.offset, frame.byteLength),
			want.bytes(frame.stream, frame.offset, frame.byteLength),
		);
		const chunks = got.chunksOf(frame);
		const wanted = want.chunksOf(want.frames[i]!);
		expect(chunks.map(({seq, stream, tMs, offset}) => ({seq, stream, tMs, offset}))).toEqual(
			wanted.map(({seq, stream, tMs, offset}) => ({seq, stream, tMs, offset})),
		);
		chunks.forEach((chunk, k) => expectSameBytes(chunk.bytes, wanted[k]!.bytes));
	}

	expect(got.frames.at(want.frames.length)).toBeUndefined();
	for (const stream of ['stdin', 'stdout', 'stderr'] as StreamName[]) {
		const length = want.streamLength(stream);
		expect(got.streamLength(stream)).toBe(length);
		expectSameBytes(got.bytes(stream, 0, length + 10), want.bytes(stream, 0, length + 10));
		expectSameBytes(got.bytes(stream, 1, Math.max(0, length - 2)), want.bytes(stream, 1, Math.max(0, length - 2)));
	}

	expect(Array.from({length: got.findings.length}, (_, i) => got.findings.at(i))).toEqual(want.findings);
	expect(got.summary).toEqual(want.summary);
	expect(got.marks).toEqual(want.marks);
	expect(got.isEnded).toBe(want.isEnded);
	expect(got.stderrTail(10)).toEqual(want.stderrTail(10));
}

describe('an indexed session gives the frames of a retaining one, read back from the file', () => {
	it.each(FIELD_CASES.map((c) => [c.id, c] as const))('field case %s', (_id, fieldCase) => {
		const {kept, indexed} = runCase(fieldCase);
		expect(kept.getSnapshot().frames.length).toBeGreaterThan(0);
		expectSame(kept, indexed);
	});

	const captures = readdirSync(CAPTURES).filter((name) => name.endsWith('.ndjson'));
	it('has the recorded example captures', () => {
		expect(captures.length).toBeGreaterThan(20);
	});

	it.each(captures)('capture %s', (name) => {
		const decoded = decodeRecords(readFileSync(join(CAPTURES, name), 'utf8'));
		const kept = createReplay(decoded.header!);
		const file = memoryFile();
		const store = new CompactIndexStore((stream, offset, length) => file.read(stream, offset, length));
		const streaming = createReplay(decoded.header!, {store});
		const indexed = new IndexedSession(streaming.session, store);
		for (const event of decoded.events) {
			kept.feed(event);
			if (event.type === 'chunk') file.add(event.chunk.stream, event.chunk.bytes);

			streaming.feed(event);
		}

		expectSame(kept.finish(), (streaming.finish(), indexed));
	});
});

describe('an indexed session holds numbers, not bytes', () => {
	const enc = new TextEncoder();
	const line = (value: unknown): Uint8Array => enc.encode(`${JSON.stringify(value)}\n`);

	it('reads a frame back only when it is built, parses a big body only when its message is asked for, and keeps the last big one parsed', () => {
		const big = 'x'.repeat(BIG_BODY_BYTES + 10);
		const {kept, indexed, file} = both((session, before) => {
			const steps: [StreamName, number, Uint8Array][] = [
				[
					'stdin',
					1,
					line({jsonrpc: '2.0', id: 'a-1', method: 'tools/call', params: {name: 'echo', arguments: {text: big}}}),
				],
				['stdout', 2, line({jsonrpc: '2.0', id: 'a-1', result: {content: [{type: 'text', text: big}]}})],
				['stderr', 3, enc.encode('log line\n')],
			];
			for (const [stream, tMs, bytes] of steps) {
				before({type: 'chunk', chunk: {seq: 0, stream, tMs, offset: 0, bytes}});
				session.pushChunk(stream, tMs, bytes);
			}

			session.finish(10);
		});
		expect(file.reads).toBe(0);
		const snapshot = indexed.getSnapshot();
		const request = snapshot.frames.at(0)!;
		// The row's fields come from the index (a big frame's string id is kept aside): no read.
		expect([request.kind, request.method, request.id, request.answers]).toEqual([
			'request',
			'tools/call',
			'a-1',
			undefined,
		]);
		expect(snapshot.frames.at(1)!.answers).toEqual(kept.getSnapshot().frames[1]!.answers);
		expect(file.reads).toBe(0);
		expect(request.message).toEqual(kept.getSnapshot().frames[0]!.message);
		expect(file.reads).toBe(1);
		expect(request.message).toBe(request.message);
		expect(file.reads).toBe(1);
		expect(snapshot.frames.at(2)!.text).toBe('log line');
		// The same range again (a redraw of the same hex rows) is not read again; another one is.
		const reads = file.reads;
		expect(Buffer.from(snapshot.bytes('stdout', 10, 500)).toString()).toBe(
			Buffer.from(kept.getSnapshot().bytes('stdout', 10, 500)).toString(),
		);
		expect(snapshot.bytes('stdout', 10, 500)).toBe(snapshot.bytes('stdout', 10, 500));
		expect(file.reads).toBe(reads + 1);
		snapshot.bytes('stdout', 11, 500);
		expect(file.reads).toBe(reads + 2);
		expectSame(kept, indexed);
	});

	it('keeps no frame whole for a finding its bytes rebuild the same, and keeps one they would not', () => {
		const crlf = (value: unknown): Uint8Array => enc.encode(`${JSON.stringify(value)}\r\n`);
		const {kept, indexed} = both((session, before) => {
			const steps: [StreamName, number, Uint8Array][] = [
				['stdin', 1, crlf({jsonrpc: '2.0', id: 1, method: 'ping'})],
				['stdout', 2, crlf({jsonrpc: '2.0', id: 1, result: {}})],
				['stdin', 3, crlf({jsonrpc: '2.0', id: 'two', method: 'ping'})],
				['stdout', 4, enc.encode('a log line on stdout\n')],
				['stdout', 5, enc.encode('{"jsonrpc":"2.0","id":"two","result":{}}{"jsonrpc":"2.0","method":"x"}\n')],
			];
			for (const [stream, tMs, bytes] of steps) {
				before({type: 'chunk', chunk: {seq: 0, stream, tMs, offset: 0, bytes}});
				session.pushChunk(stream, tMs, bytes);
			}

			session.finish(10);
		});
		const codes = kept.getSnapshot().findings.map((f) => `${f.code}@${f.frameIndex}`);
		expect(codes).toEqual(
			expect.arrayContaining(['crlf@0', 'crlf@1', 'crlf@2', 'stray-output@3', 'concatenated-json@4']),
		);
		// Only the line of concatenated JSON (its message is its first value) is kept whole.
		expect(indexed.index.keptCount).toBe(1);
		expectSame(kept, indexed);
	});

	it('the snapshot is the same object until the session changes', () => {
		const store = new CompactIndexStore((stream, offset, length) => file.read(stream, offset, length));
		const streaming = new Session(META, {store});
		const file = memoryFile();
		const indexed = new IndexedSession(streaming, store);
		const first = indexed.getSnapshot();
		expect(indexed.getSnapshot()).toBe(first);
		const bytes = line({jsonrpc: '2.0', method: 'notifications/initialized'});
		file.add('stdin', bytes);
		streaming.pushChunk('stdin', 1, bytes);
		const second = indexed.getSnapshot();
		expect(second).not.toBe(first);
		expect(second.frames.length).toBe(1);
		expect(first.frames.length).toBe(0);
		expect(first.frames.at(0)).toBeUndefined();
		expect(indexed.getSnapshot()).toBe(second);
	});
});
