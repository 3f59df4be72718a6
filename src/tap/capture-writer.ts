import {Worker} from 'node:worker_threads';
import type {ExitInfo, FindingDraft, Mark, SessionMeta, StreamName} from '../core/types.js';
import type {PruneLimits} from './capture-store.js';
import {ARENA, createRing, DEFAULT_RING_BYTES, ENTRY, RingProducer, type EntryKind, type RingMemory} from './capture-ring.js';

/**
 * The tap's capture, main-thread side (issue 3 items 1–2). Forwarding hands each read to the capture
 * only after it has written it on, and that costs no copy when the read landed in the ring already
 * ({@link CaptureWriter.chunkAt}: a pipe read in place, see pass-through.ts) and one memcpy otherwise
 * ({@link CaptureWriter.chunk}); neither allocates or posts a message. A worker thread
 * (capture-writer-worker.ts) drains the ring (capture-ring.ts), encodes NDJSON records with the record
 * codec (base64 chunks), appends them to the capture file and serves live attach sockets. So inspection
 * never slows or blocks forwarding: when the worker falls a whole arena behind on a stream, recording
 * stops (one warning on stderr) and forwarding goes on.
 */

/** What the worker needs to start (sent as `workerData`). */
export interface CaptureWorkerConfig {
	readonly kind: 'mcp-wire-capture-worker';
	readonly memory: RingMemory;
	/** The capture file to write (created 0600; truncated when it exists). */
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
	| {readonly type: 'done'};

/** Options of {@link CaptureWriter.start}. */
export interface CaptureWriterOptions {
	readonly path: string;
	readonly privateDir?: string;
	readonly prune?: PruneLimits;
	readonly socket?: {readonly address: string; readonly dir?: string};
	/**
	 * How far (bytes) the capture may fall behind forwarding on one stream before recording stops: the
	 * size of the stdin and stdout arenas (default {@link DEFAULT_RING_BYTES}).
	 */
	readonly ringBytes?: number;
	/** Called with one line (no newline) per problem: disk full, socket error, ring overflow. */
	readonly onWarning: (message: string) => void;
	/** The worker module (default: capture-writer-worker.js next to this file). */
	readonly workerUrl?: URL;
	/** ms attached clients get to catch up at the end (default 1000). */
	readonly lingerMs?: number;
}


const encoder = new TextEncoder();

/** A control entry waiting on the main thread for ring space, in order. */
interface HeldEntry {
	readonly kind: EntryKind;
	readonly tMs: number;
	readonly payload: Uint8Array;
}

/** Control records live in the stderr arena (small, rare). */
const CONTROL_ARENA = ARENA.stderr;

/**
 * The main-thread handle of a capture: cheap, never-throwing calls in the order events happened.
 * Every failure (worker crash, ring overflow) becomes one warning through `onWarning`, and later calls
 * record nothing; forwarding is never affected.
 */
export class CaptureWriter {
	/** The capture file path. */
	readonly path: string;
	/** The ring's writing end: pass-through.ts reads pipes straight into it (see {@link chunkAt}). */
	readonly ring: RingProducer;
	private readonly worker: Worker | undefined;
	private readonly onWarning: (message: string) => void;
	private isDisabled = false;
	private isOverflowed = false;
	private isClosed = false;
	private readonly done: Promise<void>;
	private socketAddress: string | undefined;
	/** Control entries that did not fit yet (only ever after the chunks stopped: order is kept). */
	private held: HeldEntry[] = [];
	private heldTimer: NodeJS.Timeout | undefined;

