import {CURSOR} from '../../clients/hosts/cursor.js';
import {VSCODE} from '../../clients/hosts/vscode.js';
import {NOT_ESTABLISHED, type ClientProfile} from '../../clients/profile.js';
import {PYTHON_SDK} from '../../clients/sdks/python-sdk.js';
import {RMCP} from '../../clients/sdks/rmcp.js';
import {TS_SDK_V1} from '../../clients/sdks/ts-sdk-v1.js';
import {TS_SDK_V2} from '../../clients/sdks/ts-sdk-v2.js';
import type {ClientFamily, ClientImpact, FindingDraft, Frame, ProcessEvidence} from '../../types.js';
import {explainStall, describeProcess, ACTIVITY_WORDS} from '../support/evidence.js';
import {detailNumber, detailString, FAMILIES, row, UNKNOWN} from '../support/meta.js';
import type {Rule} from '../engine.js';

/**
 * Latency above which a response is `slow-response` (ms): half the strictest client's limit, so a
 * healthy slow server (a 3 s, even an 11 s initialize) is never blamed. Claude Code allows 30 s for
 * startup; the TS SDK 60 s per request (R15, docs/protocol.md C8).
 */
export const SLOW_RESPONSE_LIMITS_MS = {initialize: 30_000, request: 60_000, fraction: 0.5} as const;

/** The client module whose limits stand for each family (docs/clients.md; R15). */
const FAMILY_PROFILES: Readonly<Record<ClientFamily, ClientProfile>> = {
	'ts-sdk-v1': TS_SDK_V1,
	'ts-sdk-v2': TS_SDK_V2,
	'python-sdk': PYTHON_SDK,
	vscode: VSCODE,
	rmcp: RMCP,
	cursor: CURSOR,
};

/** What each family does with a reply under every established limit (the reply is slow, not late). */
const WITHIN_LIMITS = row({
	'ts-sdk-v1': ['ok', 'within the 60 s request timeout, but close (Claude Code: 30 s at startup)'],
	'ts-sdk-v2': ['ok', 'within the timeout'],
	'python-sdk': ['ok', 'no default timeout'],
	vscode: ['ok', 'no initialize timeout'],
	rmcp: ['ok', 'no default timeout'],
	cursor: UNKNOWN,
});

/**
 * The strictest established limit (ms) for `method` across the families ({@link FAMILY_PROFILES}: their
 * `startupMs` for `initialize`, `requestMs` otherwise), or undefined when none has one.
 */
export function strictestLimitMs(method: string): number | undefined {
	const limits = Object.values(FAMILY_PROFILES).map((profile) => limitOf(profile, method));
	const known = limits.filter((limit): limit is number => typeof limit === 'number');
	return known.length === 0 ? undefined : Math.min(...known);
}

function limitOf(profile: ClientProfile, method: string): number | null | typeof NOT_ESTABLISHED {
	return (method === 'initialize' ? profile.limits.startupMs : profile.limits.requestMs).value;
}

const seconds = (ms: number): string => `${ms / 1000} s`;

/**
 * Each family's reaction to a reply `latencyMs` after its request, with `progress` progress notifications
 * for the request's token before it (R15, R18): past the family's limit (its client module's `requestMs`,
 * `startupMs` for initialize) the request times out and the late reply is dropped (`hang`), unless progress
 * came and the family restarts its clock on progress; a family without a limit waits; one whose limit,
 * or whose reset on progress, nobody established is `unknown`. Under every established limit: {@link WITHIN_LIMITS}.
 */
function impactOf(d: FindingDraft): readonly ClientImpact[] {
	const method = detailString(d, 'method') ?? 'request';
	const latencyMs = detailNumber(d, 'latencyMs') ?? 0;
	const progress = detailNumber(d, 'progress') ?? 0;
	const strictest = strictestLimitMs(method);
	if (strictest === undefined || latencyMs <= strictest) return WITHIN_LIMITS();
	return FAMILIES.map((client) => {
		const profile = FAMILY_PROFILES[client];
		const limit = limitOf(profile, method);
		const resets = profile.limits.progressResets.value;
		const cell = (reaction: ClientImpact['reaction'], note: string): ClientImpact => ({client, reaction, note});
		if (limit === NOT_ESTABLISHED) return cell('unknown', `its ${method} limit is not established`);
		if (limit === null) return cell('ok', 'no default timeout: it waits');
		if (latencyMs <= limit) return cell('ok', `within its ${seconds(limit)} limit`);
		if (progress > 0 && resets === true)
			return cell('ok', `over ${seconds(limit)}, but each progress notification restarts the clock`);
		if (progress > 0 && resets === NOT_ESTABLISHED)
			return cell(
				'unknown',
				`over its ${seconds(limit)} limit; whether progress restarts the clock is not established`,
			);
		return cell(
			'hang',
			`the ${method} times out after ${seconds(limit)} (\`MCP error -32001: Request timed out\`) and the late reply is dropped${
				progress > 0 ? `; progress does not restart the clock (${profile.limits.progressResets.source})` : ''
			}`,
		);
	});
}

