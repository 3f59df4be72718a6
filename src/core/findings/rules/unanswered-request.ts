import {idKey} from '../../jsonrpc/id-key.js';
import type {Finding, FindingDraft, JsonRpcId, Mark} from '../../types.js';
import {detailNumber, detailString, NOT_ESTABLISHED_IMPACT, row} from '../support/meta.js';
import type {Rule} from '../engine.js';
import {stderrCause, unansweredEvidence} from '../support/unanswered.js';
import {SLOW_RESPONSE_LIMITS_MS} from './slow-response.js';

/** The clients' wait for a response to a request after `initialize` (ms): the TS SDK default (R15). */
const CLIENT_REQUEST_LIMIT_MS = SLOW_RESPONSE_LIMITS_MS.request;

/** The probe's phase marks of a wait it ended early on evidence: the server will not answer (not a limit). */
const EARLY_STOPS = new Set(['stopped-early', 'content-length-reply']);

const HANG_IMPACT = row({
	'ts-sdk-v1': ['hang', '`Request timed out` after 60 s'],
	'ts-sdk-v2': ['hang', 'times out'],
	'python-sdk': ['hang', 'waits forever'],
	vscode: ['hang', 'waits'],
	rmcp: ['hang', 'waits'],
	cursor: ['hang', 'times out'],
});

/**
 * The requests after `initialize` the probe gave up on at its own wait (a `timeout` mark), shorter than the
 * clients' {@link CLIENT_REQUEST_LIMIT_MS}, and not ended early on evidence: by id key, the ms waited. Not
 * for a request followed by an error on stdout (a reply with a wrong id, a cut or invalid line): that is a
 * likelier cause of the silence than a slow server.
 */
function ownLimitWaits(): {
	onMark(mark: Mark): void;
	onFinding(finding: Finding): void;
	waitedMs(id: JsonRpcId, sentTMs: number): number | undefined;
} {
	const waits = new Map<string, number>();
	let earlyStopAt: number | undefined;
	let lastStdoutErrorAt = -Infinity;
	return {
		onMark(mark) {
			if (mark.type === 'phase' && EARLY_STOPS.has(mark.name)) earlyStopAt = mark.tMs;
			if (
				mark.type === 'timeout' &&
				mark.method !== 'initialize' &&
				mark.tMs !== earlyStopAt &&
				mark.timeoutMs < CLIENT_REQUEST_LIMIT_MS
			)
				waits.set(idKey(mark.id), mark.timeoutMs);
		},
		onFinding(finding) {
			if (finding.stream === 'stdout' && finding.severity === 'error') lastStdoutErrorAt = finding.tMs;
		},
		waitedMs: (id, sentTMs) => (lastStdoutErrorAt >= sentTMs ? undefined : waits.get(idKey(id))),
	};
}

const causeOffset = (draft: FindingDraft): number | undefined => {
	const cause = draft.detail?.['cause'] as {offset?: unknown} | undefined;
	return typeof cause?.offset === 'number' ? cause.offset : undefined;
};

/** True when `detail.cause` is a reply glued after a stray line's text on stdout, not one written to stderr. */
const isGlued = (draft: FindingDraft): boolean =>
	(draft.detail?.['cause'] as {code?: unknown} | undefined)?.code === 'stray-output';

const GLUED_HINT =
	'The reply itself is whole: end the text before it with a newline, and better send that text to stderr (see `stray-output`); Python `print(..., end="")` and Node `process.stdout.write` write no newline of their own.';

/**
 * `unanswered-request`: a client request that got no response by the end of the session (R15).
 *
 * Reported at the request's frame on stdin, at the end of a session that has one (not for a capture cut
 * short), and not when another finding already explains the silence (`early-exit`, the probe's
 * `no-response` or Content-Length re-probe). An unanswered `ping` is `ping-error`'s (R16), and a request
 * with a string id the server ignores while it answers integer ids is `string-id-unanswered`'s. When the reply
 * was written to stderr, `detail.cause` points at it (`{code: 'message-on-stderr', stream, offset}`); that
 * finding is reported just before. When it was written on stdout glued after a stray line's text, `detail.cause`
 * is `{code: 'stray-output', stream: 'stdout', offset}` (the reply's first byte). When the probe gave up on the request at its own wait (10 s by default, or
 * `--timeout`), shorter than the clients' 60 s (R15), and saw nothing that says the server will not answer,
 * the finding is a warning that says so (`detail.ownLimit`, `detail.waitedMs`): mcp-wire's limit, not a client
 * failure, and what each client does is not established. An error on stdout after the request (a reply with
 * a wrong id, a cut line) keeps it an error: the likelier cause.
 */
