import type {Rule} from '../engine.js';
import {row} from '../support/meta.js';

/**
 * `blank-line` (R5): an empty line on the protocol stream. The framer reports it (a frame with no bytes before
 * its LF); this module owns the meta.
 */
export const blankLine: Rule = {
	code: 'blank-line',
	meta: {
		severity: 'warning',
		title: 'blank line',
		message: (d) => `an empty line on ${d.stream}`,
		hint: () => 'Write exactly one `JSON + "\\n"` per message; do not write an extra newline.',
		rules: ['R5'],
		doc: {
			what: 'An empty line: a line terminator with no message before it, usually an extra `print()` or a `"\\n"` written after a message that already ended with one.',
			recognised: 'LF (or CR LF) with zero bytes before it on the protocol stream.',
			example: {
				steps: [
					{
						stream: 'stdout',
						bytes: '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"ok"}}\n\n',
					},
				],
				note: 'Node clients log `Unexpected end of JSON input` for the second LF.',
			},
		},
		impact: row({
			'ts-sdk-v1': ['skip-log', 'logs `Unexpected end of JSON input`'],
			'ts-sdk-v2': ['skip', 'skips silently'],
			'python-sdk': ['skip-log', 'logs a parse error and skips'],
			vscode: ['skip-log', 'logs `Failed to parse message: "\\n"`'],
			rmcp: ['skip', 'skips empty lines'],
			cursor: [
				'unknown',
				'2026 builds were seen failing the connection on `Unexpected end of JSON input`, in logs of servers that were also crashing',
			],
		}),
	},
	create: () => ({}),
};
