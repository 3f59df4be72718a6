import {Buffer} from 'node:buffer';
import type {Chunk, Finding, Frame, StreamName} from '../../types.js';
import {chunkIndexAt, chunksInRange, dropBefore, sliceChunks} from './chunk-ranges.js';
import type {BodyPrint, FrameStore, StoreView} from './frame-store.js';

/** The stderr lines a {@link StreamingWindowStore} keeps for the stderr tail, each cut at {@link STDERR_LINE_CHARS}. */
export const STDERR_LINES_KEPT = 200;
const STDERR_LINE_CHARS = 16 * 1024;

/** Bodies up to this many bytes are kept whole in a {@link BodyPrint}. */
const BODY_KEPT_BYTES = 256;

/**
 * A {@link FrameStore} that keeps nothing that grows with the session: per stream the chunks still
 * holding bytes of a frame not yet complete, and the last {@link STDERR_LINES_KEPT} stderr lines.
 * Snapshots hold no chunks, frames or findings (streaming presenters listen to the session's events).
 */
export class StreamingWindowStore implements FrameStore {
	readonly retains: boolean = false;
	private readonly window: Record<StreamName, Chunk[]> = {stdin: [], stdout: [], stderr: []};
	private readonly stderrLines: string[] = [];

	addChunk(chunk: Chunk): void {
		this.window[chunk.stream].push(chunk);
	}

	framed(stream: StreamName, offset: number): void {
		dropBefore(this.window[stream], offset);
	}

	addFrame(frame: Frame): void {
		if (frame.stream !== 'stderr') return;
		const text = frame.text ?? '';
		this.stderrLines.push(text.length > STDERR_LINE_CHARS ? text.slice(0, STDERR_LINE_CHARS) : text);
		if (this.stderrLines.length > STDERR_LINES_KEPT) this.stderrLines.shift();
	}

	addFinding(_finding: Finding): void {
		// Findings go to the session's listeners; none is kept.
	}

	view(): StoreView {
		const lines = this.stderrLines.slice();
		return {
			frames: [],
			findings: [],
			bytes: () => new Uint8Array(0),
			chunksOf: () => [],
			stderrTail: (maxLines) => lines.slice(-maxLines),
		};
	}

	/**
	 * Bytes `[offset, offset + length)` of `stream` while the window still holds them all (the chunks of the
	 * frame just framed, until the session moves the window on), else undefined.
	 */
	protected windowBytes(stream: StreamName, offset: number, length: number): Uint8Array | undefined {
		const chunks = this.window[stream];
		const first = chunks[0];
		const last = chunks.at(-1);
		if (first === undefined || last === undefined) return undefined;
		if (first.offset > offset || last.offset + last.bytes.length < offset + length) return undefined;
		return sliceChunks(chunks, offset, length);
	}

	stderrTail(maxLines: number): string[] {
		return maxLines <= 0 ? [] : this.stderrLines.slice(-maxLines);
	}

	answerPrint(frame: Frame): BodyPrint {
		return bodyPrint(this.window[frame.stream], frame.bodyOffset, frame.bodyLength);
	}

	sameBody(_index: number, frame: Frame, print: BodyPrint | undefined): boolean {
		return (
			print !== undefined &&
			sameBodyPrint(print, bodyPrint(this.window[frame.stream], frame.bodyOffset, frame.bodyLength))
		);
	}
}

/** The {@link BodyPrint} of the bytes `[offset, offset + length)` of a stream, read from its chunks without copying. */
function bodyPrint(chunks: readonly Chunk[], offset: number, length: number): BodyPrint {
	// A short body as a latin1 string (one char per byte): no ArrayBuffer per answer on the hot path (docs/performance.md#replay).
	if (length <= BODY_KEPT_BYTES) return {length, text: latin1Of(chunks, offset, length), h1: 0, h2: 0};
	let h1 = 0x811c9dc5;
	let h2 = 0x01000193 ^ length;
	let seen = 0;
	for (const chunk of chunksInRange(chunks, offset, offset + length)) {
		const bytes = chunk.bytes;
		const end = Math.min(bytes.length, offset + length - chunk.offset);
		for (let i = Math.max(0, offset - chunk.offset); i < end; i++) {
			h1 = Math.imul(h1 ^ bytes[i]!, 0x01000193);
			h2 = Math.imul(h2 ^ bytes[i]!, 0x5bd1e995);
			seen++;
		}
	}
	return {length: seen, text: undefined, h1, h2};
}

/** The bytes `[offset, offset + length)` of a stream (as far as its chunks hold them) as a latin1 string. */
function latin1Of(chunks: readonly Chunk[], offset: number, length: number): string {
	const one = chunks[Math.max(0, chunkIndexAt(chunks, offset))];
	const bytes =
		one !== undefined && one.offset <= offset && offset + length <= one.offset + one.bytes.length
			? one.bytes
			: sliceChunks(chunks, offset, length);
	const start = bytes === one?.bytes ? offset - one.offset : 0;
	// A chunk's bytes are mostly a Buffer already: no new view per answer (docs/performance.md#replay).
	const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	return buffer.toString('latin1', start, start + Math.min(Math.max(0, length), bytes.byteLength - start));
}

function sameBodyPrint(a: BodyPrint, b: BodyPrint): boolean {
	if (a.length !== b.length) return false;
	if (a.text !== undefined && b.text !== undefined) return a.text === b.text;
	return a.h1 === b.h1 && a.h2 === b.h2;
}
