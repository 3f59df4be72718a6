import {Buffer} from 'node:buffer';
import type {Chunk, Finding, Frame, FrameKind, Framing, JsonRpcId, SessionSnapshot, StreamName, Terminator} from '../types.js';
import {cutNesting, nestsDeeperThan} from '../jsonrpc/depth.js';
import type {Session} from './session.js';

/**
 * A compact frame index for the TUI on a big capture (issue 12 goal 3): per frame and per chunk only
 * numbers in typed arrays (stream, stream offset, lengths, times, sequence numbers, a method id from a
 * string table, the JSON-RPC id when it is a number). The bytes of the frames on screen are read back
 * from the capture file by stream offset when shown (tap/capture-read-back.ts) and their JSON is parsed
 * again then (lazily: `message` is parsed on first use), so memory grows by about 100 bytes per frame
 * and chunk instead of holding every frame's bytes and parsed message.
 *
 * Frames are rebuilt from the bytes exactly as the Session built them (test/core/session/frame-index.test.ts
 * compares every field case and example capture with a retaining Session). Where re-parsing the body
 * could read differently (a frame a finding points at: concatenated JSON, cut nesting, a BOM), the frame
 * is kept whole when its body is at most {@link BIG_BODY_BYTES}.
 */

/** Bodies longer than this are never kept whole nor cached parsed for long (bytes). */
export const BIG_BODY_BYTES = 64 * 1024;

/** The frames of a snapshot as the TUI reads them: a `readonly Frame[]` satisfies it, and so does an index. */
export interface FrameTable {
	readonly length: number;
	/** The frame at position `index` (its `Frame.index`), or undefined outside `[0, length)`. */
	at(index: number): Frame | undefined;
	/** The stream of the frame at `index` without building the frame (an index answers from its columns). */
	streamAt?(index: number): StreamName;
}

/** A session snapshot whose frames may be a {@link FrameTable} (what the TUI draws). */
export type TableSnapshot = Omit<SessionSnapshot, 'frames'> & {readonly frames: FrameTable};

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

/** The last range read back is kept when at most this long (bytes). */
const LAST_READ_BYTES = 1024 * 1024;

const PAGE_BITS = 16;
const PAGE = 1 << PAGE_BITS;
const MASK = PAGE - 1;

type NumberArray = {[index: number]: number};

/** A growable column of numbers in pages of 65,536 typed-array entries (no copy when it grows). */
class Column {
	private readonly pages: NumberArray[] = [];
	constructor(private readonly make: (length: number) => NumberArray) {}
	get(index: number): number {
		return this.pages[index >>> PAGE_BITS]![index & MASK]!;
	}

	set(index: number, value: number): void {
		const page = index >>> PAGE_BITS;
		(this.pages[page] ??= this.make(PAGE))[index & MASK] = value;
	}
}

const f64 = (): Column => new Column((n) => new Float64Array(n));
const u32 = (): Column => new Column((n) => new Uint32Array(n));
const i32 = (): Column => new Column((n) => new Int32Array(n));
const u8 = (): Column => new Column((n) => new Uint8Array(n));

const STREAMS: readonly StreamName[] = ['stdin', 'stdout', 'stderr'];
const STREAM_CODE: Readonly<Record<StreamName, number>> = {stdin: 0, stdout: 1, stderr: 2};
const KINDS: readonly FrameKind[] = ['request', 'notification', 'response', 'error', 'json', 'text', 'blank'];
const FRAMINGS: readonly Framing[] = ['newline', 'content-length'];
const TERMINATORS: readonly Terminator[] = ['lf', 'crlf', 'none', 'length'];

/** `idTag`: how the frame's id is stored. */
const ID_NONE = 0;
const ID_NULL = 1;
const ID_NUMBER = 2;
const ID_STRING = 3;
/** `idTag`: a string id of a big frame, kept in a side map. */
const ID_KEPT = 4;

/** A string table: small ids for the few method names a session uses (-1: none, -2: not in the table, read from the message). */
class Strings {
	private readonly ids = new Map<string, number>();
	private readonly values: string[] = [];
	idOf(value: string | undefined): number {
		if (value === undefined) return -1;
		let id = this.ids.get(value);
		if (id === undefined) {
			if (this.values.length >= 65_536) return -2;
			id = this.values.length;
			this.values.push(value);
			this.ids.set(value, id);
		}

		return id;
	}

