import {afterEach, describe, expect, it} from 'vitest';
import {createCaptureLoadStore} from '../../../src/cli/commands/view.js';
import {Session} from '../../../src/core/session/session.js';
import {statusSegments} from '../../../src/render/tui/components/status-bar.js';
import {
	loadPercent,
	progressText,
	type LoadProgress,
	type LoadProgressStore,
} from '../../../src/render/tui/state/loading.js';
import {statusModel} from '../../../src/render/tui/state/selectors.js';
import {TuiRoot} from '../../../src/render/tui/start-tui.js';
import {COLOR_THEME} from '../../../src/render/tui/theme.js';
import {renderTui, type RenderedTui} from '../../helpers/render-tui.js';
import {INITIALIZE, INITIALIZE_REPLY, INITIALIZED, META} from './exchange.js';

// The TUI on big captures (docs/performance.md#tui-on-big-captures): `view` starts the TUI on the first record and loads the rest behind it. Here the
// "slices" are fed by hand: chunks into the session, then the progress store, then a wait for the frame.

// While loading, the TUI takes a session snapshot at most every 500 ms; a loaded machine may take longer.
const WAIT_MS = 10_000;
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (segments: readonly {text: string}[]): string => segments.map((segment) => segment.text).join('');

/** A load store driven by the test, as `view` drives it from the file reader (the one `view` uses). */
function manualLoad(totalBytes: number): LoadProgressStore & {update(change: Partial<LoadProgress>): void} {
	return createCaptureLoadStore(totalBytes);
}

describe('progress text', () => {
	it('says frames, bytes of the file read, its size and the percent (rounded down)', () => {
		expect(progressText({frames: 12_345, bytesRead: 58_982_400, totalBytes: 279_631_151, isDone: false})).toBe(
			'loading… 12,345 frames · 56.3 MiB of 266.7 MiB · 21%',
		);
		expect(loadPercent({frames: 0, bytesRead: 999, totalBytes: 1000, isDone: false})).toBe(99);
		expect(loadPercent({frames: 0, bytesRead: 1000, totalBytes: 1000, isDone: true})).toBe(100);
		expect(loadPercent({frames: 0, bytesRead: 0, totalBytes: 0, isDone: true})).toBe(100);
	});

	it('puts LOAD in place of OK and the percent at the end of the status bar; a verdict on evidence stays', () => {
		const session = new Session(META);
		session.pushChunk('stdin', 1, encode(INITIALIZE));
		const loading: LoadProgress = {frames: 1, bytesRead: 300, totalBytes: 1000, isDone: false};
		const line = text(statusSegments(statusModel(session.getSnapshot()), 100, undefined, loading));
		expect(line.startsWith(' LOAD ')).toBe(true);
		expect(line).not.toContain(' OK ');
		expect(line.endsWith('● loading 30%')).toBe(true);
		session.pushChunk('stdout', 2, encode('Server listening on stdio\n'));
		const judged = text(statusSegments(statusModel(session.getSnapshot()), 100, undefined, loading));
		expect(judged.startsWith(' WARN ')).toBe(true);
	});
});

let tui: RenderedTui | undefined;
afterEach(() => {
	tui?.unmount();
	tui = undefined;
});

