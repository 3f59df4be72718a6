import {closeSync, fchmodSync, ftruncateSync, writeSync} from 'node:fs';
import path from 'node:path';
import {Worker} from 'node:worker_threads';
import {
	encodeCaptureStart,
	encodeEndRecord,
	encodeGapRecord,
	type CaptureStalls,
} from '../core/capture/binary-codec.js';
import type {CaptureGapReason, ExitInfo, Mark, SessionMeta, StreamName} from '../core/types.js';
import {ensurePrivateDir, openCaptureFile, type PruneLimits} from '../captures/capture-store.js';
import {monotonicMs} from '../process/clock.js';
import {
	ARENA,
	createRing,
	DEFAULT_RING_BYTES,
	ENTRY,
	RING_RESERVE_BYTES,
	RingProducer,
	type EntryKind,
	type RingMemory,
} from './capture-ring.js';

/**
 * The tap's capture, main-thread side (docs/capture-format.md#format-2-binary). Forwarding hands each read to the capture
 * only after it has written it on, and that costs no copy when the read landed in the ring already
 * ({@link CaptureWriter.chunkAt}: a pipe read in place, see pass-through.ts) and one memcpy otherwise
 * ({@link CaptureWriter.chunk}); neither allocates or posts a message. A worker thread
 * (capture-writer-worker.ts) drains the ring (capture-ring.ts), appends binary records (binary-codec.ts:
 * the raw bytes behind a 24-byte head) to the capture file and serves live attach sockets.
 *
 * When the worker falls a whole arena behind on a stream (a writer thread kept off the CPU on a loaded
 * machine: measured 100–600 ms while forwarding ran at 300–500 MB/s), a read that does not fit is
 * still forwarded at once, but the writer keeps it and tells the caller to stop READING that source
 * (the chunk calls return false) until the writer made room, at most {@link CaptureWriterOptions.waitMs}
 * per wait (`tap --capture-wait`, default {@link DEFAULT_CAPTURE_WAIT_MS}): the source then blocks on
 * its full pipe, as it would behind a relay whose file write blocks. When the wait runs out, that read
 * becomes a gap record of its exact bytes, the stream stops waiting until one of its reads is recorded
 * again, and reads that do not fit meanwhile are not recorded either (gap records say which bytes are
 * missing: docs/capture-format.md#gaps-and-incomplete-captures); forwarding goes on. With `waitMs` 0 nothing waits:
 * reads that do not fit are not recorded at once. Each wait is counted in the end record (`stalls`).
 * The file and its header are written here, synchronously, before anything else; at close the writer
 * gets time to drain, and when it cannot finish, the rest is recorded as a gap here.
 */

/**
 * Default of {@link CaptureWriterOptions.waitMs} (`tap --capture-wait`), ms: longer than the 100–600 ms a
 * capture writer thread was measured runnable but off the CPU on a loaded 2-core machine (bench:tap,
 * 1 GiB stream, /proc/thread-self/schedstat), short enough that a writer stuck for good (a hung disk)
 * costs a client one visible pause, not a hang.
 */
export const DEFAULT_CAPTURE_WAIT_MS = 2000;
/** How often a waiting read is tried again (ms). */
const RETRY_MS = 2;

/** Float64 words of the shared progress block: what the capture file holds, written by the worker after each write. */
export const PROGRESS = {offsets: 0, recorded: 3, missing: 6, gaps: 9, failed: 10, size: 11, words: 12} as const;

/** The close entry's payload: bytes forwarded per stream (the worker records a gap for what it has not covered). */
export interface CaptureClose {
	readonly forwarded: Readonly<Record<StreamName, number>>;
	/** The waits for the capture, for the end record (absent: none). */
	readonly stalls?: CaptureStalls;
}

