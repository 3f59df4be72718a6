import type {FindingDraft} from '../../types.js';
import type {Rule} from '../engine.js';
import {atFrame, listedTools} from '../support/catalogue.js';
import {detailNumber, detailString, row, UNKNOWN} from '../support/meta.js';
import {judgeToolName, NAME_RULES} from '../support/tool-names.js';

const labels = (ids: unknown): string => {
	const list = Array.isArray(ids) ? ids : [];
	return NAME_RULES.filter((rule) => rule.id !== 'mcp' && list.includes(rule.id))
		.map((rule) => rule.label)
		.join(', ');
};

/** What is wrong, in the words of the bytes: the characters at fault, or the length. */
function fault(d: FindingDraft): string {
	const name = detailString(d, 'name') ?? '';
	const chars = detailString(d, 'chars') ?? '';
	switch (detailString(d, 'reason')) {
		case 'empty':
			return 'is empty';
		case 'characters':
			return d.severity === 'warning'
				? `has ${JSON.stringify(chars)}, which MCP allows`
				: `has ${JSON.stringify(chars)}, outside MCP's \`[A-Za-z0-9_.-]\``;
		case 'start':
			return `starts with ${JSON.stringify(name.charAt(0))}`;
		default:
			return `is ${name.length} characters long`;
	}
}

/** A name every rule of {@link NAME_RULES} takes, made from `name` (runs of other characters become `_`). */
export function suggestName(name: string): string {
	const safe = name
		.replace(/[^A-Za-z0-9_-]+/g, '_')
		.replace(/^[^A-Za-z]+/, '')
		.replace(/_+$/, '');
	return (safe === '' ? 'tool' : safe).slice(0, 56);
}

/**
 * `invalid-tool-name`: a tool in a `tools/list` result whose `name` a host or model API rejects
 * ({@link judgeToolName}: MCP 2025-11-25 "Tool Names", the Anthropic, OpenAI and Gemini tool-name patterns,
 * Claude Code's `mcp__<server>__` prefix). The SDK clients list the tool; the host sends the name to its
 * model API with every prompt, and the API rejects the whole request. One finding per tool, at the reply,
 * `detail: {index, name, reason, chars, rejectedBy, suggestion}`; severity `error` when MCP's own rule
 * rejects the name, `warning` when MCP allows it.
 */
export const invalidToolName: Rule = {
	code: 'invalid-tool-name',
	meta: {
		severity: 'error',
		title: 'tool name a host rejects',
		message: (d) =>
			`tools[${detailNumber(d, 'index') ?? 0}] name ${JSON.stringify(detailString(d, 'name') ?? '')} ${fault(d)}: tools/list loads; then ${labels(d.detail?.['rejectedBy'])} reject it`,
		hint: (d) =>
			`Rename the tool to letters, digits, \`_\` and \`-\`, at most 56 characters (Claude Code sends \`mcp__<server>__<tool>\`, at most 64): e.g. \`${detailString(d, 'suggestion') ?? 'get_item'}\`; keep the display text in \`title\`.`,
		rules: ['R20'],
		doc: {
			what: "A tool whose `name` a host or model API rejects. MCP 2025-11-25 says names SHOULD be 1–128 characters of `A-Z a-z 0-9 _ - .`; the model APIs the hosts send every tool to with every prompt take less: Anthropic `^[a-zA-Z0-9_-]{1,128}$`, Claude Desktop `^[a-zA-Z0-9_-]{1,64}$`, OpenAI (Codex) `^[a-zA-Z0-9_-]+$` up to 64, Gemini a letter or `_` first, then `A-Z a-z 0-9 _ . : -`, up to 64; Claude Code sends `mcp__<server>__<tool>`, at most 64 in all. `tools/list` loads in every SDK client; then every prompt fails (`API Error: 400 … tools.17.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`), in Claude Desktop the tools do not load.",
			recognised:
				"Each `name` in a `tools/list` result on stdout. `error`: empty, over 128 characters, or a character outside MCP's set (a space, `/`, `:`); `warning`: MCP allows it and a host does not (a `.`, over 64 characters, over 56 once Claude Code's prefix is added, a digit first for Gemini). `detail.rejectedBy` lists the rules the name breaks.",
			variants: [
				{label: "outside MCP's rule (a space, `/`)", severity: 'error'},
				{label: 'allowed by MCP, rejected by model APIs (a `.`, over 64 characters)', severity: 'warning'},
			],
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n', tMs: 0},
					{
						stream: 'stdout',
						bytes:
							'{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"Get Gradle Project Info","inputSchema":{"type":"object"}}]}}\n',
						tMs: 2,
					},
				],
				note: 'IlyaGulya/gradle-mcp-server#2 (F44): Claude Code lists the tool, then answers every prompt with `API Error: 400`.',
			},
		},
		impact: row({
			'ts-sdk-v1': [
				'ok',
				"lists the tool; the hosts fail later: Claude Code's every prompt gets `API Error: 400 … tools.N.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'` (or `should have at most 64 characters` once prefixed), Claude Desktop does not load the tools (`tools.N.FrontendRemoteMcpToolDefinition.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`)",
			],
			'ts-sdk-v2': ['ok', 'lists the tool; what its host sends the model API decides'],
			'python-sdk': ['ok', 'lists the tool'],
			vscode: [
				'unknown',
				'logs `Tool "…" is invalid. Tools names may only contain [a-z0-9_-]` (sxhxliang/mcp-access-point#10); whether it keeps the tool is not established',
			],
			rmcp: [
				'ok',
				"lists the tool; Codex's every prompt fails: `Invalid 'tools[48].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'` (openai/codex#8174)",
			],
			cursor: UNKNOWN,
		}),
	},
	create({report}) {
		return {
			onFrame(frame) {
				for (const {index, tool} of listedTools(frame) ?? []) {
					const name = tool['name'];
					if (typeof name !== 'string') continue; // not a string: invalid-result's
					const problem = judgeToolName(name);
					if (problem === undefined) continue;
					report({
						code: 'invalid-tool-name',
						...atFrame(frame),
						severity: problem.severity,
						detail: {
							method: 'tools/list',
							index,
							name,
							reason: problem.reason,
							chars: problem.chars,
							rejectedBy: problem.rejectedBy,
							suggestion: suggestName(name),
						},
					});
				}
			},
		};
	},
};
