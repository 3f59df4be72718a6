import type {Summary} from '../../../core/types.js';
import {formatBytes} from '../format.js';

/**
 * How far `view` has read its capture file. The TUI starts on the first record and shows what is read
 * so far; until `isDone` a progress line says how far the file is read (docs/performance.md#tui-on-big-captures).
 */
export interface LoadProgress {
	/** Frames derived so far (all streams). */
	readonly frames: number;
	/** Bytes of the capture file read and decoded so far. */
	readonly bytesRead: number;
	/** Size of the capture file in bytes. */
	readonly totalBytes: number;
	/** True once the whole file is read and the session is finished (the progress line goes away). */
	readonly isDone: boolean;
	/**
	 * Set once the capture is known to be incomplete (a binary capture: from its end record, at once; an
	 * NDJSON one: once read): the sentence `view`'s plain path writes on stderr, e.g. `the capture is
	 * incomplete: 1000 bytes of stdout crossed the wire but are not in it (1 gap, marked where they are)`.
	 */
	readonly incomplete?: string;
	/** Set once the capture's `stalls` are known (a binary tap capture: from its end record, at once): see {@link Summary.stalls}. */
	readonly stalls?: Summary['stalls'];
}

/** The load as an external store (React `useSyncExternalStore` shape); `getSnapshot` returns the same object until it changes. */
export interface LoadProgressStore {
	getSnapshot(): LoadProgress;
	subscribe(listener: () => void): () => void;
}

/** Percent of the file read, 0–100, rounded down (100 only when every byte is read; an empty file is 100). */
export function loadPercent(progress: LoadProgress): number {
	if (progress.totalBytes <= 0) return 100;
	return Math.min(100, Math.floor((progress.bytesRead * 100) / progress.totalBytes));
}

/** The progress line: `loading… 12,345 frames · 56.2 MiB of 266.7 MiB · 21%`. */
export function progressText(progress: LoadProgress): string {
	return `loading… ${progress.frames.toLocaleString('en-US')} frames · ${formatBytes(progress.bytesRead)} of ${formatBytes(progress.totalBytes)} · ${loadPercent(progress)}%`;
}
