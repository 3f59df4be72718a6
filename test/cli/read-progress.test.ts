import {describe, expect, it} from 'vitest';
import {createReadProgress, formatReadProgress, READ_PROGRESS_AFTER_MS} from '../../src/cli/read-progress.js';
import {progressText} from '../../src/render/tui/state/loading.js';

function fakeStderr(isTTY: boolean): {stream: {isTTY: boolean; write(text: string): boolean}; written: string[]} {
	const written: string[] = [];
	return {stream: {isTTY, write: (text: string) => written.push(text) > 0}, written};
}

describe('createReadProgress', () => {
	it('on a terminal stderr: nothing before 300 ms, then one line rewritten in place (frames, MiB, %), erased by done', () => {
		const {stream, written} = fakeStderr(true);
		let t = 0;
		const progress = createReadProgress({stderr: stream, totalBytes: 280_000_000, now: () => t});
		progress.update(1_048_576, () => 100);
		expect(written).toEqual([]);
		t = READ_PROGRESS_AFTER_MS;
		progress.update(56_000_000, () => 123_456);
		t += 50;
		progress.update(57_000_000, () => 123_999); // within 100 ms of the last line: not rewritten
		progress.done();
		expect(written).toEqual([
			'\r\u001B[Kmcp-wire: reading capture: 123,456 frames · 53.4 MiB of 267.0 MiB · 20%',
			'\r\u001B[K',
		]);
	});

	it('writes nothing when stderr is not a terminal, nor through an object without write', () => {
		const {stream, written} = fakeStderr(false);
		let t = 0;
		const progress = createReadProgress({stderr: stream, totalBytes: 10, now: () => t});
		t = 10_000;
		progress.update(5, () => 1);
		progress.done();
		expect(written).toEqual([]);
		const silent = createReadProgress({stderr: {isTTY: true}, totalBytes: 10, now: () => t});
		silent.update(5, () => 1);
		silent.done();
	});

	it('formats the line', () => {
		expect(formatReadProgress(0, 0, 0)).toBe('reading capture: 0 frames · 0 B of 0 B · 100%');
		expect(formatReadProgress(10, 10, 1)).toBe('reading capture: 1 frames · 10 B of 10 B · 100%');
	});

	it("gives sizes in the units of the TUI's progress line (MiB, not MB): the same figures for the same progress", () => {
		for (const [bytesRead, totalBytes, frames] of [
			[0, 0, 0],
			[1_048_576, 280_000_000, 100],
			[56_000_000, 280_000_000, 123_456],
			[5_000_000_000, 6_000_000_000, 9],
		] as const) {
			const tui = progressText({frames, bytesRead, totalBytes, isDone: false});
			expect(formatReadProgress(bytesRead, totalBytes, frames).replace(/^reading capture: /, '')).toBe(
				tui.replace(/^loading… /, ''),
			);
		}
	});
});
