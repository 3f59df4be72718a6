import {Buffer} from 'node:buffer';
import type {Chunk, Finding, Frame, FrameKind, Framing, JsonRpcId, StreamName, Terminator} from '../../types.js';
import {cutNesting, nestsDeeperThan} from '../../jsonrpc/depth.js';
import {ChunkTable} from './compact-chunks.js';
import {ByteLog, EVERY, EVERY_BITS, f64, u8, Strings, type LogReader} from './compact-log.js';
import type {SearchFields, StreamReader} from './frame-table.js';

/**
 * A compact frame index for the TUI on a big capture (docs/performance.md#tui-on-big-captures): per frame and per chunk only
 * numbers, in variable-length records (stream, stream offset, lengths, times, sequence numbers, a method
 * id from a string table, the JSON-RPC id when it is a number; what follows from the previous record or
 * the chunks is left out). The bytes of the frames on screen are read back from the capture file by
 * stream offset when shown (tap/capture-read-back.ts) and their JSON is parsed again then (lazily:
 * `message` is parsed on first use), so memory grows by about 12 bytes per frame and 11 per chunk
 * (24 MB for a capture of 1M one-read frames) instead of holding every frame's bytes and parsed message.
 *
 * Frames are rebuilt from the bytes exactly as the Session built them (test/core/session/stores/compact-frame-index.test.ts
 * compares every field case and example capture with a retaining Session). Where re-parsing the body
 * could read differently (a frame a finding points at: concatenated JSON, cut nesting, a BOM), the frame
 * is kept whole when its body is at most {@link BIG_BODY_BYTES}, unless its bytes, checked when the
 * finding comes, rebuild it the same (a CR LF line end on every frame keeps none).
 */

/** Bodies longer than this are never kept whole nor cached parsed for long (bytes). */
export const BIG_BODY_BYTES = 64 * 1024;

/** Bytes read back at a time by {@link CompactFrameIndex.search} (per stream). */
const SEARCH_BLOCK_BYTES = 4 * 1024 * 1024;

/** The last range read back is kept when at most this long (bytes). */
const LAST_READ_BYTES = 1024 * 1024;

const STREAMS: readonly StreamName[] = ['stdin', 'stdout', 'stderr'];
const STREAM_CODE: Readonly<Record<StreamName, number>> = {stdin: 0, stdout: 1, stderr: 2};
const KINDS: readonly FrameKind[] = ['request', 'notification', 'response', 'error', 'json', 'text', 'blank'];
const FRAMINGS: readonly Framing[] = ['newline', 'content-length'];
const TERMINATORS: readonly Terminator[] = ['lf', 'crlf', 'none', 'length'];

/** `idTag`: how the frame's id is stored. */
const ID_NONE = 0;
const ID_NULL = 1;
/** An integer id, |id| ≤ 2^52 (not -0), in the record. */
const ID_INT = 2;
const ID_STRING = 3;
/** `idTag`: a string id of a big frame, kept in a side map. */
const ID_KEPT = 4;
/** Any other number, as a float in the record. */
const ID_FLOAT = 5;

/** Frame record flags, first byte after the kind byte. */
const F_OFFSET_FOLLOWS = 1 << 3;
const F_T_CHUNK = 1 << 4;
const F_FIRST_T_SAME = 1 << 5;
const F_FIRST_T_CHUNK = 1 << 6;
const F_ANSWERS = 1 << 7;
/** Frame record flags, second byte. */
const G_LATENCY_DERIVED = 1;
const G_ONE_CHUNK = 2;
const G_ONE_LINE = 4;
const G_NO_METHOD = 8;

/** Frame times kept at hand (by index modulo the size) to tell whether a latency is `tMs - request.tMs`. */
const RECENT_FRAMES = 8192;

/** The numbers of one frame, decoded from its record. */
interface FrameFields {
	stream: number;
	kind: number;
	framing: number;
	terminator: number;
	idTag: number;
	offset: number;
	byteLength: number;
	bodyDelta: number;
	bodyLength: number;
	lineCount: number;
	tMs: number;
	firstTMs: number;
	firstSeq: number;
	lastSeq: number;
	method: number;
	answersMethod: number;
	answersRequest: number;
	latency: number;
	/** The latency is `tMs - request.tMs` (not in the record). */
	isLatencyDerived: boolean;
	idNumber: number;
}

/** Decoding state at a frame record: each stream's end (the next frame's offset when it follows) and the last `lastSeq`. */
interface FrameState {
	ends: [number, number, number];
	lastSeq: number;
}

