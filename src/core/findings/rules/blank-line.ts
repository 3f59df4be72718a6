import {strayLine} from '../support/pasted.js';
import type {Rule} from '../engine.js';
import {frameDraft} from '../support/frame-draft.js';
import {row} from '../support/meta.js';

/**
 * `blank-line` (R5): an empty line on the protocol stream: a frame whose content fact is `blank` (no bytes
 * before its LF or CR LF), the whole frame, with what `JSON.parse` says of an empty line.
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
	errors: [
		{
			on: 'v8-end-of-input',
			rank: 0,
			likelihood: 'likely',
			why: 'JSON.parse was given an empty line: the server wrote a blank line (an extra "\\n") on stdout. Cursor 2026 builds drop the connection on it.',
		},
		{
			on: 'python-parse-failed',
			rank: 0,
			likelihood: 'likely',
			why: (p) =>
				p.line?.kind === 'blank'
					? `pydantic's input_value is empty (${JSON.stringify(p.line.text)}): the server wrote a blank line.`
					: undefined,
		},
		{
			on: 'python-parse-failed',
			rank: 1,
			likelihood: 'possible',
			why: (p) =>
				strayLine(p) === undefined
					? undefined
					: 'An empty line gives the same log (pydantic: `EOF while parsing a value`).',
		},
		{
			on: 'pydantic-eof',
			rank: 0,
			likelihood: 'likely',
			why: "pydantic was given an empty line (`input_value='\\n'`): a blank line was written on the stream (by the client if the server logs it).",
		},
		{
			on: 'vscode-parse-failed',
			rank: 0,
			likelihood: 'likely',
			why: (p) => (p.line?.kind === 'blank' ? 'The quoted line is empty: the server wrote a blank line.' : undefined),
		},
	],
	create: ({report}) => ({
		onFrameFacts(frame, {content}, frameIndex) {
			if (content?.kind !== 'blank') return;
			report(
				frameDraft('blank-line', frame, frame.offset, frame.byteLength, frameIndex, {clientError: content.clientError}),
			);
		},
	}),
};