/** What the worker needs to start (sent as `workerData`). */
export interface CaptureWorkerConfig {
	readonly kind: 'mcp-wire-capture-worker';
	readonly memory: RingMemory;
	/** {@link PROGRESS} words (Float64). */
	readonly progress: SharedArrayBuffer;
	/** The capture file (made by the main thread; its fd comes with the header entry). */
	readonly path: string;
	/** Create this directory 0700 first (the default capture directory), and prune it. */
	readonly privateDir?: string;
	readonly prune?: PruneLimits;
	/** Serve live attach clients on this Unix socket / named pipe (its directory is made 0700 first). */
	readonly socket?: {readonly address: string; readonly dir?: string};
	/** How long the worker lets attached clients catch up after the session ended (ms). */
	readonly lingerMs: number;
}

/** Messages the worker posts to the main thread. */
export type CaptureWorkerMessage =
	| {readonly type: 'warning'; readonly message: string}
	| {readonly type: 'ready'; readonly path: string | undefined; readonly socket: string | undefined}
	| {readonly type: 'ended'}
	| {readonly type: 'done'};

/** Options of {@link CaptureWriter.start}. */
export interface CaptureWriterOptions {
	readonly path: string;
	readonly privateDir?: string;
	readonly prune?: PruneLimits;
	readonly socket?: {readonly address: string; readonly dir?: string};
	/**
	 * How far (bytes) the capture may fall behind forwarding on one stream before reads go unrecorded (a
	 * gap): the size of the stdin and stdout arenas (default {@link DEFAULT_RING_BYTES}).
	 */
	readonly ringBytes?: number;
	/** Called with one line (no newline) per problem: disk full, socket error, ring overflow. */
	readonly onWarning: (message: string) => void;
	/** The worker module (default: capture-writer-worker.js next to this file). */
	readonly workerUrl?: URL;
	/** ms attached clients get to catch up at the end (default 1000). */
	readonly lingerMs?: number;
	/**
	 * How long a source may be kept from reading while the capture has no room for its last read (ms,
	 * per wait; default {@link DEFAULT_CAPTURE_WAIT_MS}; 0: never wait, drop at once).
	 */
	readonly waitMs?: number;
	/** The clock waits are measured with (ms; default {@link monotonicMs}: `process.hrtime` in ms). */
	readonly now?: () => number;
}

const encoder = new TextEncoder();

/** The longest {@link CaptureWriter.close} waits for a writer that keeps writing (ms). */
export const CLOSE_LIMIT_MS = 60_000;

function describeError(error: unknown): string {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	const message = error instanceof Error ? error.message : String(error);
	return code !== undefined && !message.includes(code) ? `${code}: ${message}` : message;
}

/** An entry waiting on the main thread for ring space, in order: a control entry, or a read that did not fit. */
interface HeldEntry {
	readonly kind: EntryKind;
	/** The stream a gap or chunk entry is about (control entries: stdout, unused). */
	readonly stream?: StreamName;
	readonly tMs: number;
	readonly payload: Uint8Array;
	/** A chunk: when its wait started (ms, `now`), and what resumes its source once it is recorded or given up. */
	readonly since?: number;
	readonly resume?: (() => void) | undefined;
}

/** Control records live in the stderr arena (small, rare). */
const CONTROL_ARENA = ARENA.stderr;

/**
 * The main-thread handle of a capture: cheap, never-throwing calls in the order events happened.
 * Every failure (worker crash, ring overflow) becomes one warning through `onWarning`, and later calls
 * record nothing; forwarding is never affected. The only thing the capture holds back is the next
 * read of a source whose last read it had no room for (the chunk calls return false), for at most
 * {@link CaptureWriterOptions.waitMs} each time; a writer that stops or fails resumes them at once.
 */