	value(id: number): string | undefined {
		return id < 0 ? undefined : this.values[id];
	}
}

/** Per stream: the chunks in stream order (for `chunksOf`: how many reads carried a frame, and when). */
class ChunkTable {
	length = 0;
	readonly offset = f64();
	readonly byteLength = u32();
	readonly tMs = f64();
	readonly seq = u32();

	/** Position of the last chunk starting at or before `offset` (-1 when none). */
	find(offset: number): number {
		let low = 0;
		let high = this.length;
		while (low < high) {
			const mid = (low + high) >>> 1;
			if (this.offset.get(mid) <= offset) low = mid + 1;
			else high = mid;
		}

		return low - 1;
	}
}

/**
 * The index itself: chunks (with their place in the file) and frames, added in the order the Session
 * emits them; frames come back as {@link Frame} objects rebuilt from the columns and the bytes read back.
 */
export class FrameIndex {
	private count = 0;
	private readonly chunks: Record<StreamName, ChunkTable> = {stdin: new ChunkTable(), stdout: new ChunkTable(), stderr: new ChunkTable()};
	private readonly stream = u8();
	private readonly kind = u8();
	private readonly framing = u8();
	private readonly terminator = u8();
	private readonly idTag = u8();
	private readonly offset = f64();
	private readonly byteLength = u32();
	private readonly bodyDelta = u32();
	private readonly bodyLength = u32();
	private readonly lineCount = u32();
	private readonly tMs = f64();
	private readonly firstTMs = f64();
	private readonly firstSeq = u32();
	private readonly lastSeq = u32();
	private readonly method = i32();
	private readonly answersMethod = i32();
	private readonly answersRequest = i32();
	private readonly latency = f64();
	private readonly idNumber = f64();
	private readonly strings = new Strings();
	/** Frames kept whole (see the module comment), by index. */
	private readonly kept = new Map<number, Frame>();
	/** Fields the columns cannot hold, by frame index: a raw id token, a big frame's string id or method. */
	private readonly extras = new Map<number, {rawId?: string; id?: string; method?: string; answersMethod?: string}>();
	/** The last frame added, whole, until the next one: kept when a finding points at it. */
	private last: Frame | undefined;
	private readonly cache = new Map<number, Frame>();
	private bigMessage: {index: number; message: unknown} | undefined;
	private lastRead: {stream: StreamName; offset: number; length: number; bytes: Uint8Array} | undefined;

	/** @param read reads stream bytes back from the capture (see {@link StreamReader}). */
	constructor(private readonly read: StreamReader) {}

	/** Frames indexed. */
	get length(): number {
		return this.count;
	}

	/** Chunks indexed on `stream`. */
	chunkCount(stream: StreamName): number {
		return this.chunks[stream].length;
	}

	/** Add a chunk the Session made (in `seq` order per stream). */
	addChunk(chunk: Chunk): void {
		const table = this.chunks[chunk.stream];
		const i = table.length++;
		table.offset.set(i, chunk.offset);
		table.byteLength.set(i, chunk.bytes.length);
		table.tMs.set(i, chunk.tMs);
		table.seq.set(i, chunk.seq);
	}

