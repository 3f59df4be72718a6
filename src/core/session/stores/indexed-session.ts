import type {Finding, SessionSnapshot} from '../../types.js';
import type {Session} from '../session.js';
import {CompactFrameIndex} from './compact-frame-index.js';
import type {FrameTable, StreamReader, TableSnapshot, TableStore} from './frame-table.js';

/**
 * A {@link TableStore} over a Session that keeps nothing (`retain: false`) and a {@link CompactFrameIndex}: the
 * session derives the findings, summary, marks and stderr tail as it always does (the same findings as
 * a retaining session), the index answers for the frames and bytes (read back from the capture).
 */
export class IndexedSession implements TableStore {
	readonly index: CompactFrameIndex;
	private readonly findings: Finding[] = [];
	private snapshot: TableSnapshot | undefined;
	private sessionSnapshot: SessionSnapshot | undefined;
	private frameCount = -1;
	private findingCount = -1;

	/**
	 * @param session a session with `retain: false`, before any record is fed to it
	 * @param read reads stream bytes back from the capture file
	 */
	constructor(
		private readonly session: Session,
		read: StreamReader,
	) {
		this.index = new CompactFrameIndex(read);
		session.on((event) => {
			switch (event.type) {
				case 'chunk': {
					this.index.addChunk(event.chunk);
					break;
				}

				case 'frame': {
					this.index.addFrame(event.frame);
					break;
				}

				case 'finding': {
					this.findings.push(event.finding);
					this.index.addFinding(event.finding);
					break;
				}

				default:
			}
		});
	}

	/** {@link TableStore}: notified on every change of the session. */
	subscribe(listener: () => void): () => void {
		return this.session.subscribe(listener);
	}

	/** The current snapshot (the same object until the session changes). */
	getSnapshot(): TableSnapshot {
		const base = this.session.getSnapshot();
		if (
			this.snapshot &&
			base === this.sessionSnapshot &&
			this.frameCount === this.index.length &&
			this.findingCount === this.findings.length
		)
			return this.snapshot;
		this.sessionSnapshot = base;
		const index = this.index;
		const length = index.length;
		this.frameCount = length;
		const findings =
			this.findingCount === this.findings.length && this.snapshot ? this.snapshot.findings : this.findings.slice();
		this.findingCount = this.findings.length;
		const frames: FrameTable = {
			length,
			at: (i) => (i < length ? index.frame(i) : undefined),
			streamAt: (i) => index.streamAt(i),
			search: (include, test) => index.search(length, include, test),
		};
		this.snapshot = {
			meta: base.meta,
			frames,
			findings,
			marks: base.marks,
			...(base.exit ? {exit: base.exit} : {}),
			summary: base.summary,
			isEnded: base.isEnded,
			bytes: (stream, offset, byteLength) => index.bytes(stream, offset, byteLength),
			streamLength: (stream) => base.streamLength(stream),
			chunksOf: (frame) => index.chunksIn(frame.stream, frame.offset, frame.offset + frame.byteLength),
			stderrTail: (maxLines) => base.stderrTail(maxLines),
		};
		return this.snapshot;
	}
}
