import type {Rule} from '../engine.js';
import {frameDraft} from '../support/frame-draft.js';
import {row, UNKNOWN} from '../support/meta.js';

/**
 * `invalid-utf8` (R3): bytes that are not UTF-8, at the frame's first invalid sequence (the framer's
 * `invalidUtf8` fact; `detail.inString`: inside a JSON string of the body).
 */
export const invalidUtf8: Rule = {
	code: 'invalid-utf8',
	meta: {
		severity: 'error',
		title: 'invalid UTF-8',
		message: (d) =>
			`bytes on ${d.stream} are not valid UTF-8${d.detail?.['inString'] === true ? ' (inside a JSON string)' : ''}`,
		hint: () =>
			'Decode text from its real encoding before putting it in JSON (e.g. `bytes.decode("cp949")`), or escape binary data as base64; write stdout as UTF-8.',
		rules: ['R3'],
		doc: {
			what: 'Bytes that are not UTF-8: text in a legacy code page (cp1252, cp949) copied into a JSON string, or a multi-byte character cut in half. MCP messages must be UTF-8 ([R3](docs/protocol.md#r3)).',
			recognised:
				'Byte-level UTF-8 validation of each line before anything is decoded; `detail.inString` says whether the bad bytes sit inside a JSON string.',
			variants: [
				{label: 'inside a JSON string', detail: {inString: true}},
				{label: 'outside a JSON string', detail: {inString: false}},
			],
			example: {
				steps: [
					{
						stream: 'stdout',
						bytes: '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"caf\xE9"}}\n',
					},
				],
				note: '`E9` is `é` in cp1252; in UTF-8 it must be followed by two continuation bytes.',
			},
		},
		impact: (d) => {
			const inString = d.detail?.['inString'] === true;
			return row({
				'ts-sdk-v1': inString
					? ['corrupt', 'replaces the bytes with U+FFFD silently']
					: ['skip-log', 'logs a parse error and skips the line'],
				'ts-sdk-v2': inString ? ['corrupt', 'replaces the bytes with U+FFFD silently'] : ['skip', 'skips the line'],
				'python-sdk': ['fatal', 'UnicodeDecodeError ends the whole stdio_client'],
				vscode: inString
					? ['corrupt', 'replaces the bytes with U+FFFD']
					: ['skip-log', 'logs `Failed to parse message`'],
				rmcp: ['skip', 'rejects the line'],
				cursor: UNKNOWN,
			})();
		},
	},
	errors: [
		{
			on: 'unicode-decode-error',
			rank: 0,
			likelihood: 'likely',
			why: 'The Python SDK decodes stdout as strict UTF-8 and stops the whole client on the first invalid byte.',
			detail: {inString: true},
		},
	],
	create: ({report}) => ({
		onFrameFacts(frame, {invalidUtf8}, frameIndex) {
			if (invalidUtf8 === undefined) return;
			report(
				frameDraft('invalid-utf8', frame, invalidUtf8.at, invalidUtf8.length, frameIndex, {
					inString: invalidUtf8.inString,
				}),
			);
		},
	}),
};
