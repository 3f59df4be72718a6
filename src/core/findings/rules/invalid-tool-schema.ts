import type {ClientImpact, FindingDraft} from '../../types.js';
import {isPlainObject} from '../../jsonrpc/classify.js';
import {checkToolSchema} from '../../jsonrpc/json-schema.js';
import type {Rule} from '../engine.js';
import {atFrame, listedTools} from '../support/catalogue.js';
import {detailNumber, detailString, FAMILIES, UNKNOWN} from '../support/meta.js';

const MEMBERS = ['inputSchema', 'outputSchema'] as const;

/** `tools[0].outputSchema` at `/properties/q/type`: the member at fault and where inside it. */
function where(d: FindingDraft): string {
	const path = detailString(d, 'path') ?? '';
	return `tools[${detailNumber(d, 'index') ?? 0}].${detailString(d, 'member') ?? 'inputSchema'}${path === '' ? '' : ` at \`${path}\``}`;
}

/** How each client family takes the listing: only an `outputSchema` the SDK cannot compile breaks the TS SDK client. */
function impact(d: FindingDraft): readonly ClientImpact[] {
	const sdkError = detailString(d, 'sdkError');
	const input = detailString(d, 'member') === 'inputSchema';
	const cells: Record<string, readonly [ClientImpact['reaction'], string]> = {
		'ts-sdk-v1':
			sdkError === undefined
				? [
						'ok',
						input
							? 'lists the tool; hosts that send it to the Anthropic API fail every prompt: `API Error: 400 … tools.N.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12` (tadata-org/fastapi_mcp#218)'
							: 'lists the tool (its Ajv compiles the schema)',
					]
				: ['drop-log', `\`listTools()\` throws \`${sdkError}\` (it compiles every outputSchema): no tools listed`],
		'ts-sdk-v2': [
			'ok',
			'lists the tool: the 2.4.0 client lists even an outputSchema 1.x cannot compile (run here, docs/clients.md#typescript-sdk-2x)',
		],
		'python-sdk': ['ok', 'lists the tool'],
		rmcp: [
			'ok',
			'reads a schema as a JSON object without compiling it: Codex 0.171 lists the tool (docs/clients.md#codex)',
		],
	};
	return FAMILIES.map((client) => {
		const [reaction, note] = cells[client] ?? UNKNOWN;
		return {client, reaction, note};
	});
}

/**
 * `invalid-tool-schema`: a tool's `inputSchema` or `outputSchema` that is an object schema (`type:
 * "object"`, else `invalid-result` names it) but not valid JSON Schema in its dialect (2020-12 unless
 * `$schema` names draft-07; MCP 2025-11-25 "JSON Schema usage"), or an `outputSchema` the TS SDK client
 * cannot compile ({@link checkToolSchema}). Reported once per member at fault, at the `tools/list` reply,
 * `detail: {index, name, member, dialect, path, message, issues, sdkError?}`. `error` for an `inputSchema`
 * (the Anthropic API rejects every prompt) or an `outputSchema` the SDK rejects; else `warning`.
 */
export const invalidToolSchema: Rule = {
	code: 'invalid-tool-schema',
	meta: {
		severity: 'error',
		title: 'tool schema that is not valid JSON Schema',
		message: (d) => {
			const sdkError = detailString(d, 'sdkError');
			const issue = detailString(d, 'message');
			return `${where(d)} of ${JSON.stringify(detailString(d, 'name') ?? '')} is not valid JSON Schema ${detailString(d, 'dialect') ?? '2020-12'}${issue === undefined ? '' : `: ${issue}`}${
				sdkError === undefined ? '' : `; the TS SDK client's listTools() throws \`${sdkError}\``
			}`;
		},
		hint: (d) =>
			`Fix ${where(d)}: it must validate against the JSON Schema ${detailString(d, 'dialect') ?? '2020-12'} meta-schema (generate it from your types, or check it with a validator such as Ajv before you serve it).`,
		rules: ['R22'],
		doc: {
			what: "A tool's `inputSchema` or `outputSchema` that is not valid JSON Schema: a `type` that is no JSON type, `required` that is not an array of strings, a `$ref` that resolves nowhere. MCP 2025-11-25 embeds JSON Schema 2020-12 unless `$schema` says otherwise. The TS SDK client compiles every `outputSchema` when it lists tools and throws on one it cannot compile; the Anthropic API rejects a request whose tool `input_schema` is not valid 2020-12, so hosts that send the tool fail every prompt.",
			recognised:
				"Each `inputSchema` and `outputSchema` of a `tools/list` result whose `type` is `object`, validated with Ajv against its dialect's meta-schema (2020-12, or draft-07 when `$schema` names it; other dialects are not judged); each `outputSchema` also compiled with the TS SDK's own validator. `error` for an `inputSchema`, or an `outputSchema` the SDK cannot compile; `warning` for an `outputSchema` only the meta-schema rejects.",
			variants: [
				{
					label: 'an outputSchema the TS SDK cannot compile',
					severity: 'error',
					detail: {member: 'outputSchema', sdkError: 'type must be JSONType or JSONType[]: strnig'},
				},
				{label: 'an inputSchema', severity: 'error', detail: {member: 'inputSchema'}},
				{label: 'an outputSchema only the meta-schema rejects', severity: 'warning', detail: {member: 'outputSchema'}},
			],
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n', tMs: 0},
					{
						stream: 'stdout',
						bytes:
							'{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"search","inputSchema":{"type":"object","properties":{"q":{"type":"strnig"}}}}]}}\n',
						tMs: 2,
					},
				],
			},
		},
		impact,
	},
	create({report}) {
		return {
			onFrame(frame) {
				for (const {index, tool} of listedTools(frame) ?? []) {
					for (const member of MEMBERS) {
						const schema = tool[member];
						if (!isPlainObject(schema) || schema['type'] !== 'object') continue;
						const problems = checkToolSchema(member, schema);
						if (problems === undefined) continue;
						const first = problems.issues[0];
						report({
							code: 'invalid-tool-schema',
							...atFrame(frame),
							severity: member === 'inputSchema' || problems.sdkError !== undefined ? 'error' : 'warning',
							detail: {
								method: 'tools/list',
								index,
								name: typeof tool['name'] === 'string' ? tool['name'] : null,
								member,
								dialect: problems.dialect,
								path: first?.path ?? '',
								...(first === undefined ? {} : {message: first.message}),
								issues: problems.issues,
								...(problems.sdkError === undefined ? {} : {sdkError: problems.sdkError}),
							},
						});
					}
				}
			},
		};
	},
};
