import {idKey} from '../jsonrpc/id-key.js';
import type {Chunk, FindingDraft, Frame, Mark, StreamName} from '../types.js';

/**
 * Passive detectors: checks that only real traffic (a tapped client and server, issue 3 item 3) can
 * feed, added to what the Session derives. Pure functions over a session's frames, chunks and marks;
 * the same input gives the same findings, live or replayed.
 *
 * - {@link detectBufferedBursts}: reply bytes that arrive in buffer-sized bursts long after their
 *   requests → `unflushed-output`, confidence `inferred` (O2, O3).
 * - {@link detectDuplicateRequestIds}: a requester reusing a request id (J3) → `invalid-jsonrpc`,
 *   `detail.reason: 'duplicate-request-id'`, on the requester's stream (stdin for the client).
 *
 * The Session calls {@link detectPassive} once, at `finish()`, with its snapshot (it has exactly the
 * shape of {@link PassiveInput}), and reports every draft it returns.
 */

/** What the passive detectors read: a SessionSnapshot fits. */
export interface PassiveInput {
	/** All frames, in `index` order (after correlation: responses carry `answers`). */
	readonly frames: readonly Frame[];
	/** The chunks that carried a frame's bytes, in stream order. */
	chunksOf(frame: Frame): readonly Chunk[];
	/** Process marks (a `stdin-closed` mark hands late replies to the Session's observed check). */
	readonly marks: readonly Mark[];
}

/** The stdio buffer size C stdio uses on a pipe (glibc `st_blksize`, O2); bursts are multiples of it. */
export const BURST_UNIT_BYTES = 4096;
/** A reply is "late" when its request was sent at least this long before the burst arrived (ms). */
export const BURST_MIN_AGE_MS = 1000;
/** A burst must carry at least this many response frames (one reply of 4 KiB is just a big reply). */
export const BURST_MIN_RESPONSES = 2;

/**
 * Run every passive detector.
 * @returns finding drafts in stream-offset order per detector (bursts first, then duplicate ids)
 */
export function detectPassive(input: PassiveInput): FindingDraft[] {
	return [...detectBufferedBursts(input), ...detectDuplicateRequestIds(input.frames)];
}

/**
 * Buffer-sized bursts (docs/findings.md `unflushed-output`, O2/O3): a server whose stdout is block
 * buffered (C stdio 4096, Python 8192 on a pipe) holds its replies until the buffer fills, then one
 * write delivers the whole buffer. On the wire that is a stdout chunk whose length is a multiple of
 * 4096 bytes that starts several response frames at once, whose requests were sent long before.
 *
 * A chunk is a burst when (all of):
 * - it is on stdout and its length is a non-zero multiple of {@link BURST_UNIT_BYTES};
 * - at least {@link BURST_MIN_RESPONSES} response/error frames that answer a request start in it;
 * - at least one of them answers a request sent {@link BURST_MIN_AGE_MS} or more before the chunk
 *   arrived;
 * - none of those replies arrived after stdin was closed (that case is observed, not inferred: the
 *   Session's own `unflushed-output` check reports it).
 *
 * One draft per burst: `offset`/`byteLength` are the first late reply frame's; `confidence:
 * 'inferred'`; `detail`: `{method, latencyMs, burstBytes, burstOffset, chunkSeq, bufferBytes,
 * responses, lateResponses, oldestRequestAgeMs}` (`bufferBytes`: 8192 when the length is a multiple of
 * it, else 4096).
 */