/**
 * The index itself: chunks (with their place in the file) and frames, added in the order the Session
 * emits them; frames come back as {@link Frame} objects rebuilt from the records and the bytes read back.
 *
 * Frames are records of a {@link ByteLog} (about 12 bytes for a one-line JSON-RPC frame): kinds and
 * flags in two bytes, then varints; the offset only when the frame does not follow the previous one on
 * its stream; times only when they are not the time of the frame's first/last chunk; a latency only
 * when it is not `tMs - request.tMs`. A checkpoint every 32 frames holds the decoding state; a frame is
 * decoded from its checkpoint on (at most 31 records before it). The stream has a column of its own
 * (filters read it for every frame).
 */
export class CompactFrameIndex {
	private count = 0;
	private readonly chunks: Record<StreamName, ChunkTable> = {
		stdin: new ChunkTable(),
		stdout: new ChunkTable(),
		stderr: new ChunkTable(),
	};
	private readonly stream = u8();
	private readonly log = new ByteLog();
	private readonly checkPosition = f64();
	private readonly checkEnds = [f64(), f64(), f64()] as const;
	private readonly checkSeq = f64();
	private readonly state: FrameState = {ends: [0, 0, 0], lastSeq: 0};
	private readonly recentTMs = new Float64Array(RECENT_FRAMES);
	private readonly strings = new Strings();
	/** Frames kept whole (see the module comment), by index. */
	private readonly kept = new Map<number, Frame>();
	/** Fields the records cannot hold, by frame index: a raw id token, a big frame's string id or method. */
	private readonly extras = new Map<number, {rawId?: string; id?: string; method?: string; answersMethod?: string}>();
	/** The last frame added, whole, until the next one: kept when a finding points at it. */
	private last: Frame | undefined;
	/** The last frame a finding pointed at that its bytes rebuild the same (not kept). */
	private checked = -1;
	private readonly cache = new Map<number, Frame>();
	private bigMessage: {index: number; message: unknown} | undefined;
	private lastRead: {stream: StreamName; offset: number; length: number; bytes: Uint8Array} | undefined;
	/** Where decoding stopped: the next record's index, position and state (reading on is cheaper than from a checkpoint). */
	private resume: {index: number; reader: LogReader; state: FrameState} | undefined;

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
		this.chunks[chunk.stream].add(chunk.offset, chunk.bytes.length, chunk.tMs, chunk.seq);
	}

	/** Add the next frame the Session emitted (`frame.index` must equal {@link length}). */
	addFrame(frame: Frame): void {
		const i = this.count;
		if (frame.index !== i) throw new Error(`mcp-wire: frame ${frame.index} added at position ${i}`);
		const stream = STREAM_CODE[frame.stream];
		const log = this.log;
		const state = this.state;
		const position = log.begin();
		if ((i & (EVERY - 1)) === 0) {
			const c = i >>> EVERY_BITS;
			this.checkPosition.set(c, position);
			for (let s = 0; s < 3; s++) this.checkEnds[s]!.set(c, state.ends[s]!);
			this.checkSeq.set(c, state.lastSeq);
		}

		this.count++;
		this.stream.set(i, stream);
		this.resume = undefined;
		let extra: {rawId?: string; id?: string; method?: string; answersMethod?: string} | undefined;
		const isBig = frame.bodyLength > BIG_BODY_BYTES;
		const method = this.strings.idOf(frame.method);
		if (method === -2 && isBig) (extra ??= {}).method = frame.method!;
		const id = frame.id;
		let idTag: number;
		if (id === undefined) idTag = ID_NONE;
		else if (id === null) idTag = ID_NULL;
		else if (typeof id === 'number')
			idTag = Number.isInteger(id) && Math.abs(id) <= 2 ** 52 && !Object.is(id, -0) ? ID_INT : ID_FLOAT;
		else if (isBig) {
			idTag = ID_KEPT;
			(extra ??= {}).id = id;
		} else idTag = ID_STRING;
		if (frame.rawId !== undefined) (extra ??= {}).rawId = frame.rawId;

		const chunks = this.chunks[frame.stream];
		const lastChunkTMs = chunks.recentTime(frame.lastSeq);
		const firstChunkTMs = frame.firstSeq === frame.lastSeq ? lastChunkTMs : chunks.recentTime(frame.firstSeq);
		const isTChunk = lastChunkTMs !== undefined && Object.is(lastChunkTMs, frame.tMs);
		const isFirstTSame = Object.is(frame.firstTMs, frame.tMs);
		const isFirstTChunk = !isFirstTSame && firstChunkTMs !== undefined && Object.is(firstChunkTMs, frame.firstTMs);
		const follows = frame.offset === state.ends[stream];
		const answers = frame.answers;
		let answersMethod = -1;
		let isLatencyDerived = false;
		if (answers) {
			answersMethod = this.strings.idOf(answers.method);
			if (answersMethod === -2) (extra ??= {}).answersMethod = answers.method;
			const request = answers.requestIndex;
			isLatencyDerived =
				Number.isInteger(request) &&
				request >= 0 &&
				request < i &&
				i - request < RECENT_FRAMES &&
				Object.is(frame.tMs - this.recentTMs[request % RECENT_FRAMES]!, answers.latencyMs);
		}

		if (extra) this.extras.set(i, extra);
		log.byte(
			stream |
				(KINDS.indexOf(frame.kind) << 2) |
				(FRAMINGS.indexOf(frame.framing) << 5) |
				(TERMINATORS.indexOf(frame.terminator) << 6),
		);
		log.byte(
			idTag |
				(follows ? F_OFFSET_FOLLOWS : 0) |
				(isTChunk ? F_T_CHUNK : 0) |
				(isFirstTSame ? F_FIRST_T_SAME : 0) |
				(isFirstTChunk ? F_FIRST_T_CHUNK : 0) |
				(answers ? F_ANSWERS : 0),
		);
		log.byte(
			(isLatencyDerived ? G_LATENCY_DERIVED : 0) |
				(frame.firstSeq === frame.lastSeq ? G_ONE_CHUNK : 0) |
				(frame.lineCount === 1 ? G_ONE_LINE : 0) |
				(method === -1 ? G_NO_METHOD : 0),
		);
		log.uint(frame.byteLength);
		if (!follows) log.uint(frame.offset);
		const bodyDelta = frame.bodyOffset - frame.offset;
		log.uint(bodyDelta);
		log.int(frame.byteLength - bodyDelta - frame.bodyLength);
		if (frame.lineCount !== 1) log.uint(frame.lineCount);
		log.int(frame.firstSeq - state.lastSeq);
		if (frame.firstSeq !== frame.lastSeq) log.uint(frame.lastSeq - frame.firstSeq);
		if (!isTChunk) log.float(frame.tMs);
		if (!isFirstTSame && !isFirstTChunk) log.float(frame.firstTMs);
		if (method !== -1) log.uint(method + 2);
		if (answers) {
			log.uint(answersMethod + 2);
			log.int(i - answers.requestIndex);
			if (!isLatencyDerived) log.float(answers.latencyMs);
		}

		if (idTag === ID_INT) log.int(id as number);
		else if (idTag === ID_FLOAT) log.float(id as number);
		state.ends[stream] = frame.offset + frame.byteLength;
		state.lastSeq = frame.lastSeq;
		this.recentTMs[i % RECENT_FRAMES] = frame.tMs;
		// Only a frame that may be kept (see addFinding): a big one's parsed message is not held until the next frame.
		this.last = isBig ? undefined : frame;
	}

	/** The numbers of frame `i` (`0 <= i < length`), decoded from its checkpoint (or from where the last decoding stopped). */
	private fields(i: number, withTimes = true): FrameFields {
		let reader: LogReader;
		let state: FrameState;
		let k: number;
		const resume = this.resume;
		if (resume !== undefined && resume.index <= i && i - resume.index < EVERY) {
			({reader, state, index: k} = resume);
		} else {
			const c = i >>> EVERY_BITS;
			k = c << EVERY_BITS;
			reader = this.log.reader(this.checkPosition.get(c));
			state = {
				ends: [this.checkEnds[0].get(c), this.checkEnds[1].get(c), this.checkEnds[2].get(c)],
				lastSeq: this.checkSeq.get(c),
			};
		}

		for (;;) {
			reader.begin();
			const fields = this.decode(k, reader, state, withTimes);
			k++;
			if (k > i) {
				this.resume = {index: k, reader, state};
				return fields;
			}
		}
	}

	/**
	 * Decode one frame record at `reader`, moving `state` past it. Without `withTimes`, a time that is its
	 * chunk's is not looked up (NaN): a search reads no time, and the lookup costs a chunk scan.
	 */
	private decode(index: number, reader: LogReader, state: FrameState, withTimes = true): FrameFields {
		const b0 = reader.byte();
		const b1 = reader.byte();
		const b2 = reader.byte();
		const stream = b0 & 3;
		const byteLength = reader.uint();
		const offset = b1 & F_OFFSET_FOLLOWS ? state.ends[stream]! : reader.uint();
		const bodyDelta = reader.uint();
		const bodyLength = byteLength - bodyDelta - reader.int();
		const lineCount = b2 & G_ONE_LINE ? 1 : reader.uint();
		const firstSeq = state.lastSeq + reader.int();
		const lastSeq = b2 & G_ONE_CHUNK ? firstSeq : firstSeq + reader.uint();
		const chunks = this.chunks[STREAMS[stream]!];
		const tMs = b1 & F_T_CHUNK ? (withTimes ? chunks.timeOf(lastSeq)! : Number.NaN) : reader.float();
		const firstTMs =
			b1 & F_FIRST_T_SAME
				? tMs
				: b1 & F_FIRST_T_CHUNK
					? withTimes
						? chunks.timeOf(firstSeq)!
						: Number.NaN
					: reader.float();
		const method = b2 & G_NO_METHOD ? -1 : reader.uint() - 2;
		let answersMethod = -1;
		let answersRequest = -1;
		let latency = 0;
		let isLatencyDerived = false;
		if (b1 & F_ANSWERS) {
			answersMethod = reader.uint() - 2;
			answersRequest = index - reader.int();
			isLatencyDerived = (b2 & G_LATENCY_DERIVED) !== 0;
			if (!isLatencyDerived) latency = reader.float();
		}

		const idTag = b1 & 7;
		const idNumber = idTag === ID_INT ? reader.int() : idTag === ID_FLOAT ? reader.float() : 0;
		state.ends[stream] = offset + byteLength;
		state.lastSeq = lastSeq;
		return {
			stream,
			kind: (b0 >>> 2) & 7,
			framing: (b0 >>> 5) & 1,
			terminator: (b0 >>> 6) & 3,
			idTag,
			offset,
			byteLength,
			bodyDelta,
			bodyLength,
			lineCount,
			tMs,
			firstTMs,
			firstSeq,
			lastSeq,
			method,
			answersMethod,
			answersRequest,
			latency,
			isLatencyDerived,
			idNumber,
		};
	}

	/** Frames kept whole (see {@link addFinding}). */
	get keptCount(): number {
		return this.kept.size;
	}

	/** The last frame added, until the next one (see {@link addFinding}). */
	get lastFrame(): Frame | undefined {
		return this.last;
	}

	/** True when the frame `index` points at was already judged (kept whole, or rebuilt the same from its bytes). */
	isChecked(index: number): boolean {
		return this.checked === index || this.kept.has(index);
	}

	/**
	 * Note a finding: the frame it points at is kept whole when it is the last one added and not big, unless
	 * `body` (the frame's body bytes, when the caller still holds them) rebuilds it the same: a finding on
	 * every frame then costs no frame kept (docs/performance.md#tui-on-big-captures).
	 */
	addFinding(finding: Finding, body?: Uint8Array): void {
		const last = this.last;
		if (last === undefined || finding.frameIndex !== last.index || last.bodyLength > BIG_BODY_BYTES) return;
		if (this.isChecked(last.index)) return;
		if (body !== undefined && rebuildsSame(last, body)) this.checked = last.index;
		else this.kept.set(last.index, last);
	}

	/** The stream of frame `index` (from its column). */
	streamAt(index: number): StreamName {
		return STREAMS[this.stream.get(index)]!;
	}

	/**
	 * Frame `index` rebuilt from its record; its `message` and `text` are read back and parsed on first
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
		const f = this.fields(i);
		const kind = KINDS[f.kind]!;
		const stream = STREAMS[f.stream]!;
		const offset = f.offset;
		const bodyOffset = offset + f.bodyDelta;
		const bodyLength = f.bodyLength;
		const extra = this.extras.get(i);
		const isJson = kind !== 'text' && kind !== 'blank';
		const methodId = f.method;
		const idTag = f.idTag;
		const idNumber = f.idNumber;
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
		let answers: Frame['answers'];
		if (f.answersMethod !== -1) {
			const latencyMs = f.isLatencyDerived ? f.tMs - this.fields(f.answersRequest).tMs : f.latency;
			answers = {
				method: this.strings.value(f.answersMethod) ?? extra?.answersMethod ?? '',
				requestIndex: f.answersRequest,
				latencyMs,
			};
		}

		const frame: Frame = {
			index: i,
			stream,
			framing: FRAMINGS[f.framing]!,
			offset,
			byteLength: f.byteLength,
			bodyOffset,
			bodyLength,
			terminator: TERMINATORS[f.terminator]!,
			lineCount: f.lineCount,
			tMs: f.tMs,
			firstTMs: f.firstTMs,
			firstSeq: f.firstSeq,
			lastSeq: f.lastSeq,
			kind,
			get message(): unknown {
				return isJson ? message() : undefined;
			},
			get method(): string | undefined {
				return methodFromRecord(index.strings, methodId, extra, fromMessage);
			},
			get id(): JsonRpcId | undefined {
				return idFromRecord(idTag, idNumber, extra, fromMessage);
			},
			...(extra?.rawId === undefined ? {} : {rawId: extra.rawId}),
			answers,
			get text(): string | undefined {
				return kind === 'text' ? Buffer.from(index.bytes(stream, bodyOffset, bodyLength)).toString('utf8') : undefined;
			},
		};
		return frame;
	}

	/**
	 * {@link FrameTable.search} over the first `length` frames: each frame's record is decoded in order
	 * (not built), `test` is given an object whose `method`, `answers`, `id` and `text` are what the built
	 * frame gives (a frame kept whole is tested itself); bodies it must read (a text line, a string id) come
	 * from blocks of {@link SEARCH_BLOCK_BYTES} read back once per stream and range, not one read per frame.
	 */
	search(length: number, include: (index: number) => boolean, test: (frame: SearchFields) => boolean): number[] {
		const out: number[] = [];
		const blocks: Record<StreamName, {offset: number; bytes: Uint8Array}> = {
			stdin: {offset: 0, bytes: new Uint8Array(0)},
			stdout: {offset: 0, bytes: new Uint8Array(0)},
			stderr: {offset: 0, bytes: new Uint8Array(0)},
		};
		const body = (stream: StreamName, offset: number, bodyLength: number): Uint8Array => {
			const block = blocks[stream];
			if (offset >= block.offset && offset + bodyLength <= block.offset + block.bytes.length)
				return block.bytes.subarray(offset - block.offset, offset - block.offset + bodyLength);
			if (bodyLength > SEARCH_BLOCK_BYTES) return this.bytes(stream, offset, bodyLength);
			const end = this.chunks[stream].end;
			block.offset = offset;
			block.bytes = this.read(stream, offset, Math.max(bodyLength, Math.min(SEARCH_BLOCK_BYTES, end - offset)));
			return block.bytes.subarray(0, bodyLength);
		};

		const strings = this.strings;
		const index = this; // eslint-disable-line @typescript-eslint/no-this-alias
		// One object for every frame tested (no closures per frame): its getters read the current frame.
		let i = 0;
		let f!: FrameFields;
		let extra: {rawId?: string; id?: string; method?: string; answersMethod?: string} | undefined;
		let message: {value: unknown} | undefined;
		const fromMessage = (key: 'id' | 'method'): unknown => {
			const kind = KINDS[f.kind]!;
			message ??= {
				value:
					kind === 'text' || kind === 'blank'
						? undefined
						: parseBody(body(STREAMS[f.stream]!, f.offset + f.bodyDelta, f.bodyLength)),
			};
			return (message.value as Record<string, unknown> | undefined)?.[key];
		};

		const probe: SearchFields = {
			get method(): string | undefined {
				return methodFromRecord(strings, f.method, extra, fromMessage);
			},
			get answers() {
				if (f.answersMethod === -1) return undefined;
				const frame = i;
				const {answersRequest, isLatencyDerived, latency} = f;
				return {
					method: strings.value(f.answersMethod) ?? extra?.answersMethod ?? '',
					requestIndex: answersRequest,
					get latencyMs() {
						return isLatencyDerived ? index.fields(frame).tMs - index.fields(answersRequest).tMs : latency;
					},
				};
			},
			get id(): JsonRpcId | undefined {
				return idFromRecord(f.idTag, f.idNumber, extra, fromMessage);
			},
			get text(): string | undefined {
				if (KINDS[f.kind] !== 'text') return undefined;
				const bytes = body(STREAMS[f.stream]!, f.offset + f.bodyDelta, f.bodyLength);
				return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
			},
		};

		const last = Math.min(length, this.count);
		for (i = 0; i < last; i++) {
			if (!include(i)) continue;
			const kept = this.kept.get(i);
			if (kept) {
				if (test(kept)) out.push(i);
				continue;
			}

			f = this.fields(i, false);
			extra = this.extras.get(i);
			message = undefined;
			if (test(probe)) out.push(i);
		}

		return out;
	}

	/**
	 * Bytes `[offset, offset + length)` of a stream, read back from the capture (clamped to what was
	 * indexed). The last range read (up to 1 MiB) is kept: the TUI redraws the same hex rows on every
	 * progress update, and a range inside a big format-1 chunk costs a decode of the whole chunk.
	 */
	bytes(stream: StreamName, offset: number, length: number): Uint8Array {
		const table = this.chunks[stream];
		const end = table.length === 0 ? 0 : table.end;
		const wanted = Math.max(0, Math.min(length, end - offset));
		if (wanted === 0) return new Uint8Array(0);
		const kept = this.lastRead;
		if (kept !== undefined && kept.stream === stream && kept.offset === offset && kept.length === wanted)
			return kept.bytes;
		const bytes = this.read(stream, offset, wanted);
		this.lastRead =
			bytes.length === wanted && wanted <= LAST_READ_BYTES ? {stream, offset, length: wanted, bytes} : undefined;
		return bytes;
	}

	/** The chunks that carried bytes `[offset, end)` of a stream, their bytes read back when first used. */
	chunksIn(stream: StreamName, offset: number, end: number): Chunk[] {
		const table = this.chunks[stream];
		const out: Chunk[] = [];
		const read = this.read;
		table.from(offset, (chunk) => {
			const start = chunk.offset;
			if (start >= end) return false;
			const chunkLength = chunk.byteLength;
			if (start + chunkLength <= offset) return true;
			let bytes: Uint8Array | undefined;
			out.push({
				seq: chunk.seq,
				stream,
				tMs: chunk.tMs,
				offset: start,
				get bytes() {
					return (bytes ??= read(stream, start, chunkLength));
				},
			});
			return true;
		});
		return out;
	}
}

