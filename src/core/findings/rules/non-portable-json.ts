import type {FindingDraft} from '../../types.js';
import {detailString, row, UNKNOWN} from '../support/meta.js';
import type {Rule} from '../engine.js';

const isSurrogate = (d: FindingDraft): boolean => detailString(d, 'reason') === 'lone-surrogate';

/**
 * `non-portable-json` (R3, J1): JSON that `JSON.parse` accepts but strict parsers reject or read
 * differently. The framer reports each such token as a fact (`nonPortable`, `framing/portability.ts`),
 * looked for only in a body that holds a `\u` escape or a run of 16+ digits, so the hot path stays one
 * `JSON.parse`:
 * - `lone-surrogate` (error): a `\uD800–\uDBFF` escape not followed by a `\uDC00–\uDFFF` escape, or a
 *   lone low one. The MCP Python SDK (mcp 2.3, measured) logs a parse error and drops the line; a reply
 *   in it never arrives. JavaScript keeps the lone unit.
 * - `unsafe-integer` (warning): an integer token beyond ±(2^53−1); JavaScript rounds it (digits lost).
 *
 * `offset` is the stream byte of the escape or the number (not the line start), `byteLength` its length.
 * `detail`: `reason`, `token` (the escape or number as written).
 */
export const nonPortableJson: Rule = {
	code: 'non-portable-json',
	meta: {
		severity: 'error',
		title: 'JSON that strict parsers reject or read differently',
		message: (d) =>
			isSurrogate(d)
				? `the escape ${detailString(d, 'token') ?? ''} is a lone UTF-16 surrogate: JSON.parse accepts it, strict parsers (Python, Rust serde_json) reject the message`
				: `the integer ${detailString(d, 'token') ?? ''} is beyond ±(2^53−1): JavaScript clients round it and lose digits`,
		hint: (d) =>
			isSurrogate(d)
				? 'Do not cut strings inside a surrogate pair (truncate on code points, not UTF-16 units), and escape whole characters.'
				: 'Send integers beyond ±(2^53−1) as strings.',
		rules: ['R3', 'J1'],
		doc: {
			what: 'A message that `JSON.parse` accepts but strict JSON parsers reject or read differently: a lone UTF-16 surrogate escape (`\\ud83d` without its low half, usually a string cut in the middle of an emoji), or an integer beyond ±(2^53−1) that JavaScript rounds.',
			recognised:
				'Only for a frame that holds a `\\u` escape or a run of 16 or more digits: one string-aware pass over the text. Reported at the byte of the escape or the number, with `detail.reason` `lone-surrogate` (error: the Python SDK drops the line) or `unsafe-integer` (warning).',
			example: {
				steps: [
					{
						stream: 'stdout',
						bytes: '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"cut \\ud83d"}]}}\n',
					},
				],
				note: '`\\ud83d` is a high surrogate with no low half after it.',
			},
		},
		impact: (d) =>
			isSurrogate(d)
				? row({
						'ts-sdk-v1': ['ok', 'JSON.parse keeps the lone unit; the message is accepted'],
						'ts-sdk-v2': ['ok', 'JSON.parse keeps the lone unit; the message is accepted'],
						'python-sdk': [
							'drop-log',
							'logs a parse error and drops the line; a reply in it never arrives and its request times out (measured, mcp 2.3)',
						],
						vscode: UNKNOWN,
						rmcp: [
							'skip',
							'rejects the whole line (serde_json refuses a lone surrogate); a reply in it never arrives: Codex 0.171 times out (docs/clients.md#codex)',
						],
						cursor: UNKNOWN,
					})()
				: row({
						'ts-sdk-v1': ['corrupt', 'JSON.parse rounds the integer to the nearest double'],
						'ts-sdk-v2': ['corrupt', 'JSON.parse rounds the integer to the nearest double'],
						'python-sdk': UNKNOWN,
						vscode: ['corrupt', 'JSON.parse rounds the integer to the nearest double'],
						rmcp: UNKNOWN,
						cursor: UNKNOWN,
					})(),
	},
	create: ({report}) => ({
		onFrameFacts(frame, {nonPortable}, frameIndex) {
			if (nonPortable === undefined) return;
			for (const token of nonPortable) {
				const draft: FindingDraft = {
					code: 'non-portable-json',
					stream: frame.stream,
					offset: token.at,
					byteLength: token.length,
					tMs: frame.tMs,
					detail: {reason: token.reason, token: token.token},
				};
				// `severity` after `detail`, `frameIndex` last: the key order the framer's drafts had.
				const judged: FindingDraft = token.reason === 'unsafe-integer' ? {...draft, severity: 'warning'} : draft;
				report(frameIndex === undefined ? judged : {...judged, frameIndex});
			}
		},
	}),
};