	private constructor(options: CaptureWriterOptions) {
		this.path = options.path;
		this.onWarning = options.onWarning;
		const memory = createRing(options.ringBytes ?? DEFAULT_RING_BYTES);
		this.ring = new RingProducer(memory);
		const config: CaptureWorkerConfig = {
			kind: 'mcp-wire-capture-worker',
			memory,
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

	/** Whether chunks are still recorded (false after a worker failure, an overflow, or close). */
	get isRecording(): boolean {
		return !this.isDisabled && !this.isOverflowed && !this.isClosed;
	}

	/**
	 * Record bytes that crossed `stream` at `tMs` (ms on the session clock) by copying them into the ring:
	 * for streams not read in place (a terminal, a file, the server's stderr). When they do not fit, the
	 * capture stops with one warning.
	 */
	chunk(stream: StreamName, tMs: number, bytes: Uint8Array): void {
		if (!this.isRecording) return;
		// A held control entry must stay ahead of later chunks: while one waits, chunks cannot be recorded.
		if (this.held.length === 0 && this.ring.append(ENTRY.chunk, stream, ARENA[stream], tMs, bytes)) return;
		this.overflow(stream, tMs, bytes.length);
	}

	/**
	 * Record `length` bytes that were read in place at `position` of `stream`'s arena (from
	 * `ring.reserve`; the caller already forwarded them). Costs no copy. When the capture is not
	 * recording, the space is only taken (the bytes may still be in flight to their target).
	 */
	chunkAt(stream: StreamName, tMs: number, position: number, length: number): void {
		const arena = ARENA[stream];
		if (this.isRecording && this.held.length === 0 && this.ring.commit(ENTRY.chunk, stream, arena, tMs, position, length)) return;
		this.ring.claim(arena, position, length);
		if (this.isRecording) this.overflow(stream, tMs, length);
	}

	/** Write the `session` header record. Call it once, before any other record. */
	header(meta: SessionMeta): void {
		this.control(ENTRY.header, 0, meta);
	}

	/** Record a process mark (stdin-closed, eof, a phase note). */
	mark(mark: Mark): void {
		this.control(ENTRY.mark, mark.tMs, mark);
	}

	/** Record a finding only the tap can observe (spawn-failed); it is kept on replay (`origin: 'probe'`). */
	finding(draft: FindingDraft): void {
		this.control(ENTRY.finding, draft.tMs, draft);
	}

	/** Record how the server ended. */
	exit(info: ExitInfo): void {
		this.control(ENTRY.exit, info.tMs, info);
	}

	/**
	 * Finish: the worker writes what is left, lets attached clients catch up (up to `lingerMs`) and
	 * exits. Resolves after at most `timeoutMs` (the worker is terminated then). Never rejects.
	 */
	async close(timeoutMs = 2000): Promise<void> {
		if (this.isClosed) return this.done;
		const deadline = Date.now() + timeoutMs;
		if (!this.isDisabled) {
			this.hold({kind: ENTRY.close, tMs: 0, payload: new Uint8Array(0)});
			this.isClosed = true;
			while (this.held.length > 0 && !this.isDisabled && Date.now() < deadline) {
				await new Promise((resolve) => setTimeout(resolve, 2));
				this.flushHeld();
			}
		}

		this.isClosed = true;
		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<'timeout'>((resolve) => {
			timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()));
		});
		const outcome = await Promise.race([this.done.then(() => 'done' as const), timeout]);
		clearTimeout(timer);
		if (outcome === 'timeout') this.warn(`capture writer did not finish within ${timeoutMs} ms; the capture may be incomplete (${this.path})`);
		await this.worker?.terminate().catch(() => undefined);
	}

	/** Stop recording chunks: one warning, and an overflow mark where the capture ends. */
	private overflow(stream: StreamName, tMs: number, droppedBytes: number): void {
		this.isOverflowed = true;
		const behind = this.ring.pendingBytes;
		this.hold({kind: ENTRY.overflow, tMs, payload: encoder.encode(JSON.stringify({stream, behindBytes: behind, droppedBytes}))});
		this.warn(`capture stopped: the capture writer fell ${behind} bytes behind; forwarding goes on, the capture ends here (${this.path})`);
	}

	private control(kind: EntryKind, tMs: number, value: unknown): void {
		if (this.isDisabled || this.isClosed) return;
		this.hold({kind, tMs, payload: encoder.encode(JSON.stringify(value))});
	}

	/** Queue a control entry behind those already held (or write it at once when none are), keeping order. */
	private hold(entry: HeldEntry): void {
		this.held.push(entry);
		this.flushHeld();
	}

	/** Move held entries into the ring while they fit; retry shortly when some remain. */
	private flushHeld(): void {
		let count = 0;
		for (const entry of this.held) {
			if (!this.ring.append(entry.kind, 'stdout', CONTROL_ARENA, entry.tMs, entry.payload, true)) break;
			count++;
		}

		if (count > 0) this.held = this.held.slice(count);
		if (this.held.length === 0 || this.heldTimer !== undefined || this.isDisabled) return;
		this.heldTimer = setTimeout(() => {
			this.heldTimer = undefined;
			this.flushHeld();
		}, 2);
		this.heldTimer.unref();
	}

	private warn(message: string): void {
		try {
			this.onWarning(message);
		} catch {
			// a failing warning sink must not break forwarding either
		}
	}
}
