import type {Rule} from '../engine.js';
import {row, UNKNOWN} from '../support/meta.js';

/**
 * `duplicate-response` (J5): a second response to an answered request: the correlator's `unmatched` with
 * `duplicate` (same burst, same bytes, or nothing newer waiting).
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
			'python-sdk': ['skip-log', 'RuntimeError to the message handler'],
			vscode: ['skip', 'ignored'],
			rmcp: ['skip', 'ignores the second reply: Codex 0.171 lists tools (run here, docs/clients.md#codex)'],
			cursor: UNKNOWN,
		}),
	},
	errors: [{on: 'unknown-message-id', rank: 1, likelihood: 'possible', why: 'Or it answered the same request twice.'}],
	create: ({report}) => ({
		onMessage({frame, correlation}) {
			if (correlation?.type !== 'unmatched' || !correlation.duplicate) return;
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
	}),
};
