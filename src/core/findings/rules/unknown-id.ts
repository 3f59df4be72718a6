import type {Rule} from '../engine.js';
import {row, UNKNOWN} from '../support/meta.js';

/**
 * `unknown-id` (J5): a response whose id matches no outstanding request, and is not a duplicate of an answered
 * one (the correlator's `unmatched`); or one that echoes a numeric id as a string (`answered` with
 * `idTypeChanged`: a warning, `detail.reason: 'id-type-changed'`), which some clients match and some do not.
 */
export const unknownId: Rule = {
	code: 'unknown-id',
	pairsAcrossStreams: true,
	meta: {
		severity: 'error',
		title: 'response to an unknown id',
		message: (d) =>
			d.detail?.['reason'] === 'id-type-changed'
				? `a response echoes id ${JSON.stringify(d.detail?.['requestId'] ?? null)} as the string ${JSON.stringify(d.detail?.['id'] ?? null)}: the TS and Python SDK clients and current rmcp match it anyway (VS Code: not established)`
				: `a response with id ${JSON.stringify(d.detail?.['id'] ?? null)} matches no outstanding request`,
		hint: () => 'Echo the request `id` unchanged (same value and type; 0 is a valid id, not "missing").',
		rules: ['J5'],
		doc: {
			what: 'A response whose `id` matches no outstanding request: the server did not echo the request id (it answered with a constant, a coerced `0`, or another type).',
			recognised: 'Correlation of requests and responses per direction.',
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n', tMs: 0},
					{stream: 'stdout', bytes: '{"jsonrpc":"2.0","id":7,"result":{}}\n', tMs: 2},
				],
			},
		},
		impact: (d) =>
			d.detail?.['reason'] === 'id-type-changed'
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
						'python-sdk': ['hang', 'RuntimeError to the message handler; the request waits forever'],
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
	create: ({report}) => ({
		onMessage({frame, correlation}) {
			if (correlation?.type === 'unmatched' && !correlation.duplicate) {
				report({
					code: 'unknown-id',
					stream: frame.stream,
					offset: frame.offset,
					byteLength: frame.byteLength,
					frameIndex: frame.index,
					tMs: frame.tMs,
					detail: {id: correlation.id},
				});
			} else if (correlation?.type === 'answered' && correlation.idTypeChanged) {
				report({
					code: 'unknown-id',
					stream: frame.stream,
					offset: frame.offset,
					byteLength: frame.byteLength,
					frameIndex: frame.index,
					tMs: frame.tMs,
					severity: 'warning',
					detail: {id: frame.id, reason: 'id-type-changed', requestId: correlation.request.frame.id ?? null},
				});
			}
		},
	}),
};