	/** Add the next frame the Session emitted (`frame.index` must equal {@link length}). */
	addFrame(frame: Frame): void {
		const i = this.count++;
		if (frame.index !== i) throw new Error(`mcp-wire: frame ${frame.index} added at position ${i}`);
		this.stream.set(i, STREAM_CODE[frame.stream]);
		this.kind.set(i, KINDS.indexOf(frame.kind));
		this.framing.set(i, FRAMINGS.indexOf(frame.framing));
		this.terminator.set(i, TERMINATORS.indexOf(frame.terminator));
		this.offset.set(i, frame.offset);
		this.byteLength.set(i, frame.byteLength);
		this.bodyDelta.set(i, frame.bodyOffset - frame.offset);
		this.bodyLength.set(i, frame.bodyLength);
		this.lineCount.set(i, frame.lineCount);
		this.tMs.set(i, frame.tMs);
		this.firstTMs.set(i, frame.firstTMs);
		this.firstSeq.set(i, frame.firstSeq);
		this.lastSeq.set(i, frame.lastSeq);
		let extra: {rawId?: string; id?: string; method?: string; answersMethod?: string} | undefined;
		const isBig = frame.bodyLength > BIG_BODY_BYTES;
		const method = this.strings.idOf(frame.method);
		this.method.set(i, method);
		if (method === -2 && isBig) (extra ??= {}).method = frame.method!;
		if (frame.answers) {
			const answered = this.strings.idOf(frame.answers.method);
			this.answersMethod.set(i, answered);
			if (answered === -2) (extra ??= {}).answersMethod = frame.answers.method;
			this.answersRequest.set(i, frame.answers.requestIndex);
			this.latency.set(i, frame.answers.latencyMs);
		} else {
			this.answersMethod.set(i, -1);
			this.answersRequest.set(i, -1);
		}

		const id = frame.id;
		if (id === undefined) this.idTag.set(i, ID_NONE);
		else if (id === null) this.idTag.set(i, ID_NULL);
		else if (typeof id === 'number') {
			this.idTag.set(i, ID_NUMBER);
			this.idNumber.set(i, id);
		} else if (isBig) {
			this.idTag.set(i, ID_KEPT);
			(extra ??= {}).id = id;
		} else this.idTag.set(i, ID_STRING);
		if (frame.rawId !== undefined) (extra ??= {}).rawId = frame.rawId;
		if (extra) this.extras.set(i, extra);
		this.last = frame;
	}

	/** Note a finding: the frame it points at is kept whole when it is the last one added and not big. */
	addFinding(finding: Finding): void {
		const last = this.last;
		if (last !== undefined && finding.frameIndex === last.index && last.bodyLength <= BIG_BODY_BYTES) this.kept.set(last.index, last);
	}

	/** The stream of frame `index` (from the columns). */
	streamAt(index: number): StreamName {
		return STREAMS[this.stream.get(index)]!;
	}

	/**
	 * Frame `index` rebuilt from the columns; its `message` and `text` are read back and parsed on first
	 * use. The last 512 frames built are cached. Undefined outside `[0, length)`.
	 */
	frame(index: number): Frame | undefined {
		if (!Number.isInteger(index) || index < 0 || index >= this.count) return undefined;
		const kept = this.kept.get(index);
		if (kept) return kept;
		const cached = this.cache.get(index);
		if (cached) {
			this.cache.delete(index);
			this.cache.set(index, cached);
			return cached;
		}

		const frame = this.build(index);
		this.cache.set(index, frame);
		if (this.cache.size > 512) this.cache.delete(this.cache.keys().next().value!);
		return frame;
	}

	private build(i: number): Frame {
		const index = this; // eslint-disable-line @typescript-eslint/no-this-alias
		const kind = KINDS[this.kind.get(i)]!;
		const stream = STREAMS[this.stream.get(i)]!;
		const offset = this.offset.get(i);
		const bodyOffset = offset + this.bodyDelta.get(i);
		const bodyLength = this.bodyLength.get(i);
		const extra = this.extras.get(i);
		const isJson = kind !== 'text' && kind !== 'blank';
		const methodId = this.method.get(i);
		const answersMethodId = this.answersMethod.get(i);
		const idTag = this.idTag.get(i);
		let parsed: {message: unknown} | undefined;
		const message = (): unknown => {
			if (parsed) return parsed.message;
			if (index.bigMessage?.index === i) return index.bigMessage.message;
			const value = parseBody(index.bytes(stream, bodyOffset, bodyLength));
			if (bodyLength > BIG_BODY_BYTES) index.bigMessage = {index: i, message: value};
			else parsed = {message: value};
			return value;
		};

		const fromMessage = (key: 'id' | 'method'): unknown => (message() as Record<string, unknown> | undefined)?.[key];
		const frame: Frame = {
			index: i,
			stream,
			framing: FRAMINGS[this.framing.get(i)]!,
			offset,
			byteLength: this.byteLength.get(i),
			bodyOffset,
			bodyLength,
			terminator: TERMINATORS[this.terminator.get(i)]!,
			lineCount: this.lineCount.get(i),
			tMs: this.tMs.get(i),
			firstTMs: this.firstTMs.get(i),
			firstSeq: this.firstSeq.get(i),
			lastSeq: this.lastSeq.get(i),
			kind,
			get message(): unknown {
				return isJson ? message() : undefined;
			},
			get method(): string | undefined {
				if (methodId !== -2) return index.strings.value(methodId);
				return extra?.method ?? (fromMessage('method') as string);
			},
			get id(): JsonRpcId | undefined {
				switch (idTag) {
					case ID_NONE:
						return undefined;
					case ID_NULL:
						return null;
					case ID_NUMBER:
						return index.idNumber.get(i);
					case ID_KEPT:
						return extra?.id;
					default:
						return fromMessage('id') as string;
				}
			},
			...(extra?.rawId === undefined ? {} : {rawId: extra.rawId}),
			answers:
				answersMethodId === -1
					? undefined
					: {method: index.strings.value(answersMethodId) ?? extra?.answersMethod ?? '', requestIndex: this.answersRequest.get(i), latencyMs: this.latency.get(i)},
			get text(): string | undefined {
				return kind === 'text' ? Buffer.from(index.bytes(stream, bodyOffset, bodyLength)).toString('utf8') : undefined;
			},
		};
		return frame;
	}

