import {idKey} from '../../jsonrpc/id-key.js';
import type {ClientImpact, FindingDraft, Frame} from '../../types.js';
import {detailNumber, detailString, row, UNKNOWN} from '../support/meta.js';
import type {Rule} from '../engine.js';

/** The outcome in a draft's detail: `exited`, `rejected` or `unanswered`. */
const outcomeOf = (d: FindingDraft): string => detailString(d, 'outcome') ?? 'exited';

/** The clients whose opening sends `initialized` first never put a request in the gap (run here, or their source). */
const NOT_IN_THEIR_OPENING = {
	'ts-sdk-v1': [
		'ok',
		'sends `notifications/initialized` right after the result, and `logging/setLevel` only when the host asks',
	],
	'ts-sdk-v2': [
		'ok',
		'sends `notifications/initialized` first, then `tools/list` (2.4.0 run here, `logging` advertised)',
	],
	'python-sdk': [
		'ok',
		'sends `notifications/initialized` right after the result; `set_logging_level` only when the host asks',
	],
	rmcp: ['ok', 'Codex (rmcp) sends `notifications/initialized`, then `tools/list`'],
	cursor: UNKNOWN,
} as const;

const EXITED = row({
	...NOT_IN_THEIR_OPENING,
	vscode: [
		'fatal',
		'`Connection state: Error Process exited with code 1`: its `logging/setLevel` comes before `initialized` (F47)',
	],
});
const REJECTED = row({
	...NOT_IN_THEIR_OPENING,
	vscode: [
		'skip-log',
		'does not await the reply: logs `Failed to set MCP server log level` and goes on (the level is not set)',
	],
});
const UNANSWERED = row({
	...NOT_IN_THEIR_OPENING,
	vscode: ['ok', 'does not await the reply: the request stays pending, the session goes on'],
});

/**
 * `pre-initialized-request-rejected`: the server exits on, rejects or never answers a request sent between the
 * `initialize` result and `notifications/initialized`. R10 lets a client send pings and logging requests there,
 * and VS Code sends `logging/setLevel` at that point to a server that advertises `logging` (F47: an rmcp server
 * before rust-sdk PR#730 exits 1 on it).
 *
 * Two sources:
 * - the default probe's check session (a second process, `probe/pre-initialized.ts`), recorded in the main
 *   session as an `observed` mark `pre-initialized-request` whose detail is the outcome: reported at the mark's
 *   stdout offset, length 0, origin `probe`, `detail` as the mark's (`method`, `outcome`: `exited` with
 *   `exitCode`, `signal`, `stderrTail`; `rejected` with `errorCode`, `errorMessage`, when the same request
 *   after `initialized` succeeded; `unanswered` with `waitedMs`);
 * - a session that itself sent a request in the gap (`probe --as vscode`, or VS Code through `wrap`): when the
 *   process exits with it unanswered before stdin was closed, reported at that request on stdin, `detail: {method, outcome: 'exited',
 *   id, exitCode, signal}` (`early-exit` says that it died; this says why).
 *
 * Severity: `error` when the server exits (VS Code loses it), `warning` otherwise (VS Code does not await
 * the reply).
 */
