import {Worker} from 'node:worker_threads';
import type {ExitInfo, FindingDraft, Mark, SessionMeta, StreamName} from '../core/types.js';
import type {PruneLimits} from './capture-store.js';

/**
 * The tap's capture, main-thread side (issue 3 items 1–2). Forwarding calls {@link CaptureWriter.chunk}
 * after it has written the bytes on; that call only copies them into a shared ring buffer (one memcpy,
 * no allocation, no message) and returns. A worker thread (capture-writer-worker.ts) drains the ring,
 * encodes NDJSON records with the record codec (base64 chunks), appends them to the capture file and
 * serves live attach sockets. So inspection never slows or blocks forwarding: when the worker falls
 * more than the ring's size behind, recording stops (one warning on stderr) and forwarding goes on.
 *
 * Ring entry layout (little-endian): `u32 payloadLength, u8 kind, u8 stream, u16 0, f64 tMs`, then the
 * payload (chunk bytes, or UTF-8 JSON for marks, exits and findings). Positions are byte counters that
 * only grow; `position % size` is the offset in the ring, and entries wrap around its end.
 */

/** Entry kinds in the ring. */
export const ENTRY = {chunk: 1, mark: 2, exit: 3, overflow: 4, finding: 5, close: 6, header: 7} as const;
/** An entry kind. */
export type EntryKind = (typeof ENTRY)[keyof typeof ENTRY];

const STREAM_CODES: readonly StreamName[] = ['stdin', 'stdout', 'stderr'];
const STREAM_CODE: Readonly<Record<StreamName, number>> = {stdin: 0, stdout: 1, stderr: 2};

/** Bytes of an entry header. */
export const ENTRY_HEADER_BYTES = 16;
/** Default ring size: how far (bytes) the capture may fall behind forwarding before recording stops. */
export const DEFAULT_RING_BYTES = 8 * 1024 * 1024;
/** Ring bytes kept free for control entries (marks, exit, close) once chunks no longer fit. */
export const RING_RESERVE_BYTES = 64 * 1024;
/**
 * Bytes of chunks held on the main thread (by reference, not copied) while the ring is full, e.g. while
 * the worker starts; beyond it recording stops. Ring + hold bound the capture's memory.
 */
export const DEFAULT_HOLD_BYTES = 8 * 1024 * 1024;

const HEAD = 0;
const TAIL = 1;
const SIGNAL = 0;
/**
 * The consumer's state word: 0 running, 1 parked until data comes, 2 sleeping until a timeout or until
 * {@link URGENT_BYTES} are pending. The producer only notifies (a syscall) when this asks for it.
 */
const WAITING = 1;
const PARKED = 1;
const NAPPING = 2;
/** Pending bytes at which a napping consumer is woken before its timeout. */
export const URGENT_BYTES = 1024 * 1024;

/** The shared memory of one ring: positions + signal word, and the data bytes. */
export interface RingMemory {
	readonly control: SharedArrayBuffer;
	readonly data: SharedArrayBuffer;
}

/**
 * Allocate a ring of `bytes` bytes (rounded up to a multiple of 8, at least 2 × the reserve).
 * @throws RangeError when `bytes` is not a positive finite number
 */
export function createRing(bytes: number = DEFAULT_RING_BYTES): RingMemory {
	if (!Number.isFinite(bytes) || bytes <= 0) throw new RangeError(`ring size must be positive, got ${bytes}`);
	const size = Math.max(2 * RING_RESERVE_BYTES, Math.ceil(bytes / 8) * 8);
	return {control: new SharedArrayBuffer(24), data: new SharedArrayBuffer(size)};
}

/** One entry as the consumer sees it. `payload` is only valid during the handler call (it may be ring memory). */
export interface RingEntry {
	readonly kind: EntryKind;
	readonly stream: StreamName;
	readonly tMs: number;
	readonly payload: Uint8Array;
}

/** The writing end of a ring (single producer). */
export class RingProducer {
	private readonly positions: BigInt64Array;
	private readonly signal: Int32Array;
	private readonly data: Uint8Array;
	private readonly header = new Uint8Array(ENTRY_HEADER_BYTES);
	private readonly headerView = new DataView(this.header.buffer);
	private head: number;