/**
 * `slow-response`: a reply arrived, but later than half of what the strictest mainstream client waits
 * (docs/findings.md; docs/field-cases.md F42: initialize in ~20 s is this, not `no-response`). One finding per late
 * reply, at the reply frame; `detail`: `{method, latencyMs, limitMs, whileWaiting?}` where `whileWaiting`
 * names what the server was seen doing (the last process evidence before the reply), when observed.
 * A reply already explained as `unflushed-output` (it sat in a buffer) is not also slow.
 * Past the strictest established limit itself (a tool call over the TS SDK's 60 s, R15) it is an error, with
 * `detail.overLimit` and `detail.progress` (progress notifications for the request's token before the reply,
 * R18): the clients with that limit time out and drop the reply ({@link impactOf}).
 * The time the probe held the server's output unread (its own output backed up: `output-stalled` …
 * `output-resumed` phase marks, docs/json-records.md#mark) is left out of `latencyMs` and said in `detail.heldMs`.
 */
export const slowResponse: Rule = {
	code: 'slow-response',
	meta: {
		severity: 'warning',
		title: 'slow response',
		message: (d) => {
			const seen = detailString(d, 'whileWaiting');
			const over = d.detail?.['overLimit'] === true;
			return `${detailString(d, 'method') ?? 'a request'} took ${Math.round(detailNumber(d, 'latencyMs') ?? 0)} ms (limit of the strictest client: ${detailNumber(d, 'limitMs') ?? '?'} ms)${over ? ': past it, so clients with that limit time out and drop the reply' : ''}${seen ? `; meanwhile ${seen}` : ''}`;
		},
		hint: (d) =>
			d.detail?.['overLimit'] === true && detailString(d, 'method') !== 'initialize'
				? "Answer within the client's limit (the TS SDK: 60 s per request): return early and finish the work in the background, or split it into shorter calls. Progress notifications keep a call alive only where the host asks the SDK to restart the clock on progress (`resetTimeoutOnProgress`, off by default); otherwise raise the host's timeout."
				: 'If the first start downloads the package (`npx`, `uvx`), install or pin it beforehand; otherwise answer the handshake first and do slow work later or in the background; report progress on long tool calls.',
		rules: ['R15'],
		doc: {
			what: 'A reply arrived, but so late that a strict client would already have been close to giving up: Claude Code waits 30 s for start-up, the TS SDK 60 s per request. A first start that downloads the package (`npx`, `uvx`) is the usual cause.',
			recognised:
				"A reply's latency over half of the strictest mainstream limit for its method (`detail.latencyMs`, `detail.limitMs`); `detail.whileWaiting` says what the server was seen doing meanwhile, when observed. The probe waits 30 s for `initialize` by default, so a server that answers in 20 s gets this, not `no-response`. Time the probe did not read the server because its own output was backed up (a `--json` pipe read slowly: `output-stalled` phase marks) is left out (`detail.heldMs`).",
			variants: [
				{label: 'slow, within every limit (40 s)', detail: {method: 'ping', latencyMs: 40_000, limitMs: 60_000}},
				{
					label: 'a tool call past the 60 s limit (65 s, with progress)',
					severity: 'error',
					detail: {method: 'tools/call', latencyMs: 65_000, limitMs: 60_000, overLimit: true, progress: 3},
				},
			],
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n', tMs: 0},
					{stream: 'stdout', bytes: '{"jsonrpc":"2.0","id":1,"result":{}}\n', tMs: 40000},
				],
				note: 'The reply took 40 s.',
			},
		},
		impact: impactOf,
	},
	errors: [
		{
			on: 'request-timed-out',
			rank: 1,
			likelihood: 'possible',
			why: "Or the response came, but after the client's limit: a tool call slower than 60 s (the TS SDK's default per request; Claude Desktop and Claude Code use it) times out though the server is working. Answer sooner, send progress notifications, or raise the client's timeout.",
			// The case the text is: a reply past the limit, so the fix and the clients are those of a late call.
			severity: 'error',
			detail: {method: 'tools/call', latencyMs: 65_000, limitMs: 60_000, overLimit: true},
		},
		{
			on: 'claude-code-connection-timeout',
			rank: 1,
			likelihood: 'possible',
			why: 'Or the server answers, but later than 30 s (a first-start package download by `npx`/`uvx`, slow start-up work): raise `MCP_TIMEOUT` or start faster.',
		},
	],
	clientTexts: [
		{text: 'codex/failed-to-start', rank: 2},
		{text: 'gemini-cli/error-connecting', rank: 2},
		{text: 'gemini-cli/disconnected', rank: 2},
	],
	create({report, facts}) {
		const claimed = new Set<number>();
		const progress = new ProgressCounter();
		const held = new HeldTime();
		let last: {evidence: ProcessEvidence; tMs: number} | undefined;
		return {
			onMark(mark) {
				if (mark.type === 'phase') held.mark(mark.name, mark.tMs);
			},
			onEvidence(evidence, tMs) {
				if (evidence.reason !== 'exit') last = {evidence, tMs};
			},
			onFinding(finding) {
				if (finding.code === 'unflushed-output' && finding.frameIndex !== undefined) claimed.add(finding.frameIndex);
			},
			onFrame(frame) {
				progress.frame(frame);
				if (
					frame.stream !== 'stdout' ||
					(frame.kind !== 'response' && frame.kind !== 'error') ||
					frame.answers === undefined
				)
					return;
				if (claimed.has(frame.index)) return;
				const {method} = frame.answers;
				// The time the probe did not read the server (its own output backed up) is ours, not the server's.
				const heldMs = held.between(frame.tMs - frame.answers.latencyMs, frame.tMs);
				const latencyMs = frame.answers.latencyMs - heldMs;
				const limitMs = method === 'initialize' ? SLOW_RESPONSE_LIMITS_MS.initialize : SLOW_RESPONSE_LIMITS_MS.request;
				const seen = progress.answered(frame.id);
				if (latencyMs <= limitMs * SLOW_RESPONSE_LIMITS_MS.fraction) return;
				const overLimit = latencyMs > (strictestLimitMs(method) ?? Number.POSITIVE_INFINITY);
				const requestTMs = frame.tMs - frame.answers.latencyMs;
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
					...(overLimit ? {severity: 'error' as const} : {}),
					detail: {
						method,
						latencyMs,
						limitMs,
						...(overLimit ? {overLimit, progress: seen} : {}),
						...(whileWaiting ? {whileWaiting} : {}),
						...(heldMs > 0 ? {heldMs} : {}),
					},
				});
			},
		};
	},
};

