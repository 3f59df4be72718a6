import type {ClientImpact, FindingDraft, Reaction} from '../../types.js';
import {detailString, row, UNKNOWN} from '../support/meta.js';
import type {Rule} from '../engine.js';
import {describeJsonType} from '../../jsonrpc/classify.js';

/** The value at a dotted `path` inside `value` ('' is the value itself), or undefined. */
function valueAt(value: unknown, path: string): unknown {
	let at = value;
	for (const key of path === '' ? [] : path.split('.')) {
		if (at === null || typeof at !== 'object') return undefined;
		at = (at as Record<string, unknown>)[key];
	}
	return at;
}

/**
 * rmcp's reading of a `tools/list` result, where Codex 0.171 was run (docs/clients.md#codex): a tool without
 * `inputSchema` fails the request (`Unexpected response type`), an `inputSchema` object without `"type"`
 * and an `outputSchema` that is not an object schema are read as any JSON object and the tool is listed.
 * Anything else is not established.
 */
function rmcpCell(d: FindingDraft): readonly [Reaction, string] {
	if (detailString(d, 'method') !== 'tools/list') return UNKNOWN;
	const member = /^tools\.\d+\.(inputSchema|outputSchema)\b/.exec(detailString(d, 'path') ?? '')?.[1];
	if (member === 'inputSchema' && /received undefined|required/i.test(detailString(d, 'message') ?? ''))
		return ['drop-log', 'Codex 0.171 fails `tools/list`: `Unexpected response type` (docs/clients.md#codex)'];
	if (member === 'outputSchema') return ['ok', 'Codex 0.171 lists the tool (docs/clients.md#codex)'];
	// `found` is set only when a value is there: here, `"type"` is absent.
	if (/^tools\.\d+\.inputSchema\.type$/.test(detailString(d, 'path') ?? '') && d.detail?.['found'] === undefined)
		return ['ok', 'Codex 0.171 lists a tool whose `inputSchema` has no `"type"` (docs/clients.md#codex)'];
	return UNKNOWN;
}

const where = (d: FindingDraft): string => {
	const path = detailString(d, 'path');
	return path ? `\`${path}\`` : 'the result';
};

/**
 * Members of a `tools/list` result that the Python SDK (mcp 2.3) and rmcp (Codex 0.171) read as absent when
 * they are `null`, and list the tools: each measured with both clients. The TS SDK's schema rejects them.
 */
const NULL_READ_AS_ABSENT = /^(?:nextCursor|tools\.\d+\.(?:title|annotations|outputSchema))$/;

/** A copy of a `tools/list` result without the `null` members of {@link NULL_READ_AS_ABSENT}. */
function withoutNullOptional(result: object): object {
	const {nextCursor, ...rest} = result as {nextCursor?: unknown; tools?: unknown};
	const copy: Record<string, unknown> = nextCursor === null ? rest : {...rest, nextCursor};
	if (Array.isArray(copy['tools']))
		copy['tools'] = (copy['tools'] as unknown[]).map((tool) =>
			tool !== null && typeof tool === 'object'
				? Object.fromEntries(
						Object.entries(tool).filter(
							([key, value]) =>
								!(value === null && (key === 'title' || key === 'annotations' || key === 'outputSchema')),
						),
					)
				: tool,
		);
	return copy;
}

const NULL_OK: Readonly<Record<'python-sdk' | 'rmcp', readonly [Reaction, string]>> = {
	'python-sdk': ['ok', 'reads each `null` optional member as absent and lists the tools (mcp 2.3, measured)'],
	rmcp: ['ok', 'reads each `null` optional member as absent: Codex 0.171 lists the tools (measured)'],
};

/** The reactions to a bad result of any request but `tools/call` (checked on `tools/list`: docs/clients.md). */
const listImpact = (d: FindingDraft): readonly ClientImpact[] =>
	row({
		'ts-sdk-v1': [
			'drop-log',
			"the request rejects with the validator's error (`listTools()` throws a ZodError naming the path): no tools listed",
		],
		'ts-sdk-v2': [
			'drop-log',
			'the same zod schemas as 1.x: the request rejects, no tools listed (2.4.0 run here, docs/clients.md#typescript-sdk-2x)',
		],
		'python-sdk':
			d.detail?.['nullOptional'] === true
				? NULL_OK['python-sdk']
				: [
						'drop-log',
						'the request raises a pydantic `ValidationError` naming the field (mcp 2.3.0: `tools.0.inputSchema Field required`): no tools listed',
					],
		vscode: UNKNOWN,
		rmcp: d.detail?.['nullOptional'] === true ? NULL_OK.rmcp : rmcpCell(d),
		cursor: UNKNOWN,
	})();