export class CaptureWriter {
	/** The capture file path. */
	readonly path: string;
	/** The ring's writing end: pass-through.ts reads pipes straight into it (see {@link chunkAt}). */
	readonly ring: RingProducer;
	private readonly worker: Worker | undefined;
	private readonly onWarning: (message: string) => void;
	private isDisabled = false;
	private isClosed = false;
	/** The capture file's fd (made in {@link header}); closed by {@link close}. */
	private fd: number | undefined;
	private readonly privateDir: string | undefined;
	private readonly progress: Float64Array;
	/** Bytes forwarded per stream (every chunk call), and bytes not recorded yet to be told as a gap. */
	private readonly forwarded: Record<StreamName, number> = {stdin: 0, stdout: 0, stderr: 0};
	private readonly dropped: Record<StreamName, number> = {stdin: 0, stdout: 0, stderr: 0};
	private droppedAt: Record<StreamName, number> = {stdin: 0, stdout: 0, stderr: 0};
	private hasWarnedLag = false;
	private readonly done: Promise<void>;
	private socketAddress: string | undefined;
	/** Control entries that did not fit yet (only ever after the chunks stopped: order is kept). */
	private held: HeldEntry[] = [];
	private heldTimer: NodeJS.Timeout | undefined;
	/** The wait limit per read (ms; 0: no waits) and its clock. */
	private readonly waitMs: number;
	private readonly now: () => number;
	/** Per stream: a wait ran out, so reads are not waited for until one of them is recorded again. */
	private readonly isWaitOver: Record<StreamName, boolean> = {stdin: false, stdout: false, stderr: false};
	/** Waits so far (durations in ms, not rounded). */
	private readonly stallCount = {count: 0, totalMs: 0, longestMs: 0, timedOut: 0};
	/** After close started: reads are not waited for any more. */
	private isClosing = false;

	private constructor(options: CaptureWriterOptions) {
		this.path = options.path;
		this.waitMs = Math.max(0, options.waitMs ?? DEFAULT_CAPTURE_WAIT_MS);
		this.now = options.now ?? monotonicMs;
		this.privateDir = options.privateDir;
		this.onWarning = options.onWarning;
		const memory = createRing(options.ringBytes ?? DEFAULT_RING_BYTES);
		this.ring = new RingProducer(memory);
		const progress = new SharedArrayBuffer(PROGRESS.words * 8);
		this.progress = new Float64Array(progress);
		const config: CaptureWorkerConfig = {
			kind: 'mcp-wire-capture-worker',
			memory,
			progress,
			path: options.path,
			...(options.privateDir === undefined ? {} : {privateDir: options.privateDir}),
			...(options.prune === undefined ? {} : {prune: options.prune}),
			...(options.socket === undefined ? {} : {socket: options.socket}),
			lingerMs: options.lingerMs ?? 1000,
		};
		let resolveDone!: () => void;
		this.done = new Promise<void>((resolve) => {
			resolveDone = resolve;
		});
		const stop = (): void => {
			this.isDisabled = true;
			this.ring.consumerGone();
			// Nothing will be recorded: sources waiting for room read on.
			this.releaseAll();
			resolveDone();
		};

		let worker: Worker | undefined;
		try {
			worker = new Worker(options.workerUrl ?? new URL('capture-writer-worker.js', import.meta.url), {
				workerData: config,
				// The worker never writes to stdout (the MCP wire); its stdout is discarded, its stderr kept apart.
				stdout: true,
				stderr: true,
				// Small heaps: the worker keeps nothing; a small young generation keeps peak RSS down.
				resourceLimits: {maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8},
			});
		} catch (error) {
			this.warn(`capture disabled: cannot start the capture worker (${(error as Error).message})`);
			stop();
		}

		this.worker = worker;
		if (worker) {
			worker.unref();
			worker.stdout.resume();
			worker.stderr.resume();
			worker.on('message', (message: CaptureWorkerMessage) => {
				if (message.type === 'warning') this.warn(message.message);
				else if (message.type === 'ready') this.socketAddress = message.socket;
				else if (message.type === 'ended') this.workerEnded = true;
				else if (message.type === 'done') resolveDone();
			});
			worker.on('error', (error) => {
				this.warn(`capture stopped: the capture worker failed (${error.message})`);
				stop();
			});
			worker.on('exit', stop);
		}
	}

	/**
	 * Start a capture worker: it creates the file (0600), prunes old captures and opens the live socket
	 * while the caller spawns the server; {@link header} then gives it the first record. Entries written
	 * while it boots wait in the ring. Never throws: a worker that cannot start is one warning and a
	 * disabled writer.
	 */
	static start(options: CaptureWriterOptions): CaptureWriter {
		return new CaptureWriter(options);
	}

