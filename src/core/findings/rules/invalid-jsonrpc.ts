import {strayLine} from '../support/pasted.js';
import type {ClientImpact, FindingDraft, Frame, StreamName} from '../../types.js';
import {MAX_JSON_DEPTH} from '../../jsonrpc/depth.js';
import {impactForProblems} from '../../jsonrpc/impact.js';
import type {JsonRpcProblem} from '../../jsonrpc/problem.js';
import type {SdkSchemas} from '../../jsonrpc/sdk-checks.js';
import type {Rule} from '../engine.js';
import {detailString, row, UNKNOWN} from '../support/meta.js';

/**
 * The finding for a frame that nests deeper than {@link MAX_JSON_DEPTH}: `invalid-jsonrpc` with
 * `detail.reason: 'nesting'` (no new code: for a Python client it is a line that does not parse as a
 * JSON-RPC message). Evidence is the whole frame (`offset`, `byteLength` in bytes). The impact is what
 * was measured: the TS SDK reads it, the Python SDK logs and drops it; the rest is unknown.
 */
export function nestingDraft(
	frame: {readonly stream: StreamName; readonly offset: number; readonly byteLength: number; readonly tMs: number},
	frameIndex: number,
): FindingDraft {
	const impact: ClientImpact[] = [
		{client: 'ts-sdk-v1', reaction: 'ok', note: "V8's JSON.parse and the SDK schema take any depth"},
		{client: 'ts-sdk-v2', reaction: 'unknown', note: 'not established'},
		{
			client: 'python-sdk',
			reaction: 'drop-log',
			note: `pydantic-core stops at ${MAX_JSON_DEPTH} levels ("recursion limit exceeded"); the line is logged and dropped`,
		},
		{client: 'vscode', reaction: 'unknown', note: 'not established'},
		{client: 'rmcp', reaction: 'unknown', note: 'not established (serde_json stops at 128 levels by default)'},
		{client: 'cursor', reaction: 'unknown', note: 'not established'},
	];
	return {
		code: 'invalid-jsonrpc',
		stream: frame.stream,
		offset: frame.offset,
		byteLength: frame.byteLength,
		frameIndex,
		tMs: frame.tMs,
		message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels: the Python SDK rejects it; mcp-wire shows the deeper levels as a placeholder (the bytes are all there)`,
		detail: {
			reason: 'nesting',
			problem: `nested deeper than ${MAX_JSON_DEPTH} levels`,
			maxDepth: MAX_JSON_DEPTH,
			problems: ['nesting'],
			impact,
		},
	};
}

const ID_REASONS: ReadonlySet<string> = new Set(['error-without-id', 'missing-id']);

/** The draft for a message whose classification found `problems` (the first names the fault; all-warnings: a warning). */
function problemsDraft(frame: Frame, problems: readonly JsonRpcProblem[], schemas: SdkSchemas): FindingDraft {
	const first = problems[0]!;
	return {
		code: 'invalid-jsonrpc',
		stream: frame.stream,
		offset: frame.offset,
		byteLength: frame.byteLength,
		frameIndex: frame.index,
		tMs: frame.tMs,
		...(problems.every((p) => p.severity === 'warning') ? {severity: 'warning' as const} : {}),
		detail: {
			reason: first.reason,
			problem: first.message,
			rule: first.rule,
			...(first.key === undefined ? {} : {key: first.key}),
			problems: problems.map((p) => p.reason),
			...(frame.rawId === undefined ? {} : {rawId: frame.rawId}),
			impact: impactForProblems(problems, frame.message, schemas),
		},
	};
}

/**
 * `invalid-jsonrpc` (J1–J8): valid JSON that is not a valid JSON-RPC message: the classifier's problems
 * (`detail.reason`), a message nested past the renderers' depth (`nesting`), and the passive J3 check
 * (`duplicate-request-id`, support/passive.ts). An error without id right after a notification is one fault
 * (J4, `response-to-notification`), not also a shape fault; an explicit `"id":null` is both (F45: JSON-RPC
 * allows null only for an unreadable request id).
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
			if (reason === 'result-and-error')
				return 'A response carries `result` or `error`, never both: on success leave `error` out, not null (Jackson `@JsonInclude(NON_NULL)`, Go `omitempty`, serde `skip_serializing_if`); on failure send only `error`.';
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
	create: ({report, schemas}) => ({
		onMessage({frame, problems, nestingCut, correlation}) {
			if (nestingCut) report(nestingDraft(frame, frame.index));
			if (problems.length === 0) return;
			const idOnly = problems.every((p) => ID_REASONS.has(p.reason));
			if (idOnly && correlation?.type === 'answers-notification') return;
			report(problemsDraft(frame, problems, schemas));
		},
	}),
};