/**
 * A frame's JSON-RPC id from its record: `idTag` says how it was stored (none, null, a number kept in
 * the record as `idNumber`, a big frame's id kept in `extra`); a string id is read back from the body
 * by `fromMessage`. Used by both {@link CompactFrameIndex} builds of a frame and its search, so they agree.
 */
function idFromRecord(
	idTag: number,
	idNumber: number,
	extra: {id?: string} | undefined,
	fromMessage: (key: 'id') => unknown,
): JsonRpcId | undefined {
	switch (idTag) {
		case ID_NONE:
			return undefined;
		case ID_NULL:
			return null;
		case ID_INT:
		case ID_FLOAT:
			return idNumber;
		case ID_KEPT:
			return extra?.id;
		default:
			return fromMessage('id') as string;
	}
}

/**
 * A frame's JSON-RPC method from its record: `methodId` indexes the string table (-1: none; -2: not
 * interned, so taken from `extra` of a big frame or read back from the body by `fromMessage`).
 */
function methodFromRecord(
	strings: Strings,
	methodId: number,
	extra: {method?: string} | undefined,
	fromMessage: (key: 'method') => unknown,
): string | undefined {
	if (methodId !== -2) return strings.value(methodId);
	return extra?.method ?? (fromMessage('method') as string);
}

