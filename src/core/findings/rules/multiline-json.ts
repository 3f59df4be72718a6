import {strayLine, startsWith} from '../support/pasted.js';
import type {Rule} from '../engine.js';
import {frameDraft} from '../support/frame-draft.js';
import {detailNumber, row, UNKNOWN} from '../support/meta.js';

/**
 * `multiline-json` (R1): one JSON value spread over several lines: a frame the framer reassembled (content
 * fact `multiline`), the whole frame (`detail.lines`; `detail.clientError`: the parse error of its first line).
 */
export const multilineJson: Rule = {
	code: 'multiline-json',
	meta: {
		severity: 'error',
		title: 'pretty-printed (multi-line) JSON',
		message: (d) => `one JSON message spread over ${detailNumber(d, 'lines') ?? 'several'} lines`,
		hint: () => 'Serialize each message on one line: `JSON.stringify(msg)` / `json.dumps(msg)` with no indent.',
		rules: ['R1'],
		doc: {
			what: 'One JSON message spread over several lines, usually because it was serialized with an indent. Clients read line by line, so every line fails to parse and the message is never delivered.',
			recognised:
				'Consecutive lines that do not parse alone but make one JSON value together (bracket depth is tracked outside strings only).',
			example: {
				steps: [{stream: 'stdout', bytes: '{\n  "jsonrpc": "2.0",\n  "method": "notifications/initialized"\n}\n'}],
				note: "A line that is just `{` makes V8 say `Expected property name or '}' in JSON at position 1`.",
			},
		},
		impact: row({
			'ts-sdk-v1': [
				'hang',
				"logs a parse error per line (`Expected property name or '}'…`); the message is never delivered",
			],
			'ts-sdk-v2': ['hang', 'skips every line silently; the request times out'],
			'python-sdk': ['hang', 'logs a parse error per line; the message is lost'],
			vscode: ['hang', 'logs `Failed to parse message` per line'],
			rmcp: ['hang', 'skips every line'],
			cursor: UNKNOWN,
		}),
	},
	errors: [
		{
			on: ['v8-unexpected-token', 'v8-unexpected-token-old'],
			rank: 0,
			likelihood: 'likely',
			why: (p) =>
				p.line?.kind === 'fragment'
					? `${startsWith(p)}: a fragment of pretty-printed JSON. Each line of an indented message is parsed alone and fails, so the message is lost.`
					: undefined,
		},
		{
			on: 'v8-property-name',
			rank: 0,
			likelihood: 'likely',
			why: (p) =>
				`JSON.parse read a line that opens an object and stops${p.match[1] === '1' ? ' (the line is just `{`)' : ''}: the server pretty-prints its messages over several lines, and every line fails alone.`,
		},
		{
			on: 'v8-after-json',
			rank: 2,
			likelihood: 'possible',
			why: 'Or a line of pretty-printed JSON such as `  "jsonrpc": "2.0",` (a quoted key, then a colon).',
		},
		{
			on: 'python-parse-failed',
			rank: 0,
			likelihood: 'likely',
			why: (p) =>
				p.line?.kind === 'fragment'
					? `pydantic's input_value ${JSON.stringify(p.line.text)} is a fragment of pretty-printed JSON.`
					: undefined,
		},
		{
			on: 'python-parse-failed',
			rank: 2,
			likelihood: 'possible',
			why: (p) => (strayLine(p) === undefined ? undefined : 'So does each line of a pretty-printed message.'),
		},
		{
			on: 'vscode-parse-failed',
			rank: 1,
			likelihood: 'possible',
			why: (p) =>
				p.line?.kind === 'blank' ? undefined : 'Each line of a pretty-printed message gives the same warning.',
		},
		{
			on: 'request-timed-out',
			rank: 3,
			likelihood: 'possible',
			why: 'Or the response was written but lost on the way: it was pretty-printed over several lines, and the client parses each line alone.',
		},
		{
			on: 'claude-code-connection-timeout',
			rank: 3,
			likelihood: 'possible',
			why: 'Or it was written but lost on the way: it was pretty-printed over several lines, and the client parses each line alone.',
		},
	],
	clientTexts: [{text: 'codex/failed-to-start', rank: 3}],
	create: ({report}) => ({
		onFrameFacts(frame, {content}, frameIndex) {
			if (content?.kind !== 'multiline') return;
			report(
				frameDraft('multiline-json', frame, frame.offset, frame.byteLength, frameIndex, {
					lines: content.lines,
					clientError: content.clientError,
				}),
			);
		},
	}),
};