	constructor(memory: RingMemory) {
		this.positions = new BigInt64Array(memory.control, 0, 2);
		this.signal = new Int32Array(memory.control, 16, 2);
		this.data = new Uint8Array(memory.data);
		this.head = Number(Atomics.load(this.positions, HEAD));
	}

	/** Bytes written and not yet consumed. */
	get pendingBytes(): number {
		return this.head - Number(Atomics.load(this.positions, TAIL));
	}

	/**
	 * Append one entry and wake the consumer.
	 * @param useReserve allow the last {@link RING_RESERVE_BYTES} of free space (control entries)
	 * @returns false (and writes nothing) when it does not fit
	 */
	write(kind: EntryKind, stream: StreamName, tMs: number, payload: Uint8Array, useReserve = false): boolean {
		const size = this.data.length;
		const need = ENTRY_HEADER_BYTES + payload.length;
		const free = size - (this.head - Number(Atomics.load(this.positions, TAIL)));
		if (need > (useReserve ? free : free - RING_RESERVE_BYTES)) return false;
		this.headerView.setUint32(0, payload.length, true);
		this.headerView.setUint8(4, kind);
		this.headerView.setUint8(5, STREAM_CODE[stream]);
		this.headerView.setFloat64(8, tMs, true);
		this.copyIn(this.header, this.head);
		this.copyIn(payload, this.head + ENTRY_HEADER_BYTES);
		this.head += need;
		Atomics.store(this.positions, HEAD, BigInt(this.head));
		// No syscall on the hot path: a napping consumer wakes on its own timer and is only woken early
		// once a megabyte is pending (or at close); a parked (idle) one is woken by the first entry.
		const state = Atomics.load(this.signal, WAITING);
		if (state === PARKED || (state === NAPPING && (kind === ENTRY.close || size - free + need >= URGENT_BYTES))) {
			Atomics.store(this.signal, WAITING, 0);
			Atomics.add(this.signal, SIGNAL, 1);
			Atomics.notify(this.signal, SIGNAL);
		}

		return true;
	}

	private copyIn(source: Uint8Array, position: number): void {
		const size = this.data.length;
		const at = position % size;
		const first = Math.min(source.length, size - at);
		this.data.set(first === source.length ? source : source.subarray(0, first), at);
		if (first < source.length) this.data.set(source.subarray(first), 0);
	}
}

/** The reading end of a ring (single consumer, normally in the worker). */
export class RingConsumer {
	private readonly positions: BigInt64Array;
	private readonly signal: Int32Array;
	private readonly data: Uint8Array;
	private tail: number;

	constructor(memory: RingMemory) {
		this.positions = new BigInt64Array(memory.control, 0, 2);
		this.signal = new Int32Array(memory.control, 16, 2);
		this.data = new Uint8Array(memory.data);
		this.tail = Number(Atomics.load(this.positions, TAIL));
	}

	/** True when an entry is waiting. */
	get hasData(): boolean {
		return this.tail < Number(Atomics.load(this.positions, HEAD));
	}

	/**
	 * Hand every entry written so far to `handler`, in order, releasing its ring space after the handler
	 * returns (so the payload view stays valid during the call).
	 * @returns the number of entries consumed
	 */
	drain(handler: (entry: RingEntry) => void): number {
		const head = Number(Atomics.load(this.positions, HEAD));
		let count = 0;
		while (this.tail < head) {
			const header = this.copyOut(this.tail, ENTRY_HEADER_BYTES);
			const view = new DataView(header.buffer, header.byteOffset, ENTRY_HEADER_BYTES);
			const length = view.getUint32(0, true);
			const kind = view.getUint8(4) as EntryKind;
			const stream = STREAM_CODES[view.getUint8(5)] ?? 'stdout';
			const tMs = view.getFloat64(8, true);
			const payload = this.copyOut(this.tail + ENTRY_HEADER_BYTES, length);
			handler({kind, stream, tMs, payload});
			this.tail += ENTRY_HEADER_BYTES + length;
			Atomics.store(this.positions, TAIL, BigInt(this.tail));
			count++;
		}

		return count;
	}

	/** Bytes written and not yet consumed. */
	get pendingBytes(): number {
		return Number(Atomics.load(this.positions, HEAD)) - this.tail;
	}

