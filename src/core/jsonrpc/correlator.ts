import {BoundedMap} from '../bounded-map.js';
import type {Frame, JsonRpcId, StreamName} from '../types.js';
import type {IdMapKey} from './id-key.js';

/** How many answered request ids per direction are remembered to recognise a duplicate response. */
const ANSWERED_IDS_KEPT = 4096;

/** A request still waiting for its response. */
export interface WaitingRequest {
	readonly frame: Frame;
	readonly method: string;
}

/**
 * What the {@link Correlator} found a response or error frame to be (J4, J5). Facts, not findings: the rules
 * (`unknown-id`, `duplicate-response`, `response-to-notification`) decide what each one means.
 * - `answered`: it answers `request`, now no longer waiting; `idTypeChanged` when its id is the string of
 *   the request's integer id (`"0"` for 0), which some clients match and some do not;
 * - `unmatched`: its id matches no waiting request; `duplicate` when it most likely answers an answered id
 *   again (same burst, same bytes, or nothing newer waiting) rather than failing to echo a newer one's id;
 * - `answers-notification`: it has no id and follows a notification of the peer that nothing answered yet.
 */
export type Correlation =
	| {readonly type: 'answered'; readonly request: WaitingRequest; readonly idTypeChanged: boolean}
	| {readonly type: 'unmatched'; readonly id: JsonRpcId; readonly duplicate: boolean}
	| {readonly type: 'answers-notification'; readonly notification: Frame};

/** What the correlator needs from the session's frame store to tell a re-sent answer from a stale id. */
export interface AnswerPrints<Print> {
	/** What is kept of an answer's body (stores/frame-store.ts `answerPrint`). */
	answerPrint(frame: Frame): Print;
	/** True when `frame` repeats the body of frame `index` byte for byte. */
	sameBody(index: number, frame: Frame, print: Print): boolean;
}

const opposite = (stream: StreamName): StreamName => (stream === 'stdin' ? 'stdout' : 'stdin');

/**
 * Pairs requests with responses per direction (a request on stdin is answered on stdout and the reverse):
 * the waiting requests by id, the most recent {@link ANSWERED_IDS_KEPT} answered ids per direction (memory
 * stays flat on long taps), and each side's last notification no id-less response has claimed yet. Pure.
 */
export class Correlator<Print> {
	private readonly waiting: Record<StreamName, Map<IdMapKey, WaitingRequest>> = {
		stdin: new Map(),
		stdout: new Map(),
		stderr: new Map(),
	};
	/** Answered request ids per requesting stream → the answer's frame index, the chunk that completed it, its print. */
	private readonly answered: Record<StreamName, BoundedMap<IdMapKey, {index: number; lastSeq: number; body: Print}>> = {
		stdin: new BoundedMap(ANSWERED_IDS_KEPT),
		stdout: new BoundedMap(ANSWERED_IDS_KEPT),
		stderr: new BoundedMap(ANSWERED_IDS_KEPT),
	};
	/** Per requester stream: the last notification it sent that no id-less response has claimed yet (J4). */
	private readonly unclaimed: Record<StreamName, Frame | undefined> = {
		stdin: undefined,
		stdout: undefined,
		stderr: undefined,
	};

	/** @param prints the store's answer prints (a duplicate is told by its bytes when the store keeps none) */
	constructor(private readonly prints: AnswerPrints<Print>) {}

	/** The requests `stream` sent that have no response yet, oldest first. */
	outstanding(stream: StreamName): readonly WaitingRequest[] {
		return [...this.waiting[stream].values()];
	}

	/** The method of `requester`'s waiting request with this id, if any. */
	methodOf(requester: StreamName, id: JsonRpcId): string | undefined {
		return id === null ? undefined : this.waiting[requester].get(id)?.method;
	}

	/**
	 * Take in one classified frame (request, notification, response or error; anything else is ignored).
	 * @returns the correlation of a response or error, or undefined (a request, a notification, an id-less
	 *   response with no notification to claim)
	 */
	correlate(frame: Frame): Correlation | undefined {
		const stream = frame.stream;
		if (frame.kind === 'request') {
			if (frame.id !== undefined && frame.id !== null && frame.method !== undefined)
				this.waiting[stream].set(frame.id, {frame, method: frame.method});
			return undefined;
		}
		if (frame.kind === 'notification') {
			this.unclaimed[stream] = frame;
			return undefined;
		}
		if (frame.kind !== 'response' && frame.kind !== 'error') return undefined;
		const requester = opposite(stream);
		if (frame.id === undefined || frame.id === null) {
			// An id-less response is legal only for a request whose id could not be read (J5); when the peer
			// sent a notification that nothing has answered yet, this answers it (J4: F29, and the probe's
			// initialized + tools/list sent back to back).
			const notification = this.unclaimed[requester];
			if (!notification) return undefined;
			this.unclaimed[requester] = undefined;
			return {type: 'answers-notification', notification};
		}
		let key: IdMapKey = frame.id;
		let request = this.waiting[requester].get(key);
		let idTypeChanged = false;
		// The id came back as a string of the request's integer (`"0"` for 0): the TS SDK clients match by
		// `Number(id)` and the Python SDK normalises it; VS Code and rmcp match the type too (J5).
		if (!request && typeof frame.id === 'string' && /^-?\d{1,15}$/.test(frame.id)) {
			const numeric = Number(frame.id);
			request = this.waiting[requester].get(numeric);
			if (request) {
				key = numeric;
				idTypeChanged = true;
			}
		}
		if (!request) return {type: 'unmatched', id: frame.id, duplicate: this.isDuplicate(requester, key, frame)};
		this.waiting[requester].delete(key);
		this.answered[requester].set(key, {
			index: frame.index,
			lastSeq: frame.lastSeq,
			body: this.prints.answerPrint(frame),
		});
		return {type: 'answered', request, idTypeChanged};
	}

	/**
	 * A second answer to an answered id is a duplicate when it came in the same burst as the first, repeats it
	 * byte for byte, or when nothing newer is waiting; when a newer request is waiting, the id was most likely
	 * not echoed (coerced to 0, or to a stale id) (J5, docs/findings.md).
	 */
	private isDuplicate(requester: StreamName, key: IdMapKey, frame: Frame): boolean {
		const earlier = this.answered[requester].get(key);
		if (earlier === undefined) return false;
		if (earlier.lastSeq === frame.firstSeq || this.prints.sameBody(earlier.index, frame, earlier.body)) return true;
		for (const waiting of this.waiting[requester].values()) if (waiting.frame.index > earlier.index) return false;
		return true;
	}
}
