import {USER_STOP_PHASE, type Chunk, type ExitInfo, type Mark, type StreamName, type StreamTotals} from '../types.js';

type Totals = {bytes: number; chunks: number; frames: number};

/**
 * What came into a session, in order: each stream's bytes, chunks and frames (so each chunk's session-wide
 * `seq` and stream `offset`), the marks, the process's exit, when stdin was closed, and the latest time
 * seen (ms since the session started; times come in with the chunks and marks, never from a clock). Pure.
 */
export class Timeline {
	/** Bytes, chunks and frames per stream so far (live objects: copy before handing out). */
	readonly totals: Readonly<Record<StreamName, Readonly<Totals>>>;
	private readonly counts: Record<StreamName, Totals> = {
		stdin: {bytes: 0, chunks: 0, frames: 0},
		stdout: {bytes: 0, chunks: 0, frames: 0},
		stderr: {bytes: 0, chunks: 0, frames: 0},
	};
	private readonly kept: Mark[] = [];
	private seq = 0;
	/** The latest time seen, ms since the session started. */
	lastTMs = 0;
	/** How the process ended, once it did (the first exit given). */
	exitInfo: ExitInfo | undefined;
	/** When the client closed the server's stdin (the first `stdin-closed` mark), ms since start. */
	stdinClosedAt: number | undefined;
	/** When the user stopped the probe before its exchange was over (the first {@link USER_STOP_PHASE} mark). */
	stoppedByUserAt: number | undefined;

	constructor() {
		this.totals = this.counts;
	}

	/** Bytes that crossed `stream` at `tMs`: the chunk with its `seq` and stream `offset`. */
	chunk(stream: StreamName, tMs: number, bytes: Uint8Array): Chunk {
		const totals = this.counts[stream];
		const chunk: Chunk = {seq: this.seq++, stream, tMs, offset: totals.bytes, bytes};
		totals.bytes += bytes.length;
		totals.chunks += 1;
		this.lastTMs = Math.max(this.lastTMs, tMs);
		return chunk;
	}

	/** A frame of `stream` was made. */
	frame(stream: StreamName): void {
		this.counts[stream].frames += 1;
	}

	/** `length` bytes of `stream` are missing from the capture: offsets stay true. Returns the stream's new length. */
	gap(stream: StreamName, length: number): number {
		return (this.counts[stream].bytes += length);
	}

	/** A mark, kept in order; its time counts. */
	mark(mark: Mark): void {
		this.kept.push(mark);
		this.time(mark.tMs);
		if (mark.type === 'stdin-closed' && this.stdinClosedAt === undefined) this.stdinClosedAt = mark.tMs;
		if (mark.type === 'phase' && mark.name === USER_STOP_PHASE) this.stoppedByUserAt ??= mark.tMs;
	}

	/** The process's end; false (and nothing kept) when an exit was given already. */
	exit(info: ExitInfo): boolean {
		if (this.exitInfo) return false;
		this.exitInfo = info;
		this.time(info.tMs);
		return true;
	}

	/** A time seen (ms since start): the latest one is the session's duration. */
	time(tMs: number): void {
		this.lastTMs = Math.max(this.lastTMs, tMs);
	}

	/** The marks so far (a new array). */
	marks(): Mark[] {
		return this.kept.slice();
	}

	/** Bytes seen on `stream` so far. */
	streamLength(stream: StreamName): number {
		return this.counts[stream].bytes;
	}

	/** A copy of the totals as they are now. */
	copyTotals(): Record<StreamName, StreamTotals> {
		const {stdin, stdout, stderr} = this.counts;
		return {stdin: {...stdin}, stdout: {...stdout}, stderr: {...stderr}};
	}
}
