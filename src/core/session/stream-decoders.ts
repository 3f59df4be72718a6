import {createFramer} from '../framing/index.js';
import type {Framer, FramerEmit, FramerOptions} from '../framing/framer.js';
import type {Chunk, StreamName} from '../types.js';
import type {GapTracker} from './gaps.js';

/** What {@link StreamDecoders} needs from the session. */
export interface StreamDecodersOptions {
	/** Receives every framer output, in each stream's order (the session's frame path). */
	readonly onFramed: FramerEmit;
	/**
	 * The method of `requester`'s request still waiting for a response whose id is this raw JSON token
	 * (`1`, `"a"`), or undefined: a line of the other stream that does not parse but names such an id is an
	 * unparsed reply, not a text line (framer.ts `awaitedMethod`).
	 */
	readonly awaitedMethod: (requester: StreamName, idToken: string) => string | undefined;
	/** The session's gaps: a stream framed after a gap starts again at the first line after it (gaps.ts). */
	readonly gaps: GapTracker;
}

/**
 * The framing part of a session: one framer per stream (stdin and stdout framed as MCP messages with the
 * facts of their bytes, stderr as log lines), started over after a gap in a capture (gaps.ts), ended once
 * per stream. Pure: what it frames goes to `onFramed`, in order.
 */
export class StreamDecoders {
	private readonly framers: Record<StreamName, Framer>;
	private readonly ended = new Set<StreamName>();
	private readonly onFramed: FramerEmit;
	private readonly options: StreamDecodersOptions;

	constructor(options: StreamDecodersOptions) {
		this.options = options;
		this.onFramed = options.onFramed;
		this.framers = {
			stdin: createFramer('stdin', this.framerOptions('stdin', 0)),
			stdout: createFramer('stdout', this.framerOptions('stdout', 0)),
			stderr: createFramer('stderr', this.framerOptions('stderr', 0)),
		};
	}

	/**
	 * Frame the next chunk of its stream. While the stream resyncs after a gap, the bytes up to and
	 * including the first LF are left unframed (gaps.ts); framing starts over after them.
	 */
	push(chunk: Chunk): void {
		const stream = chunk.stream;
		const skip = this.options.gaps.skipOf(stream, chunk.bytes);
		if (skip === 0) this.framers[stream].push(chunk, this.onFramed);
		else if (skip > 0) {
			const offset = chunk.offset + skip;
			this.framers[stream] = createFramer(stream, this.framerOptions(stream, offset));
			if (chunk.bytes.length > skip)
				this.framers[stream].push({...chunk, offset, bytes: chunk.bytes.subarray(skip)}, this.onFramed);
		}
	}

	/** A gap on `stream`: what was pending is dropped unframed, and framing starts at stream offset `offset`. */
	restartAt(stream: StreamName, offset: number): void {
		this.framers[stream] = createFramer(stream, this.framerOptions(stream, offset));
	}

	/** End of `stream` at `tMs` (ms since session start): its pending bytes become a last frame. Once per stream. */
	end(stream: StreamName, tMs: number): void {
		if (this.ended.has(stream)) return;
		this.ended.add(stream);
		this.framers[stream].end(tMs, this.onFramed);
	}

	/** True once `stream` was ended. */
	hasEnded(stream: StreamName): boolean {
		return this.ended.has(stream);
	}

	/** Bytes of `stream` received and not yet in a frame (a partial line). */
	pendingBytes(stream: StreamName): number {
		return this.framers[stream].pendingBytes;
	}

	/** Stream offset of the first byte of `stream` not yet in a frame. */
	pendingOffset(stream: StreamName): number {
		return this.framers[stream].pendingOffset;
	}

	private framerOptions(stream: StreamName, startOffset: number): FramerOptions {
		if (stream === 'stderr') return {mode: 'log', startOffset};
		const peer: StreamName = stream === 'stdin' ? 'stdout' : 'stdin';
		return {mode: 'protocol', awaitedMethod: (token) => this.options.awaitedMethod(peer, token), startOffset};
	}
}
