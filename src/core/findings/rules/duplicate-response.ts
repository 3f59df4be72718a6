import type {Rule} from '../engine.js';
import {row, UNKNOWN} from '../support/meta.js';
import {serverRequestsAnswered} from '../support/server-requests.js';

/**
 * `duplicate-response` (J5): a second response to an answered request: the correlator's `unmatched` with
 * `duplicate` (same burst, same bytes, or nothing newer waiting); not when its id is that of the server's own
 * request the client answered (an answer to that answer: `unknown-id`, `support/server-requests.ts`).
 */
export const duplicateResponse: Rule = {
	code: 'duplicate-response',
	pairsAcrossStreams: true,
	meta: {
		severity: 'error',
		title: 'duplicate response',
		message: (d) => `a second response to id ${JSON.stringify(d.detail?.['id'] ?? null)}`,
		hint: () => 'Send exactly one response per request.',
		rules: ['J5'],
		doc: {
			what: 'A second response to a request that was already answered.',
			recognised: 'Correlation: a response to an id whose request already has one.',
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n', tMs: 0},
					{
						stream: 'stdout',
						bytes: '{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":1,"result":{}}\n',
						tMs: 2,
					},
				],
			},
		},
		impact: row({
			'ts-sdk-v1': ['skip-log', 'logs `unknown message ID` for the second one'],
			'ts-sdk-v2': ['skip-log', 'logs it'],
			'python-sdk': [
				'skip',
				'drops the second one (logged at debug level only, mcp 2.3: the example lists its tool with nothing logged)',
			],
			vscode: ['skip', 'ignored'],
			rmcp: ['skip', 'ignores the second reply: Codex 0.171 lists tools (run here, docs/clients.md#codex)'],
			cursor: UNKNOWN,
		}),
	},
	errors: [{on: 'unknown-message-id', rank: 1, likelihood: 'possible', why: 'Or it answered the same request twice.'}],
	create: ({report}) => {
		const serverRequests = serverRequestsAnswered();
		return {
			onMessage({frame, correlation}) {
				serverRequests.note(correlation);
				if (correlation?.type !== 'unmatched' || !correlation.duplicate) return;
				// An answer to the client's answer to the server's own request with that id is unknown-id's.
				if (serverRequests.answering(frame, correlation) !== undefined) return;
				report({
					code: 'duplicate-response',
					stream: frame.stream,
					offset: frame.offset,
					byteLength: frame.byteLength,
					frameIndex: frame.index,
					tMs: frame.tMs,
					detail: {id: correlation.id},
				});
			},
		};
	},
};
