import {Buffer} from 'node:buffer';
import type net from 'node:net';
import type {Readable, Writable} from 'node:stream';
import type {StreamName} from '../core/types.js';
import {ARENA, type RingProducer} from './capture-ring.js';
import type {CaptureWriter} from './capture-writer.js';
import type {Clock} from '../process/clock.js';
import type {OnRead} from '../process/socket-pair.js';

/**
 * One direction of the tap (pass-through.ts): a source read into the capture's ring, each read written
 * to its target at once, then handed to the capture.
 */
/**
 * Most bytes of one read in place (at most a quarter of the arena). Node's own streams read 64 KiB; a
 * Unix socket (what Node clients give a server, and what the server's stdout is here) can hand over
 * more per read when the writer is ahead, which means fewer syscalls, callbacks and capture records per
 * byte: in bench:tap this took the client→server ratio from about 0.85 to about 1.0. A pipe still
 * returns at most its capacity (64 KiB by default) per read.
 */
const READ_BYTES = 256 * 1024;
/** Arena size of the read-buffer pool when nothing is captured (only writes in flight hold space). */
export const POOL_BYTES = 2 * 1024 * 1024;

/**
 * Reads one pipe or socket straight into the ring arena of its stream, through Node's `net.Socket`
 * `onread`: the kernel copies each read into a reserved region, which is then forwarded and published
 * from where it is. When the arena has no room (the capture is a whole arena behind, or the target is
 * that far behind on its writes), a read lands in a fresh heap buffer instead: it is forwarded at once,
 * and the capture keeps it while the source pauses (see {@link Pump}).
 */
export class InPlaceReader {
	/** Where the buffer handed out last lives in the arena (-1: a heap buffer). */
	private position = -1;
	/**
	 * Set while the capture keeps a read of this stream to copy into the arena later: the buffer for the
	 * next read (which Node asks for right after each read, paused or not) must not be a reservation of
	 * the arena then, or the kernel would read into the region that copy goes to.
	 */
	isCaptureWaiting = false;
	/** Called for each read with its bytes and their arena position (-1: a heap buffer); false pauses. */
	handler: ((chunk: Buffer, position: number) => boolean) | undefined;
	readonly onread: OnRead;

	constructor(
		private readonly ring: RingProducer,
		stream: StreamName,
	) {
		const arena = ARENA[stream];
		const readBytes = Math.max(4096, Math.min(READ_BYTES, Math.floor(ring.arenaSize(arena) / 4 / 4096) * 4096));
		this.onread = {
			buffer: () => {
				const position = this.isCaptureWaiting ? -1 : this.ring.reserve(arena, readBytes);
				this.position = position;
				return position < 0 ? Buffer.allocUnsafe(readBytes) : this.ring.view(arena, position, readBytes);
			},
			callback: (bytesRead, buffer) =>
				this.handler?.(Buffer.from(buffer.buffer, buffer.byteOffset, bytesRead), this.position) ?? true,
		};
	}
}

/** Options of {@link Pump}. */
export interface PumpOptions {
	readonly stream: StreamName;
	readonly target: Writable;
	readonly ring: RingProducer;
	readonly capture: CaptureWriter | undefined;
	readonly clock: Clock;
	readonly onCount: (bytes: number) => void;
}

/**
 * One direction of the tap: each read is written to the target at once, then recorded. Backpressure:
 * when the target's buffer is full the source is paused until it drains; when the capture has no room
 * for the read, until the capture resumes it (it made room, or its wait limit passed); reading goes on
 * once neither holds it. When the target closes or fails, reading goes on (the bytes are still
 * recorded, and the source never blocks on a full pipe).
 */