export const preInitializedRequestRejected: Rule = {
	code: 'pre-initialized-request-rejected',
	pairsAcrossStreams: true,
	meta: {
		severity: 'error',
		title: 'request before initialized rejected',
		message: (d) => {
			const method = detailString(d, 'method') ?? 'a request';
			const where = `${method} between the initialize result and notifications/initialized (as VS Code sends it)`;
			switch (outcomeOf(d)) {
				case 'rejected': {
					const text = detailString(d, 'errorMessage');
					return `${where} was rejected with error ${detailNumber(d, 'errorCode') ?? '(no code)'}${text ? ` "${text.length > 60 ? `${text.slice(0, 59)}…` : text}"` : ''}; the same request after initialized succeeded`;
				}
				case 'unanswered':
					return `${where} got no response in ${detailNumber(d, 'waitedMs') ?? '?'} ms`;
				default: {
					const code = detailNumber(d, 'exitCode');
					const signal = detailString(d, 'signal');
					const how = signal !== undefined ? ` (${signal})` : code !== undefined ? ` (exit code ${code})` : '';
					return `the server exited on ${where}${how}`;
				}
			}
		},
		hint: () =>
			'Accept pings and logging requests between the initialize result and `notifications/initialized` (R10): answer `logging/setLevel` there, or hold it until `initialized` arrives, but never exit on it. An rmcp server: upgrade to a release with rust-sdk PR#730.',
		rules: ['R10', 'R9'],
		doc: {
			what: 'The server exits on, rejects or never answers a request that comes after its `initialize` result and before `notifications/initialized`. The spec allows pings and logging requests there ([R10](docs/protocol.md#r10)), and VS Code sends `logging/setLevel` at exactly that point to a server that advertises `logging`, without waiting for the reply; an rmcp server before rust-sdk PR#730 exits 1 on it, and VS Code shows `Process exited with code 1` (field case F47).',
			recognised:
				'The default probe, for a server whose `initialize` result advertises `logging`, runs a second short session on a fresh process: `initialize`, then `logging/setLevel` and at once `notifications/initialized`, as VS Code does. The outcome is an `observed` mark in the main session (so a replay derives the same finding): the server exited (error), rejected it while the same request after `initialized` succeeded (warning), or left it unanswered for the request wait (warning). A session that sent the request itself (`probe --as vscode`, VS Code through `wrap`) is judged on its own bytes when the server exits with it pending.',
			variants: [
				{label: 'the server exits', detail: {outcome: 'exited'}},
				{label: 'the request is rejected', severity: 'warning', detail: {outcome: 'rejected'}},
				{label: 'the request is never answered', severity: 'warning', detail: {outcome: 'unanswered'}},
			],
			example: {
				steps: [
					{
						stream: 'stdout',
						bytes:
							'{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"logging":{}},"serverInfo":{"name":"s","version":"1"}}}\n',
						tMs: 10,
					},
					{
						stream: 'stdin',
						bytes: '{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"info"}}\n',
						tMs: 11,
					},
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","method":"notifications/initialized"}\n', tMs: 11},
					{
						stream: 'stderr',
						bytes: 'Error: expect initialized notification, but received: Some(Request(SetLevelRequest))\n',
						tMs: 12,
					},
					{exit: 1, tMs: 13},
				],
				note: "VS Code's opening against an rmcp server before PR#730 (F47). The default probe sees it on a second process and records what it saw as a mark.",
				live: true,
			},
		},
		impact: (d): readonly ClientImpact[] => {
			const outcome = outcomeOf(d);
			return outcome === 'rejected' ? REJECTED() : outcome === 'unanswered' ? UNANSWERED() : EXITED();
		},
	},
	clientTexts: [{text: 'rmcp/expect-initialized-notification', rank: 0}],
	create({report, facts}) {
		let isInitializedSent = false;
		/** Requests the client sent in the gap (after the initialize result, before `initialized`), by id key. */
		const inGap = new Map<string, Frame>();
		return {
			onMark(mark) {
				if (mark.type !== 'observed' || mark.what !== 'pre-initialized-request') return;
				const outcome = mark.detail['outcome'];
				if (outcome !== 'exited' && outcome !== 'rejected' && outcome !== 'unanswered') return;
				report({
					code: 'pre-initialized-request-rejected',
					stream: 'stdout',
					offset: mark.offset,
					byteLength: 0,
					tMs: mark.tMs,
					origin: 'probe',
					...(outcome === 'exited' ? {} : {severity: 'warning' as const}),
					detail: mark.detail,
				});
			},
			onFrame(frame) {
				if (frame.stream !== 'stdin') return;
				if (frame.kind === 'notification' && frame.method === 'notifications/initialized') isInitializedSent = true;
				if (frame.kind !== 'request' || !facts.handshakeDone || isInitializedSent) return;
				if (frame.method === 'ping' || frame.method === 'initialize' || frame.id === undefined) return;
				inGap.set(idKey(frame.id), frame);
			},
			onExit(exit) {
				// An exit after the client closed stdin is the shutdown, not a reaction to the request.
				if (facts.stdinClosedAt !== undefined && facts.stdinClosedAt <= exit.tMs) return;
				for (const {frame, id, method} of facts.outstanding('stdin')) {
					if (inGap.get(idKey(id)) !== frame) continue;
					report({
						code: 'pre-initialized-request-rejected',
						stream: 'stdin',
						offset: frame.offset,
						byteLength: frame.byteLength,
						frameIndex: frame.index,
						tMs: exit.tMs,
						detail: {method, outcome: 'exited', id, exitCode: exit.code, ...(exit.signal ? {signal: exit.signal} : {})},
					});
				}
			},
		};
	},
};
