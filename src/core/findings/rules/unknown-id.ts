import type {FindingDraft, Frame} from '../../types.js';
import type {Rule} from '../engine.js';
import {detailString, row, UNKNOWN} from '../support/meta.js';
import {serverRequestsAnswered} from '../support/server-requests.js';

const answersAResponse = (d: FindingDraft): boolean => d.detail?.['reason'] === 'answers-a-response';

/**
 * The row of a response that answers the peer's response to the sender's own request (J5): no request
 * of the peer's waits for it, so nothing is lost; the SDKs drop it (TS SDK v1 and v2 log it). Measured with
 * the real clients: TS SDK 1.x and 2.x connect, list tools and log `Received a response for an unknown
 * message ID`; Python SDK 2.3 drops it at debug level; Codex 0.171 lists tools.
 */
const ANSWERS_A_RESPONSE_IMPACT = row({
	'ts-sdk-v1': [
		'skip-log',
		'logs `Received a response for an unknown message ID` and drops it; no request waits for it',
	],
	'ts-sdk-v2': ['skip-log', 'logs `Received a response for an unknown message ID` and drops it'],
	'python-sdk': ['skip', 'drops it (logged at debug level only, mcp 2.3)'],
	vscode: ['skip', 'ignored'],
	rmcp: ['skip', 'ignores it: Codex 0.171 lists tools'],
	cursor: UNKNOWN,
});

/**
 * `unknown-id` (J5): a response whose id matches no outstanding request, and is not a duplicate of an answered
 * one (the correlator's `unmatched`); or one that echoes a numeric id as a string (`answered` with
 * `idTypeChanged`: a warning, `detail.reason: 'id-type-changed'`), which some clients match and some do not. A
 * response on stdout whose id is that of the server's own request, already answered by the client, answers that
 * answer: a warning, `detail.reason: 'answers-a-response'` (`detail.method`: the server's request), since no
 * request of the client's waits for it ({@link ANSWERS_A_RESPONSE_IMPACT}).
 */
/** Where an `unknown-id` finding points: the whole response frame. Built only when one is reported. */
function at(frame: Frame): Pick<FindingDraft, 'code' | 'stream' | 'offset' | 'byteLength' | 'frameIndex' | 'tMs'> {
	return {
		code: 'unknown-id',
		stream: frame.stream,
		offset: frame.offset,
		byteLength: frame.byteLength,
		frameIndex: frame.index,
		tMs: frame.tMs,
	};
}

export const unknownId: Rule = {
	code: 'unknown-id',
	pairsAcrossStreams: true,
	meta: {
		severity: 'error',
		title: 'response to an unknown id',
		message: (d) =>
			answersAResponse(d)
				? `a response with id ${JSON.stringify(d.detail?.['id'] ?? null)} answers the client's response to the server's own ${detailString(d, 'method') ?? 'request'} with that id: no request waits for it, nothing is lost`
				: d.detail?.['reason'] === 'id-type-changed'
					? `a response echoes id ${JSON.stringify(d.detail?.['requestId'] ?? null)} as the string ${JSON.stringify(d.detail?.['id'] ?? null)}: the TS and Python SDK clients and current rmcp match it anyway (VS Code: not established)`
					: `a response with id ${JSON.stringify(d.detail?.['id'] ?? null)} matches no outstanding request`,
		hint: (d) =>
			answersAResponse(d)
				? 'Never answer a response: a message with an `id` and no `method` answers a request you sent; hand it to that request (or drop it), and reply only to messages that have a `method`.'
				: 'Echo the request `id` unchanged (same value and type; 0 is a valid id, not "missing").',
		rules: ['J5'],
		doc: {
			what: 'A response whose `id` matches no outstanding request: the server did not echo the request id (it answered with a constant, a coerced `0`, or another type).',
			recognised:
				"Correlation of requests and responses per direction. A response on stdout whose id is that of a request the server sent itself and the client already answered is the server answering the client's answer (a dispatcher that replies to every message with an id): a warning, `detail.reason: 'answers-a-response'` with the `method` of the server's request, since no request of the client's waits for it.",
			variants: [
				{label: 'no outstanding request has this id', detail: {}},
				{
					label: 'a numeric id echoed as a string',
					severity: 'warning',
					detail: {reason: 'id-type-changed', requestId: 0},
				},
				{
					label: "the server answers the client's answer to its own request",
					severity: 'warning',
					detail: {reason: 'answers-a-response', method: 'ping'},
				},
			],
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n', tMs: 0},
					{stream: 'stdout', bytes: '{"jsonrpc":"2.0","id":7,"result":{}}\n', tMs: 2},
				],
			},
		},
		impact: (d) =>
			answersAResponse(d)
				? ANSWERS_A_RESPONSE_IMPACT()
				: d.detail?.['reason'] === 'id-type-changed'
					? row({
							'ts-sdk-v1': ['ok', 'matches responses by `Number(id)`: "0" answers request 0'],
							'ts-sdk-v2': ['ok', 'matches by `Number(id)`'],
							'python-sdk': ['ok', 'normalises a numeric string id to the int it sent (since python-sdk PR #1720)'],
							vscode: [
								'unknown',
								'not established: it keys pending requests by the id it sent, so "0" may never match; not checked against the real client',
							],
							rmcp: [
								'ok',
								'matches it (rust-sdk PR #1021 fixed #1017): Codex 0.171 accepts "0" for 0 (docs/clients.md#codex)',
							],
							cursor: UNKNOWN,
						})()
					: row({
							'ts-sdk-v1': ['hang', 'logs `Received a response for an unknown message ID`; the real request times out'],
							'ts-sdk-v2': ['hang', 'logs and ignores it'],
							'python-sdk': ['hang', 'drops it (logged at debug level only, mcp 2.3); the request waits forever'],
							vscode: ['hang', 'ignored'],
							rmcp: UNKNOWN,
							cursor: UNKNOWN,
						})(),
	},
	errors: [
		{
			on: 'request-timed-out',
			rank: 7,
			likelihood: 'possible',
			why: 'Or it was sent with an id that does not match the request.',
		},
		{
			on: 'unknown-message-id',
			rank: 0,
			likelihood: 'likely',
			why: 'The server answered with an id the client never sent (an id not echoed unchanged, or a changed type).',
		},
	],
	clientTexts: [{text: 'claude-code/tools-fetch-failed', rank: 1}],
	create: ({report}) => {
		const serverRequests = serverRequestsAnswered();
		return {
			onMessage({frame, correlation}) {
				serverRequests.note(correlation);
				// Its id is that of a request the server sent and the client answered: it answers that answer
				// (the correlator may call it a duplicate when the client's own request had the same id).
				const method = serverRequests.answering(frame, correlation);
				if (correlation?.type === 'unmatched' && (!correlation.duplicate || method !== undefined)) {
					report({
						...at(frame),
						...(method === undefined ? {} : {severity: 'warning' as const}),
						detail:
							method === undefined ? {id: correlation.id} : {id: correlation.id, reason: 'answers-a-response', method},
					});
				} else if (correlation?.type === 'answered' && correlation.idTypeChanged) {
					report({
						...at(frame),
						severity: 'warning',
						detail: {id: frame.id, reason: 'id-type-changed', requestId: correlation.request.frame.id ?? null},
					});
				}
			},
		};
	},
};
