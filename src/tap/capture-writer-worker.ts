import {Buffer} from 'node:buffer';
import {ftruncateSync, writeSync, writevSync} from 'node:fs';
import path from 'node:path';
import {isMainThread, parentPort, workerData} from 'node:worker_threads';
import {
	encodeEndRecord,
	encodeGapRecord,
	encodeJsonRecord,
	RECORD_HEAD_BYTES,
	RECORD_TYPE,
	writeRecordHead,
	type CaptureEnd,
	type CaptureStalls,
} from '../core/capture/binary-codec.js';
import {encodeEvent} from '../core/capture/record-codec.js';
import type {CaptureGapReason, ExitInfo, Mark, StreamName} from '../core/types.js';
import {ensurePrivateDir, pruneCaptures, type PruneLimits} from '../captures/capture-store.js';
import {ENTRY, RingConsumer, type RingEntry} from './capture-ring.js';
import {PROGRESS, type CaptureClose, type CaptureWorkerConfig, type CaptureWorkerMessage} from './capture-writer.js';
import {LiveSocketServer} from './live-socket.js';

/**
 * The capture worker (a `worker_threads` thread started by capture-writer.ts). It owns everything the
 * tap does besides forwarding: it drains the shared ring, gives chunks their per-stream `offset`,
 * appends binary records (binary-codec.ts: a 24-byte head and the raw bytes, no encoding of chunk
 * bytes) to the capture file with synchronous writes (so a tap killed with SIGKILL leaves every record
 * written so far, at worst a cut last record), writes a gap record for every range it could not record
 * and an end record that says whether the capture is complete, prunes old captures, and serves live
 * attach clients. The file and its header are made by the main thread (capture-writer.ts) before
 * anything else, so a capture always has its header; the header entry hands the worker its fd.
 */

/**
 * While entries keep coming the worker naps this long between drains (woken early once a megabyte is
 * pending): light traffic, a ping-pong session, costs ~20 wake-ups a second instead of one per
 * message, which is what keeps the forwarding latency's tail unchanged; a bulk transfer wakes it per MiB.
 */
const NAP_MS = 50;
/** Empty naps before the worker parks on the ring (woken by the next entry). */
const IDLE_NAPS = 2;

/** Flush the pending batch to the file once it holds this many bytes. */
const BATCH_BYTES = 1024 * 1024;
/**
 * Flush once the batch has this many pieces (one `writev`; Linux's IOV_MAX is 1024, libuv splits a
 * longer list into several calls).
 */
const BATCH_PIECES = 1000;
/** Size of the buffer that holds record heads and control records (grown for a larger record). */
const OWN_BYTES = 64 * 1024;

/** Options of {@link CaptureSink}. */
export interface CaptureSinkOptions {
	readonly path: string;
	readonly privateDir?: string;
	readonly prune?: PruneLimits;
	readonly socket?: {readonly address: string; readonly dir?: string};
	readonly lingerMs: number;
	readonly onWarning: (message: string) => void;
	/** Shared progress words (capture-writer.ts {@link PROGRESS}): what the file holds after each write. */
	readonly progress?: Float64Array;
}

const STREAM_NAMES: readonly StreamName[] = ['stdin', 'stdout', 'stderr'];

/**
 * Turns ring entries into binary capture records on disk and on the live socket. Usable without a
 * worker (tests drive it directly). Every I/O failure is one warning and stops that part; nothing throws.
 * The file descriptor comes with the header entry (`{fd, size}`) and stays the caller's: the sink never
 * closes it.
 */
export class CaptureSink {
	private fd: number | undefined;
	private size = 0;
	/** Stream offsets covered so far (chunks and gaps), and as of the last successful write. */
	private readonly offsets: Record<StreamName, number> = {stdin: 0, stdout: 0, stderr: 0};
	private readonly recorded: Record<StreamName, number> = {stdin: 0, stdout: 0, stderr: 0};
	private readonly missing: Record<StreamName, number> = {stdin: 0, stdout: 0, stderr: 0};
	private gaps = 0;
	private written = {
		offsets: {stdin: 0, stdout: 0, stderr: 0},
		recorded: {stdin: 0, stdout: 0, stderr: 0},
		missing: {stdin: 0, stdout: 0, stderr: 0},
		gaps: 0,
	};
	/**
	 * Records not yet written, as the pieces of one `writev`: record heads and control records in one
	 * reused buffer (`own`, no allocation per record), chunk bytes as views of the ring itself (no copy:
	 * the ring keeps them until the batch is written, see {@link entry}).
	 */
	private own = Buffer.allocUnsafe(OWN_BYTES);
	private ownLength = 0;
	/** Where the own bytes not yet in `pieces` start. */
	private ownStart = 0;
	private pieces: Uint8Array[] = [];
	private batchBytes = 0;
	/** Chunk payloads (ring memory) among the pieces. */
	private views = 0;
	private live: LiveSocketServer | undefined;
	private isFinished = false;
	private hasFailed = false;
	private isEnded = false;
	private isEndWritten = false;

