import type {SessionSnapshot} from '../../types.js';
import type {Session} from '../session.js';
import type {CompactFrameIndex} from './compact-frame-index.js';
import type {CompactIndexStore} from './compact-index-store.js';
import type {FindingList} from './finding-list.js';
import type {FrameTable, TableSnapshot, TableStore} from './frame-table.js';

/**
 * A {@link TableStore} over a Session whose store is a {@link CompactIndexStore}: the
 * session derives the findings, summary, marks and stderr tail as it always does (the same findings as
 * a retaining session), the index answers for the frames and bytes (read back from the capture).
 */
export class IndexedSession implements TableStore {
	readonly index: CompactFrameIndex;
	private readonly findings: FindingList;
	private snapshot: TableSnapshot | undefined;
	private sessionSnapshot: SessionSnapshot | undefined;
	private frameCount = -1;
	private findingCount = -1;

	/**
	 * @param session a session made with `store` (before any record is fed to it)
	 * @param store the session's store: its index and findings answer for the frames
	 */
	constructor(
		private readonly session: Session,
		store: CompactIndexStore,
	) {
		this.index = store.index;
		this.findings = store.findings;
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
		// A fixed view of the findings so far (no copy): the TUI reads the rows it shows (docs/performance.md#tui-on-big-captures).
		const findings =
			this.findingCount === this.findings.length && this.snapshot
				? this.snapshot.findings
				: this.findings.view(this.findings.length);
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
