import {idKey} from '../jsonrpc/id-key.js';
import type {Chunk, FindingDraft, Frame, Mark, StreamName} from '../types.js';

/**
 * Passive detectors: checks that only real traffic (a tapped client and server, issue 3 item 3) can
 * feed, added to what the Session derives. Pure functions over a session's frames, chunks and marks;
 * the same input gives the same findings, live or replayed.
 *
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
	/** Process marks. */
	readonly marks: readonly Mark[];
}

/**
 * Run every passive detector (buffer-sized bursts moved to the `unflushed-output` rule module, where
 * they need process evidence).
 * @returns finding drafts in stream-offset order
 */
export function detectPassive(input: PassiveInput): FindingDraft[] {
	return detectDuplicateRequestIds(input.frames);
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