	constructor(private readonly options: CaptureSinkOptions) {}

	/** True once the end record is in the file. */
	get hasWrittenEnd(): boolean {
		return this.isEndWritten;
	}

	/** The file path once the file is adopted. */
	get path(): string | undefined {
		return this.fd === undefined ? undefined : this.options.path;
	}

	/** Bytes written to the file so far (the header included). */
	get bytesWritten(): number {
		return this.size;
	}

	/** The live socket address when listening. */
	get socket(): string | undefined {
		return this.live?.address;
	}

	/**
	 * Prune old captures (in the default capture directory) and start the live socket. The file itself
	 * comes with the header entry.
	 */
	async open(): Promise<void> {
		const {options} = this;
		if (options.privateDir !== undefined && options.prune !== undefined) {
			try {
				const result = pruneCaptures(options.privateDir, options.prune, options.path);
				for (const problem of result.problems) this.warn(problem);
			} catch (error) {
				this.warn(`cannot prune old captures in ${options.privateDir} (${describe(error)})`);
			}
		}

		if (options.socket !== undefined) {
			let isSafe = true;
			if (options.socket.dir !== undefined) {
				try {
					ensurePrivateDir(options.socket.dir);
				} catch (error) {
					isSafe = false;
					this.warn(
						`live attach unavailable: runtime directory ${options.socket.dir} is not usable (${describe(error)})`,
					);
				}
			}

			if (isSafe) {
				const live = new LiveSocketServer(
					options.socket.address,
					{path: options.path, size: () => this.size},
					(message) => this.warn(message),
				);
				if (await live.listen()) this.live = live;
			}
		}
	}

	/**
	 * Handle one ring entry. A chunk's payload is kept (not copied) until the batch is written: the
	 * caller must keep its memory unchanged until then.
	 * @returns true when no payload handed so far is kept (all written: their memory may be reused),
	 *   false while some are (the ring releases their space after {@link flush})
	 */
	entry(entry: RingEntry): boolean {
		if (this.isFinished || this.isEnded) return this.views === 0;
		switch (entry.kind) {
			case ENTRY.chunk: {
				const {stream, payload} = entry;
				const offset = this.offsets[stream];
				this.offsets[stream] = offset + payload.length;
				this.recorded[stream] += payload.length;
				if (this.fd === undefined || this.hasFailed) break;
				this.reserve(RECORD_HEAD_BYTES);
				writeRecordHead(this.own, this.ownLength, RECORD_TYPE.chunk, stream, payload.length, entry.tMs, offset);
				this.ownLength += RECORD_HEAD_BYTES;
				this.batchBytes += RECORD_HEAD_BYTES;
				if (payload.length > 0) {
					this.closeOwnPiece();
					this.pieces.push(payload);
					this.batchBytes += payload.length;
					this.views++;
				}

				break;
			}

			case ENTRY.gap: {
				const gap = parseJson<{length: number; reason: CaptureGapReason}>(entry.payload);
				if (gap && gap.length > 0) this.gap(entry.stream, gap.length, gap.reason, entry.tMs);
				break;
			}

			case ENTRY.mark: {
				const mark = parseJson<Mark>(entry.payload);
				if (mark) this.json(RECORD_TYPE.mark, mark.tMs, encodeEvent({type: 'mark', mark}));
				break;
			}

			case ENTRY.exit: {
				const exit = parseJson<ExitInfo>(entry.payload);
				if (exit) this.json(RECORD_TYPE.exit, exit.tMs, encodeEvent({type: 'exit', exit}));
				break;
			}

			case ENTRY.header: {
				const file = parseJson<{fd: number; size: number}>(entry.payload);
				if (file) {
					this.fd = file.fd;
					this.size = file.size;
					this.publish();
				}

				break;
			}

			case ENTRY.close: {
				const close = parseJson<CaptureClose>(entry.payload);
				this.end(close?.forwarded, entry.tMs, close?.stalls);
				break;
			}
		}

		if (this.batchBytes >= BATCH_BYTES || this.pieces.length >= BATCH_PIECES) this.flush();
		return this.views === 0;
	}