export class Pump {
	/** Called once when the source ends (EOF, error or close). */
	onEnd: () => void = () => undefined;
	/** Called with each read before it is forwarded (only while the target is open). */
	onBytes: ((chunk: Buffer) => void) | undefined;
	/** Called once when the target closes or fails while the source is still open. */
	onTargetClosed: (() => void) | undefined;
	isTargetOpen = true;
	private resumeSource: () => void = () => undefined;
	private isEnded = false;
	private detach: () => void = () => undefined;
	/** Bumped when writes in flight are abandoned, so their late callbacks release nothing. */
	private generation = 0;
	private readonly arena: number;
	/** Paused until the target drains / until the capture made room for the last read. */
	private isWaitingDrain = false;
	private isWaitingCapture = false;
	private readonly resume = (): void => {
		this.isWaitingDrain = false;
		if (!this.isWaitingCapture) this.resumeSource();
	};
	private readonly captureResume = (): void => {
		this.isWaitingCapture = false;
		if (this.reader) this.reader.isCaptureWaiting = false;
		if (!this.isWaitingDrain) this.resumeSource();
	};
	/** The in-place reader of the source, when it is read in place. */
	private reader: InPlaceReader | undefined;

	constructor(private readonly options: PumpOptions) {
		this.arena = ARENA[options.stream];
		const {target} = options;
		const closeTarget = (): void => {
			if (!this.isTargetOpen) return;
			this.isTargetOpen = false;
			target.off('drain', this.resume);
			this.generation++;
			options.ring.abandonWrites(this.arena);
			// After the source ended we closed the target ourselves; before, the other side went away.
			if (!this.isEnded) this.onTargetClosed?.();
			this.resume();
		};
		target.on('error', closeTarget);
		target.on('close', closeTarget);
	}

	/** Read a Readable (data events; each chunk is copied into the ring by the capture). */
	readStream(source: Readable): void {
		const onData = (chunk: Buffer): void => {
			if (!this.forward(chunk, -1)) source.pause();
		};
		const end = (): void => this.end();
		this.resumeSource = () => source.resume();
		source.on('data', onData);
		source.on('end', end);
		source.on('error', end);
		this.detach = () => {
			source.off('data', onData);
			source.off('end', end);
			source.off('error', end);
			source.pause();
		};
	}

	/** Read a socket made with `reader.onread` (in place: no copy). */
	readInPlace(socket: net.Socket, reader: InPlaceReader): void {
		this.reader = reader;
		reader.handler = (chunk, position) => this.forward(chunk, position);
		const end = (): void => this.end();
		this.resumeSource = () => socket.resume();
		socket.on('end', end);
		socket.on('error', end);
		socket.on('close', end);
		this.detach = () => {
			reader.handler = undefined;
			socket.off('end', end);
			socket.off('error', end);
			socket.off('close', end);
		};
	}

	/** Stop reading (the session is over). */
	stop(): void {
		this.detach();
		this.resumeSource = () => undefined;
	}

	/** Reading is paused: the target has not drained, or the capture has no room for the last read. */
	get isHeld(): boolean {
		return this.isWaitingDrain || this.isWaitingCapture;
	}

	/** Stop reading and end now, as at EOF (the caller closes the source). */
	cut(): void {
		this.stop();
		this.end();
	}

	/**
	 * Forward one read, then record it. `position` is where it lies in the ring (-1: not in the ring).
	 * @returns false when the source must pause until the target drains
	 */
	private forward(chunk: Buffer, position: number): boolean {
		const {target, ring, capture, stream, clock} = this.options;
		let isWriting = true;
		if (this.isTargetOpen) {
			this.onBytes?.(chunk);
			try {
				if (position < 0) {
					isWriting = target.write(chunk);
				} else {
					ring.beginWrite(this.arena, position);
					const generation = this.generation;
					isWriting = target.write(chunk, () => {
						if (generation === this.generation) ring.endWrite(this.arena);
					});
				}
			} catch {
				isWriting = true;
			}

			if (!isWriting) {
				this.isWaitingDrain = true;
				target.once('drain', this.resume);
			}
		}

		this.options.onCount(chunk.length);
		const tMs = clock.now();
		let isRecorded = true;
		try {
			if (position < 0) isRecorded = capture?.chunk(stream, tMs, chunk, this.captureResume) ?? true;
			else if (capture) isRecorded = capture.chunkAt(stream, tMs, position, chunk.length, this.captureResume);
			else ring.claim(this.arena, position, chunk.length);
		} catch {
			// the capture never breaks forwarding
		}

		if (!isRecorded) {
			this.isWaitingCapture = true;
			if (this.reader) this.reader.isCaptureWaiting = true;
		}

		return isWriting && isRecorded;
	}

	private end(): void {
		if (this.isEnded) return;
		this.isEnded = true;
		this.onEnd();
	}
}
