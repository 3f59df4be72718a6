import type {Rule} from '../engine.js';
import {frameDraft} from '../support/frame-draft.js';
import {detailString, row, UNKNOWN} from '../support/meta.js';
import {inferredFrom, runtimeOfCommand, type Runtime} from '../support/runtime.js';

/**
 * How each runtime comes to write CR LF, and how to write LF only (O5). Node does not translate LF itself:
 * CR LF from Node is `os.EOL` (`\r\n` on Windows) or a literal `\r\n` in the code.
 */
export const CRLF_FIX: Readonly<Partial<Record<Runtime, string>>> = {
	python:
		'Python: `sys.stdout.reconfigure(newline="\\n")` or a `TextIOWrapper` with `newline=""`, since the default text wrapper writes `os.linesep`',
	node: 'Node.js: end each message with `"\\n"`, not `os.EOL` (`"\\r\\n"` on Windows) or a literal `"\\r\\n"`; Node itself never adds a CR',
	dotnet:
		'.NET: write `"\\n"` explicitly (`Console.Out.Write(json + "\\n")`), not `WriteLine`, which writes `Environment.NewLine`',
	jvm: 'JVM: write `"\\n"` explicitly (`out.print(json + "\\n")`), not `println`, which writes `System.lineSeparator()`',
};

/** The runtimes without an entry in {@link CRLF_FIX}, and C/C++: the text-mode stdout of the C runtime. */
const C_FIX = 'C/C++: `_setmode(_fileno(stdout), _O_BINARY)`';

/**
 * `crlf`'s fix: the inferred runtime's advice first, saying what it was inferred from (`detail.runtime`,
 * `detail.runtimeFrom`, from the command), then the others; every runtime's when none was inferred.
 */
function crlfHint(d: Parameters<Rule['meta']['hint']>[0]): string {
	const runtime = detailString(d, 'runtime') as Runtime | undefined;
	const from = detailString(d, 'runtimeFrom');
	const first = runtime === undefined ? undefined : CRLF_FIX[runtime];
	const others = [...Object.values(CRLF_FIX).filter((fix) => fix !== first), C_FIX].join('; ');
	if (first === undefined || from === undefined) return `Write LF only. ${others}.`;
	return `Write LF only. ${first} ${inferredFrom({runtime: runtime!, from})}. Elsewhere: ${others}.`;
}

/**
 * `crlf` (R2, O5): a message that ends with CR LF instead of LF: a newline frame whose terminator is
 * `crlf` and that is a message (it parsed, or it was meant as one: an unparsed message), at the CR. A
 * stray line's CR LF is part of the stray line, not a framing fault (F48); a blank line is `blank-line`.
 * The fix puts the runtime the command names first.
 */
export const crlf: Rule = {
	code: 'crlf',
	meta: {
		severity: 'warning',
		title: 'CRLF line ending',
		message: (d) => `a message on ${d.stream} ends with CR LF (0D 0A) instead of LF`,
		hint: crlfHint,
		rules: ['R2', 'O5'],
		doc: {
			what: "A message that ends with CR LF (`0D 0A`) instead of LF alone. Every surveyed client tolerates it; it tells that stdout is in Windows text mode (Python's default text wrapper, C text-mode stdout, `WriteLine`/`println`) or that the code writes `os.EOL` (Node on Windows).",
			recognised: 'The byte before the LF that ends a message is `0x0D`.',
			fix: `Write LF only. ${Object.values(CRLF_FIX).join('; ')}; ${C_FIX}. The fix names the runtime inferred from the command first.`,
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
	create: ({report, facts}) => ({
		onFrameFacts(frame, frameFacts, frameIndex) {
			if (frame.terminator !== 'crlf' || frame.isBlank) return;
			if (!frame.isJson && frameFacts.content?.kind !== 'unparsed-message') return;
			report(frameDraft('crlf', frame, frame.offset + frame.byteLength - 2, 2, frameIndex));
		},
		onDraft(draft) {
			if (draft.code !== 'crlf' || draft.detail?.['runtime'] !== undefined) return undefined;
			const guess = runtimeOfCommand(facts.meta.command);
			if (guess === undefined || CRLF_FIX[guess.runtime] === undefined) return undefined;
			return {...draft, detail: {...draft.detail, runtime: guess.runtime, runtimeFrom: guess.from}};
		},
	}),
};
