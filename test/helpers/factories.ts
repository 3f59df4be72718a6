/**
 * Test doubles for the data model (style.md §1.7: mitmproxy's `tflow` idea). Every factory takes a
 * partial object and fills the rest with plain, valid defaults; nothing here runs the framer or the
 * detectors, so a test states exactly the chunks, frames and findings it is about.
 */
import type {
	Chunk,
	Finding,
	Frame,
	Mark,
	SessionMeta,
	SessionSnapshot,
	StreamName,
	StreamTotals,
	Summary,
} from '../../src/core/types.js';

/** Bytes of a string, UTF-8 encoded. */
export function utf8(text: string): Uint8Array {
	return new Uint8Array(Buffer.from(text, 'utf8'));
}

/** Bytes from numbers and/or strings (strings UTF-8 encoded): `bytesOf('{}', 0x0d, 0x0a)`. */
export function bytesOf(...parts: readonly (string | number | Uint8Array)[]): Uint8Array {
	const out: number[] = [];
	for (const part of parts) {
		if (typeof part === 'number') {
			out.push(part);
		} else if (typeof part === 'string') {
			out.push(...utf8(part));
		} else {
			out.push(...part);
		}
	}

	return new Uint8Array(out);
}

/** A chunk; `bytes` may be given as a string (UTF-8). Defaults: seq 0, stdout, tMs 0, offset 0, no bytes. */
export function makeChunk(partial: Partial<Omit<Chunk, 'bytes'>> & {readonly bytes?: Uint8Array | string} = {}): Chunk {
	const {bytes, ...rest} = partial;
	return {
		seq: 0,
		stream: 'stdout',
		tMs: 0,
		offset: 0,
		...rest,
		bytes: typeof bytes === 'string' ? utf8(bytes) : (bytes ?? new Uint8Array()),
	};
}

/**
 * Chunks that tile one stream: each string/array becomes the next chunk at the next offset, seq and tMs
 * counting up from `firstSeq`/`firstTMs` (tMs steps by 1 ms).
 */
export function makeStreamChunks(
	stream: StreamName,
	parts: readonly (Uint8Array | string)[],
	options: {readonly firstSeq?: number; readonly firstTMs?: number; readonly firstOffset?: number} = {},
): Chunk[] {
	let offset = options.firstOffset ?? 0;
	return parts.map((part, k) => {
		const chunk = makeChunk({
			stream,
			seq: (options.firstSeq ?? 0) + k,
			tMs: (options.firstTMs ?? 0) + k,
			offset,
			bytes: part,
		});
		offset += chunk.bytes.length;
		return chunk;
	});
}

/**
 * A frame. Defaults: index 0, stdout, newline framing, offset 0, a byteLength of 1 (just LF), kind
 * `blank`. `bodyOffset`/`bodyLength` default from offset/byteLength and the terminator.
 */
export function makeFrame(partial: Partial<Frame> = {}): Frame {
	const offset = partial.offset ?? 0;
	const byteLength = partial.byteLength ?? 1;
	const terminator = partial.terminator ?? 'lf';
	const terminatorLength = terminator === 'lf' ? 1 : terminator === 'crlf' ? 2 : 0;
	return {
		index: 0,
		stream: 'stdout',
		framing: 'newline',
		offset,
		byteLength,
		bodyOffset: offset,
		bodyLength: Math.max(0, byteLength - terminatorLength),
		terminator,
		lineCount: 1,
		tMs: 0,
		firstTMs: partial.tMs ?? 0,
		firstSeq: 0,
		lastSeq: 0,
		kind: 'blank',
		...partial,
	};
}

/** A finding. Defaults: a `crlf` warning on stdout at offset 0, one byte, with a one-entry impact list. */
export function makeFinding(partial: Partial<Finding> = {}): Finding {
	return {
		code: 'crlf',
		stream: 'stdout',
		offset: 0,
		byteLength: 1,
		tMs: 0,
		severity: 'warning',
		message: 'a frame ends with CR LF',
		hint: 'Write LF only.',
		impact: [{client: 'ts-sdk-v1', reaction: 'ok', note: 'strips the CR'}],
		rules: ['R2'],
		...partial,
	};
}

