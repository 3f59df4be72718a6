import type {Rule} from '../engine.js';
import {detailNumber, row, UNKNOWN} from '../support/meta.js';

/**
 * `concatenated-json` (J9): two JSON values on one line. The framer reports it when bytes follow a complete
 * value before the LF (`detail.values`); this module owns the meta.
 */
export const concatenatedJson: Rule = {
	code: 'concatenated-json',
	meta: {
		severity: 'error',
		title: 'two JSON values on one line',
		message: (d) => `${detailNumber(d, 'values') ?? 2} JSON values share one line`,
		hint: () => 'End every message with "\\n"; never write two messages without a newline between them.',
		rules: ['J9'],
		doc: {
			what: 'Two JSON values on one line with no LF between them (`{…}{…}`, or two values separated only by a lone CR). Clients parse the line as one text, fail, and lose both messages.',
			recognised: 'A value parses completely and more non-whitespace bytes follow before the LF.',
			example: {
				steps: [
					{
						stream: 'stdout',
						bytes:
							'{"jsonrpc":"2.0","method":"notifications/initialized"}{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
					},
				],
				note: 'V8 says `Unexpected non-whitespace character after JSON at position 54`.',
			},
		},
		impact: row({
			'ts-sdk-v1': ['hang', 'logs `Unexpected non-whitespace character after JSON`; both messages are lost'],
			'ts-sdk-v2': ['hang', 'skips the line silently; both messages are lost'],
			'python-sdk': ['hang', 'rejects the line; both messages are lost'],
			vscode: ['hang', 'logs `Failed to parse message`'],
			rmcp: ['skip', 'skips the line'],
			cursor: UNKNOWN,
		}),
	},
	create: () => ({}),
};
