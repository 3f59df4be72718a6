import type {Writable} from 'node:stream';

/** Output is written in batches of about this many characters (see {@link createBatchedOutput}). */
export const OUTPUT_BATCH_BYTES = 64 * 1024;

/** Text written to stdout in batches; a closed pipe (`| head`) ends output quietly. */
export interface BatchedOutput {
	/** Queue text (written within the next turn of the event loop) or bytes and big pieces (written at once). */
	writeText(text: string | Uint8Array): void;
	/** {@link writeText} of `line` and a LF. */
	writeLine(line: string): void;
	/** Write what the batch holds now. */
	flush(): void;
	/**
	 * A promise that settles once `out` has taken what was written (its reader is slower than the capture
	 * is read), or undefined when it can take more now.
	 * @param backlogBytes how many bytes may wait in `out` before it counts as behind (default: the
	 *   stream's own high-water mark, `writableNeedDrain`); the promise settles at `drain` (all written)
	 */
	whenWritable(backlogBytes?: number): Promise<void> | undefined;
}

/**
 * Batch the text written to `out`: strings are joined up to {@link OUTPUT_BATCH_BYTES} characters and go
 * out once the batch is full, at the next turn of the event loop (so a live probe's lines show at once),
 * or at {@link BatchedOutput.flush}; one write per line was half of `view`'s CPU on a big capture
 * (docs/performance.md#replay). Bytes and strings of a batch's size or more are written as they are
 * (joined they would be copied once more), after the batch before them. EPIPE on `out` stops all output;
 * any other error of `out` is thrown.
 */
export function createBatchedOutput(out: Writable): BatchedOutput {
	let isClosed = false;
	out.on('error', (error: NodeJS.ErrnoException) => {
		if (error.code === 'EPIPE') isClosed = true;
		else throw error;
	});
	let batch: string[] = [];
	let batchBytes = 0;
	let isScheduled = false;
	const flush = (): void => {
		isScheduled = false;
		if (batch.length === 0) return;
		const text = batch.join('');
		batch = [];
		batchBytes = 0;
		if (!isClosed) out.write(text);
	};
	const writeText = (text: string | Uint8Array): void => {
		if (isClosed) return;
		if (typeof text !== 'string' || text.length >= OUTPUT_BATCH_BYTES) {
			flush();
			if (!isClosed) out.write(text);
			return;
		}

		batch.push(text);
		batchBytes += text.length;
		if (batchBytes >= OUTPUT_BATCH_BYTES) flush();
		else if (!isScheduled) {
			isScheduled = true;
			setImmediate(flush);
		}
	};
	return {
		writeText,
		writeLine(line) {
			writeText(line);
			writeText('\n');
		},
		flush,
		whenWritable(backlogBytes) {
			if (isClosed || !out.writableNeedDrain) return undefined;
			if (backlogBytes !== undefined && out.writableLength < backlogBytes) return undefined;
			return new Promise<void>((resolve) => {
				const done = (): void => {
					out.off('drain', done);
					out.off('close', done);
					out.off('error', done);
					resolve();
				};
				out.on('drain', done);
				out.on('close', done);
				out.on('error', done);
			});
		},
	};
}