/** Session facts. Defaults: mcp-wire 0.1.0 on Node v20.20.2/linux, probing `node server.mjs`. */
export function makeMeta(partial: Partial<SessionMeta> = {}): SessionMeta {
	return {
		tool: {name: 'mcp-wire', version: '0.1.0'},
		node: 'v20.20.2',
		platform: 'linux',
		command: ['node', 'server.mjs'],
		envMode: 'sdk-default',
		startedAt: '2026-01-02T03:04:05.678Z',
		mode: 'probe',
		...partial,
	};
}

const NO_TOTALS: StreamTotals = {bytes: 0, chunks: 0, frames: 0};

/** A summary. Defaults: verdict ok, no findings, zero totals, 0 ms. */
export function makeSummary(partial: Partial<Summary> = {}): Summary {
	return {
		verdict: 'ok',
		findings: [],
		errors: 0,
		warnings: 0,
		infos: 0,
		streams: {stdin: NO_TOTALS, stdout: NO_TOTALS, stderr: NO_TOTALS},
		durationMs: 0,
		...partial,
	};
}

/** Input of {@link makeSnapshot}: all optional. */
export interface SnapshotParts {
	readonly meta?: SessionMeta;
	/** The captured bytes: chunks of any streams (each stream's chunks must tile it in offset order). */
	readonly chunks?: readonly Chunk[];
	readonly frames?: readonly Frame[];
	readonly findings?: readonly Finding[];
	readonly marks?: readonly Mark[];
	readonly summary?: Summary;
	readonly isEnded?: boolean;
}

/**
 * A SessionSnapshot over fixed chunks, frames and findings. `bytes()` concatenates each stream's chunks
 * and clamps like the real snapshot; `chunksOf()` returns the chunks overlapping a frame; `stderrTail()`
 * returns the `text` of the last stderr frames. The summary defaults to totals computed from the parts.
 */
export function makeSnapshot(parts: SnapshotParts = {}): SessionSnapshot {
	const chunks = parts.chunks ?? [];
	const frames = parts.frames ?? [];
	const streamBytes = (stream: StreamName): Uint8Array => {
		const own = chunks.filter((chunk) => chunk.stream === stream).sort((a, b) => a.offset - b.offset);
		const total = own.reduce((sum, chunk) => Math.max(sum, chunk.offset + chunk.bytes.length), 0);
		const out = new Uint8Array(total);
		for (const chunk of own) {
			out.set(chunk.bytes, chunk.offset);
		}

		return out;
	};

	const all: Record<StreamName, Uint8Array> = {
		stdin: streamBytes('stdin'),
		stdout: streamBytes('stdout'),
		stderr: streamBytes('stderr'),
	};
	const totals = (stream: StreamName): StreamTotals => ({
		bytes: all[stream].length,
		chunks: chunks.filter((chunk) => chunk.stream === stream).length,
		frames: frames.filter((frame) => frame.stream === stream).length,
	});
	return {
		meta: parts.meta ?? makeMeta(),
		frames,
		findings: parts.findings ?? [],
		marks: parts.marks ?? [],
		summary:
			parts.summary ??
			makeSummary({streams: {stdin: totals('stdin'), stdout: totals('stdout'), stderr: totals('stderr')}}),
		isEnded: parts.isEnded ?? true,
		bytes(stream, offset, length) {
			const data = all[stream];
			const start = Math.min(Math.max(0, offset), data.length);
			const end = Math.min(data.length, start + Math.max(0, length));
			return data.slice(start, end);
		},
		streamLength(stream) {
			return all[stream].length;
		},
		chunksOf(frame) {
			return chunks.filter(
				(chunk) =>
					chunk.stream === frame.stream &&
					chunk.offset < frame.offset + frame.byteLength &&
					chunk.offset + chunk.bytes.length > frame.offset,
			);
		},
		stderrTail(maxLines) {
			return frames
				.filter((frame) => frame.stream === 'stderr')
				.slice(-maxLines)
				.map((frame) => frame.text ?? '');
		},
	};
}
