import {strayLine} from '../support/pasted.js';
import type {ClientImpact} from '../../types.js';
import type {Rule} from '../engine.js';
import {detailString, row, UNKNOWN} from '../support/meta.js';

/**
 * `invalid-jsonrpc` (J1–J8): valid JSON that is not a valid JSON-RPC message. The classifier's problems
 * (`detail.reason`) and the passive J3 check (`duplicate-request-id`) report it; this module owns the meta.
 */
export const invalidJsonrpc: Rule = {
	code: 'invalid-jsonrpc',
	meta: {
		severity: 'error',
		title: 'not a valid JSON-RPC message',
		message: (d) =>
			`valid JSON but not a valid MCP JSON-RPC message: ${detailString(d, 'problem') ?? detailString(d, 'reason') ?? 'shape'}`,
		hint: (d) => {
			const reason = detailString(d, 'reason');
			if (reason === 'nesting')
				return 'Flatten the message: the Python SDK rejects JSON nested more than 201 levels deep (a recursive structure serialized without a depth limit).';
			if (reason === 'unknown-key')
				return `Remove the extra top-level key \`${detailString(d, 'key') ?? ''}\`: the TS SDK's strict schema drops the whole message.`;
			if (reason === 'missing-jsonrpc' || reason === 'wrong-jsonrpc') return 'Every message needs `"jsonrpc": "2.0"`.';
			if (reason === 'id-null')
				return 'Omit `id` on an error whose request id could not be read, rather than `"id": null` (MCP 2025-11-25).';
			if (reason === 'result-not-object') return '`result` must be an object (use `{}` for an empty result).';
			if (reason === 'not-object' || reason === 'no-method-or-result')
				return 'Only JSON-RPC messages may go to stdout: send analytics and structured logs to stderr.';
			return 'Follow the JSON-RPC 2.0 message shapes as MCP tightens them (J1–J8).';
		},
		rules: ['J1', 'J2', 'J5', 'J8'],
		doc: {
			what: 'Valid JSON that is not a valid JSON-RPC 2.0 / MCP message: a structured log record or analytics event, a missing or wrong `jsonrpc`, both `result` and `error`, a non-object `result`, an `id` that is null, boolean or fractional, an unknown top-level key, a batch array outside 2025-03-26.',
			recognised:
				'The parsed value is checked against the JSON-RPC message shapes as MCP tightens them; `detail.reason` names the problem and the client impact follows from it.',
			fix: 'Follow the JSON-RPC 2.0 shapes as MCP tightens them ([J1](docs/protocol.md#j1)–[J8](docs/protocol.md#j8)); send structured logs and analytics to stderr.',
			example: {steps: [{stream: 'stdout', bytes: '{"level":"info","msg":"ready"}\n'}]},
		},
		impact: (d) => {
			const given = d.detail?.['impact'];
			if (Array.isArray(given)) return given as ClientImpact[];
			return row({
				'ts-sdk-v1': ['drop-log', 'zod rejects the message; it is logged and dropped'],
				'ts-sdk-v2': ['drop-log', 'rejected by the schema'],
				'python-sdk': ['drop-log', 'rejected by pydantic'],
				vscode: ['ok', 'duck-typed; not validated'],
				rmcp: UNKNOWN,
				cursor: UNKNOWN,
			})();
		},
	},
	errors: [
		{
			on: 'python-parse-failed',
			rank: 0,
			likelihood: 'likely',
			why: (p) =>
				p.line?.kind === 'object'
					? 'The line is JSON but not a JSON-RPC message the SDK accepts (pydantic rejected its shape).'
					: undefined,
		},
		{
			on: 'python-parse-failed',
			rank: 3,
			likelihood: 'possible',
			why: (p) =>
				strayLine(p) === undefined
					? undefined
					: 'And valid JSON that is not a JSON-RPC message (an analytics or log record).',
		},
		{
			on: 'claude-desktop-invalid-message',
			rank: 0,
			likelihood: 'likely',
			why: (p) => (p.line?.kind === 'object' ? 'The rejected line is JSON but not a JSON-RPC message.' : undefined),
		},
		{
			on: 'zod-schema',
			rank: 0,
			likelihood: 'likely',
			why: 'The message is JSON but fails the JSON-RPC schema (an extra top-level key, a missing `jsonrpc`, a null id…).',
		},
	],
	create: () => ({}),
};
