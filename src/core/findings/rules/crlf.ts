import type {Rule} from '../engine.js';
import {frameDraft} from '../support/frame-draft.js';
import {row, UNKNOWN} from '../support/meta.js';

/**
 * `crlf` (R2, O5): a message that ends with CR LF instead of LF: a newline frame whose terminator is
 * `crlf` and that is a message (it parsed, or it was meant as one: an unparsed message), at the CR. A
 * stray line's CR LF is part of the stray line, not a framing fault (F48); a blank line is `blank-line`.
 */
export const crlf: Rule = {
	code: 'crlf',
	meta: {
		severity: 'warning',
		title: 'CRLF line ending',
		message: (d) => `a message on ${d.stream} ends with CR LF (0D 0A) instead of LF`,
		hint: () =>
			'Write LF only: Python `sys.stdout.reconfigure(newline="\\n")` or a TextIOWrapper with `newline=""`; C `_setmode(_fileno(stdout), _O_BINARY)`; .NET/Java: write "\\n" explicitly.',
		rules: ['R2', 'O5'],
		doc: {
			what: "A message that ends with CR LF (`0D 0A`) instead of LF alone. Every surveyed client tolerates it; it tells that stdout is in Windows text mode (Python's default text wrapper, C text-mode stdout, `WriteLine`/`println`).",
			recognised: 'The byte before the LF that ends a message is `0x0D`.',
			example: {
				steps: [
					{
						stream: 'stdout',
						bytes: '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"ok"}}\r\n',
					},
				],
			},
		},
		impact: row({
			'ts-sdk-v1': ['ok', 'strips the trailing CR (since 1.9.0)'],
			'ts-sdk-v2': ['ok', 'strips the trailing CR'],
			'python-sdk': ['ok', 'CR is JSON whitespace'],
			vscode: ['ok', 'JSON.parse accepts trailing CR'],
			rmcp: ['ok', 'strips the trailing CR'],
			cursor: UNKNOWN,
		}),
	},
	create: ({report}) => ({
		onFrameFacts(frame, facts, frameIndex) {
			if (frame.terminator !== 'crlf' || frame.isBlank) return;
			if (!frame.isJson && facts.content?.kind !== 'unparsed-message') return;
			report(frameDraft('crlf', frame, frame.offset + frame.byteLength - 2, 2, frameIndex));
		},
	}),
};