	/**
	 * Bytes `[offset, offset + length)` of a stream, read back from the capture (clamped to what was
	 * indexed). The last range read (up to 1 MiB) is kept: the TUI redraws the same hex rows on every
	 * progress update, and a range inside a big format-1 chunk costs a decode of the whole chunk.
	 */
	bytes(stream: StreamName, offset: number, length: number): Uint8Array {
		const table = this.chunks[stream];
		const last = table.length - 1;
		const end = last < 0 ? 0 : table.offset.get(last) + table.byteLength.get(last);
		const wanted = Math.max(0, Math.min(length, end - offset));
		if (wanted === 0) return new Uint8Array(0);
		const kept = this.lastRead;
		if (kept !== undefined && kept.stream === stream && kept.offset === offset && kept.length === wanted) return kept.bytes;
		const bytes = this.read(stream, offset, wanted);
		this.lastRead = bytes.length === wanted && wanted <= LAST_READ_BYTES ? {stream, offset, length: wanted, bytes} : undefined;
		return bytes;
	}

	/** The chunks that carried bytes `[offset, end)` of a stream, their bytes read back when first used. */
	chunksIn(stream: StreamName, offset: number, end: number): Chunk[] {
		const table = this.chunks[stream];
		const out: Chunk[] = [];
		for (let i = Math.max(0, table.find(offset)); i < table.length; i++) {
			const start = table.offset.get(i);
			if (start >= end) break;
			const chunkLength = table.byteLength.get(i);
			if (start + chunkLength <= offset) continue;
			const read = this.read;
			let bytes: Uint8Array | undefined;
			out.push({
				seq: table.seq.get(i),
				stream,
				tMs: table.tMs.get(i),
				offset: start,
				get bytes() {
					return (bytes ??= read(stream, start, chunkLength));
				},
			});
		}

		return out;
	}
}

/** A frame body parsed as the framer parses it (JSON.parse of its UTF-8), with nesting past the limit cut as the Session cuts it. */
function parseBody(bytes: Uint8Array): unknown {
	let message: unknown;
	try {
		message = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
	} catch {
		return undefined;
	}

	return nestsDeeperThan(message) ? cutNesting(message) : message;
}

/**
 * A {@link TableStore} over a Session that keeps nothing (`retain: false`) and a {@link FrameIndex}: the
 * session derives the findings, summary, marks and stderr tail as it always does (the same findings as
 * a retaining session), the index answers for the frames and bytes (read back from the capture).
 */
export class IndexedSession implements TableStore {
	readonly index: FrameIndex;
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
		this.index = new FrameIndex(read);
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
		if (this.snapshot && base === this.sessionSnapshot && this.frameCount === this.index.length && this.findingCount === this.findings.length) return this.snapshot;
		this.sessionSnapshot = base;
		const index = this.index;
		const length = index.length;
		this.frameCount = length;
		const findings = this.findingCount === this.findings.length && this.snapshot ? this.snapshot.findings : this.findings.slice();
		this.findingCount = this.findings.length;
		const frames: FrameTable = {
			length,
			at: (i) => (i < length ? index.frame(i) : undefined),
			streamAt: (i) => index.streamAt(i),
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
