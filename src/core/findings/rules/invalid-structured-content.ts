import type {ClientImpact, FindingDraft} from '../../types.js';
import {isPlainObject} from '../../jsonrpc/classify.js';
import {structuredContentProblem} from '../../jsonrpc/json-schema.js';
import type {Rule} from '../engine.js';
import {atFrame} from '../support/catalogue.js';
import {detailString, FAMILIES, UNKNOWN} from '../support/meta.js';
import {toolCallsOf} from '../support/tool-calls.js';

const tool = (d: FindingDraft): string => JSON.stringify(detailString(d, 'name') ?? '');

/** What each client does: both SDK clients throw from their call method, so the call fails (R23). */
function impact(d: FindingDraft): readonly ClientImpact[] {
	const missing = detailString(d, 'reason') === 'missing';
	const name = detailString(d, 'name') ?? 'X';
	const cells: Record<string, readonly [ClientImpact['reaction'], string]> = {
		'ts-sdk-v1': [
			'drop-log',
			missing
				? `\`callTool()\` throws \`McpError -32600: Tool ${name} has an output schema but did not return structured content\`: the call fails`
				: `\`callTool()\` throws \`McpError -32602: Structured content does not match the tool's output schema: ${detailString(d, 'sdkError') ?? '…'}\`: the call fails`,
		],
		'ts-sdk-v2': missing
			? UNKNOWN
			: [
					'drop-log',
					'`callTool()` rejects: `Structured content does not match the tool\'s output schema` (2.4.0 run on structured-content-mismatch, docs/clients.md "Tool calls"): the call fails',
				],
		'python-sdk': [
			'drop-log',
			missing
				? `\`call_tool()\` raises \`RuntimeError: Tool ${name} has an output schema but did not return structured content\``
				: `\`call_tool()\` raises \`RuntimeError: Invalid structured content returned by tool ${name}: …\` (jsonschema)`,
		],
	};
	return FAMILIES.map((client) => {
		const [reaction, note] = cells[client] ?? UNKNOWN;
		return {client, reaction, note};
	});
}

/**
 * `invalid-structured-content` (R23): a `tools/call` result, without `isError`, for a tool whose listing
 * declared an `outputSchema`, that has no `structuredContent` (`reason: missing`) or one the schema rejects
 * (`reason: mismatch`, checked with the TS SDK client's own validator, `detail.sdkError` its message).
 * Reported at the reply, `detail: {method, name, reason, sdkError?}`. Both SDK clients throw from their call
 * method, so the call fails though every byte was well framed.
 */
export const invalidStructuredContent: Rule = {
	code: 'invalid-structured-content',
	meta: {
		severity: 'error',
		title: "tool result that does not match the tool's outputSchema",
		message: (d) =>
			detailString(d, 'reason') === 'missing'
				? `tools/call ${tool(d)} returned no structuredContent, but the tool declares an outputSchema; the SDK clients fail the call`
				: `tools/call ${tool(d)} returned structuredContent its outputSchema rejects: ${detailString(d, 'sdkError') ?? 'does not match'}; the SDK clients fail the call`,
		hint: (d) =>
			detailString(d, 'reason') === 'missing'
				? `Return \`structuredContent\` (an object matching the outputSchema) from ${tool(d)} with every result that is not \`isError\`, or remove its \`outputSchema\`.`
				: `Make ${tool(d)}'s \`structuredContent\` match its \`outputSchema\` (${detailString(d, 'sdkError') ?? ''}), or fix the schema to describe what the tool returns.`,
		rules: ['R23'],
		doc: {
			what: 'A tool that declares an `outputSchema` but returns no `structuredContent`, or structured content the schema rejects. The TS SDK client (Claude Desktop, Claude Code, MCP Inspector) and the Python SDK client validate it in their call method and throw: the call fails and the model sees no result, though every byte on the wire was fine. Only a call shows it (`probe --call`).',
			recognised:
				"Each `tools/call` reply whose result has no `isError: true`, for a tool the last `tools/list` listed with an `outputSchema`: no `structuredContent` (`reason: missing`), or `structuredContent` the TS SDK's validator (its Ajv, formats checked) rejects (`reason: mismatch`, `detail.sdkError` its message).",
			variants: [
				{label: 'no structuredContent', severity: 'error', detail: {reason: 'missing'}},
				{
					label: 'structuredContent the schema rejects',
					severity: 'error',
					detail: {reason: 'mismatch'},
				},
			],
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n', tMs: 0},
					{
						stream: 'stdout',
						bytes:
							'{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"get_weather","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"temp":{"type":"number"}},"required":["temp"]}}]}}\n',
						tMs: 2,
					},
					{
						stream: 'stdin',
						bytes: '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather","arguments":{}}}\n',
						tMs: 3,
					},
					{
						stream: 'stdout',
						bytes:
							'{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"21"}],"structuredContent":{"temp":"21"}}}\n',
						tMs: 5,
					},
				],
				note: '`temp` is a string where the schema says number.',
			},
		},
		impact,
	},
	clientTexts: [{text: 'python-sdk/structured-content-invalid', rank: 0}],
	create(context) {
		const {report} = context;
		const calls = toolCallsOf(context);
		return {
			onFrame(frame) {
				const reply = calls.frame(frame);
				if (reply?.result === undefined || reply.result['isError'] === true) return;
				const schema = reply.tool?.['outputSchema'];
				if (!isPlainObject(schema)) return;
				const content = reply.result['structuredContent'];
				const sdkError =
					content === undefined || content === null ? undefined : structuredContentProblem(schema, content);
				if (content !== undefined && content !== null && sdkError === undefined) return;
				report({
					code: 'invalid-structured-content',
					...atFrame(frame),
					detail: {
						method: 'tools/call',
						name: reply.name ?? null,
						...(sdkError === undefined ? {reason: 'missing'} : {reason: 'mismatch', sdkError}),
					},
				});
			},
		};
	},
};
