import type {FindingDraft, ProcessEvidence} from '../../types.js';
import {summarizeEvidence} from '../support/evidence.js';
import {
	detailNumber,
	detailString,
	envStrippedDetail,
	NOT_ESTABLISHED_IMPACT,
	row,
	withEnvAdvice,
} from '../support/meta.js';
import type {Rule} from '../engine.js';

/** The strictest mainstream startup limit: Claude Code gives a server 30 s to answer `initialize` (docs/protocol.md C8). */
export const STARTUP_LIMIT_MS = 30_000;

/** Inputs of {@link noResponseDraft}. */
export interface NoResponseFacts {
	/** When the probe gave up, and the stdout byte count then (the finding's offset). */
	readonly at: {readonly tMs: number; readonly stdoutBytes: number};
	/** How long the probe waited for `initialize` (ms): its limit, or less when it stopped early. */
	readonly timeoutMs: number;
	/** The probe stopped before its limit: the server was blocked reading stdin, twice in a row. */
	readonly stoppedEarly?: boolean;
	readonly stderrTail: readonly string[];
	/** The evidence taken at the give-up (before stdin was closed), when any. */
	readonly evidence?: ProcessEvidence;
	/** The older one-line `/proc` summary and processes (kept for reports that show `blockedOn`). */
	readonly procInfo?: {readonly processes: readonly unknown[]; readonly summary: string};
}

/**
 * The `no-response` draft the probe adds (origin `probe`: only a live probe knows that closing stdin
 * released nothing and that a Content-Length re-probe did not answer either). When the probe waited less
 * than {@link STARTUP_LIMIT_MS} (the user's `--timeout`), the give-up is mcp-wire's own limit, not a
 * client's: `detail.ownLimit` is true, the severity is `warning`, and the message does not call the
 * server dead (docs/json-records.md#mark; field case F42).
 */
export function noResponseDraft(facts: NoResponseFacts): FindingDraft {
	const ownLimit = facts.stoppedEarly !== true && facts.timeoutMs < STARTUP_LIMIT_MS;
	return {
		code: 'no-response',
		stream: 'stdout',
		offset: facts.at.stdoutBytes,
		byteLength: 0,
		tMs: facts.at.tMs,
		origin: 'probe',
		...(ownLimit ? {severity: 'warning' as const} : {}),
		detail: {
			timeoutMs: facts.timeoutMs,
			clientLimitMs: STARTUP_LIMIT_MS,
			...(ownLimit ? {ownLimit: true} : {}),
			...(facts.stoppedEarly === true ? {stoppedEarly: true} : {}),
			stderrTail: [...facts.stderrTail],
			...(facts.evidence ? {evidence: summarizeEvidence(facts.evidence)} : {}),
			...(facts.procInfo ? {procInfo: {processes: facts.procInfo.processes}, blockedOn: facts.procInfo.summary} : {}),
		},
	};
}

/**
 * True when `finding` is a `no-response` at mcp-wire's own limit (`detail.ownLimit`, {@link noResponseDraft}):
 * the probe gave up at the user's `--timeout`, shorter than {@link STARTUP_LIMIT_MS}, so it is no client failure.
 */
export function isOwnLimitNoResponse(finding: Pick<FindingDraft, 'code' | 'detail'>): boolean {
	return finding.code === 'no-response' && finding.detail?.['ownLimit'] === true;
}

/**
 * What each client does with a server that stays silent (no byte on stdout) after `initialize`: the
 * `no-response` row, shared with `content-length-framing` when the server answers only Content-Length
 * input (every client sends newline-delimited JSON, so it sees the same silence).
 */
export const SILENT_SERVER_IMPACT = row({
	'ts-sdk-v1': ['hang', '`Request timed out` after 60 s; Claude Code fails after 30 s'],
	'ts-sdk-v2': ['hang', 'times out'],
	'python-sdk': ['hang', 'waits forever'],
	vscode: ['hang', 'waits'],
	rmcp: ['hang', 'waits'],
	cursor: ['hang', 'times out'],
});

/**
 * `no-response`: the process is alive and silent: no reply to `initialize` within the wait, and closing
 * stdin released nothing (R15). Derived by the probe ({@link noResponseDraft}); this module owns its meta.
 */
