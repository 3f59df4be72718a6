import {isPlainObject} from '../../jsonrpc/classify.js';
import type {Rule} from '../engine.js';
import {atFrame} from '../support/catalogue.js';
import {detailString, row} from '../support/meta.js';
import {toolCallsOf} from '../support/tool-calls.js';

/** How much of the tool's error text the finding keeps (characters). */
const TEXT_KEPT = 200;

/** The first `text` block of a result's `content`, cut to {@link TEXT_KEPT}. */
function firstText(result: Readonly<Record<string, unknown>>): string | undefined {
	const content = result['content'];
	if (!Array.isArray(content)) return undefined;
	for (const block of content as unknown[])
		if (isPlainObject(block) && block['type'] === 'text' && typeof block['text'] === 'string')
			return block['text'].length > TEXT_KEPT ? `${block['text'].slice(0, TEXT_KEPT - 1)}…` : block['text'];
	return undefined;
}

/**
 * `tool-error` (R24, info): a `tools/call` result with `isError: true`, the tool's own report that its call
 * failed (often the arguments). Not a wire fault: every client shows the text to the model. Reported at
 * the reply so that it is neither taken for a fault nor hidden, `detail: {method, name, text?}` (`text`: the
 * first text block, at most 200 characters).
 */
export const toolError: Rule = {
	code: 'tool-error',
	meta: {
		severity: 'info',
		title: 'the tool reported an error of its own (isError)',
		message: (d) => {
			const text = detailString(d, 'text');
			return `tools/call ${JSON.stringify(detailString(d, 'name') ?? '')} returned isError: true${
				text === undefined ? '' : `: ${JSON.stringify(text)}`
			} (the tool's own error, not a wire fault)`;
		},
		hint: () =>
			'Nothing to fix on the wire. If the arguments were generated (`probe --call NAME` without `=JSON`), call it again with real ones: `--call \'NAME={"city":"Paris"}\'`.',
		rules: ['R24'],
		doc: {
			what: 'A `tools/call` result with `isError: true`: the tool says its call failed, the way MCP asks tools to report their own errors so that the model can see them and correct itself. The wire is fine; the finding only keeps it from passing unseen, or being taken for a fault, when the probe called the tool with generated arguments.',
			recognised:
				'Each `tools/call` reply whose result has `isError: true`; `detail.text` is its first text block (at most 200 characters).',
			example: {
				steps: [
					{
						stream: 'stdin',
						bytes:
							'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":""}}}\n',
						tMs: 0,
					},
					{
						stream: 'stdout',
						bytes:
							'{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"city must not be empty"}],"isError":true}}\n',
						tMs: 3,
					},
				],
			},
		},
		impact: row({
			'ts-sdk-v1': ['ok', "returns the result; the host shows the tool's error text to the model"],
			'ts-sdk-v2': ['ok', 'returns the result'],
			'python-sdk': ['ok', '`call_tool()` returns the result (`is_error` true); its outputSchema is not checked'],
			vscode: ['ok', "shows the tool's error text"],
			rmcp: ['ok', 'returns the result'],
			cursor: ['ok', "shows the tool's error text"],
		}),
	},
	create(context) {
		const {report} = context;
		const calls = toolCallsOf(context);
		return {
			onFrame(frame) {
				const reply = calls.frame(frame);
				if (reply?.result?.['isError'] !== true) return;
				const text = firstText(reply.result);
				report({
					code: 'tool-error',
					...atFrame(frame),
					detail: {method: 'tools/call', name: reply.name ?? null, ...(text === undefined ? {} : {text})},
				});
			},
		};
	},
};