	/**
	 * Without `napMs`: park until the producer writes (at once when data is already waiting). With it:
	 * sleep `napMs`, or less when {@link URGENT_BYTES} become pending (at once when they already are).
	 * The producer reads the state word and notifies only when it asks for it (see {@link RingProducer.write}).
	 */
	async waitForData(napMs?: number): Promise<void> {
		const seen = Atomics.load(this.signal, SIGNAL);
		Atomics.store(this.signal, WAITING, napMs === undefined ? PARKED : NAPPING);
		const pending = this.pendingBytes;
		if ((napMs === undefined && pending > 0) || pending >= URGENT_BYTES) {
			Atomics.store(this.signal, WAITING, 0);
			return;
		}

		const result = waitAsync(this.signal, SIGNAL, seen, napMs);
		if (result.async) await result.value;
		Atomics.store(this.signal, WAITING, 0);
	}

	/** A view of `length` bytes at `position` (a copy when the range wraps around the end). */
	private copyOut(position: number, length: number): Uint8Array {
		const size = this.data.length;
		const at = position % size;
		if (at + length <= size) return this.data.subarray(at, at + length);
		const out = new Uint8Array(length);
		const first = size - at;
		out.set(this.data.subarray(at, size), 0);
		out.set(this.data.subarray(0, length - first), first);
		return out;
	}
}

/** `Atomics.waitAsync` (ES2024; in Node since 16, missing from the ES2023 lib typings). */
const waitAsync = (Atomics as unknown as {
	waitAsync(array: Int32Array, index: number, value: number, timeoutMs?: number): {readonly async: false; readonly value: string} | {readonly async: true; readonly value: Promise<string>};
}).waitAsync;

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
	/** Ring size in bytes (default {@link DEFAULT_RING_BYTES}). */
	readonly ringBytes?: number;
	/** Main-thread hold limit in bytes (default {@link DEFAULT_HOLD_BYTES}). */
	readonly holdBytes?: number;
	/** Called with one line (no newline) per problem: disk full, socket error, ring overflow. */
	readonly onWarning: (message: string) => void;
	/** The worker module (default: capture-writer-worker.js next to this file). */
	readonly workerUrl?: URL;
	/** ms attached clients get to catch up at the end (default 1000). */
	readonly lingerMs?: number;
}

const encoder = new TextEncoder();

/** An entry waiting on the main thread for ring space, in order. */
interface HeldEntry {
	readonly kind: EntryKind;
	readonly stream: StreamName;
	readonly tMs: number;
	readonly payload: Uint8Array;
}

/**
 * The main-thread handle of a capture: cheap, never-throwing calls in the order events happened.
 * Every failure (worker crash, ring overflow) becomes one warning through `onWarning`, and later calls
 * become no-ops; forwarding is never affected.
 */
export class CaptureWriter {
	/** The capture file path. */
	readonly path: string;
	private readonly producer: RingProducer;
	private readonly worker: Worker | undefined;
	private readonly onWarning: (message: string) => void;
	private isDisabled = false;
	private isOverflowed = false;
	private isClosed = false;
	private readonly done: Promise<void>;
	private socketAddress: string | undefined;
	private readonly holdLimit: number;
	private held: HeldEntry[] = [];
	private heldHead = 0;
	private heldBytes = 0;
	private heldTimer: NodeJS.Timeout | undefined;