export const noResponse: Rule = {
	code: 'no-response',
	pairsAcrossStreams: true,
	meta: {
		severity: 'error',
		title: 'no response',
		message: (d) => {
			const waited = detailNumber(d, 'timeoutMs') ?? 0;
			const seen = detailString(d, 'evidence');
			const what = seen ? `; meanwhile: ${seen}` : '';
			if (d.detail?.['ownLimit'] === true) {
				return `no reply to initialize within mcp-wire's own limit of ${waited} ms (--timeout), shorter than Claude Code's ${STARTUP_LIMIT_MS / 1000} s: not a client failure, and the server may just be slow to start${what}`;
			}
			if (d.detail?.['stoppedEarly'] === true) {
				return `the process read the initialize request and sat blocked reading stdin for more, sending nothing (the probe stopped waiting after ${waited} ms: more time could not help), and closing stdin released nothing${what}`;
			}
			return `the process is alive but sent nothing in ${waited} ms, and closing stdin released nothing${what}`;
		},
		hint: (d) => {
			// A stripped variable (C3) comes first only when stderr or the process points at the network.
			const advice =
				d.detail?.['ownLimit'] === true
					? `Probe again with \`--timeout ${STARTUP_LIMIT_MS}\` (or more) to see whether it answers within the clients' startup limits.`
					: 'The server blocks before its read loop: move slow start-up work (network calls, telemetry, model loading) after the handshake or into the background, and read stdin first.';
			return withEnvAdvice(d, advice);
		},
		rules: ['R15'],
		doc: {
			what: "The process is alive and silent: it does not answer `initialize` within the probe's wait, and closing stdin releases nothing. The server is blocked before its read loop (network calls, telemetry, model loading at import).",
			recognised:
				"A live probe only: no byte on stdout during the wait (30 s by default, Claude Code's startup limit), then stdin closed and still nothing. The finding quotes the stderr tail and, on Linux, what the processes were doing. When the wait was the user's shorter `--timeout`, the finding is a warning that says so (`detail.ownLimit`): mcp-wire's own limit, not a client failure. A server seen blocked reading stdin twice in a row ends the wait early (`detail.stoppedEarly`).",
			variants: [
				{label: 'the wait reached 30 s, or the server was seen blocked reading stdin', detail: {}},
				{
					label: "the wait was the user's `--timeout`, shorter than 30 s",
					severity: 'warning',
					detail: {ownLimit: true},
				},
			],
			example: {
				steps: [{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{...}}\n', tMs: 0}],
				note: 'Then nothing on stdout for the whole wait.',
				live: true,
			},
		},
		impact: (d) => (d.detail?.['ownLimit'] === true ? NOT_ESTABLISHED_IMPACT() : SILENT_SERVER_IMPACT()),
	},
	errors: [
		{
			on: 'claude-code-failed-to-connect',
			rank: 2,
			likelihood: 'possible',
			why: 'The server never answers `initialize` (blocked before its read loop, or hangs when stdin closes).',
		},
		{
			on: 'request-timed-out',
			rank: 0,
			likelihood: 'possible',
			why: 'The client waited for a response that never came: the server may be blocked before reading stdin.',
		},
		{
			on: 'claude-code-connection-timeout',
			rank: 0,
			likelihood: 'likely',
			why: 'Claude Code gave up waiting for the `initialize` answer: the server never answered (blocked before reading stdin, or its answer was lost on the wire).',
		},
		{
			on: 'vscode-waiting',
			rank: 0,
			likelihood: 'possible',
			why: 'VS Code is still waiting for the `initialize` answer.',
		},
	],
	clientTexts: [
		{text: 'codex/failed-to-start', rank: 1},
		{text: 'gemini-cli/error-connecting', rank: 1},
		{text: 'gemini-cli/disconnected', rank: 1},
	],
	create: ({report, facts}) => ({
		onMark(mark) {
			if (mark.type !== 'observed' || mark.what !== 'no-reply') return;
			report({
				code: 'no-response',
				stream: 'stdout',
				offset: mark.offset,
				byteLength: 0,
				tMs: mark.tMs,
				origin: 'probe',
				...(mark.detail['ownLimit'] === true ? {severity: 'warning' as const} : {}),
				detail: {...mark.detail, ...envStrippedDetail(facts.meta)},
			});
		},
	}),
};
