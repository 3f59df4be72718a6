/**
 * Log lines put in time order (a Content-Length reply shown where it happened). The framer
 * emits some frames late: a Content-Length frame waits for the byte after its body (an LF there belongs
 * to it), a pretty-printed value for its last line, a partial line for its newline or EOF. Marks and
 * frames that happened after such a frame's first byte are held until it is out, then everything held
 * is written sorted by time (stable: equal times keep their order of arrival).
 */
export interface TimeOrder {
	/** Queue the lines of one event that happened at `tMs` (ms since session start). */
	add(tMs: number, lines: readonly string[]): void;
	/**
	 * Write, in time order, every queued event earlier than `horizonTMs`: the first byte of what the
	 * framer still holds (nothing can come before it any more). `Infinity` writes everything.
	 */
	release(horizonTMs: number): void;
	/** Events queued and not yet written. */
	readonly held: number;
}

/**
 * @param write takes one line (without its newline)
 * @param maxHeld most events held at once (memory stays bounded when a partial line never ends): past it
 *   the earliest are written even though a held frame may belong before them
 */
export function createTimeOrder(write: (line: string) => void, maxHeld = 1000): TimeOrder {
	let queue: {readonly tMs: number; readonly lines: readonly string[]}[] = [];
	let isSorted = true;
	const writeAll = (entries: typeof queue): void => {
		for (const entry of entries) for (const line of entry.lines) write(line);
	};
	return {
		add(tMs, lines) {
			if (lines.length === 0) return;
			const last = queue.at(-1);
			if (last !== undefined && tMs < last.tMs) isSorted = false;
			queue.push({tMs, lines});
			if (queue.length > maxHeld) {
				if (!isSorted) queue.sort((a, b) => a.tMs - b.tMs);
				isSorted = true;
				writeAll(queue.splice(0, queue.length - maxHeld));
			}
		},
		release(horizonTMs) {
			if (queue.length === 0) return;
			// Array.prototype.sort is stable: equal times keep their order of arrival.
			if (!isSorted) queue.sort((a, b) => a.tMs - b.tMs);
			isSorted = true;
			let end = 0;
			while (end < queue.length && queue[end]!.tMs < horizonTMs) end++;
			if (end === 0) return;
			const ready = end === queue.length ? queue : queue.slice(0, end);
			queue = end === queue.length ? [] : queue.slice(end);
			writeAll(ready);
		},
		get held() {
			return queue.length;
		},
	};
}
