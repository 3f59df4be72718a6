import type {FindingDraft} from '../../types.js';
import {detailString, row} from '../support/meta.js';
import type {Rule} from '../engine.js';
import {stderrCause, unansweredEvidence} from '../support/unanswered.js';

const causeOffset = (draft: FindingDraft): number | undefined => {
	const cause = draft.detail?.['cause'] as {offset?: unknown} | undefined;
	return typeof cause?.offset === 'number' ? cause.offset : undefined;
};

/**
 * `unanswered-request`: a client request that got no response by the end of the session (R15).
 *
 * Reported at the request's frame on stdin, at the end of a session that has one (not for a capture cut
 * short), and not when another finding already explains the silence (`early-exit`, the probe's
 * `no-response` or Content-Length re-probe). An unanswered `ping` is `ping-error`'s (R16), and a request
 * with a string id the server ignores while it answers integer ids is `string-id-unanswered`'s. When the reply
 * was written to stderr, `detail.cause` points at it (`{code: 'message-on-stderr', stream, offset}`); that
 * finding is reported just before.
 */
export const unansweredRequest: Rule = {
	code: 'unanswered-request',
	pairsAcrossStreams: true,
	meta: {
		severity: 'error',
		title: 'request never answered',
		message: (d) => {
			const what = `${detailString(d, 'method') ?? 'a request'} (id ${JSON.stringify(d.detail?.['id'] ?? null)}) got no response before the session ended`;
			const offset = causeOffset(d);
			return offset === undefined
				? what
				: `${what}: its reply was written to stderr (offset ${offset}), which the client never reads`;
		},
		hint: (d) =>
			causeOffset(d) === undefined
				? 'Answer every request, with a result or an error.'
				: 'Write replies to stdout only: look for a logger or a `print` bound to stderr (or to a duplicate of fd 1 that points at stderr) that writes the JSON-RPC message.',
		rules: ['R15'],
		consequenceOf: 'a server that died or was stuck leaves the request open',
		doc: {
			what: 'A request that never got a response (neither result nor error) before the session ended.',
			recognised:
				'Requests still outstanding when a complete session ends, unless something else already explains the silence (`early-exit`, `no-response`). An unanswered `ping` is `ping-error`. When the reply was written to stderr, `message-on-stderr` is reported first and `detail.cause` points at it.',
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n', tMs: 0},
					{event: 'stdin-closed', tMs: 1000},
					{exit: 0, tMs: 1010},
				],
			},
		},
		impact: row({
			'ts-sdk-v1': ['hang', '`Request timed out` after 60 s'],
			'ts-sdk-v2': ['hang', 'times out'],
			'python-sdk': ['hang', 'waits forever'],
			vscode: ['hang', 'waits'],
			rmcp: ['hang', 'waits'],
			cursor: ['hang', 'times out'],
		}),
	},
	create({report, facts}) {
		const evidence = unansweredEvidence();
		return {
			onFinding: evidence.onFinding,
			onMark: evidence.onMark,
			onEnd({tMs, isComplete}) {
				// Without the end of the session nobody knows yet; with a finding that explains the silence, it says it all.
				if (!isComplete || evidence.isExplained) return;
				for (const {frame, method, id} of facts.outstanding('stdin')) {
					if (method === 'ping' || evidence.isStringIdUnanswered(id)) continue;
					const onStderr = evidence.replyOnStderr(id);
					report({
						code: 'unanswered-request',
						stream: 'stdin',
						offset: frame.offset,
						byteLength: frame.byteLength,
						frameIndex: frame.index,
						tMs,
						detail: {id, method, ...(onStderr ? {cause: stderrCause(onStderr)} : {})},
					});
				}
			},
		};
	},
};
