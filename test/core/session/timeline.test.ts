// The session's timeline: chunk positions per stream, gaps that keep offsets true, marks, the first
// exit, and the latest time seen.
import {describe, expect, it} from 'vitest';
import {Timeline} from '../../../src/core/session/timeline.js';

const bytes = (n: number) => new Uint8Array(n);

describe('Timeline', () => {
	it('gives each chunk its session-wide seq and stream offset, and counts bytes, chunks and frames', () => {
		const timeline = new Timeline();
		const a = timeline.chunk('stdin', 5, bytes(10));
		const b = timeline.chunk('stdout', 7, bytes(4));
		const c = timeline.chunk('stdin', 6, bytes(3));
		expect([a, b, c].map(({seq, stream, tMs, offset}) => [seq, stream, tMs, offset])).toEqual([
			[0, 'stdin', 5, 0],
			[1, 'stdout', 7, 0],
			[2, 'stdin', 6, 10],
		]);
		timeline.frame('stdin');
		expect(timeline.copyTotals()).toEqual({
			stdin: {bytes: 13, chunks: 2, frames: 1},
			stdout: {bytes: 4, chunks: 1, frames: 0},
			stderr: {bytes: 0, chunks: 0, frames: 0},
		});
		expect(timeline.lastTMs).toBe(7);
	});

	it('a gap moves the stream on by its length, so the next chunk keeps its true offset', () => {
		const timeline = new Timeline();
		timeline.chunk('stdout', 1, bytes(20));
		expect(timeline.gap('stdout', 100)).toBe(120);
		expect(timeline.chunk('stdout', 2, bytes(5)).offset).toBe(120);
		expect([timeline.streamLength('stdout'), timeline.totals.stdout.chunks]).toEqual([125, 2]);
	});

	it('keeps marks in order, the first stdin close and the first exit; the latest time only grows', () => {
		const timeline = new Timeline();
		timeline.mark({type: 'stdin-closed', tMs: 30});
		timeline.mark({type: 'stdin-closed', tMs: 40});
		timeline.mark({type: 'eof', stream: 'stdout', tMs: 20});
		expect(timeline.exit({code: 1, signal: null, tMs: 50})).toBe(true);
		expect(timeline.exit({code: 0, signal: null, tMs: 60})).toBe(false);
		timeline.time(45);
		expect(timeline.marks().map((m) => [m.type, m.tMs])).toEqual([
			['stdin-closed', 30],
			['stdin-closed', 40],
			['eof', 20],
		]);
		expect(timeline.marks()).not.toBe(timeline.marks());
		expect([timeline.stdinClosedAt, timeline.exitInfo?.code, timeline.lastTMs]).toEqual([30, 1, 50]);
	});
});