	private constructor(options: CaptureWriterOptions) {
		this.path = options.path;
		this.onWarning = options.onWarning;
		this.holdLimit = options.holdBytes ?? DEFAULT_HOLD_BYTES;
		const memory = createRing(options.ringBytes ?? DEFAULT_RING_BYTES);
		this.producer = new RingProducer(memory);
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
			this.isDisabled = true;
			resolveDone();
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
				this.isDisabled = true;
				resolveDone();
			});
			worker.on('exit', () => {
				this.isDisabled = true;
				resolveDone();
			});
		}
	}

	/**
	 * Start a capture worker: it creates the file (0600), prunes old captures and opens the live socket
	 * while the caller spawns the server; {@link header} then gives it the first record. Start it early:
	 * a worker still booting when the first burst of bytes arrives can only hold it in memory.
	 * Never throws: a worker that cannot start is one warning and a disabled writer.
	 */
	static start(options: CaptureWriterOptions): CaptureWriter {
		return new CaptureWriter(options);
	}

	/** The live socket address once the worker listens on it (undefined before, or when it could not). */
	get socket(): string | undefined {
		return this.socketAddress;
	}

	/** Whether recording has stopped (worker failure or the ring overflowed). */
	get isRecording(): boolean {
		return !this.isDisabled && !this.isOverflowed && !this.isClosed;
	}

	/** Bytes waiting on the main thread for ring space. */
	get heldByteCount(): number {
		return this.heldBytes;
	}

	/**
	 * Record bytes that crossed `stream` at `tMs`. Hot path: one memcpy into shared memory. When the ring
	 * is full the bytes are held by reference (the caller must not modify them afterwards; stream `data`
	 * Buffers are never reused) until the worker makes room; past the hold limit recording stops.
	 */
	chunk(stream: StreamName, tMs: number, bytes: Uint8Array): void {
		if (this.isDisabled || this.isOverflowed || this.isClosed) return;
		if (this.heldHead === this.held.length && this.producer.write(ENTRY.chunk, stream, tMs, bytes)) return;
		if (this.heldBytes + bytes.length <= this.holdLimit) {
			this.hold({kind: ENTRY.chunk, stream, tMs, payload: bytes});
			return;
		}

		this.isOverflowed = true;
		const behind = this.producer.pendingBytes + this.heldBytes;
		this.hold({kind: ENTRY.overflow, stream, tMs, payload: encoder.encode(JSON.stringify({behindBytes: behind, droppedBytes: bytes.length}))});
		this.warn(`capture stopped: the capture writer fell ${behind} bytes behind; forwarding goes on, the capture ends here (${this.path})`);
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
		this.isClosed = true;
		const deadline = Date.now() + timeoutMs;
		if (!this.isDisabled) {
			this.hold({kind: ENTRY.close, stream: 'stdout', tMs: 0, payload: new Uint8Array(0)});
			while (this.heldHead < this.held.length && !this.isDisabled && Date.now() < deadline) {
				await new Promise((resolve) => setTimeout(resolve, 2));
				this.flushHeld();
			}
		}

		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<'timeout'>((resolve) => {
			timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()));
		});
		const outcome = await Promise.race([this.done.then(() => 'done' as const), timeout]);
		clearTimeout(timer);
		if (outcome === 'timeout') this.warn(`capture writer did not finish within ${timeoutMs} ms; the capture may be incomplete (${this.path})`);
		await this.worker?.terminate().catch(() => undefined);
	}

	private control(kind: EntryKind, tMs: number, value: unknown): void {
		if (this.isDisabled || this.isClosed) return;
		this.hold({kind, stream: 'stdout', tMs, payload: encoder.encode(JSON.stringify(value))});
	}

	/** Queue an entry behind those already held (or write it at once when none are), keeping order. */
	private hold(entry: HeldEntry): void {
		this.held.push(entry);
		if (entry.kind === ENTRY.chunk) this.heldBytes += entry.payload.length;
		this.flushHeld();
	}

	/** Move held entries into the ring while they fit; retry shortly when some remain. */
	private flushHeld(): void {
		while (this.heldHead < this.held.length) {
			const entry = this.held[this.heldHead]!;
			if (!this.producer.write(entry.kind, entry.stream, entry.tMs, entry.payload, entry.kind !== ENTRY.chunk)) break;
			this.held[this.heldHead] = undefined as unknown as HeldEntry;
			this.heldHead++;
			if (entry.kind === ENTRY.chunk) this.heldBytes -= entry.payload.length;
		}

		if (this.heldHead === this.held.length) {
			this.held = [];
			this.heldHead = 0;
			return;
		}

		if (this.heldTimer === undefined && !this.isDisabled) {
			this.heldTimer = setTimeout(() => {
				this.heldTimer = undefined;
				this.flushHeld();
			}, 2);
			this.heldTimer.unref();
		}
	}

	private warn(message: string): void {
		try {
			this.onWarning(message);
		} catch {
			// a failing warning sink must not break forwarding either
		}
	}
}
