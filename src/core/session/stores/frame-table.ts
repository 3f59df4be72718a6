import type {Frame, SessionSnapshot, StreamName} from '../../types.js';
import type {FindingTable} from './finding-list.js';

// What the TUI reads a session through: frames as a table, snapshots from a store. A `Session` is a
// TableStore of arrays; IndexedSession (indexed-session.ts) one over a compact frame index.

/** The frames of a snapshot as the TUI reads them: a `readonly Frame[]` satisfies it, and so does an index. */
export interface FrameTable {
	readonly length: number;
	/** The frame at position `index` (its `Frame.index`), or undefined outside `[0, length)`. */
	at(index: number): Frame | undefined;
	/** The stream of the frame at `index` without building the frame (an index answers from its columns). */
	streamAt?(index: number): StreamName;
	/**
	 * The frames `i` in `[0, length)`, ascending, for which `include(i)` and `test(frame i)` are true, where
	 * `test` reads only the frame's `method`, `answers.method`, `id` and `text` (the TUI's search). An index
	 * answers without building each frame, reading the bytes it needs (text lines, string ids) from the
	 * capture in big sequential blocks (docs/performance.md#tui-on-big-captures): the same frames as testing `at(i)` one by one.
	 */
	search?(include: (index: number) => boolean, test: (frame: SearchFields) => boolean): number[];
}

/** What a search tests of a frame (see {@link FrameTable.search}). */
export type SearchFields = Pick<Frame, 'method' | 'answers' | 'id' | 'text'>;

/** A session snapshot whose frames may be a {@link FrameTable} and findings a {@link FindingTable} (what the TUI draws). */
export type TableSnapshot = Omit<SessionSnapshot, 'frames' | 'findings'> & {
	readonly frames: FrameTable;
	readonly findings: FindingTable;
};

/** A store of {@link TableSnapshot}s (React `useSyncExternalStore` shape); a `Session` is one. */
export interface TableStore {
	getSnapshot(): TableSnapshot;
	subscribe(listener: () => void): () => void;
}

/**
 * Reads bytes `[offset, offset + length)` of a stream back from the capture (`CaptureBytesReader.read`,
 * tap/capture-read-back.ts): shorter when the range runs past what was recorded. Throws when the file
 * cannot be read.
 */
export type StreamReader = (stream: StreamName, offset: number, length: number) => Uint8Array;
