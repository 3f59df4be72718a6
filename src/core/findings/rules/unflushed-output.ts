import type {ProcessEvidence} from '../../types.js';
import {explainStall, summarizeEvidence, ACTIVITY_WORDS, describeProcess} from '../support/evidence.js';
import {detailString, row} from '../support/meta.js';
import type {Rule, SessionFacts} from '../engine.js';

/** The stdio buffer size C stdio uses on a pipe (glibc `st_blksize`, O2); bursts are multiples of it. */
export const BURST_UNIT_BYTES = 4096;
/** A reply is "late" when its request was sent at least this long before the burst arrived (ms). */
export const BURST_MIN_AGE_MS = 1000;
/** A burst must carry at least this many response frames (one reply of 4 KiB is just a big reply). */
export const BURST_MIN_RESPONSES = 2;

/** Buffer-sized stdout chunks remembered at once (older ones are judged and dropped). */
const BURSTS_KEPT = 64;
/** Replies remembered per burst (enough to count them; a 4 KiB buffer holds few). */
const BURST_REPLIES_KEPT = 1024;

/** A reply frame that started in a buffer-sized chunk. */
interface BurstReply {
	readonly index: number;
	readonly offset: number;
	readonly byteLength: number;
	readonly tMs: number;
	readonly method: string;
	readonly latencyMs: number;
}

/** A stdout chunk whose length is a multiple of {@link BURST_UNIT_BYTES}, and the replies that start in it. */
interface Burst {
	readonly tMs: number;
	readonly offset: number;
	readonly length: number;
	readonly replies: BurstReply[];
}

/** The evidence kept per session (the most recent ones; a long tap observes at every stall). */
const EVIDENCE_KEPT = 256;

/** Command words (base names) that run an awk interpreter. */
const AWK_COMMAND = /^(?:awk|mawk|gawk|nawk)(?:\.exe)?$/;

/**
 * The last evidence taken while a request sent at `requestTMs` was outstanding, up to `untilTMs`, if it
 * shows the server waiting for input (docs/findings.md `unflushed-output`: "nothing else explains the
 * delay"). Evidence taken after the exit is not about the wait.
 */
export function waitingForInput(
	evidence: readonly {readonly evidence: ProcessEvidence; readonly tMs: number}[],
	facts: Pick<SessionFacts, 'firstReplyTMs'>,
	requestTMs: number,
	untilTMs: number,
): {readonly evidence: ProcessEvidence; readonly tMs: number} | undefined {
	for (let i = evidence.length - 1; i >= 0; i--) {
		const entry = evidence[i]!;
		if (entry.tMs > untilTMs || entry.evidence.reason === 'exit') continue;
		if (entry.tMs <= requestTMs) return undefined;
		const first =
			facts.firstReplyTMs !== undefined && facts.firstReplyTMs <= entry.tMs ? facts.firstReplyTMs : undefined;
		return explainStall(entry.evidence, {requestTMs, firstReplyTMs: first}).state === 'waiting-for-input'
			? entry
			: undefined;
	}
	return undefined;
}

/** `detail` fields naming the evidence: one line and the process that was waiting. */
function evidenceDetail(
	entry: {readonly evidence: ProcessEvidence; readonly tMs: number},
	requestTMs: number,
	facts: SessionFacts,
): Record<string, unknown> {
	const explained = explainStall(entry.evidence, {requestTMs, firstReplyTMs: facts.firstReplyTMs});
	return {
		evidence: summarizeEvidence(entry.evidence),
		evidenceTMs: entry.tMs,
		...(explained.process
			? {waiting: `${describeProcess(explained.process)} ${ACTIVITY_WORDS[explained.process.activity]}`}
			: {}),
	};
}

/**
 * `unflushed-output`: the server wrote its reply but it sat in a user-space stdout buffer (O2, O3).
 *
 * Reported only on evidence (docs/findings.md): the reply's bytes arrive only after stdin was
 * closed (or in buffer-sized bursts long after their requests), **and** the last process evidence taken
 * while the request was outstanding shows the server waiting for input (blocked reading stdin, or idle
 * with no timer), not busy, asleep on a timer, on the network or waiting for a child. A reply after stdin
 * closed without such evidence is not enough (the `echo … | server` test closes stdin at once; a server
 * that takes 11 s to start answers after it too): it is then `slow-response` if it is late enough, or
 * `stdin-inherited` when the evidence shows a helper reading stdin.
 *
 * Findings: one per chunk that released held replies after stdin closed (`detail`: `{method,
 * afterStdinClosedMs, latencyMs, evidence, evidenceTMs, waiting, runtime?}`), and one per buffer-sized
 * burst (`detail`: `{method, latencyMs, burstBytes, burstOffset, chunkSeq, bufferBytes, responses,
 * lateResponses, oldestRequestAgeMs, evidence…}`), at the first late reply frame.
 */