/** The reactions to a bad `tools/call` result (checked with both SDK clients on unknown-content-type: docs/clients.md). */
const CALL_IMPACT = row({
	'ts-sdk-v1': ['drop-log', '`callTool()` throws a ZodError naming the path (`content.0`): the call fails'],
	'ts-sdk-v2': [
		'drop-log',
		'`callTool()` rejects: `Invalid result for tools/call` with the zod issues (2.4.0 run on unknown-content-type): the call fails',
	],
	'python-sdk': [
		'drop-log',
		'`call_tool()` raises a pydantic `ValidationError` for `CallToolResult` (mcp 2.3.0): the call fails',
	],
	vscode: UNKNOWN,
	rmcp: UNKNOWN,
	cursor: UNKNOWN,
});

/**
 * The reactions to a `tools/call` result without `content` (R23: the schema requires it), which the TS SDK
 * accepts (`content` defaults to `[]`) and the Python SDK rejects (run with both: docs/clients.md "Tool calls").
 */
const NO_CONTENT_IMPACT = row({
	'ts-sdk-v1': ['ok', '`content` defaults to `[]`: `callTool()` returns the result'],
	'ts-sdk-v2': UNKNOWN,
	'python-sdk': [
		'drop-log',
		'`call_tool()` raises `ValidationError: 1 validation error for CallToolResult content Field required` (mcp 2.3.0): the call fails',
	],
	vscode: UNKNOWN,
	rmcp: UNKNOWN,
	cursor: UNKNOWN,
});

/**
 * `invalid-result`: a response whose `result` does not match the MCP schema of its method in the negotiated
 * revision (R12): a tool without `inputSchema`, `tools` not an array, a content item of an unknown type, a
 * `ping` result that is not empty. The schemas are the official TS SDK's (`@modelcontextprotocol/sdk`
 * 1.32.2, injected as `RuleContext.schemas`; never a copy kept here), so the verdict is the TS SDK client's:
 * it rejects the whole result and the request fails.
 *
 * Reported at the response on stdout, `detail: {method, path, message, itemType?, issues, protocolVersion}`:
 * `path` (dotted, inside `result`) and `message` of the first issue exactly as the SDK's validator words it,
 * `itemType` the `type` of the object at that path when it has one (zod says only "Invalid input" for an
 * unknown content type), `issues` all of them (at most 5); `nullOptional: true` for a `tools/list` result
 * whose every issue is a `null` the Python SDK and rmcp read as absent ({@link NULL_READ_AS_ABSENT}). `initialize` is `invalid-initialize`'s; a result that is not an object is `invalid-jsonrpc`'s;
 * without loaded schemas, or for a revision the SDK does not support, nothing is judged.
 */
