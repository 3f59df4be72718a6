/**
 * The TUI's search (`/`) on an indexed capture (docs/performance.md#tui-on-big-captures) tests each frame's method, answered
 * method, id and text without building the frame, reading the bodies it needs (text lines, string ids)
 * in big blocks: for every recorded example capture and many needles (every method, id and word seen,
 * case changed, no match), with and without stream and findings-only filters, it shows the same frames
 * as testing each frame of a session that keeps everything, and reads the file a few times, not once
 * per text line.
 */
import {Buffer} from 'node:buffer';
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {decodeRecords} from '../../../../src/core/capture/record-codec.js';
import {CompactIndexStore} from '../../../../src/core/session/stores/compact-index-store.js';
import {IndexedSession} from '../../../../src/core/session/stores/indexed-session.js';
import {createReplay} from '../../../../src/core/session/replay.js';
import type {StreamName} from '../../../../src/core/types.js';
import {
	filterFrames,
	indexFindings,
	NO_FILTER,
	type FrameFilter,
	type FrameView,
} from '../../../../src/render/tui/state/selectors.js';

const CAPTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'captures');

/** An in-memory capture file (each stream's bytes), counting reads. */
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

const positions = (view: FrameView): number[] => Array.from({length: view.length}, (_, p) => view.indexAt(p));

describe('search on an indexed capture', () => {
	const captures = readdirSync(CAPTURES).filter((name) => name.endsWith('.ndjson'));

	it.each(captures)('%s: the same frames as testing every frame of a retaining session', (name) => {
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

		const want = kept.finish().getSnapshot();
		streaming.finish();
		const got = indexed.getSnapshot();
		expect(got.frames.search).toBeDefined();
		// Needles: every method, answered method, id and word of a text line, in another case, and one that matches nothing.
		const needles = new Set<string>(['zz-no-such-thing', 'NULL', '1', 'e', 'é', 'tools', 'Error']);
		for (const frame of want.frames) {
			if (frame.method) needles.add(frame.method.toUpperCase());
			if (frame.answers) needles.add(frame.answers.method.slice(1, 6));
			if (frame.id !== undefined) needles.add(String(frame.id));
			for (const word of (frame.text ?? '').split(/\s+/).slice(0, 3)) if (word !== '') needles.add(word);
		}

		const severity = indexFindings(want.findings).severity;
		const filters: FrameFilter[] = [];
		for (const search of needles) {
			filters.push({...NO_FILTER, search});
			filters.push({...NO_FILTER, search, streams: {stdin: false, stdout: true, stderr: true}});
			filters.push({...NO_FILTER, search, isFindingsOnly: true});
		}

		let matched = 0;
		for (const filter of filters) {
			const expected = positions(filterFrames(want.frames, filter, severity));
			matched += expected.length;
			expect([
				filter.search,
				positions(filterFrames(got.frames, filter, indexFindings(got.findings).severity)),
			]).toEqual([filter.search, expected]);
		}

		expect(matched).toBeGreaterThan(0);
	});

	it('reads the bodies it needs in blocks: a few reads for 2,000 text lines and string ids', () => {
		const decoded = decodeRecords(readFileSync(join(CAPTURES, 'healthy-node.ndjson'), 'utf8'));
		const file = memoryFile();
		const store = new CompactIndexStore((stream, offset, length) => file.read(stream, offset, length));
		const streaming = createReplay(decoded.header!, {store});
		const indexed = new IndexedSession(streaming.session, store);
		const enc = new TextEncoder();
		let tMs = 0;
		const push = (stream: StreamName, text: string): void => {
			const bytes = enc.encode(text);
			file.add(stream, bytes);
			streaming.feed({type: 'chunk', chunk: {seq: 0, stream, tMs: (tMs += 1), offset: 0, bytes}});
		};

		for (let i = 0; i < 1000; i++) {
			push('stderr', `log line ${i} Ünïcode\n`);
			push('stdin', `${JSON.stringify({jsonrpc: '2.0', id: `req-${i}`, method: 'ping'})}\n`);
		}

		streaming.finish();
		const frames = indexed.getSnapshot().frames;
		expect(frames.length).toBe(2000);
		const before = file.reads;
		expect(positions(filterFrames(frames, {...NO_FILTER, search: 'ünïcode'}, new Map())).length).toBe(1000);
		expect(positions(filterFrames(frames, {...NO_FILTER, search: 'REQ-99'}, new Map()))).toEqual([
			199,
			...Array.from({length: 10}, (_, k) => 1981 + 2 * k),
		]);
		// One block per stream per search (the bodies fit in one), not one read per frame.
		expect(file.reads - before).toBeLessThanOrEqual(4);
	});
});
