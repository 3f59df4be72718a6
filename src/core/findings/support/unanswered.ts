import {idKey} from '../../jsonrpc/id-key.js';
import {USER_STOP_PHASE, type Finding, type JsonRpcId, type Mark} from '../../types.js';

/**
 * True for a finding that already explains why requests got no answer, so the requests left open are not
 * reported again: the process exited early (`early-exit`), never answered (`no-response`), never started
 * (`spawn-failed`), or answers only Content-Length framing (the probe's re-probe, `content-length-framing`
 * with origin `probe`).
 */
export function explainsSilence(finding: Finding): boolean {
	return (
		finding.code === 'early-exit' ||
		finding.code === 'no-response' ||
		finding.code === 'spawn-failed' ||
		(finding.code === 'content-length-framing' && finding.origin === 'probe')
	);
}

/** What a rule about unanswered requests (`unanswered-request`, `ping-error`) learns from other findings. */
export interface UnansweredEvidence {
	/** Feed every finding (the rule's `onFinding`). */
	onFinding(finding: Finding): void;
	/** Feed every mark (the rule's `onMark`): the user stopping the probe early explains the silence too. */
	onMark(mark: Mark): void;
	/** True once a finding explains the silence ({@link explainsSilence}), or the user stopped the probe before its exchange was over. */
	readonly isExplained: boolean;
	/** The `message-on-stderr` finding that carries the reply to client request `id`, if one was reported. */
	replyOnStderr(id: JsonRpcId): Finding | undefined;
	/** True when `string-id-unanswered` already reported request `id` (it runs first: the more exact cause). */
	isStringIdUnanswered(id: JsonRpcId): boolean;
	/** The stdout offset of the reply to `id` that a `stray-output` line carried glued after its text (`detail.glued`). */
	gluedReplyAt(id: JsonRpcId): number | undefined;
}

/**
 * Collects, from the findings reported so far, what explains an unanswered request: a silence already
 * explained, a string id the server does not answer (`string-id-unanswered`), its reply glued after text on a
 * stray line (`stray-output` with `detail.glued`), or its reply written to stderr (`message-on-stderr` with `detail.unanswered`: reported
 * before the requests left open, so the cause comes first: docs/findings.md).
 */
export function unansweredEvidence(): UnansweredEvidence {
	let isExplained = false;
	const onStderr = new Map<string, Finding>();
	const stringIds = new Set<string>();
	const glued = new Map<string, number>();
	return {
		onFinding(finding) {
			const g =
				finding.code === 'stray-output' ? (finding.detail?.['glued'] as {id?: JsonRpcId; offset?: number}) : undefined;
			if (g?.id !== undefined && typeof g.offset === 'number' && !glued.has(idKey(g.id)))
				glued.set(idKey(g.id), g.offset);
			if (explainsSilence(finding)) isExplained = true;
			if (finding.code === 'string-id-unanswered') stringIds.add(idKey(finding.detail?.['id'] as JsonRpcId));
			if (finding.code === 'message-on-stderr' && finding.detail?.['unanswered'] === true) {
				const id = finding.detail['id'] as JsonRpcId;
				const key = idKey(id);
				if (!onStderr.has(key)) onStderr.set(key, finding);
			}
		},
		onMark(mark) {
			if (mark.type === 'phase' && mark.name === USER_STOP_PHASE) isExplained = true;
		},
		get isExplained() {
			return isExplained;
		},
		replyOnStderr: (id) => onStderr.get(idKey(id)),
		isStringIdUnanswered: (id) => stringIds.has(idKey(id)),
		gluedReplyAt: (id) => glued.get(idKey(id)),
	};
}

/** The `detail.cause` of an unanswered request whose reply went to stderr: where that reply is. */
export function stderrCause(finding: Finding): {
	readonly code: 'message-on-stderr';
	readonly stream: 'stderr';
	readonly offset: number;
} {
	return {code: 'message-on-stderr', stream: 'stderr', offset: finding.offset};
}
