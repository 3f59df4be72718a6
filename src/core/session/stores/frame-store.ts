import type {Chunk, Finding, Frame, SessionSnapshot, StreamName} from '../../types.js';

/**
 * What is kept of an answer's body to tell a re-sent answer (byte for byte) from a stale id when the
 * store does not keep the bytes: a short body whole (latin1, one char per byte), a longer one as its
 * length and two 32-bit FNV-1a hashes (different seeds).
 */
export type BodyPrint = {
	readonly length: number;
	readonly text: string | undefined;
	readonly h1: number;
	readonly h2: number;
};

/** The part of a {@link SessionSnapshot} a store answers: frames, findings, their bytes, the stderr tail. */
export type StoreView = Pick<SessionSnapshot, 'frames' | 'findings' | 'bytes' | 'chunksOf' | 'stderrTail'>;

/**
 * Where a Session keeps what crossed the wire. The session hands every chunk, frame and finding to its
 * store in order and asks it for what it shows (snapshots, the stderr tail) and for the bytes that tell
 * a duplicate response (`sameBody`). The findings do not depend on the store (test/core/session/retain.test.ts):
 * - `RetainAllStore` (retain-all.ts) keeps everything (`probe`, the TUI of a live probe);
 * - `StreamingWindowStore` (streaming-window.ts) keeps only the chunks of frames not yet complete,
 *   the last stderr lines and a print of each answer's body: flat memory for `--json`, the plain log,
 *   `report` and long taps;
 * - `CompactIndexStore` (compact-index-store.ts): a streaming window that also feeds the compact
 *   frame index (compact-frame-index.ts) of the TUI on a big capture; frames come back from the file.
 */
export interface FrameStore {
	/** True when snapshots hold every chunk, frame and finding. */
	readonly retains: boolean;
	/** A chunk as the session recorded it (before it is framed). */
	addChunk(chunk: Chunk): void;
	/** The framer of `stream` has framed every byte before `offset`: chunks wholly before it hold no frame to come. */
	framed(stream: StreamName, offset: number): void;
	/** A frame, when it is complete (its `answers` may still be set by the session afterwards). */
	addFrame(frame: Frame): void;
	/** A finding the session reports. */
	addFinding(finding: Finding): void;
	/** What a snapshot shows; a new view each call (the session caches its snapshot). */
	view(): StoreView;
	/** The last `maxLines` stderr lines as text. */
	stderrTail(maxLines: number): string[];
	/** What to remember of an answer's body for {@link sameBody}; undefined when the store keeps the frame's bytes. */
	answerPrint(frame: Frame): BodyPrint | undefined;
	/** True when `frame` repeats the body of frame `index` (remembered with `print`) byte for byte. */
	sameBody(index: number, frame: Frame, print: BodyPrint | undefined): boolean;
}