export const unflushedOutput: Rule = {
	code: 'unflushed-output',
	meta: {
		severity: 'error',
		title: 'reply held in an output buffer',
		message: (d) =>
			d.detail?.['burstBytes'] !== undefined
				? 'reply bytes arrived in a buffer-sized burst long after their request, while the server was seen waiting for input: they sat in a stdout buffer'
				: // Seen from outside, a reply held in stdout's buffer and a request held in the reader's are the same
					// bytes at the same times, so the cause is named as the likely one, not as a fact (mawk: O2).
					'the reply arrived only when stdin was closed, and while it was due the server was seen waiting for input: it was held in a buffer until EOF, most likely an unflushed stdout (or a reader that waits for a full block or for EOF)',
		hint: (d) => {
			const runtime = detailString(d, 'runtime');
			if (d.detail?.['awk'] === true)
				return "mawk (Debian's `awk`) reads stdin in blocks and buffers stdout, so it answers only at EOF, `fflush()` or not: run it as `mawk -W interactive -f …`, which reads line by line and writes at once. gawk: call `fflush()` after each `print`.";
			if (runtime === 'python')
				return 'Flush after each message: `print(..., flush=True)` or `sys.stdout.flush()`, or run with `python -u` / `PYTHONUNBUFFERED=1` in the config env.';
			if (runtime === 'node')
				return 'Node writes to a pipe without a user-space buffer: look for a wrapper or a child process that buffers, or bytes written with no newline until exit.';
			if (runtime === 'c')
				return 'Call `fflush(stdout)` after each message, or `setvbuf(stdout, NULL, _IOLBF, 0)` at startup.';
			return 'Flush stdout after each message: Python `print(..., flush=True)` or `-u`; C `fflush(stdout)` / `setvbuf(stdout, NULL, _IOLBF, 0)`; .NET `Console.Out.Flush()`. If it already flushes, the request is held on the way in: read stdin line by line, not in fixed-size blocks or to EOF (mawk: `-W interactive`).';
		},
		rules: ['O2', 'O3'],
		doc: {
			what: "The server wrote its reply, but the bytes sat in a user-space stdout buffer (C stdio, Python's block-buffered `sys.stdout` on a pipe) and reached the pipe only when stdin closed or the process exited. A reader that waits for a full block or for EOF before it hands on the request (mawk without `-W interactive`) looks the same from outside, so the finding names stdout as the likely cause, not the proven one.",
			recognised:
				"On evidence only. The reply's bytes arrive only after stdin was closed (or in buffer-sized bursts, multiples of 4096 bytes, long after their requests), **and** the last look at the server's processes while the request was outstanding (Linux `/proc`: the probe looks at 1, 2, 3, 5 s and then every 5 s; the tap when the client's bytes go unanswered for 1 s) found it waiting for input: blocked in `read` on stdin, or idle with no timer pending. A server seen asleep on a timer, busy, connecting, or waiting for a child is slow, not buffered; a reply after stdin closed with no such look (the `echo … | server` test, another OS) is not enough ([O2](docs/protocol.md#o2), [O3](docs/protocol.md#o3)).",
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n', tMs: 0},
					{event: 'stdin-closed', tMs: 5000},
					{stream: 'stdout', bytes: '{"jsonrpc":"2.0","id":1,"result":{}}\n', tMs: 5002},
					{exit: 0, tMs: 5003},
				],
				note: 'Nothing for 5 s while the process sits in `read(0)`; the reply comes the moment stdin closes.',
				live: true,
			},
		},
		impact: row({
			'ts-sdk-v1': [
				'hang',
				'the reply never comes while the session is open; `Request timed out` after 60 s (Claude Code: 30 s)',
			],
			'ts-sdk-v2': ['hang', 'times out'],
			'python-sdk': ['hang', 'waits forever (no default timeout)'],
			vscode: ['hang', 'waits; logs "Waiting for server to respond" every 5 s'],
			rmcp: ['hang', 'waits'],
			cursor: ['hang', 'waits'],
		}),
	},
	errors: [
		{
			on: 'claude-code-failed-to-connect',
			rank: 3,
			likelihood: 'possible',
			why: 'The answer sits in a stdout buffer until exit.',
		},
		{
			on: 'request-timed-out',
			rank: 2,
			likelihood: 'possible',
			why: 'Or the response sits in a stdout buffer (Python `print` without flush, C stdio) and comes out only at exit.',
		},
		{
			on: 'claude-code-connection-timeout',
			rank: 2,
			likelihood: 'possible',
			why: 'Or the answer sits in a stdout buffer (Python `print` without flush, C stdio).',
		},
		{
			on: 'vscode-waiting',
			rank: 1,
			likelihood: 'possible',
			why: 'The answer may be stuck in a stdout buffer.',
		},
	],
	clientTexts: [{text: 'codex/failed-to-start', rank: 5}],
	create({report, facts}) {
		const evidence: {evidence: ProcessEvidence; tMs: number}[] = [];
		let lastSeq = -1;
		/** stdout chunks whose length is a multiple of the buffer size, by seq (the most recent {@link BURSTS_KEPT}). */
		const bursts = new Map<number, Burst>();
		const runtime = facts.runtime === undefined ? {} : {runtime: facts.runtime};
		// An awk script as the server: mawk holds the request on the way in as well as the reply on the way out.
		const awk = facts.meta.command.some((word) => AWK_COMMAND.test(word.split(/[\\/]/).pop() ?? '')) ? {awk: true} : {};
		return {
			onEvidence(observed, tMs) {
				evidence.push({evidence: observed, tMs});
				if (evidence.length > EVIDENCE_KEPT) evidence.shift();
			},
			onChunk(chunk) {
				if (chunk.stream === 'stdout' && chunk.bytes.length > 0 && chunk.bytes.length % BURST_UNIT_BYTES === 0) {
					bursts.set(chunk.seq, {tMs: chunk.tMs, offset: chunk.offset, length: chunk.bytes.length, replies: []});
					if (bursts.size > BURSTS_KEPT) {
						const [oldest, burst] = bursts.entries().next().value!;
						bursts.delete(oldest);
						judge(oldest, burst);
					}
				}
			},
			onFrame(frame) {
				if (
					frame.stream !== 'stdout' ||
					(frame.kind !== 'response' && frame.kind !== 'error') ||
					frame.answers === undefined
				)
					return;
				const requestTMs = frame.tMs - frame.answers.latencyMs;
				const closed = facts.stdinClosedAt;
				if (closed !== undefined && frame.firstTMs >= closed && requestTMs < closed) {
					if (frame.firstSeq === lastSeq) return;
					const fit = waitingForInput(evidence, facts, requestTMs, closed);
					if (!fit) return;
					lastSeq = frame.firstSeq;
					report({
						code: 'unflushed-output',
						stream: 'stdout',
						offset: frame.offset,
						byteLength: frame.byteLength,
						frameIndex: frame.index,
						tMs: frame.tMs,
						detail: {
							method: frame.answers.method,
							afterStdinClosedMs: frame.firstTMs - closed,
							latencyMs: frame.answers.latencyMs,
							...evidenceDetail(fit, requestTMs, facts),
							...runtime,
							...awk,
						},
					});
					return;
				}
				const burst = bursts.get(frame.firstSeq);
				if (burst && burst.replies.length < BURST_REPLIES_KEPT) {
					burst.replies.push({
						index: frame.index,
						offset: frame.offset,
						byteLength: frame.byteLength,
						tMs: frame.tMs,
						method: frame.answers.method,
						latencyMs: frame.answers.latencyMs,
					});
				}
			},
			// The bursts seen so far are judged once, at settle or at the end, whichever comes first.
			onSettle: judgeBursts,
			onEnd: judgeBursts,
		};

		function judgeBursts(): void {
			for (const [seq, burst] of bursts) judge(seq, burst);
			bursts.clear();
		}

		function judge(seq: number, burst: Burst): void {
			if (burst.replies.length < BURST_MIN_RESPONSES) return;
			const ageOf = (reply: BurstReply): number => burst.tMs - (reply.tMs - reply.latencyMs);
			const late = burst.replies.filter((reply) => ageOf(reply) >= BURST_MIN_AGE_MS);
			const first = late[0];
			if (!first) return;
			const requestTMs = first.tMs - first.latencyMs;
			const fit = waitingForInput(evidence, facts, requestTMs, burst.tMs);
			if (!fit) return;
			report({
				code: 'unflushed-output',
				stream: 'stdout',
				offset: first.offset,
				byteLength: first.byteLength,
				frameIndex: first.index,
				tMs: first.tMs,
				detail: {
					method: first.method,
					latencyMs: first.latencyMs,
					burstBytes: burst.length,
					burstOffset: burst.offset,
					chunkSeq: seq,
					bufferBytes: burst.length % 8192 === 0 ? 8192 : BURST_UNIT_BYTES,
					responses: burst.replies.length,
					lateResponses: late.length,
					oldestRequestAgeMs: Math.max(...late.map(ageOf)),
					...evidenceDetail(fit, requestTMs, facts),
					...runtime,
				},
			});
		}
	},
};