export function detectBufferedBursts(input: PassiveInput): FindingDraft[] {
	const stdinClosedAt = input.marks.find((mark) => mark.type === 'stdin-closed')?.tMs;
	const requestTime = new Map<number, number>();
	for (const frame of input.frames) if (frame.kind === 'request') requestTime.set(frame.index, frame.tMs);

	// Group stdout replies by the chunk that delivered their first byte.
	const bursts = new Map<number, {chunk: Chunk; replies: Frame[]}>();
	for (const frame of input.frames) {
		if (frame.stream !== 'stdout' || (frame.kind !== 'response' && frame.kind !== 'error') || frame.answers === undefined) continue;
		const chunk = input.chunksOf(frame)[0];
		if (!chunk || chunk.bytes.length === 0 || chunk.bytes.length % BURST_UNIT_BYTES !== 0) continue;
		const group = bursts.get(chunk.seq) ?? {chunk, replies: []};
		group.replies.push(frame);
		bursts.set(chunk.seq, group);
	}

	const drafts: FindingDraft[] = [];
	for (const {chunk, replies} of bursts.values()) {
		if (replies.length < BURST_MIN_RESPONSES) continue;
		if (stdinClosedAt !== undefined && chunk.tMs >= stdinClosedAt) continue;
		const ageOf = (frame: Frame): number => {
			const sent = requestTime.get(frame.answers!.requestIndex) ?? frame.tMs - frame.answers!.latencyMs;
			return chunk.tMs - sent;
		};
		const late = replies.filter((frame) => ageOf(frame) >= BURST_MIN_AGE_MS);
		if (late.length === 0) continue;
		const first = late[0]!;
		drafts.push({
			code: 'unflushed-output',
			stream: 'stdout',
			offset: first.offset,
			byteLength: first.byteLength,
			frameIndex: first.index,
			tMs: first.tMs,
			confidence: 'inferred',
			detail: {
				method: first.answers!.method,
				latencyMs: first.answers!.latencyMs,
				burstBytes: chunk.bytes.length,
				burstOffset: chunk.offset,
				chunkSeq: chunk.seq,
				bufferBytes: chunk.bytes.length % 8192 === 0 ? 8192 : BURST_UNIT_BYTES,
				responses: replies.length,
				lateResponses: late.length,
				oldestRequestAgeMs: Math.max(...late.map(ageOf)),
			},
		});
	}

	return drafts.sort((a, b) => a.offset - b.offset);
}


/** Protocol revisions from which J3 only forbids reusing an id that is still in flight. */
const IN_FLIGHT_ONLY_FROM = '2026-07-28';

/**
 * Duplicate request ids (J3): "The request ID MUST NOT have been previously used by the requestor
 * within the same session" (≤ 2025-11-25); from 2026-07-28 only ids of requests still awaiting a
 * response are forbidden. Checked per requester stream (stdin: the client; stdout: the server's own
 * requests). The era comes from the session: a `server/discover` request, or an `initialize` answer
 * whose `protocolVersion` is 2026-07-28 or later, makes it modern; otherwise legacy.
 *
 * One draft per reusing request: `code: 'invalid-jsonrpc'` on the requester's stream at the request
 * frame; `detail`: `{reason: 'duplicate-request-id', id, firstIndex, isInFlight, rule: 'J3', problem}`.
 * A reuse while the first request is still unanswered is reported in every era.
 */
export function detectDuplicateRequestIds(frames: readonly Frame[]): FindingDraft[] {
	const isModern = frames.some(
		(frame) =>
			(frame.kind === 'request' && frame.method === 'server/discover') ||
			(frame.kind === 'response' &&
				frame.answers?.method === 'initialize' &&
				typeof (frame.message as {result?: {protocolVersion?: unknown}} | undefined)?.result?.protocolVersion === 'string' &&
				((frame.message as {result: {protocolVersion: string}}).result.protocolVersion >= IN_FLIGHT_ONLY_FROM)),
	);
	const seen: Record<StreamName, Map<string, number>> = {stdin: new Map(), stdout: new Map(), stderr: new Map()};
	// The frame that answered each request (to tell whether it was still in flight at a reuse).
	const answeredBy = new Map<number, number>();
	for (const frame of frames) if (frame.answers && !answeredBy.has(frame.answers.requestIndex)) answeredBy.set(frame.answers.requestIndex, frame.index);

	const drafts: FindingDraft[] = [];
	for (const frame of frames) {
		if (frame.kind !== 'request' || frame.id === undefined || frame.id === null || frame.stream === 'stderr') continue;
		const key = idKey(frame.id);
		const previous = seen[frame.stream].get(key);
		seen[frame.stream].set(key, frame.index);
		if (previous === undefined) continue;
		const answerIndex = answeredBy.get(previous);
		const isInFlight = answerIndex === undefined || answerIndex > frame.index;
		if (isModern && !isInFlight) continue;
		const id = frame.id;
		drafts.push({
			code: 'invalid-jsonrpc',
			stream: frame.stream,
			offset: frame.offset,
			byteLength: frame.byteLength,
			frameIndex: frame.index,
			tMs: frame.tMs,
			message: `request id ${JSON.stringify(id)} was already used by request #${previous}${isInFlight ? ', which is still awaiting its response' : ''} (J3)`,
			detail: {
				reason: 'duplicate-request-id',
				id,
				firstIndex: previous,
				isInFlight,
				rule: 'J3',
				problem: isInFlight ? 'request id reused while the first request is in flight' : 'request id reused within the session',
			},
		});
	}

	return drafts;
}
