import {Buffer} from 'node:buffer';
import type {Chunk, Finding, Frame, StreamName} from '../../types.js';
import {chunksInRange, sliceChunks} from './chunk-ranges.js';
import type {BodyPrint, FrameStore, StoreView} from './frame-store.js';

/** A {@link FrameStore} that keeps every chunk, frame and finding (snapshots show them all). */
export class RetainAllStore implements FrameStore {
	readonly retains = true;
	private readonly chunks: Record<StreamName, Chunk[]> = {stdin: [], stdout: [], stderr: []};
	private readonly frames: Frame[] = [];
	private readonly findings: Finding[] = [];

	addChunk(chunk: Chunk): void {
		this.chunks[chunk.stream].push(chunk);
	}

	framed(): void {
		// Every chunk is kept.
	}

	addFrame(frame: Frame): void {
		this.frames.push(frame);
	}

	addFinding(finding: Finding): void {
		this.findings.push(finding);
	}

	view(): StoreView {
		const frames = this.frames.slice();
		const chunks = {
			stdin: this.chunks.stdin.slice(),
			stdout: this.chunks.stdout.slice(),
			stderr: this.chunks.stderr.slice(),
		};
		return {
			frames,
			findings: this.findings.slice(),
			bytes: (stream, offset, length) => sliceChunks(chunks[stream], offset, length),
			chunksOf: (frame) => chunksInRange(chunks[frame.stream], frame.offset, frame.offset + frame.byteLength),
			stderrTail: (maxLines) => tailOf(frames, maxLines),
		};
	}

	stderrTail(maxLines: number): string[] {
		return tailOf(this.frames, maxLines);
	}

	answerPrint(): BodyPrint | undefined {
		return undefined;
	}

	sameBody(index: number, frame: Frame): boolean {
		const earlier = this.frames[index];
		if (!earlier || earlier.bodyLength !== frame.bodyLength) return false;
		const a = sliceChunks(this.chunks[earlier.stream], earlier.bodyOffset, earlier.bodyLength);
		const b = sliceChunks(this.chunks[frame.stream], frame.bodyOffset, frame.bodyLength);
		return Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);
	}
}

/** The text of the last `maxLines` stderr frames, oldest first. */
function tailOf(frames: readonly Frame[], maxLines: number): string[] {
	const lines: string[] = [];
	for (let i = frames.length - 1; i >= 0 && lines.length < maxLines; i--) {
		const f = frames[i]!;
		if (f.stream === 'stderr') lines.push(f.text ?? '');
	}
	return lines.reverse();
}
