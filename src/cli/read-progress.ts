import {formatBytes} from '../render/size.js';

/** Where {@link createReadProgress} writes. */
export interface ReadProgressOptions {
	/** Our stderr (never stdout: it carries the log, the NDJSON or the report). */
	readonly stderr: {write?(text: string): unknown; readonly isTTY?: boolean};
	/** The capture file's size in bytes (for the percentage). */
	readonly totalBytes: number;
	/** Milliseconds since an arbitrary start (injected in tests; default `Date.now`). */
	readonly now?: () => number;
}

/** The line shows only once reading has taken this long (a small capture never shows it), then is rewritten at most this often. */
export const READ_PROGRESS_AFTER_MS = 300;
export const READ_PROGRESS_EVERY_MS = 100;

/** What {@link createReadProgress} returns. */
export interface ReadProgress {
	/** Bytes of the file read so far; `frames()` counts the frames derived so far (asked only when the line is written). */
	update(bytesRead: number, frames: () => number): void;
	/** Erase the line (call once the file is read, before anything else goes to stderr). */
	done(): void;
}

/**
 * `reading capture: 123,456 frames · 45.9 MiB of 267.0 MiB · 17%`: sizes in binary units, as the TUI's
 * progress line (render/tui/state/loading.ts) and `sessions` give them, and the same percentage.
 */
export function formatReadProgress(bytesRead: number, totalBytes: number, frames: number): string {
	// As the TUI's line (render/tui/state/loading.ts `loadPercent`): rounded down, an empty file is 100.
	const percent = totalBytes > 0 ? Math.min(100, Math.floor((bytesRead * 100) / totalBytes)) : 100;
	return `reading capture: ${frames.toLocaleString('en-US')} frames · ${formatBytes(bytesRead)} of ${formatBytes(totalBytes)} · ${percent}%`;
}

/**
 * The progress of `report` and `view` (plain, `--json`) reading a big capture: one line
 * on stderr, rewritten in place (`\r`, erase line), shown only when stderr is a terminal and reading takes
 * longer than {@link READ_PROGRESS_AFTER_MS}, erased by `done`. Never writes to stdout; writes nothing at
 * all when stderr is not a terminal.
 */
export function createReadProgress(options: ReadProgressOptions): ReadProgress {
	const {stderr} = options;
	if (stderr.isTTY !== true || stderr.write === undefined) return {update: () => {}, done: () => {}};
	const write = stderr.write.bind(stderr);
	const now = options.now ?? Date.now;
	const start = now();
	let last = -Infinity;
	let shown = false;
	return {
		update(bytesRead, frames) {
			const t = now();
			if (t - start < READ_PROGRESS_AFTER_MS || t - last < READ_PROGRESS_EVERY_MS) return;
			last = t;
			shown = true;
			write(`\r\u001B[Kmcp-wire: ${formatReadProgress(bytesRead, options.totalBytes, frames())}`);
		},
		done() {
			if (shown) write('\r\u001B[K');
			shown = false;
		},
	};
}

/** Frames a replay has derived so far (0 before the header). */
export function framesOf(
	replay:
		| {
				readonly session: {
					getSnapshot(): {readonly summary: {readonly streams: Record<string, {readonly frames: number}>}};
				};
		  }
		| undefined,
): number {
	if (replay === undefined) return 0;
	const streams = replay.session.getSnapshot().summary.streams;
	return Object.values(streams).reduce((sum, stream) => sum + stream.frames, 0);
}
