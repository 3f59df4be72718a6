import {Buffer} from 'node:buffer';
import {closeSync, fchmodSync, writeSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {isMainThread, parentPort, workerData} from 'node:worker_threads';
import {CHUNK_PREVIEW_MAX_BYTES, encodeEvent, encodeHeader} from '../core/capture/record-codec.js';
import {dressFinding} from '../core/detectors/catalog.js';
import type {Chunk, ExitInfo, FindingDraft, Mark, SessionMeta, StreamName} from '../core/types.js';
import {ensurePrivateDir, openCaptureFile, pruneCaptures, type PruneLimits} from './capture-store.js';
import {ENTRY, RingConsumer, type RingEntry} from './capture-ring.js';
import type {CaptureWorkerConfig, CaptureWorkerMessage} from './capture-writer.js';
import {LiveSocketServer} from './live-socket.js';

/**
 * The capture worker (a `worker_threads` thread started by capture-writer.ts). It owns everything the
 * tap does besides forwarding: it drains the shared ring, numbers chunks (`seq`, per-stream `offset`),
 * encodes NDJSON records with the record codec, appends them to the capture file with synchronous
 * writes (so a tap killed with SIGKILL leaves every record written so far, at worst a cut last line),
 * prunes old captures, and serves live attach clients.
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
 * The `chunk` record of {@link encodeEvent}, byte for byte, for chunks too large to carry a `text`
 * preview (> {@link CHUNK_PREVIEW_MAX_BYTES}), written straight into `target` at `at` without
 * JSON.stringify: their fields are numbers, a stream name and base64, none of which JSON escapes.
 * About 3× faster than the codec on 64 KiB chunks, which is what keeps the capture up with a bulk
 * transfer. Equality with the codec is a property test (tap-capture-writer.test.ts).
 * @returns the offset after the written LF, or -1 when `target` is too small (nothing usable written)
 */
function writeLargeChunkLine(chunk: Chunk, target: Buffer, at: number): number {
	const bytes = chunk.bytes;
	const head = `{"type":"chunk","seq":${chunk.seq},"stream":"${chunk.stream}","tMs":${JSON.stringify(chunk.tMs)},"offset":${chunk.offset},"length":${bytes.length},"base64":"`;
	const size = head.length + 4 * Math.ceil(bytes.length / 3) + 3;
	if (at + size > target.length) return -1;
	let end = at + target.write(head, at, 'latin1');
	end += target.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'), end, 'latin1');
	target[end] = 0x22;
	target[end + 1] = 0x7d;
	target[end + 2] = 0x0a;
	return end + 3;
}

/** Bytes {@link writeLargeChunkLine} needs at most for `chunk` (the head is < 200 bytes). */
const largeChunkLineBytes = (chunk: Chunk): number => 200 + 4 * Math.ceil(chunk.bytes.length / 3);

/**
 * One chunk record line exactly as {@link encodeEvent} writes it, plus LF: the codec for small chunks,
 * the fast writer above for large ones.
 */
export function encodeChunkLine(chunk: Chunk): Buffer {
	if (chunk.bytes.length <= CHUNK_PREVIEW_MAX_BYTES) return Buffer.from(`${encodeEvent({type: 'chunk', chunk})}\n`, 'utf8');
	const line = Buffer.allocUnsafe(largeChunkLineBytes(chunk));
	return line.subarray(0, writeLargeChunkLine(chunk, line, 0));
}

/** Options of {@link CaptureSink}. */
export interface CaptureSinkOptions {
	readonly path: string;
	readonly privateDir?: string;
	readonly prune?: PruneLimits;
	readonly socket?: {readonly address: string; readonly dir?: string};
	readonly lingerMs: number;
	readonly onWarning: (message: string) => void;
}

/**
 * Turns ring entries into capture records on disk and on the live socket. Usable without a worker
 * (tests drive it directly). Every I/O failure is one warning and stops that part; nothing throws.
 */
export class CaptureSink {
	private fd: number | undefined;
	private size = 0;
	private seq = 0;
	private readonly offsets: Record<StreamName, number> = {stdin: 0, stdout: 0, stderr: 0};
	/** Records not yet written, in one reused buffer (no allocation per record: no GC pressure). */
	private out = Buffer.allocUnsafe(2 * BATCH_BYTES);
	private outLength = 0;
	private live: LiveSocketServer | undefined;
	private isFinished = false;

	constructor(private readonly options: CaptureSinkOptions) {}

	/** The file path when it is open. */
	get path(): string | undefined {
		return this.fd === undefined ? undefined : this.options.path;
	}

	/** Bytes written to the file so far. */
	get bytesWritten(): number {
		return this.size;
	}

	/** The live socket address when listening. */
	get socket(): string | undefined {
		return this.live?.address;
	}

	/**
	 * Create the file (mode 0600; its directory 0700 when it is the default capture directory), prune
	 * old captures and start the live socket. The header record comes as the first entry.
	 * @returns false when the file could not be created (one warning; the sink then does nothing)
	 */
	async open(): Promise<boolean> {
		const {options} = this;
		try {
			if (options.privateDir !== undefined) ensurePrivateDir(options.privateDir);
			this.fd = openCaptureFile(options.path, {exclusive: options.privateDir !== undefined && path.dirname(options.path) === path.resolve(options.privateDir)});
			if (process.platform !== 'win32') fchmodSync(this.fd, 0o600);
		} catch (error) {
			this.warn(`capture disabled: cannot create ${options.path} (${describe(error)}); forwarding goes on`);
			this.fd = undefined;
			return false;
		}

		if (options.privateDir !== undefined && options.prune !== undefined) {
			try {
				const result = pruneCaptures(options.privateDir, options.prune, options.path);
				for (const problem of result.problems) this.warn(problem);
			} catch (error) {
				this.warn(`cannot prune old captures in ${options.privateDir} (${describe(error)})`);
			}
		}

		if (options.socket !== undefined && this.fd !== undefined) {
			let isSafe = true;
			if (options.socket.dir !== undefined) {
				try {
					ensurePrivateDir(options.socket.dir);
				} catch (error) {
					isSafe = false;
					this.warn(`live attach unavailable: runtime directory ${options.socket.dir} is not usable (${describe(error)})`);
				}
			}

			if (isSafe) {
				const live = new LiveSocketServer(options.socket.address, {path: options.path, size: () => this.size}, (message) => this.warn(message));
				if (await live.listen()) this.live = live;
			}
		}

		return true;
	}

	/** Handle one ring entry (chunk bytes are encoded at once; the payload is not kept). */
	entry(entry: RingEntry): void {
		if (this.isFinished) return;
		switch (entry.kind) {
			case ENTRY.chunk: {
				const offset = this.offsets[entry.stream];
				this.offsets[entry.stream] = offset + entry.payload.length;
				const chunk = {seq: this.seq++, stream: entry.stream, tMs: entry.tMs, offset, bytes: entry.payload};
				if (this.fd === undefined) break;
				if (chunk.bytes.length <= CHUNK_PREVIEW_MAX_BYTES) {
					this.push(encodeEvent({type: 'chunk', chunk}));
				} else {
					this.reserve(largeChunkLineBytes(chunk));
					this.outLength = writeLargeChunkLine(chunk, this.out, this.outLength);
				}

				break;
			}

			case ENTRY.mark: {
				const mark = parseJson<Mark>(entry.payload);
				if (mark) this.push(encodeEvent({type: 'mark', mark}));
				break;
			}

			case ENTRY.exit: {
				const exit = parseJson<ExitInfo>(entry.payload);
				if (exit) this.push(encodeEvent({type: 'exit', exit}));
				break;
			}

			case ENTRY.finding: {
				const draft = parseJson<FindingDraft>(entry.payload);
				if (draft) this.push(encodeEvent({type: 'finding', finding: dressFinding({origin: 'probe', ...draft})}));
				break;
			}

			case ENTRY.overflow: {
				const mark: Mark = {type: 'phase', name: 'capture-overflow', tMs: entry.tMs};
				this.push(encodeEvent({type: 'mark', mark}));
				break;
			}

			case ENTRY.header: {
				const meta = parseJson<SessionMeta>(entry.payload);
				if (meta) this.push(encodeHeader(meta));
				break;
			}

			case ENTRY.close: {
				break;
			}
		}

		if (this.outLength >= BATCH_BYTES) this.flush();
	}

	/** Append the pending records to the file and hand them to live clients. */
	flush(): void {
		if (this.outLength === 0) return;
		const total = this.outLength;
		this.outLength = 0;
		if (this.fd === undefined) return;
		const start = this.size;
		try {
			for (let at = 0; at < total; ) at += writeSync(this.fd, this.out, at, total - at);
		} catch (error) {
			this.warn(`capture stopped: cannot write ${this.options.path} (${describe(error)}); forwarding goes on`);
			try {
				closeSync(this.fd);
			} catch {
				// ignore
			}

			this.fd = undefined;
			return;
		}

		this.size += total;
		// Live clients may hold what they are given (socket writes are asynchronous): give them a copy,
		// the batch buffer is reused.
		if (this.live && this.live.clientCount > 0) this.live.appended(Buffer.from(this.out.subarray(0, total)), start);
	}

	/** Write what is left, close the file, let live clients catch up and close the socket. */
	async finish(): Promise<void> {
		if (this.isFinished) return;
		this.flush();
		this.isFinished = true;
		if (this.fd !== undefined) {
			try {
				closeSync(this.fd);
			} catch {
				// ignore
			}
		}

		await this.live?.close(this.options.lingerMs);
	}

	private push(line: string): void {
		if (this.fd === undefined) return;
		const bytes = Buffer.byteLength(line) + 1;
		this.reserve(bytes);
		this.outLength += this.out.write(line, this.outLength, 'utf8');
		this.out[this.outLength++] = 0x0a;
	}

	/** Make room for `bytes` more in the batch buffer (flushing it, or growing it for a huge record). */
	private reserve(bytes: number): void {
		if (this.outLength + bytes <= this.out.length) return;
		this.flush();
		if (bytes > this.out.length) this.out = Buffer.allocUnsafe(bytes);
	}

	private warn(message: string): void {
		try {
			this.options.onWarning(message);
		} catch {
			// ignore
		}
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
	});
	const consumer = new RingConsumer(config.memory);
	await sink.open();
	post({type: 'ready', path: sink.path, socket: sink.socket});
	let isClosed = false;
	let idle = 0;
	while (!isClosed) {
		const count = consumer.drain((entry) => {
			if (entry.kind === ENTRY.close) isClosed = true;
			sink.entry(entry);
		});
		sink.flush();
		if (isClosed) break;
		// Traffic: nap and drain in batches (no wake-up per chunk). Idle: park until the next entry.
		idle = count > 0 ? 0 : idle + 1;
		await consumer.waitForData(idle < IDLE_NAPS ? NAP_MS : undefined);
	}

	await sink.finish();
}