export const invalidResult: Rule = {
	code: 'invalid-result',
	meta: {
		severity: 'error',
		title: 'result does not match the MCP schema',
		message: (d) =>
			`the ${detailString(d, 'method') ?? 'request'} result does not match the MCP schema: ${where(d)}: ${detailString(d, 'message') ?? 'rejected'}${
				detailString(d, 'itemType') === undefined ? '' : ` (its type is ${JSON.stringify(detailString(d, 'itemType'))})`
			}${detailString(d, 'found') === undefined ? '' : ` (it is ${detailString(d, 'found')})`}; ${
				detailString(d, 'reason') === 'no-content'
					? 'the Python SDK client rejects it (the TS SDK defaults `content` to [])'
					: 'the TS SDK client rejects the whole result'
			}`,
		hint: (d) => {
			const method = detailString(d, 'method');
			if (d.detail?.['nullOptional'] === true)
				return "Leave an optional member out instead of writing `null`: the TS SDK's schema rejects `null` there (pydantic: `model_dump(exclude_none=True)`).";
			if (method === 'tools/list') {
				// Name the member at fault: an outputSchema is not fixed by "give every tool an inputSchema".
				const path = detailString(d, 'path') ?? '';
				const member = /^tools\.\d+\.(inputSchema|outputSchema|name|annotations|icons|title|description)\b/.exec(path);
				if (member?.[1] === 'outputSchema')
					return `Make \`${path.replace(/\.type$/, '')}\` an object schema: \`"type":"object"\` at its root (structured content is an object; wrap a list as \`{"type":"object","properties":{"items":{"type":"array",…}}}\`), or leave \`outputSchema\` out.`;
				if (member !== null && member[1] !== 'inputSchema')
					return `Fix \`${path}\` as the MCP Tool schema says (${member[1]}).`;
				return 'Give every tool a `name` and an `inputSchema` object (`{"type":"object"}` at least), and send `tools` as an array.';
			}
			if (method === 'tools/call')
				return 'Return `content` as an array of items whose `type` is `text`, `image`, `audio`, `resource_link` or `resource`, each with its required fields.';
			if (method === 'ping') return 'Answer `ping` with an empty result: `"result":{}`.';
			return `Shape the ${method ?? 'method'}'s result as the MCP schema of the negotiated revision says (start at ${where(d)}).`;
		},
		rules: ['R12'],
		doc: {
			what: 'A response whose `result` does not match the MCP schema of its method in the negotiated revision: a tool without `inputSchema`, `tools` that is not an array, a content item of an unknown type ([R12](docs/protocol.md#r12)). The TS and Python SDK clients validate results and reject the whole result, so the request fails: one bad tool hides every tool.',
			recognised:
				"The result of each answered request (other than `initialize`) validated with the official TS SDK's schema for its method (`ListToolsResultSchema` for `tools/list`, …); `detail` holds the path and message of the validator, as the SDK client reports them.",
			variants: [
				{label: 'a `tools/list` result (any request but `tools/call`)', detail: {method: 'tools/list'}},
				{label: 'a `tools/call` result', detail: {method: 'tools/call'}},
				{
					label: 'a `tools/call` result without `content`',
					detail: {method: 'tools/call', reason: 'no-content', path: 'content'},
				},
			],
			example: {
				steps: [
					{
						stream: 'stdin',
						bytes:
							'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n',
						tMs: 0,
					},
					{
						stream: 'stdout',
						bytes:
							'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}\n',
						tMs: 1,
					},
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n', tMs: 2},
					{
						stream: 'stdout',
						bytes: '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","description":"Echo the text"}]}}\n',
						tMs: 3,
					},
				],
				note: 'The tool has no `inputSchema`.',
			},
		},
		impact: (d) =>
			detailString(d, 'reason') === 'no-content'
				? NO_CONTENT_IMPACT()
				: detailString(d, 'method') === 'tools/call'
					? CALL_IMPACT()
					: listImpact(d),
	},
	clientTexts: [
		{text: 'claude-code/tools-fetch-failed', rank: 2},
		{text: 'codex/unexpected-response-type', rank: 0},
		{text: 'python-sdk/call-tool-result-invalid', rank: 0},
	],
	create({report, facts, schemas}) {
		return {
			onFrame(frame) {
				if (frame.stream !== 'stdout' || frame.kind !== 'response') return;
				const method = frame.answers?.method;
				if (method === undefined || method === 'initialize') return;
				const result = (frame.message as {result?: unknown}).result;
				if (result === null || typeof result !== 'object' || Array.isArray(result)) return;
				const issues = schemas.result(method, facts.negotiatedVersion, result);
				if (
					issues === undefined &&
					schemas.loaded &&
					facts.negotiatedVersion !== undefined &&
					method === 'tools/call' &&
					!('content' in result)
				) {
					// The TS SDK's schema defaults `content`; the MCP schema and the Python SDK require it.
					report({
						code: 'invalid-result',
						stream: 'stdout',
						offset: frame.offset,
						byteLength: frame.byteLength,
						frameIndex: frame.index,
						tMs: frame.tMs,
						detail: {
							method,
							path: 'content',
							message: 'Required',
							reason: 'no-content',
							issues: [],
							protocolVersion: facts.negotiatedVersion ?? null,
						},
					});
					return;
				}
				if (issues === undefined || issues.length === 0) return;
				const first = issues[0]!;
				// A union the item matched no branch of (an unknown content type): zod says only "Invalid input".
				const item = valueAt(result, first.path);
				const itemType =
					item !== null && typeof item === 'object' && typeof (item as {type?: unknown}).type === 'string'
						? (item as {type: string}).type
						: undefined;
				// What is there instead (`"array"` where `"object"` is required), for a value that is not an object.
				const found =
					item === undefined || (item !== null && typeof item === 'object' && !Array.isArray(item))
						? undefined
						: typeof item === 'string'
							? JSON.stringify(item)
							: describeJsonType(item);
				// `nextCursor`, a tool's `title`: the Python SDK and rmcp read `null` there as absent (measured). Past
				// the issues kept, the result without those nulls must pass the schema.
				const nullOptional =
					method === 'tools/list' &&
					issues.every((issue) => NULL_READ_AS_ABSENT.test(issue.path) && valueAt(result, issue.path) === null) &&
					schemas.result(method, facts.negotiatedVersion, withoutNullOptional(result)) === undefined;
				report({
					code: 'invalid-result',
					stream: 'stdout',
					offset: frame.offset,
					byteLength: frame.byteLength,
					frameIndex: frame.index,
					tMs: frame.tMs,
					detail: {
						method,
						...(nullOptional ? {nullOptional: true} : {}),
						path: first.path,
						message: first.message,
						...(itemType === undefined ? {} : {itemType}),
						...(found === undefined ? {} : {found}),
						issues: issues.map((issue) => ({path: issue.path, message: issue.message})),
						protocolVersion: facts.negotiatedVersion ?? null,
					},
				});
			},
		};
	},
};