/** Bound on the output holds remembered (the oldest are dropped first; each is two numbers). */
const HOLDS_KEPT = 4096;

/**
 * The probe's output holds (`output-stalled` … `output-resumed` phase marks, docs/json-records.md#mark):
 * while our own output was backed up the server was not read, so a reply read after a hold was not that
 * late. {@link HeldTime.between} is the held time inside a span; a hold not yet resumed runs to its end.
 */
class HeldTime {
	private readonly holds: {start: number; end: number}[] = [];
	private openSince: number | undefined;

	mark(name: string, tMs: number): void {
		if (name === 'output-stalled') this.openSince ??= tMs;
		else if (name === 'output-resumed' && this.openSince !== undefined) {
			this.holds.push({start: this.openSince, end: tMs});
			this.openSince = undefined;
			if (this.holds.length > HOLDS_KEPT) this.holds.shift();
		}
	}

	/** The held ms within [fromMs, toMs]. */
	between(fromMs: number, toMs: number): number {
		let total = 0;
		const overlap = (start: number, end: number): number => Math.max(0, Math.min(end, toMs) - Math.max(start, fromMs));
		for (let i = this.holds.length - 1; i >= 0; i--) {
			const hold = this.holds[i]!;
			if (hold.end <= fromMs) break;
			total += overlap(hold.start, hold.end);
		}
		if (this.openSince !== undefined) total += overlap(this.openSince, toMs);
		return total;
	}
}

/** Bound on the requests whose progress is counted at once (a long tap must not grow without end). */
const OPEN_KEPT = 4096;

/**
 * Counts `notifications/progress` per open request (R18): a request on stdin with `params._meta.progressToken`
 * opens its count, progress on stdout under that token adds to it, and {@link ProgressCounter.answered} reads
 * and closes it at the reply. Keys are JSON texts, so the string "7" is not the integer 7.
 */
class ProgressCounter {
	private readonly byToken = new Map<string, string>();
	private readonly tokenOf = new Map<string, string>();
	private readonly counts = new Map<string, number>();

	frame(frame: Frame): void {
		const params = (
			frame.message as {params?: {progressToken?: unknown; _meta?: {progressToken?: unknown}}} | undefined
		)?.params;
		if (frame.stream === 'stdin' && frame.kind === 'request' && frame.id !== undefined) {
			const token = params?._meta?.progressToken;
			if ((typeof token !== 'string' && typeof token !== 'number') || this.byToken.size >= OPEN_KEPT) return;
			const id = JSON.stringify(frame.id);
			this.byToken.set(JSON.stringify(token), id);
			this.tokenOf.set(id, JSON.stringify(token));
			this.counts.set(id, 0);
			return;
		}
		if (frame.stream !== 'stdout' || frame.method !== 'notifications/progress') return;
		const id = this.byToken.get(JSON.stringify(params?.progressToken));
		if (id !== undefined) this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
	}

	/** The progress count of the request `id` answers (0 without a token), and forgets it. */
	answered(id: unknown): number {
		// No request open with a token: nothing to read or forget (the common case, on every reply).
		if (this.tokenOf.size === 0 && this.counts.size === 0) return 0;
		const key = JSON.stringify(id);
		const count = this.counts.get(key) ?? 0;
		this.counts.delete(key);
		const token = this.tokenOf.get(key);
		this.tokenOf.delete(key);
		if (token !== undefined && this.byToken.get(token) === key) this.byToken.delete(token);
		return count;
	}
}
