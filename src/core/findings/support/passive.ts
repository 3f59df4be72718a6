import {IdTable} from './id-table.js';
import type {Chunk, FindingDraft, Frame, JsonRpcId, Mark, StreamName} from '../../types.js';
import type {RuleListeners} from '../engine.js';
import {reportOnce} from './report-once.js';

/**
 * Passive detectors: checks that only real traffic (a tapped client and server) can
 * feed, added to what the Session derives. Pure and incremental: they listen to frames as they come
 * (in the Rule model's listeners, rule.ts) and hold no list of frames, so a session that keeps nothing
 * (`retain: false`, the streaming `view`/`report`) derives the same findings as one that keeps
 * everything; the same input gives the same findings, live or replayed.
 *
 * - {@link createDuplicateRequestIds}: a requester reusing a request id (J3) → `invalid-jsonrpc`,
 *   `detail.reason: 'duplicate-request-id'`, on the requester's stream (stdin for the client).
 *
 * The Session wires {@link createPassiveListeners} ahead of the rule modules; its drafts are reported at
 * the end of the session (`onEnd`: `settle` and `finish`), in stream-offset order per requester.
 */

/** What {@link detectPassive} reads: a SessionSnapshot fits. */
export interface PassiveInput {
	/** All frames, in `index` order (after correlation: responses carry `answers`). */
	readonly frames: readonly Frame[];
	/** The chunks that carried a frame's bytes, in stream order. */
	chunksOf(frame: Frame): readonly Chunk[];
	/** Process marks. */
	readonly marks: readonly Mark[];
}

/**
 * Run every passive detector over a kept list of frames (the batch form of {@link createPassiveListeners};
 * buffer-sized bursts moved to the `unflushed-output` rule module, where they need process evidence).
 * @returns finding drafts in stream-offset order
 */
export function detectPassive(input: PassiveInput): FindingDraft[] {
	return detectDuplicateRequestIds(input.frames);
}

/**
 * The passive detectors as listeners for a session: `onFrame` for every frame in index order (after
 * correlation); `onSettle` and `onEnd` report what they found so far through `report`, each draft once.
 */
export function createPassiveListeners(report: (draft: FindingDraft) => void): RuleListeners {
	const duplicates = createDuplicateRequestIds();
	const once = reportOnce(report);
	const flush = (): void => {
		for (const draft of duplicates.drafts()) once(draft);
	};
	return {onFrame: (frame) => duplicates.frame(frame), onSettle: flush, onEnd: flush};
}

/** Protocol revisions from which J3 only forbids reusing an id that is still in flight. */
const IN_FLIGHT_ONLY_FROM = '2026-07-28';

/** True when `frame` makes the session modern for J3 (a `server/discover`, or a 2026-07-28+ initialize answer). */
function isModernFrame(frame: Frame): boolean {
	if (frame.kind === 'request') return frame.method === 'server/discover';
	if (frame.kind !== 'response' || frame.answers?.method !== 'initialize') return false;
	const version = (frame.message as {result?: {protocolVersion?: unknown}} | undefined)?.result?.protocolVersion;
	return typeof version === 'string' && version >= IN_FLIGHT_ONLY_FROM;
}

/** An incremental duplicate-request-id detector (J3); see {@link detectDuplicateRequestIds}. */
export interface DuplicateRequestIds {
	/** Feed the next frame, in `index` order, after correlation. */
	frame(frame: Frame): void;
	/** The drafts for every reuse seen so far, as {@link detectDuplicateRequestIds} returns them for those frames. */
	drafts(): FindingDraft[];
}

/**
 * Start an incremental {@link detectDuplicateRequestIds}. Memory: one int32 per distinct request id per
 * requester (the J3 rule before 2026-07-28 forbids reusing any id of the session, so each must be
 * remembered; once the session is modern only in-flight ids are kept): 4 bytes per request for counter
 * ids, a `Map` entry for others (id-table.ts); plus the drafts found.
 */
export function createDuplicateRequestIds(): DuplicateRequestIds {
	let isModern = false;
	// Per requester: id → the index of the request that last used it, as `index` while it is awaiting
	// its response and `-index - 1` once answered.
	const seen: Record<StreamName, IdTable> = {stdin: new IdTable(), stdout: new IdTable(), stderr: new IdTable()};
	// Requests awaiting a response: request index → [stream, id].
	const awaiting = new Map<number, readonly [StreamName, Exclude<JsonRpcId, null>]>();
	// Reuses of an answered id: a finding only while the session is legacy (dropped once it turns modern).
	let afterAnswer: FindingDraft[] = [];
	// Reuses while the first request was in flight: a finding in every era.
	const inFlight: FindingDraft[] = [];
	const draftOf = (frame: Frame, previous: number, isInFlight: boolean): FindingDraft => {
		const id = frame.id!;
		return {
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
				problem: isInFlight
					? 'request id reused while the first request is in flight'
					: 'request id reused within the session',
			},
		};
	};
	return {
		frame(frame) {
			if (!isModern && isModernFrame(frame)) {
				isModern = true;
				afterAnswer = [];
				// From now on only in-flight ids matter: forget the answered ones.
				for (const table of Object.values(seen)) table.deleteWhere((value) => value < 0);
			}
			if (frame.answers) {
				const request = awaiting.get(frame.answers.requestIndex);
				if (request) {
					awaiting.delete(frame.answers.requestIndex);
					const [stream, key] = request;
					const map = seen[stream];
					if (map.get(key) === frame.answers.requestIndex) {
						if (isModern) map.delete(key);
						else map.set(key, -frame.answers.requestIndex - 1);
					}
				}
			}
			if (frame.kind !== 'request' || frame.id === undefined || frame.id === null || frame.stream === 'stderr') return;
			const key = frame.id;
			const map = seen[frame.stream];
			const value = map.get(key);
			map.set(key, frame.index);
			awaiting.set(frame.index, [frame.stream, key]);
			if (value === undefined) return;
			const isInFlight = value >= 0;
			const previous = isInFlight ? value : -value - 1;
			// The earlier request is no longer tracked as awaiting under this key (its answer cannot clear the new one).
			if (isInFlight) awaiting.delete(previous);
			if (isInFlight) inFlight.push(draftOf(frame, previous, true));
			else if (!isModern) afterAnswer.push(draftOf(frame, previous, false));
		},
		drafts() {
			if (afterAnswer.length === 0) return inFlight.slice();
			if (inFlight.length === 0) return afterAnswer.slice();
			// Both lists are in frame order: merge them back into one.
			const out: FindingDraft[] = [];
			let a = 0;
			let b = 0;
			while (a < inFlight.length || b < afterAnswer.length) {
				if (b >= afterAnswer.length || (a < inFlight.length && inFlight[a]!.frameIndex! < afterAnswer[b]!.frameIndex!))
					out.push(inFlight[a++]!);
				else out.push(afterAnswer[b++]!);
			}
			return out;
		},
	};
}

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
	const detector = createDuplicateRequestIds();
	for (const frame of frames) detector.frame(frame);
	return detector.drafts();
}