	/** The live socket address once the worker listens on it (undefined before, or when it could not). */
	get socket(): string | undefined {
		return this.socketAddress;
	}

	/** Whether chunks are still recorded (false after a worker failure, a file that could not be made, or close). */
	get isRecording(): boolean {
		return !this.isDisabled && !this.isClosed;
	}

	/** Bytes forwarded and not recorded so far, per stream (gap records mark them in the file). */
	get missingBytes(): Readonly<Record<StreamName, number>> {
		return {...this.droppedTotal};
	}

	private readonly droppedTotal: Record<StreamName, number> = {stdin: 0, stdout: 0, stderr: 0};

	/**
	 * Record bytes that crossed `stream` at `tMs` (ms on the session clock) by copying them into the ring:
	 * for streams not read in place (a terminal, a file, the server's stderr). When they do not fit and
	 * `resume` is given (and waits are on, and this stream's last wait did not run out), the writer keeps
	 * `bytes` (they must not change afterwards) and returns false: the caller stops reading the source
	 * until `resume` is called (once: when the bytes are recorded, or after the wait limit, when they
	 * become a gap). Otherwise bytes that do not fit become part of a gap (one warning per session).
	 * @returns true when the caller may read on at once
	 */
	chunk(stream: StreamName, tMs: number, bytes: Uint8Array, resume?: () => void): boolean {
		this.forwarded[stream] += bytes.length;
		if (!this.isRecording) return true;
		// A held entry must stay ahead of later chunks: while one waits, chunks cannot be recorded.
		// After dropped bytes, the gap is told only once the chunk fits too (one gap per stretch, not one per read).
		if (this.held.length > 0) this.flushHeld();
		if (this.held.length === 0) {
			const fits =
				this.dropped[stream] === 0 || this.ring.reserve(ARENA[stream], bytes.length, RING_RESERVE_BYTES) >= 0;
			if (fits && this.tellGap(stream) && this.ring.append(ENTRY.chunk, stream, ARENA[stream], tMs, bytes)) {
				this.isWaitOver[stream] = false;
				return true;
			}
		}

		return this.wait(stream, tMs, bytes, bytes.length, resume);
	}

	/**
	 * Record `length` bytes that were read in place at `position` of `stream`'s arena (from
	 * `ring.reserve`; the caller already forwarded them). Costs no copy. When they cannot be recorded,
	 * the space is only taken (the bytes may still be in flight to their target) and, as in
	 * {@link chunk}, a copy waits for room (false: stop reading until `resume`) or they become a gap.
	 * @returns true when the caller may read on at once
	 */
	chunkAt(stream: StreamName, tMs: number, position: number, length: number, resume?: () => void): boolean {
		this.forwarded[stream] += length;
		const arena = ARENA[stream];
		if (this.held.length > 0) this.flushHeld();
		if (
			this.isRecording &&
			this.held.length === 0 &&
			this.tellGap(stream) &&
			this.ring.commit(ENTRY.chunk, stream, arena, tMs, position, length)
		) {
			this.isWaitOver[stream] = false;
			return true;
		}

		const bytes =
			this.isRecording && this.canWait(stream, resume)
				? Buffer.from(this.ring.view(arena, position, length))
				: undefined;
		this.ring.claim(arena, position, length);
		return this.isRecording ? this.wait(stream, tMs, bytes, length, resume) : true;
	}

	/** The waits for the capture so far (ms rounded; a wait still going counts up to now). */
	get stalls(): CaptureStalls {
		const {count, totalMs, longestMs, timedOut} = this.stallCount;
		let total = totalMs;
		let longest = longestMs;
		let open = 0;
		const now = this.now();
		for (const entry of this.held) {
			if (entry.since === undefined) continue;
			open++;
			total += now - entry.since;
			longest = Math.max(longest, now - entry.since);
		}

		return {count: count + open, totalMs: Math.round(total), longestMs: Math.round(longest), timedOut};
	}