	/**
	 * The end of the capture: a gap for every byte forwarded but not covered (`forwarded` per stream,
	 * from the main thread), then the end record (with `stalls`, the tap's waits for the capture, when
	 * there were any). Written once; later entries are ignored.
	 */
	end(forwarded: Readonly<Record<StreamName, number>> | undefined, tMs: number, stalls?: CaptureStalls): void {
		if (this.isEnded) return;
		if (this.hasFailed) {
			// What the file holds is what was written before the failure: the rest is one gap per stream.
			this.clearBatch();
			Object.assign(this.offsets, this.written.offsets);
			Object.assign(this.recorded, this.written.recorded);
			Object.assign(this.missing, this.written.missing);
			this.gaps = this.written.gaps;
		}

		if (forwarded) {
			for (const stream of STREAM_NAMES) {
				const left = forwarded[stream] - this.offsets[stream];
				if (left > 0) this.gap(stream, left, this.hasFailed ? 'write-failed' : 'lag', tMs);
			}
		}

		this.isEnded = true;
		const end: CaptureEnd = {
			complete: this.gaps === 0 && !this.hasFailed,
			recorded: {...this.recorded},
			missing: {...this.missing},
			gaps: this.gaps,
			...(stalls === undefined ? {} : {stalls}),
		};
		this.push(encodeEndRecord(end, tMs));
	}

	/**
	 * Append the pending records to the file (one `writev` from the ring and the own buffer) and hand
	 * them to live clients. Afterwards no payload is kept.
	 */
	flush(): void {
		this.closeOwnPiece();
		const total = this.batchBytes;
		const pieces = this.pieces;
		if (total === 0) {
			this.clearBatch();
			return;
		}

		if (this.fd === undefined || (this.hasFailed && !this.isEnded)) {
			// After a failed write only the closing records are tried, once, at the last good size.
			this.clearBatch();
			return;
		}

		const start = this.size;
		// Live clients may hold what they are given (socket writes are asynchronous): give them a copy,
		// the pieces are ring memory and a reused buffer.
		const copy = this.live && this.live.clientCount > 0 ? Buffer.concat(pieces, total) : undefined;
		try {
			writeAll(this.fd, pieces, total, start);
		} catch (error) {
			this.clearBatch();
			if (!this.hasFailed)
				this.warn(
					`capture stopped: cannot write ${this.options.path} (${describe(error)}); forwarding goes on, a gap record marks what is missing when it can be written`,
				);
			this.hasFailed = true;
			// Keep the file on a record boundary (a reader sees what was written, then "cut short").
			try {
				ftruncateSync(this.fd, this.size);
			} catch {
				// nothing more to do
			}

			return;
		}

		this.clearBatch();
		this.size += total;
		if (this.isEnded) this.isEndWritten = true;
		this.written = {
			offsets: {...this.offsets},
			recorded: {...this.recorded},
			missing: {...this.missing},
			gaps: this.gaps,
		};
		this.publish();
		if (copy) this.live?.appended(copy, start);
	}

	/** Forget the batch (written or given up): no payload is kept, the own buffer is reused. */
	private clearBatch(): void {
		this.pieces = [];
		this.batchBytes = 0;
		this.views = 0;
		this.ownLength = 0;
		this.ownStart = 0;
	}

	/** End the current run of own bytes as one piece of the batch (before a ring view, or at a flush). */
	private closeOwnPiece(): void {
		if (this.ownLength === this.ownStart) return;
		this.pieces.push(this.own.subarray(this.ownStart, this.ownLength));
		this.ownStart = this.ownLength;
	}

	/** Write what is left, let live clients catch up and close the socket (the fd stays open: the caller's). */
	async finish(): Promise<void> {
		if (this.isFinished) return;
		this.flush();
		this.isFinished = true;
		await this.live?.close(this.options.lingerMs);
	}

	/** Tell the main thread what the file holds (it finishes the file when the worker cannot). */
	private publish(): void {
		const progress = this.options.progress;
		if (!progress) return;
		const {written} = this;
		for (const [i, stream] of STREAM_NAMES.entries()) {
			progress[PROGRESS.offsets + i] = written.offsets[stream];
			progress[PROGRESS.recorded + i] = written.recorded[stream];
			progress[PROGRESS.missing + i] = written.missing[stream];
		}

		progress[PROGRESS.gaps] = written.gaps;
		progress[PROGRESS.failed] = this.hasFailed ? 1 : 0;
		// Last: the size says the words before it are current.
		progress[PROGRESS.size] = this.size;
	}

	private gap(stream: StreamName, length: number, reason: CaptureGapReason, tMs: number): void {
		const offset = this.offsets[stream];
		this.offsets[stream] = offset + length;
		this.missing[stream] += length;
		this.gaps++;
		this.push(encodeGapRecord({stream, offset, length, reason, tMs}));
	}

	private json(type: number, tMs: number, line: string): void {
		this.push(encodeJsonRecord(type, tMs, line));
	}