describe('TUI while a capture loads', () => {
	it(
		'shows the frames read so far under a progress line, keys work, and the line goes once the load is done',
		{timeout: 60_000},
		async () => {
			const session = new Session(META);
			const load = manualLoad(2048);
			tui = renderTui(<TuiRoot initialStore={session} theme={COLOR_THEME} loading={load} />, {columns: 100, rows: 24});

			// Nothing read yet: the screen is there, with the progress line and no verdict.
			await tui.waitForFrame((frame) => frame.includes('loading… 0 frames · 0 B of 2.0 KiB · 0%'), WAIT_MS);
			let lines = tui.lastFrame().split('\n');
			expect(lines[0]!.startsWith(' LOAD ')).toBe(true);
			expect(lines[0]!.endsWith('● loading 0%')).toBe(true);
			expect(lines).toHaveLength(23);

			// First slice: the initialize request. It shows before the load is done; a replay waits for nothing.
			session.pushChunk('stdin', 1, encode(INITIALIZE));
			load.update({frames: 1, bytesRead: 512});
			await tui.waitForFrame(
				(frame) => frame.includes('initialize #1') && frame.includes('loading… 1 frames · 512 B of 2.0 KiB · 25%'),
				WAIT_MS,
			);
			lines = tui.lastFrame().split('\n');
			expect(lines[0]!.startsWith(' LOAD ')).toBe(true);
			expect(lines[0]!.endsWith('● loading 25%')).toBe(true);
			expect(tui.lastFrame()).not.toContain('waiting for');
			expect(lines).toHaveLength(23);

			// Second slice: the reply and the notification.
			session.pushChunk('stdout', 5, encode(INITIALIZE_REPLY));
			session.pushChunk('stdin', 6, encode(INITIALIZED));
			load.update({frames: 3, bytesRead: 1536});
			await tui.waitForFrame(
				(frame) =>
					frame.includes('notifications/initialized') && frame.includes('loading… 3 frames · 1.5 KiB of 2.0 KiB · 75%'),
				WAIT_MS,
			);
			expect(tui.lastFrame()).toMatch(/\n3\/3 follow/);

			// Keys work while loading: g goes to the first frame.
			await tui.press('g');
			await tui.waitForFrame((frame) => /\n1\/3 paused/.test(frame), WAIT_MS);
			expect(tui.lastFrame()).toContain('loading… 3 frames');

			// Done: the session is finished, the progress line goes, the verdict and `ended` come.
			session.finish(7);
			load.update({frames: 3, bytesRead: 2048, isDone: true});
			await tui.waitForFrame(
				(frame) => !frame.includes('loading…') && frame.split('\n')[0]!.includes('■ ended'),
				WAIT_MS,
			);
			lines = tui.lastFrame().split('\n');
			expect(lines[0]!.startsWith(' WARN ') || lines[0]!.startsWith(' OK ')).toBe(true);
			expect(lines[0]).not.toContain('LOAD');
			expect(lines).toHaveLength(23);
		},
	);
});

describe('TUI on an incomplete capture', () => {
	it(
		"ends the status bar with ▲ incomplete, says the sentence on a line of its own, and counts a gap's bytes as not captured",
		{timeout: 60_000},
		async () => {
			const session = new Session(META);
			session.pushChunk('stdin', 1, encode(INITIALIZE));
			session.mark({type: 'gap', stream: 'stdout', offset: 0, length: 4000, reason: 'lag', tMs: 2});
			session.pushChunk('stdout', 3, encode(`x"}\n${INITIALIZE_REPLY}`));
			session.finish(4);
			const sentence =
				'the capture is incomplete: 4000 bytes of stdout crossed the wire but are not in it (1 gap, marked where they are)';
			const load = manualLoad(2048);
			load.update({frames: 2, bytesRead: 2048, isDone: true, incomplete: sentence});
			tui = renderTui(<TuiRoot initialStore={session} theme={COLOR_THEME} loading={load} />, {columns: 140, rows: 24});
			await tui.waitForFrame((frame) => frame.includes(sentence), WAIT_MS);
			const lines = tui.lastFrame().split('\n');
			expect(lines[0]!.endsWith('▲ incomplete')).toBe(true);
			// The session counts 4,000 + the bytes after the gap on stdout; the bar shows only the bytes captured.
			expect(session.getSnapshot().summary.streams.stdout.bytes).toBe(4000 + 4 + INITIALIZE_REPLY.length);
			expect(lines[0]).toContain(`S→C 1 fr ${4 + INITIALIZE_REPLY.length} B`);
			expect(lines).toHaveLength(23);
			expect(lines.at(-2)).toBe(sentence);
		},
	);
});