	/** Whether a read of `stream` that does not fit may wait for room (else it is dropped at once). */
	private canWait(stream: StreamName, resume: (() => void) | undefined): boolean {
		return resume !== undefined && this.waitMs > 0 && !this.isWaitOver[stream] && !this.isClosing;
	}

	/**
	 * A read of `stream` that could not be recorded now: keep `bytes` behind the held entries and have the
	 * caller pause its source (false), or, when it may not wait, drop it (a gap).
	 */
	private wait(
		stream: StreamName,
		tMs: number,
		bytes: Uint8Array | undefined,
		length: number,
		resume: (() => void) | undefined,
	): boolean {
		if (bytes === undefined || !this.canWait(stream, resume)) {
			this.drop(stream, tMs, length);
			return true;
		}

		// Tried again from a timer, never from here: `resume` must not run before the caller paused its source.
		this.held.push({kind: ENTRY.chunk, stream, tMs, payload: bytes, since: this.now(), resume});
		this.scheduleFlush();
		return false;
	}

	/**
	 * Create the capture file (mode 0600; its directory 0700 when it is the default capture directory)
	 * and write its start, the magic line and the `session` header, synchronously: a capture always has
	 * its header. Call it once, before any other record. When the file cannot be made: one warning, and
	 * nothing is recorded.
	 */
	header(meta: SessionMeta): void {
		if (this.isDisabled || this.isClosed || this.fd !== undefined) return;
		let fd: number | undefined;
		let size = 0;
		try {
			if (this.privateDir !== undefined) ensurePrivateDir(this.privateDir);
			fd = openCaptureFile(this.path, {
				exclusive:
					this.privateDir !== undefined && path.dirname(path.resolve(this.path)) === path.resolve(this.privateDir),
			});
			if (process.platform !== 'win32') fchmodSync(fd, 0o600);
			const start = encodeCaptureStart(meta);
			for (let at = 0; at < start.length;) at += writeSync(fd, start, at, start.length - at, at);
			size = start.length;
		} catch (error) {
			if (fd !== undefined) {
				try {
					closeSync(fd);
				} catch {
					// ignore
				}
			}

			this.warn(`capture disabled: cannot create ${this.path} (${describeError(error)}); forwarding goes on`);
			this.disable();
			return;
		}

		this.fd = fd;
		this.progress[PROGRESS.size] = size;
		this.hold({kind: ENTRY.header, tMs: 0, payload: encoder.encode(JSON.stringify({fd, size}))});
	}

	/** Record a process mark (stdin-closed, eof, a phase note). */
	mark(mark: Mark): void {
		this.control(ENTRY.mark, mark.tMs, mark);
	}

	/** Record how the server ended. */
	exit(info: ExitInfo): void {
		this.control(ENTRY.exit, info.tMs, info);
	}

