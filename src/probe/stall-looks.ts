import {explainStall, isWaitingForInputOnly} from '../core/findings/support/evidence.js';
import type {ProcessEvidence} from '../core/types.js';
import {FINAL_LOOK_SPACING_MS, STALL_EVERY_MS, STALL_MARKS_MS} from './limits.js';
import type {ServerLink} from './server-link.js';

/**
 * When the stall looks of one request fall due, in ms from now: {@link STALL_MARKS_MS}, then every
 * {@link STALL_EVERY_MS}, each before the request's limit, counted from when it was written.
 * @param timeoutMs the request's limit (ms)
 * @param sinceMs how long ago the request was written (ms; > 0 for a request written at the spawn)
 */
export function stallLookDelays(timeoutMs: number, sinceMs: number): number[] {
	const marks: number[] = [...STALL_MARKS_MS];
	for (let at = STALL_MARKS_MS[STALL_MARKS_MS.length - 1]! + STALL_EVERY_MS; at < timeoutMs; at += STALL_EVERY_MS)
		marks.push(at);
	return marks.filter((at) => at < timeoutMs).map((at) => Math.max(0, at - sinceMs));
}

/**
 * Counts "final" looks (nothing the probe can wait for will change what they saw): two in a row, at least
 * {@link FINAL_LOOK_SPACING_MS} apart (looks that fell due together saw one instant), end the wait.
 * @returns `see(isFinal, tMs)`, true once the wait should end
 */
export function createFinalLooks(): (isFinal: boolean, tMs: number) => boolean {
	let count = 0;
	let lastTMs = -Infinity;
	return (isFinal, tMs) => {
		if (!isFinal) count = 0;
		else if (tMs - lastTMs >= FINAL_LOOK_SPACING_MS) {
			count += 1;
			lastTMs = tMs;
		}
		return count >= 2;
	};
}

/**
 * Is this look final for a request written at `requestTMs`: the tree blocked reading stdin with everything
 * sent read and nothing running, or a helper holding and reading it (`stdin-inherited`), or, with the whole
 * reply read but for its line end (`replyPending`), the tree waiting for input (idle or reading stdin):
 * nothing more is coming (docs/findings.md#missing-newline)?
 */
export function isFinalLook(
	evidence: ProcessEvidence,
	requestTMs: number,
	firstReplyTMs: number | undefined,
	replyPending = false,
): boolean {
	const when = {requestTMs, firstReplyTMs};
	if (isWaitingForInputOnly(evidence, when)) return true;
	const {state} = explainStall(evidence, when);
	return state === 'stdin-inherited' || (replyPending && state === 'waiting-for-input');
}

/** What {@link scheduleStallLooks} needs of the request it watches. */
export interface StallWatch {
	readonly timeoutMs: number;
	readonly sinceMs: number;
	readonly requestTMs: number;
	/** True once the reply came: later looks are skipped. */
	readonly isAnswered: () => boolean;
	/** True while the reply sits read but unframed: a whole JSON reply without its line end. */
	readonly isReplyPending: () => boolean;
	/** Each kept look (also recorded as an `evidence` mark). */
	readonly onEvidence: (evidence: ProcessEvidence) => void;
	/** Two final looks in a row: end the wait. */
	readonly onFinal: () => void;
}

/**
 * Look at the server's processes while a request is outstanding, at each {@link stallLookDelays} delay
 * (settled looks, `ServerLink.observeSettled`), and call `onFinal` after two final looks in a row.
 * @returns the timers (cleared by the caller when the wait ends)
 */
export function scheduleStallLooks(link: ServerLink, watch: StallWatch): NodeJS.Timeout[] {
	const seeFinal = createFinalLooks();
	const look = (): void => {
		if (watch.isAnswered() || link.server.exitInfo || !link.attached) return;
		link.observeSettled('stall', (evidence, tMs) => {
			if (watch.isAnswered() || link.server.exitInfo) return;
			watch.onEvidence(evidence);
			const final = isFinalLook(evidence, watch.requestTMs, link.replies.firstReplyTMs, watch.isReplyPending());
			if (seeFinal(final, tMs)) watch.onFinal();
		});
	};
	return stallLookDelays(watch.timeoutMs, watch.sinceMs).map((delay) => setTimeout(look, delay));
}