export const unansweredRequest: Rule = {
	code: 'unanswered-request',
	pairsAcrossStreams: true,
	meta: {
		severity: 'error',
		title: 'request never answered',
		message: (d) => {
			const request = `${detailString(d, 'method') ?? 'a request'} (id ${JSON.stringify(d.detail?.['id'] ?? null)})`;
			if (d.detail?.['ownLimit'] === true)
				return `${request} got no response within mcp-wire's own wait of ${detailNumber(d, 'waitedMs') ?? 0} ms, shorter than the clients' ${CLIENT_REQUEST_LIMIT_MS / 1000} s per request: not a client failure, and the server may just be slow`;
			const what = `${request} got no response before the session ended`;
			const offset = causeOffset(d);
			if (offset === undefined) return what;
			return isGlued(d)
				? `${what}: its reply was written (stdout offset ${offset}), but glued after text on the same line, which clients drop whole`
				: `${what}: its reply was written to stderr (offset ${offset}), which the client never reads`;
		},
		hint: (d) =>
			d.detail?.['ownLimit'] === true
				? `Probe again with \`--timeout ${CLIENT_REQUEST_LIMIT_MS}\` to see whether it answers within the clients' limit; if it never does, answer every request, with a result or an error.`
				: causeOffset(d) === undefined
					? 'Answer every request, with a result or an error.'
					: isGlued(d)
						? GLUED_HINT
						: 'Write replies to stdout only: look for a logger or a `print` bound to stderr (or to a duplicate of fd 1 that points at stderr) that writes the JSON-RPC message.',
		rules: ['R15'],
		consequenceOf: 'a server that died or was stuck leaves the request open',
		doc: {
			what: 'A request that never got a response (neither result nor error) before the session ended.',
			recognised:
				"Requests still outstanding when a complete session ends, unless something else already explains the silence (`early-exit`, `no-response`). An unanswered `ping` is `ping-error`. When the reply was written to stderr, `message-on-stderr` is reported first and `detail.cause` points at it; when it was written on stdout glued after text on one line (`stray-output` with `detail.glued`), `detail.cause` points at the reply's first byte. When the probe stopped waiting at its own limit (10 s per request by default, or `--timeout`), shorter than the clients' 60 s, and saw nothing that says the server will not answer, the finding is a warning that says so (`detail.ownLimit`): mcp-wire's limit, not a client failure.",
			variants: [
				{label: 'the session ended with the request open', detail: {}},
				{
					label: "the probe stopped waiting at its own limit, shorter than the clients' 60 s",
					severity: 'warning',
					detail: {ownLimit: true, waitedMs: 10_000},
				},
			],
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n', tMs: 0},
					{event: 'stdin-closed', tMs: 1000},
					{exit: 0, tMs: 1010},
				],
			},
		},
		impact: (d) => (d.detail?.['ownLimit'] === true ? NOT_ESTABLISHED_IMPACT() : HANG_IMPACT()),
	},
	create({report, facts}) {
		const evidence = unansweredEvidence();
		const ownLimit = ownLimitWaits();
		return {
			onFinding(finding) {
				evidence.onFinding(finding);
				ownLimit.onFinding(finding);
			},
			onMark(mark) {
				evidence.onMark(mark);
				ownLimit.onMark(mark);
			},
			onEnd({tMs, isComplete}) {
				// Without the end of the session nobody knows yet; with a finding that explains the silence, it says it all.
				if (!isComplete || evidence.isExplained) return;
				for (const {frame, method, id} of facts.outstanding('stdin')) {
					if (method === 'ping' || evidence.isStringIdUnanswered(id)) continue;
					const onStderr = evidence.replyOnStderr(id);
					const gluedAt = evidence.gluedReplyAt(id);
					const cause = onStderr
						? stderrCause(onStderr)
						: gluedAt === undefined
							? undefined
							: {code: 'stray-output', stream: 'stdout', offset: gluedAt};
					const waitedMs = cause ? undefined : ownLimit.waitedMs(id, frame.tMs);
					report({
						code: 'unanswered-request',
						stream: 'stdin',
						offset: frame.offset,
						byteLength: frame.byteLength,
						frameIndex: frame.index,
						tMs,
						...(waitedMs === undefined ? {} : {severity: 'warning' as const}),
						detail: {
							id,
							method,
							...(cause ? {cause} : {}),
							...(waitedMs === undefined ? {} : {ownLimit: true, waitedMs, clientLimitMs: CLIENT_REQUEST_LIMIT_MS}),
						},
					});
				}
			},
		};
	},
};
