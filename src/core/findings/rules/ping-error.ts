import type {FindingDraft} from '../../types.js';
import {detailNumber, detailString, row, UNKNOWN} from '../support/meta.js';
import type {Rule} from '../engine.js';
import {stderrCause, unansweredEvidence} from '../support/unanswered.js';

const isAnswered = (draft: FindingDraft): boolean => draft.detail?.['answered'] !== false;

/**
 * `ping-error`: the client's `ping` answered with an error, or not at all (R16: the receiver MUST answer
 * promptly with an empty result). Field case F39: a server that never routed `ping` answers -32601, and
 * hosts that ping to keep a session alive (the Go SDK's keepalive) close it or reconnect in a loop.
 *
 * - Answered with an error: reported at the first error response on stdout (a server that errs on one
 *   `ping` errs on every one), `detail: {id, answered: true, errorCode, errorMessage}` (the error's `code`
 *   and `message` as sent; null when absent).
 * - Not answered by the end of a session that has one: reported at the `ping` request on stdin,
 *   `detail: {id, answered: false}`, plus `cause` when its reply went to stderr (`message-on-stderr`), as
 *   `unanswered-request` does; skipped when `early-exit` or the probe's `no-response` already explains it,
 *   or `string-id-unanswered` already reported it.
 *
 * A result that is not `{}` is the schema's business (`invalid-result`), not this rule's.
 */
export const pingError: Rule = {
	code: 'ping-error',
	pairsAcrossStreams: true,
	meta: {
		severity: 'error',
		title: 'ping not answered with an empty result',
		message: (d) => {
			const id = JSON.stringify(d.detail?.['id'] ?? null);
			if (!isAnswered(d)) {
				const cause = d.detail?.['cause'] as {offset?: number} | undefined;
				return cause?.offset === undefined
					? `ping (id ${id}) got no response before the session ended`
					: `ping (id ${id}) got no response on stdout: its reply was written to stderr (offset ${cause.offset})`;
			}
			const code = detailNumber(d, 'errorCode');
			const text = detailString(d, 'errorMessage');
			return `ping (id ${id}) was answered with error ${code ?? '(no code)'}${text ? ` "${text.length > 60 ? `${text.slice(0, 59)}…` : text}"` : ''} instead of an empty result`;
		},
		hint: (d) =>
			isAnswered(d) || d.detail?.['cause'] === undefined
				? 'Answer `ping` at any time, before and after initialization, with `{"jsonrpc":"2.0","id":<same id>,"result":{}}` (R16). SDK servers do this for you; hand-written dispatchers must route `ping`.'
				: 'Write replies to stdout only: the `ping` reply went to stderr.',
		rules: ['R16'],
		doc: {
			what: '`ping` answered with an error (typically -32601 `Method not found` from a dispatcher that never routed it) or not answered at all. The receiver must answer every `ping` promptly with an empty result ([R16](docs/protocol.md#r16)); hosts that ping to keep a session alive close it or reconnect in a loop.',
			recognised:
				'An error response whose id is that of a `ping` request; or a `ping` still unanswered when a complete session ends (unless `early-exit` or `no-response` explains it). The probe sends one `ping` after the lists.',
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":2,"method":"ping"}\n', tMs: 0},
					{
						stream: 'stdout',
						bytes: '{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}\n',
						tMs: 1,
					},
				],
			},
		},
		impact: row({
			'ts-sdk-v1': [
				'ok',
				'does not ping by itself (no keepalive in `Client` 1.32.2); a host calling `client.ping()` gets the error (or `Request timed out` after 60 s)',
			],
			'ts-sdk-v2': [
				'ok',
				'does not ping by itself (the 2.4.0 client connects and lists tools, run here); a host calling `ping()` gets the error',
			],
			'python-sdk': [
				'ok',
				'does not ping by itself (mcp 2.3.0: `send_ping` only when the host asks); the host then gets the error',
			],
			vscode: UNKNOWN,
			rmcp: ['ok', 'Codex 0.171 does not ping in its opening (recorded, docs/clients.md#codex)'],
			cursor: UNKNOWN,
		}),
	},
	create({report, facts}) {
		const evidence = unansweredEvidence();
		let isErrorReported = false;
		return {
			onFinding: evidence.onFinding,
			onMark: evidence.onMark,
			onFrame(frame) {
				if (frame.stream !== 'stdout' || frame.kind !== 'error' || frame.answers?.method !== 'ping') return;
				// One error answer says it: the probe's second ping (with a string id, J2) gets the same error.
				if (isErrorReported) return;
				isErrorReported = true;
				const error = (frame.message as {error?: {code?: unknown; message?: unknown}}).error;
				report({
					code: 'ping-error',
					stream: 'stdout',
					offset: frame.offset,
					byteLength: frame.byteLength,
					frameIndex: frame.index,
					tMs: frame.tMs,
					detail: {
						id: frame.id ?? null,
						answered: true,
						errorCode: typeof error?.code === 'number' ? error.code : null,
						errorMessage: typeof error?.message === 'string' ? error.message : null,
					},
				});
			},
			onEnd({tMs, isComplete}) {
				if (!isComplete || evidence.isExplained) return;
				for (const {frame, method, id} of facts.outstanding('stdin')) {
					if (method !== 'ping' || evidence.isStringIdUnanswered(id)) continue;
					const onStderr = evidence.replyOnStderr(id);
					report({
						code: 'ping-error',
						stream: 'stdin',
						offset: frame.offset,
						byteLength: frame.byteLength,
						frameIndex: frame.index,
						tMs,
						detail: {id, answered: false, ...(onStderr ? {cause: stderrCause(onStderr)} : {})},
					});
				}
			},
		};
	},
};