	/**
	 * Finish: the worker writes what is left (a gap for anything it could not record, then the end
	 * record), lets attached clients catch up (up to `lingerMs`) and exits. The worker gets as long as
	 * it keeps writing, up to {@link CLOSE_LIMIT_MS}; after `idleMs` without progress (or that limit) it
	 * is terminated, and what it had not written is recorded here as a `writer-timeout` gap with the end
	 * record. Never rejects.
	 * @param idleMs how long the writer may go without writing anything (ms)
	 */
	async close(idleMs = 3000): Promise<void> {
		if (this.isClosed) return this.done;
		const started = Date.now();
		this.isClosing = true;
		if (!this.isDisabled && this.fd !== undefined) {
			// Reads still waiting go first (recorded, or a gap when their wait runs out), so the end record counts every wait.
			while (
				this.held.some((entry) => entry.since !== undefined) &&
				!this.isDisabled &&
				Date.now() - started < idleMs
			) {
				await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
				this.flushHeld();
			}

			this.holdGaps();
			const stalls = this.stalls;
			this.hold({
				kind: ENTRY.close,
				tMs: this.lastTMs,
				payload: encoder.encode(
					JSON.stringify({forwarded: this.forwarded, ...(stalls.count === 0 ? {} : {stalls})} satisfies CaptureClose),
				),
			});
			this.isClosed = true;
			while (this.held.length > 0 && !this.isDisabled && Date.now() - started < idleMs) {
				await new Promise((resolve) => setTimeout(resolve, 2));
				this.flushHeld();
			}
		}

		this.isClosed = true;
		let isDone = this.isDisabled && this.worker === undefined;
		void this.done.then(() => {
			isDone = true;
		});
		let lastSize = this.progress[PROGRESS.size]!;
		let lastProgress = Date.now();
		while (!isDone) {
			await Promise.race([this.done, new Promise((resolve) => setTimeout(resolve, 20))]);
			const size = this.progress[PROGRESS.size]!;
			if (size !== lastSize) {
				lastSize = size;
				lastProgress = Date.now();
			}

			if (isDone || Date.now() - lastProgress > idleMs || Date.now() - started > CLOSE_LIMIT_MS) break;
		}

		const hasTimedOut = !isDone;
		await this.worker?.terminate().catch(() => undefined);
		// The worker wrote its end record unless it was stopped or failed: finish the file here then.
		if (!this.hasEnd()) this.finishFile(hasTimedOut ? 'writer-timeout' : 'writer-failed');
		if (this.fd !== undefined) {
			try {
				closeSync(this.fd);
			} catch {
				// ignore
			}

			this.fd = undefined;
		}

		this.releaseAll();
		const stalls = this.stalls;
		if (stalls.count > 0) {
			const over = stalls.timedOut === 0 ? '' : `; ${stalls.timedOut} ran out, their reads are in gap records`;
			this.warn(
				`reading paused ${stalls.count} time${stalls.count === 1 ? '' : 's'} for the capture to catch up (${stalls.totalMs} ms in all, longest ${stalls.longestMs} ms; --capture-wait ${this.waitMs} ms each at most${over}) (${this.path})`,
			);
		}

		const missing = Object.entries(this.lastMissing).filter(([, n]) => n > 0);
		if (missing.length > 0)
			this.warn(
				`the capture is incomplete: ${missing.map(([stream, n]) => `${n} bytes of ${stream}`).join(' and ')} not recorded (gap records mark them) (${this.path})`,
			);
	}

	/** Missing bytes per stream as the file's end record says (set by {@link hasEnd} / {@link finishFile}). */
	private lastMissing: Record<StreamName, number> = {stdin: 0, stdout: 0, stderr: 0};

	/** Whether the worker wrote the end record (it says so before it exits). */
	private hasEnd(): boolean {
		if (this.fd === undefined) return true;
		if (!this.workerEnded) return false;
		const p = this.progress;
		this.lastMissing = {
			stdin: p[PROGRESS.missing]!,
			stdout: p[PROGRESS.missing + 1]!,
			stderr: p[PROGRESS.missing + 2]!,
		};
		return true;
	}

	/**
	 * The session time of the last event given to the writer (ms; the tap records the exit or a
	 * spawn-failed finding just before it closes): the time of the close and of its gaps. Not updated per
	 * chunk, to keep the forwarding path as it was.
	 */
	private lastTMs = 0;

	/** Set when the worker said it wrote the end record. */
	private workerEnded = false;

