import type {ProcessEvidence} from '../../types.js';
import {explainStall, describeProcess, ACTIVITY_WORDS} from '../support/evidence.js';
import {detailNumber, detailString, row, UNKNOWN} from '../support/meta.js';
import type {Rule} from '../engine.js';

/**
 * Latency above which a response is `slow-response` (ms): half the strictest client's limit, so a
 * healthy slow server (a 3 s, even an 11 s initialize) is never blamed. Claude Code allows 30 s for
 * startup; the TS SDK 60 s per request (R15, docs/protocol.md C8).
 */
export const SLOW_RESPONSE_LIMITS_MS = {initialize: 30_000, request: 60_000, fraction: 0.5} as const;

/**
 * `slow-response`: a reply arrived, but later than half of what the strictest mainstream client waits
 * (docs/findings.md; docs/field-cases.md F42: initialize in ~20 s is this, not `no-response`). One finding per late
 * reply, at the reply frame; `detail`: `{method, latencyMs, limitMs, whileWaiting?}` where `whileWaiting`
 * names what the server was seen doing (the last process evidence before the reply), when observed.
 * A reply already explained as `unflushed-output` (it sat in a buffer) is not also slow.
 */
export const slowResponse: Rule = {
	code: 'slow-response',
	meta: {
		severity: 'warning',
		title: 'slow response',
		message: (d) => {
			const seen = detailString(d, 'whileWaiting');
			return `${detailString(d, 'method') ?? 'a request'} took ${Math.round(detailNumber(d, 'latencyMs') ?? 0)} ms (limit of the strictest client: ${detailNumber(d, 'limitMs') ?? '?'} ms)${seen ? `; meanwhile ${seen}` : ''}`;
		},
		hint: () =>
			'If the first start downloads the package (`npx`, `uvx`), install or pin it beforehand; otherwise answer the handshake first and do slow work later or in the background; report progress on long tool calls.',
		rules: ['R15'],
		doc: {
			what: 'A reply arrived, but so late that a strict client would already have been close to giving up: Claude Code waits 30 s for start-up, the TS SDK 60 s per request. A first start that downloads the package (`npx`, `uvx`) is the usual cause.',
			recognised:
				"A reply's latency over half of the strictest mainstream limit for its method (`detail.latencyMs`, `detail.limitMs`); `detail.whileWaiting` says what the server was seen doing meanwhile, when observed. The probe waits 30 s for `initialize` by default, so a server that answers in 20 s gets this, not `no-response`.",
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n', tMs: 0},
					{stream: 'stdout', bytes: '{"jsonrpc":"2.0","id":1,"result":{}}\n', tMs: 40000},
				],
				note: 'The reply took 40 s.',
			},
		},
		impact: row({
			'ts-sdk-v1': ['ok', 'within the 60 s request timeout, but close (Claude Code: 30 s at startup)'],
			'ts-sdk-v2': ['ok', 'within the timeout'],
			'python-sdk': ['ok', 'no default timeout'],
			vscode: ['ok', 'no initialize timeout'],
			rmcp: ['ok', 'no default timeout'],
			cursor: UNKNOWN,
		}),
	},
	errors: [
		{
			on: 'request-timed-out',
			rank: 1,
			likelihood: 'possible',
			why: "Or the response came, but after the client's limit: a tool call slower than 60 s (the TS SDK's default per request; Claude Desktop and Claude Code use it) times out though the server is working. Answer sooner, send progress notifications, or raise the client's timeout.",
		},
		{
			on: 'claude-code-connection-timeout',
			rank: 1,
			likelihood: 'possible',
			why: 'Or the server answers, but later than 30 s (a first-start package download by `npx`/`uvx`, slow start-up work): raise `MCP_TIMEOUT` or start faster.',
		},
	],
	create({report, facts}) {
		const claimed = new Set<number>();
		let last: {evidence: ProcessEvidence; tMs: number} | undefined;
		return {
			onEvidence(evidence, tMs) {
				if (evidence.reason !== 'exit') last = {evidence, tMs};
			},
			onFinding(finding) {
				if (finding.code === 'unflushed-output' && finding.frameIndex !== undefined) claimed.add(finding.frameIndex);
			},
			onFrame(frame) {
				if (
					frame.stream !== 'stdout' ||
					(frame.kind !== 'response' && frame.kind !== 'error') ||
					frame.answers === undefined
				)
					return;
				if (claimed.has(frame.index)) return;
				const {method, latencyMs} = frame.answers;
				const limitMs = method === 'initialize' ? SLOW_RESPONSE_LIMITS_MS.initialize : SLOW_RESPONSE_LIMITS_MS.request;
				if (latencyMs <= limitMs * SLOW_RESPONSE_LIMITS_MS.fraction) return;
				const requestTMs = frame.tMs - latencyMs;
				let whileWaiting: string | undefined;
				if (last && last.tMs > requestTMs && last.tMs <= frame.tMs) {
					const explained = explainStall(last.evidence, {requestTMs, firstReplyTMs: facts.firstReplyTMs});
					if (explained.process)
						whileWaiting = `${describeProcess(explained.process)} was ${ACTIVITY_WORDS[explained.process.activity]}`;
				}
				report({
					code: 'slow-response',
					stream: 'stdout',
					offset: frame.offset,
					byteLength: frame.byteLength,
					frameIndex: frame.index,
					tMs: frame.tMs,
					detail: {method, latencyMs, limitMs, ...(whileWaiting ? {whileWaiting} : {})},
				});
			},
		};
	},
};