	private push(record: Buffer): void {
		if (this.fd === undefined) return;
		this.reserve(record.length);
		record.copy(this.own, this.ownLength);
		this.ownLength += record.length;
		this.batchBytes += record.length;
	}

	/**
	 * Make room for `bytes` more in the own buffer: flush the batch when they do not fit (its pieces
	 * are views of the own buffer), growing the buffer for a record larger than it.
	 */
	private reserve(bytes: number): void {
		if (this.ownLength + bytes <= this.own.length) return;
		this.flush();
		if (bytes > this.own.length) this.own = Buffer.allocUnsafe(bytes);
	}

	private warn(message: string): void {
		try {
			this.options.onWarning(message);
		} catch {
			// ignore
		}
	}
}

/**
 * Write `pieces` (`total` bytes) at `position` of `fd`, all of them (a short write goes on where it stopped).
 * @throws the write's error (ENOSPC, EFBIG, EIO…)
 */
function writeAll(fd: number, pieces: Uint8Array[], total: number, position: number): void {
	let written = pieces.length === 1 ? writeSync(fd, pieces[0]!, 0, total, position) : writevSync(fd, pieces, position);
	while (written < total) {
		// Drop the pieces written whole, cut the one written in part, go on.
		let skip = written;
		let first = 0;
		while (skip >= pieces[first]!.length) skip -= pieces[first++]!.length;
		const rest = [pieces[first]!.subarray(skip), ...pieces.slice(first + 1)];
		written += writevSync(fd, rest, position + written);
	}
}

function describe(error: unknown): string {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	const message = error instanceof Error ? error.message : String(error);
	return code !== undefined && !message.includes(code) ? `${code}: ${message}` : message;
}

const decoder = new TextDecoder();

function parseJson<T>(payload: Uint8Array): T | undefined {
	try {
		return JSON.parse(decoder.decode(payload)) as T;
	} catch {
		return undefined;
	}
}

/** The worker's main loop: open, then drain the ring until the close entry, then finish. */
async function runWorker(config: CaptureWorkerConfig): Promise<void> {
	const post = (message: CaptureWorkerMessage): void => parentPort?.postMessage(message);
	const sink = new CaptureSink({
		path: path.resolve(config.path),
		...(config.privateDir === undefined ? {} : {privateDir: config.privateDir}),
		...(config.prune === undefined ? {} : {prune: config.prune}),
		...(config.socket === undefined ? {} : {socket: config.socket}),
		lingerMs: config.lingerMs,
		onWarning: (message) => post({type: 'warning', message}),
		progress: new Float64Array(config.progress),
	});
	const consumer = new RingConsumer(config.memory);
	await sink.open();
	post({type: 'ready', path: config.path, socket: sink.socket});
	let isClosed = false;
	let idle = 0;
	while (!isClosed) {
		const count = consumer.drain((entry) => {
			if (entry.kind === ENTRY.close) isClosed = true;
			return sink.entry(entry);
		});
		// Write what is left, then give its ring space back (the sink wrote chunks from the ring itself).
		sink.flush();
		consumer.release();
		if (isClosed) {
			if (sink.hasWrittenEnd) post({type: 'ended'});
			break;
		}

		// Traffic: nap and drain in batches (no wake-up per chunk). Idle: park until the next entry.
		idle = count > 0 ? 0 : idle + 1;
		await consumer.waitForData(idle < IDLE_NAPS ? NAP_MS : undefined);
	}

	await sink.finish();
}

/*
 * The worker runs at the process's own priority. It used to lower its own (nice 10, per thread on
 * Linux) so that forwarding would win on busy CPUs, but a niced writer starves on a loaded machine:
 * bench:tap on a busy 2-core machine, 1 KiB lines at ~40 MB/s, left 4 of 6 captures with gaps at the
 * lag limit. A thread cannot raise its priority back without privilege, so it is not lowered at all;
 * the writer's work per byte is a memcpy and a write (format 2), small next to forwarding's.
 */

if (!isMainThread && (workerData as Partial<CaptureWorkerConfig> | undefined)?.kind === 'mcp-wire-capture-worker') {
	// Keep the thread alive while it waits on the ring (Atomics.waitAsync alone does not hold the loop).
	const keepAlive = setInterval(() => undefined, 1 << 30);
	runWorker(workerData as CaptureWorkerConfig)
		.catch((error: unknown) =>
			parentPort?.postMessage({
				type: 'warning',
				message: `capture worker: ${describe(error)}`,
			} satisfies CaptureWorkerMessage),
		)
		.finally(() => {
			clearInterval(keepAlive);
			parentPort?.postMessage({type: 'done'} satisfies CaptureWorkerMessage);
		});
}
