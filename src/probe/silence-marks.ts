import {Buffer} from 'node:buffer';
import {noResponseDraft} from '../core/findings/rules/no-response.js';
import type {Session} from '../core/session/session.js';
import type {ProcessEvidence} from '../core/types.js';
import type {ProcInfo} from '../process/proc-info.js';
import {REPLY_HEAD_BYTES} from './limits.js';
import type {ReprobeResult} from './reprobe.js';

/** The wait for `initialize` that ended without a reply: when, how much stdout there was, and what was seen. */
export interface InitializeGiveUp {
	readonly tMs: number;
	/** Bytes on stdout when the probe gave up. */
	readonly stdoutBytes: number;
	readonly waitedMs: number;
	readonly evidence?: ProcessEvidence;
	/** The wait ended before its limit (the server was seen blocked reading stdin). */
	readonly stoppedEarly?: boolean;
}

/**
 * The live-only facts of a silent server, as `observed` marks the rules derive findings from (so a replay
 * derives the same, docs/json-records.md#mark): `reprobe-answered` when the Content-Length re-probe got a
 * reply (its first {@link REPLY_HEAD_BYTES} bytes kept as base64), else `no-reply` (the `no-response`
 * draft: the wait, `stoppedEarly`, the stderr tail, evidence, procInfo) when stdout stayed empty.
 * @param limitMs initialize's limit (ms), reported unless the wait stopped early
 */
export function markSilence(
	session: Session,
	gaveUp: InitializeGiveUp,
	limitMs: number,
	reprobe: ReprobeResult | undefined,
	procInfo: ProcInfo | undefined,
): void {
	const reply = reprobe?.reply;
	if (reprobe && reply) {
		const head = reprobe.session
			.getSnapshot()
			.bytes('stdout', reply.offset, Math.min(reply.byteLength, REPLY_HEAD_BYTES));
		session.mark({
			type: 'observed',
			what: 'reprobe-answered',
			offset: gaveUp.stdoutBytes,
			tMs: gaveUp.tMs,
			// The evidence lives in another process's stdout: keep its first bytes with the finding, so a
			// report or a replay can show them.
			detail: {
				reprobe: true,
				replyBytes: reply.byteLength,
				replyFraming: reply.framing,
				replyHead: Buffer.from(head).toString('base64'),
			},
		});
		return;
	}
	if (session.streamLength('stdout') !== 0) return;
	const draft = noResponseDraft({
		at: gaveUp,
		timeoutMs: gaveUp.stoppedEarly === true ? gaveUp.waitedMs : limitMs,
		...(gaveUp.stoppedEarly === true ? {stoppedEarly: true} : {}),
		stderrTail: session.stderrTail(10),
		...(gaveUp.evidence ? {evidence: gaveUp.evidence} : {}),
		...(procInfo ? {procInfo} : {}),
	});
	session.mark({type: 'observed', what: 'no-reply', offset: draft.offset, tMs: draft.tMs, detail: draft.detail ?? {}});
}
