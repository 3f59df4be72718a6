import type {Chunk, Finding, Frame} from '../../types.js';
import {CompactFindings} from './compact-findings.js';
import {CompactFrameIndex} from './compact-frame-index.js';
import type {StreamReader} from './frame-table.js';
import {StreamingWindowStore} from './streaming-window.js';

/**
 * The {@link FrameStore} of the TUI on a big capture: a streaming window (so the session derives its
 * findings as with `retain: false`) that also feeds a {@link CompactFrameIndex} and keeps the findings
 * in {@link CompactFindings} (columns; a finding's text is built again when shown). Frames come back
 * from the index, their bytes read back from the capture file; IndexedSession (indexed-session.ts)
 * shows them to the TUI.
 */
export class CompactIndexStore extends StreamingWindowStore {
	readonly index: CompactFrameIndex;
	/** Every finding so far, in order. */
	readonly findings = new CompactFindings();

	/** @param read reads stream bytes back from the capture file (called only when a frame is shown or searched) */
	constructor(read: StreamReader) {
		super();
		this.index = new CompactFrameIndex(read);
	}

	override addChunk(chunk: Chunk): void {
		super.addChunk(chunk);
		this.index.addChunk(chunk);
	}

	override addFrame(frame: Frame): void {
		super.addFrame(frame);
		this.index.addFrame(frame);
	}

	override addFinding(finding: Finding): void {
		this.findings.add(finding);
		// The frame's body while the window holds it: the index keeps the frame whole only when its bytes
		// would rebuild it otherwise.
		const last = this.index.lastFrame;
		const body =
			last !== undefined && finding.frameIndex === last.index && !this.index.isChecked(last.index)
				? this.windowBytes(last.stream, last.bodyOffset, last.bodyLength)
				: undefined;
		this.index.addFinding(finding, body);
	}
}