	/**
	 * The worker could not finish: cut the file to what it wrote last (a record boundary), add a gap per
	 * stream for the rest and the end record. A failure here leaves the file without an end record: a
	 * reader then says it was cut short.
	 */
	private finishFile(reason: CaptureGapReason): void {
		const fd = this.fd;
		if (fd === undefined) return;
		const p = this.progress;
		const streams = ['stdin', 'stdout', 'stderr'] as const;
		const size = p[PROGRESS.size]!;
		const recorded = {
			stdin: p[PROGRESS.recorded]!,
			stdout: p[PROGRESS.recorded + 1]!,
			stderr: p[PROGRESS.recorded + 2]!,
		};
		const missing = {stdin: p[PROGRESS.missing]!, stdout: p[PROGRESS.missing + 1]!, stderr: p[PROGRESS.missing + 2]!};
		let gaps = p[PROGRESS.gaps]!;
		const records: Buffer[] = [];
		// The gaps run from the first byte not written to the end: dated at the last event seen (the exit),
		// when the writer gave up on them (the time the write first failed is not known here).
		const tMs = this.lastTMs;
		for (const [i, stream] of streams.entries()) {
			const offset = p[PROGRESS.offsets + i]!;
			const length = this.forwarded[stream] - offset;
			if (length <= 0) continue;
			records.push(
				encodeGapRecord({stream, offset, length, reason: p[PROGRESS.failed] === 1 ? 'write-failed' : reason, tMs}),
			);
			missing[stream] += length;
			gaps++;
		}

		const stalls = this.stalls;
		records.push(
			encodeEndRecord({complete: gaps === 0, recorded, missing, gaps, ...(stalls.count === 0 ? {} : {stalls})}, tMs),
		);
		this.lastMissing = missing;
		const bytes = Buffer.concat(records);
		try {
			ftruncateSync(fd, size);
			for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at, size + at);
		} catch (error) {
			this.warn(
				`the capture could not be finished (${describeError(error)}): it ends without its end record (${this.path})`,
			);
			try {
				ftruncateSync(fd, size);
			} catch {
				// nothing more to do
			}
		}
	}

	/** The capture is off for good (no file, or the worker failed): later calls record nothing. */
	private disable(): void {
		this.isDisabled = true;
		this.releaseAll();
		void this.worker?.terminate().catch(() => undefined);
	}

	/** Bytes that were forwarded but not recorded: told to the worker as a gap before the next recorded chunk. */
	private drop(stream: StreamName, tMs: number, length: number): void {
		if (this.dropped[stream] === 0) this.droppedAt[stream] = tMs;
		this.dropped[stream] += length;
		this.droppedTotal[stream] += length;
		this.warnLag(stream);
	}

	/** The first time bytes of `stream` go unrecorded: one warning. */
	private warnLag(stream: StreamName): void {
		if (!this.hasWarnedLag) {
			this.hasWarnedLag = true;
			const waited =
				this.waitMs > 0 && this.isWaitOver[stream]
					? ` and did not catch up within --capture-wait ${this.waitMs} ms`
					: '';
			this.warn(
				`the capture fell ${this.ring.pendingBytes} bytes behind forwarding (MCP_WIRE_CAPTURE_LAG_MB)${waited}; reads it has no room for are not recorded (a gap record marks them) until it catches up; forwarding goes on (${this.path})`,
			);
		}
	}

	/** Queue a gap entry for every stream with bytes not yet told (before a control entry, and at close: in time order). */
	private holdGaps(): void {
		for (const stream of ['stdin', 'stdout', 'stderr'] as const) {
			const length = this.dropped[stream];
			if (length === 0) continue;
			this.dropped[stream] = 0;
			this.hold({
				kind: ENTRY.gap,
				stream,
				tMs: this.droppedAt[stream],
				payload: encoder.encode(JSON.stringify({length, reason: 'lag'})),
			});
		}
	}

	/**
	 * Before a chunk of `stream` is recorded after dropped ones: put the gap entry in the ring first.
	 * @returns false when the gap entry does not fit now (the chunk is then dropped too)
	 */
	private tellGap(stream: StreamName): boolean {
		const length = this.dropped[stream];
		if (length === 0) return true;
		// Room for the gap and the chunk's descriptor, keeping the control reserve for marks and the end.
		if (
			!this.ring.append(
				ENTRY.gap,
				stream,
				CONTROL_ARENA,
				this.droppedAt[stream],
				encoder.encode(JSON.stringify({length, reason: 'lag'})),
			)
		)
			return false;
		this.dropped[stream] = 0;
		return true;
	}

	private control(kind: EntryKind, tMs: number, value: unknown): void {
		this.lastTMs = Math.max(this.lastTMs, tMs);
		if (this.isDisabled || this.isClosed || this.fd === undefined) return;
		this.holdGaps();
		this.hold({kind, tMs, payload: encoder.encode(JSON.stringify(value))});
	}

	/** Queue a control entry behind those already held (or write it at once when none are), keeping order. */
	private hold(entry: HeldEntry): void {
		this.held.push(entry);
		this.flushHeld();
	}

	/**
	 * Move held entries into the ring, in order, while they fit; retry shortly when some remain. A held
	 * read goes in once it fits and its arena is at most half full (so its source, resumed, has room to
	 * read on rather than stop again at once); a read whose wait reached the limit becomes a gap entry
	 * of its exact length in its place. Sources are resumed once their read left the queue.
	 */
	private flushHeld(): void {
		let count = 0;
		const resumes: (() => void)[] = [];
		const now = this.held.some((entry) => entry.since !== undefined) ? this.now() : 0;
		for (let i = 0; i < this.held.length; i++) {
			const entry = this.held[i]!;
			if (entry.since !== undefined) {
				const stream = entry.stream ?? 'stdout';
				const arena = ARENA[stream];
				const isRoom =
					this.ring.consumerLag(arena) <= this.ring.arenaSize(arena) / 2 &&
					this.ring.append(ENTRY.chunk, stream, arena, entry.tMs, entry.payload);
				const isOver = !isRoom && now - entry.since >= this.waitMs;
				if (!isRoom && !isOver) break;
				this.endStall(now - entry.since, isOver);
				if (entry.resume) resumes.push(entry.resume);
				if (isRoom) {
					this.isWaitOver[stream] = false;
					count++;
					continue;
				}

				// The wait ran out: its bytes are a gap, and this stream waits no more until a read is recorded.
				this.isWaitOver[stream] = true;
				this.droppedTotal[stream] += entry.payload.length;
				this.warnLag(stream);
				this.held[i] = {
					kind: ENTRY.gap,
					stream,
					tMs: entry.tMs,
					payload: encoder.encode(JSON.stringify({length: entry.payload.length, reason: 'lag'})),
				};
			}

			const control = this.held[i]!;
			if (
				!this.ring.append(control.kind, control.stream ?? 'stdout', CONTROL_ARENA, control.tMs, control.payload, true)
			)
				break;
			count++;
		}

		if (count > 0) this.held = this.held.slice(count);
		for (const resume of resumes) resume();
		this.scheduleFlush();
	}

	/** Try the held entries again shortly, while there are any. */
	private scheduleFlush(): void {
		if (this.held.length === 0 || this.heldTimer !== undefined || this.isDisabled) return;
		this.heldTimer = setTimeout(() => {
			this.heldTimer = undefined;
			this.flushHeld();
		}, RETRY_MS);
		this.heldTimer.unref();
	}

	/** One wait ended after `ms` (recorded, or `isOver`: given up as a gap). */
	private endStall(ms: number, isOver: boolean): void {
		const counts = this.stallCount;
		counts.count++;
		counts.totalMs += ms;
		counts.longestMs = Math.max(counts.longestMs, ms);
		if (isOver) counts.timedOut++;
	}

	/** Resume every source still waiting (the capture stopped or closed: nothing will be recorded for them). */
	private releaseAll(): void {
		const waiting = this.held.filter((entry) => entry.since !== undefined && entry.resume !== undefined);
		if (waiting.length === 0) return;
		const now = this.now();
		this.held = this.held.map((entry) => {
			if (entry.since === undefined) return entry;
			const stream = entry.stream ?? 'stdout';
			this.droppedTotal[stream] += entry.payload.length;
			return {
				kind: ENTRY.gap,
				stream,
				tMs: entry.tMs,
				payload: encoder.encode(JSON.stringify({length: entry.payload.length, reason: 'lag'})),
			};
		});
		for (const entry of waiting) {
			this.endStall(now - entry.since!, false);
			entry.resume!();
		}
	}

	protected warn(message: string): void {
		try {
			this.onWarning(message);
		} catch {
			// a failing warning sink must not break forwarding either
		}
	}
}
