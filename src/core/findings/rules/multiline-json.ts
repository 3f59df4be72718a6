import type {Rule} from '../engine.js';
import {detailNumber, row, UNKNOWN} from '../support/meta.js';

/**
 * `multiline-json` (R1): one JSON value spread over several lines. The framer reports it when it reassembles the
 * lines (`detail.lines`); this module owns the meta.
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
	create: () => ({}),
};
