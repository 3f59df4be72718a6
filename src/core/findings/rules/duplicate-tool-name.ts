import {isPlainObject} from '../../jsonrpc/classify.js';
import type {Rule} from '../engine.js';
import {atFrame, listedTools} from '../support/catalogue.js';
import {detailNumber, detailString, row, UNKNOWN} from '../support/meta.js';

/**
 * `duplicate-tool-name`: two tools with the same `name` in one listing (one `tools/list` result, or the
 * pages of one listing: a `tools/list` request without `cursor` starts a new listing). MCP 2025-11-25
 * "Tool Names": names SHOULD be unique within a server. The Anthropic API rejects a request whose tools
 * repeat a name (`tools: Tool names must be unique.`), so every prompt fails in hosts that pass the names
 * through; Codex keeps one of them, silently. Reported at the reply that repeats the name,
 * `detail: {index, name, firstIndex, firstFrameIndex}`.
 */
export const duplicateToolName: Rule = {
	code: 'duplicate-tool-name',
	meta: {
		severity: 'error',
		title: 'two tools with the same name',
		message: (d) =>
			`tools[${detailNumber(d, 'index') ?? 0}] repeats the name ${JSON.stringify(detailString(d, 'name') ?? '')} of tools[${detailNumber(d, 'firstIndex') ?? 0}]${
				detailNumber(d, 'firstFrameIndex') === d.frameIndex ? '' : ' (an earlier page)'
			}: the Anthropic API rejects every prompt (\`tools: Tool names must be unique.\`), Codex keeps one of them`,
		hint: (d) =>
			`Give every tool its own name: rename one of the two ${JSON.stringify(detailString(d, 'name') ?? '')} tools, or register it once.`,
		rules: ['R21'],
		doc: {
			what: 'Two tools with the same `name` in one listing (MCP 2025-11-25: names SHOULD be unique within a server). A tool is called by name, so one of the two cannot be reached; hosts that send the tools to the Anthropic API fail every prompt with `tools: Tool names must be unique.`',
			recognised:
				'The names of a `tools/list` result on stdout, and of the next pages of the same listing (a `tools/list` request without `cursor` starts a new one): the second tool with a name already listed.',
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n', tMs: 0},
					{
						stream: 'stdout',
						bytes:
							'{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"search","inputSchema":{"type":"object"}},{"name":"search","inputSchema":{"type":"object"}}]}}\n',
						tMs: 2,
					},
				],
			},
		},
		impact: row({
			'ts-sdk-v1': [
				'ok',
				'lists both; hosts that send them to the Anthropic API fail every prompt: `API Error: 400 … tools: Tool names must be unique.` (anthropics/claude-code#10687)',
			],
			'ts-sdk-v2': ['ok', 'lists both'],
			'python-sdk': ['ok', 'lists both'],
			vscode: UNKNOWN,
			rmcp: ['ok', 'Codex keeps one of them, silently (tools are a map by name)'],
			cursor: UNKNOWN,
		}),
	},
	create({report}) {
		let seen = new Map<string, {readonly index: number; readonly frameIndex: number}>();
		return {
			onFrame(frame) {
				if (frame.stream === 'stdin' && frame.kind === 'request' && frame.method === 'tools/list') {
					const params = (frame.message as {params?: unknown}).params;
					if (!isPlainObject(params) || params['cursor'] === undefined) seen = new Map();
					return;
				}
				for (const {index, tool} of listedTools(frame) ?? []) {
					const name = tool['name'];
					if (typeof name !== 'string') continue;
					const first = seen.get(name);
					if (first === undefined) {
						seen.set(name, {index, frameIndex: frame.index});
						continue;
					}
					report({
						code: 'duplicate-tool-name',
						...atFrame(frame),
						detail: {method: 'tools/list', index, name, firstIndex: first.index, firstFrameIndex: first.frameIndex},
					});
				}
			},
		};
	},
};