/**
 * True when `body` (the frame's body bytes) gives back what a rebuilt frame reads from it: the same text
 * for a text line, the same parsed message for JSON (not for a line of concatenated JSON, whose message is
 * its first value). A blank frame is not judged (false).
 */
function rebuildsSame(frame: Frame, body: Uint8Array): boolean {
	if (body.length !== frame.bodyLength) return false;
	if (frame.kind === 'blank') return false;
	if (frame.kind === 'text')
		return frame.text === Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
	return sameJson(parseBody(body), frame.message, 0);
}

/** Deep equality of parsed JSON values, keys in the same order (false past a nesting of 200 or on anything else). */
function sameJson(a: unknown, b: unknown, depth: number): boolean {
	if (a === b) return a !== undefined || b !== undefined;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth > 200) return false;
	if (Array.isArray(a)) {
		if (!Array.isArray(b) || a.length !== b.length) return false;
		for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], depth + 1)) return false;
		return true;
	}

	if (Array.isArray(b)) return false;
	const ka = Object.keys(a);
	const kb = Object.keys(b);
	if (ka.length !== kb.length) return false;
	for (let i = 0; i < ka.length; i++) {
		const key = ka[i]!;
		if (key !== kb[i]) return false;
		if (!sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], depth + 1)) return false;
	}

	return true;
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