/**
 * Inspection yields to forwarding: on Linux the nice value is per thread, and `os.setPriority` with no
 * pid changes the calling thread only (setpriority(2) NOTES), so the worker lowers its own priority and
 * the forwarding thread wins whenever the CPUs are busy. Elsewhere it would renice the whole process,
 * so it is left alone.
 */
function yieldToForwarding(): void {
	if (process.platform !== 'linux') return;
	try {
		os.setPriority(WORKER_NICE);
	} catch {
		// not permitted: run at normal priority
	}
}

/** Nice value of the capture worker thread on Linux. */
const WORKER_NICE = 10;

if (!isMainThread && (workerData as Partial<CaptureWorkerConfig> | undefined)?.kind === 'mcp-wire-capture-worker') {
	yieldToForwarding();
	// Keep the thread alive while it waits on the ring (Atomics.waitAsync alone does not hold the loop).
	const keepAlive = setInterval(() => undefined, 1 << 30);
	runWorker(workerData as CaptureWorkerConfig)
		.catch((error: unknown) => parentPort?.postMessage({type: 'warning', message: `capture worker: ${describe(error)}`} satisfies CaptureWorkerMessage))
		.finally(() => {
			clearInterval(keepAlive);
			parentPort?.postMessage({type: 'done'} satisfies CaptureWorkerMessage);
		});
}
