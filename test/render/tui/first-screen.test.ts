import {EventEmitter} from 'node:events';
import {describe, expect, it} from 'vitest';
import {
	CLEAR_SCREEN,
	ENTER_ALT_SCREEN,
	firstScreenLines,
	LEAVE_ALT_SCREEN,
	paintFirstScreen,
} from '../../../src/render/tui/first-screen.js';

// The TUI on big captures (docs/performance.md#tui-on-big-captures): `view` paints a plain first screen before ink and React are loaded; the TUI clears it.

describe('first screen of view', () => {
	it('has the status line, the frame list header and the progress line where the TUI puts them', () => {
		const lines = firstScreenLines({title: 'huge.ndjson', totalBytes: 279_631_151}, 120, 40);
		expect([...lines.keys()]).toEqual([1, 2, 3, 39, 40]);
		expect(lines.get(1)).toBe(' LOAD  huge.ndjson  ● loading 0%');
		expect(lines.get(2)).toBe('     #        ms dir  bytes kind   latency method / id / text');
		expect(lines.get(39)).toBe('loading… 0 frames · 0 B of 266.7 MiB · 0%');
		expect(lines.get(40)).toBe('starting the viewer…');
	});

	it('fits a narrow terminal', () => {
		const lines = firstScreenLines({title: 'a-capture-with-a-long-name.ndjson', totalBytes: 10}, 20, 10);
		for (const line of lines.values()) expect(line.length).toBeLessThanOrEqual(20);
		expect(lines.get(1)).toBe(' LOAD  a-capture-wi…');
	});

	it('enters the alternate screen, and leaves it on leave() or at exit until the TUI takes over', () => {
		const written: string[] = [];
		const out = Object.assign(new EventEmitter(), {
			columns: 60,
			rows: 12,
			write: (text: string) => written.push(text) > 0,
		}) as unknown as NodeJS.WriteStream;
		const exitListeners = process.listenerCount('exit');
		const screen = paintFirstScreen(out, {title: 't', totalBytes: 0});
		expect(written[0]!.startsWith(ENTER_ALT_SCREEN + CLEAR_SCREEN)).toBe(true);
		expect(written[0]).toContain('\u001B[11;1Hloading… 0 frames · 0 B of 0 B · 0%');
		expect(process.listenerCount('exit')).toBe(exitListeners + 1);
		screen.leave();
		screen.leave();
		expect(written.slice(1)).toEqual([LEAVE_ALT_SCREEN]);
		expect(process.listenerCount('exit')).toBe(exitListeners);

		const taken = paintFirstScreen(out, {title: 't', totalBytes: 0});
		taken.release();
		taken.leave();
		expect(written.slice(2).filter((text) => text === LEAVE_ALT_SCREEN)).toEqual([]);
		expect(process.listenerCount('exit')).toBe(exitListeners);
	});
});
