/**
 * `view --json` waits for stdout between the blocks it reads (docs/performance.md#replay): the presenter says when its
 * output has a backlog (`whenWritable`), big record lines are written as they are, and all of it
 * arrives in order.
 */
import {Writable} from 'node:stream';
import {describe, expect, it} from 'vitest';
import {createPresenter} from '../../src/cli/present.js';
import {decodeRecords, encodeEvent, encodeHeader} from '../../src/core/capture/record-codec.js';
import {createReplay} from '../../src/core/session/replay.js';
import {makeMeta} from '../helpers/factories.js';

describe('presenter output backpressure', () => {
	it('gives a promise while the output is behind, settled once it drained; output complete and in order', async () => {
		const parts: string[] = [];
		const pending: Array<() => void> = [];
		// A slow reader: each write completes only when the test lets it.
		const out = new Writable({
			highWaterMark: 1024,
			write(chunk: Buffer, _encoding, callback) {
				parts.push(chunk.toString('utf8'));
				pending.push(callback);
			},
		});
		const presenter = createPresenter({
			mode: 'json',
			isColor: false,
			hex: false,
			redact: false,
			redactPayloads: false,
			out,
		});
		expect(presenter.whenWritable()).toBeUndefined();
		const meta = makeMeta({mode: 'tap'});
		const line = `${JSON.stringify({jsonrpc: '2.0', id: 1, result: {text: 'x'.repeat(100_000)}})}\n`;
		const replay = createReplay(meta, {retain: false, onSession: (session) => presenter.attach(session)});
		replay.feed({
			type: 'chunk',
			chunk: {seq: 0, stream: 'stdout', tMs: 1, offset: 0, bytes: new Uint8Array(Buffer.from(line))},
		});
		const wait = presenter.whenWritable();
		expect(wait).toBeInstanceOf(Promise);
		let isSettled = false;
		void wait!.then(() => {
			isSettled = true;
		});
		await new Promise((resolve) => setImmediate(resolve));
		expect(isSettled).toBe(false);
		while (pending.length > 0) {
			pending.shift()!();
			await new Promise((resolve) => setImmediate(resolve));
		}

		expect(isSettled).toBe(true);
		expect(presenter.whenWritable()).toBeUndefined();
		const session = replay.finish();
		const finished = presenter.finish(session);
		for (let i = 0; i < 50 && (pending.length > 0 || i < 3); i++) {
			pending.shift()?.();
			await new Promise((resolve) => setImmediate(resolve));
		}

		await finished;
		const decoded = decodeRecords(parts.join(''));
		expect(decoded.problems).toEqual([]);
		expect(parts.join('').startsWith(`${encodeHeader(meta)}\n`)).toBe(true);
		// The 100 kB chunk and frame records are whole lines, in order: chunk, frame, then the end records.
		expect(decoded.events.map((event) => event.type).slice(0, 2)).toEqual(['chunk', 'frame']);
		const chunk = decoded.events[0]!;
		expect(chunk.type === 'chunk' && Buffer.from(chunk.chunk.bytes).toString('utf8')).toBe(line);
		expect(encodeEvent(decoded.events[0]!).length).toBeGreaterThan(64 * 1024);
	});
});
