import type {FindingDraft} from '../../types.js';
import {classifyStrayLine, loggerOf} from '../../framing/stray-kind.js';
import type {Rule} from '../engine.js';
import {frameDraft} from '../support/frame-draft.js';
import {detailNumber, detailString, row, UNKNOWN} from '../support/meta.js';
import {inferredFrom, LOG_FIX, PRINT_FIX, runtimeOfCommand, type Runtime} from '../support/runtime.js';

/** The trailing text as quoted in a message: whole up to 80 characters, else its start and an ellipsis. */
const quote = (text: string): string => JSON.stringify(text.length > 80 ? `${text.slice(0, 79)}…` : text);

/** The fix when text follows a message (F43): whoever wrote the text, in the inferred runtime's words. */
function trailingHint(d: FindingDraft): string {
	const runtime = detailString(d, 'runtime') as Runtime | undefined;
	const from = detailString(d, 'runtimeFrom');
	const writer =
		detailString(d, 'trailingKind') === 'log'
			? 'a logger wrote its line into stdout between the message and its "\\n"'
			: 'something printed text into stdout between the message and its "\\n"';
	if (runtime === undefined || from === undefined || !(runtime in LOG_FIX))
		return `The message itself is whole: ${writer}. Point that writer at stderr: Rust \`tracing_subscriber::fmt().with_writer(std::io::stderr)\`, Python \`logging.basicConfig(stream=sys.stderr)\`, JVM console appender \`<target>System.err</target>\`, .NET \`LogToStandardErrorThreshold = LogLevel.Trace\`, Go \`log.SetOutput(os.Stderr)\`, Node \`console.error\`.`;
	const fix = detailString(d, 'trailingKind') === 'log' ? LOG_FIX[runtime] : PRINT_FIX[runtime];
	return `The message itself is whole: ${writer}. ${fix.charAt(0).toUpperCase()}${fix.slice(1)}. ${inferredFrom({runtime, from})}`;
}

/**
 * `concatenated-json` (J9): two JSON values on one line, or a complete message followed on its line by text
 * that is not JSON (F43: a logger's line glued between a reply's `}` and its LF), from the framer's `trailing`
 * content fact. Reported at the bytes after the first value, which are highlighted whole: `detail.values` (2 or more), or `values: 1`
 * with `messageEnd` (the stream offset where the message ends) and `trailing` (the text, up to 240 bytes).
 * For trailing text this module adds `trailingKind` (`log`, `text`) and the runtime that wrote it
 * (`runtime`, `runtimeFrom`: the log format, else the command) for the fix.
 */
export const concatenatedJson: Rule = {
	code: 'concatenated-json',
	meta: {
		severity: 'error',
		title: 'two JSON values on one line',
		message: (d) => {
			const values = detailNumber(d, 'values') ?? 2;
			if (values >= 2) return `${values} JSON values share one line`;
			return `a complete message ends at offset ${detailNumber(d, 'messageEnd') ?? d.offset}, then ${d.byteLength} bytes of text follow on the same line (${quote(detailString(d, 'trailing') ?? '')}): clients drop the whole line, message included`;
		},
		hint: (d) =>
			(detailNumber(d, 'values') ?? 2) >= 2
				? 'End every message with "\\n"; never write two messages without a newline between them.'
				: trailingHint(d),
		rules: ['J9'],
		doc: {
			what: 'Two JSON values on one line with no LF between them (`{…}{…}`, or two values separated only by a lone CR), or a complete message followed on the same line by text that is not JSON (a log line written between the message and its LF). Clients parse the line as one text, fail, and lose the message.',
			recognised:
				'A value parses completely and more non-whitespace bytes follow before the LF: more JSON values (`detail.values` ≥ 2), or, after a JSON-RPC message, text (`values: 1`, `detail.trailing`; the finding highlights the text whole and says where the message ends).',
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
			'ts-sdk-v1': ['hang', 'logs `Unexpected non-whitespace character after JSON`; the line is lost'],
			'ts-sdk-v2': ['hang', 'skips the line silently; the line is lost'],
			'python-sdk': ['hang', 'rejects the line; the line is lost'],
			vscode: ['hang', 'logs `Failed to parse message`'],
			rmcp: ['skip', 'skips the line'],
			cursor: UNKNOWN,
		}),
	},
	errors: [
		{
			on: 'v8-after-json',
			rank: 1,
			likelihood: 'likely',
			why: (p) =>
				`Or two JSON messages share one line (no "\\n" between them, or a lone CR): the first ends and the second starts at position ${Number(p.match[1])}.`,
		},
	],
	create: ({facts, report}) => ({
		onFrameFacts(frame, {content}, frameIndex) {
			if (content?.kind !== 'trailing') return;
			const detail: Record<string, unknown> = {values: content.values, clientError: content.clientError};
			if (content.messageEnd !== undefined) {
				detail['messageEnd'] = content.messageEnd;
				detail['trailing'] = content.trailing;
			}
			report(frameDraft('concatenated-json', frame, content.at, content.length, frameIndex, detail));
		},
		onDraft(draft) {
			if (draft.code !== 'concatenated-json' || detailNumber(draft, 'values') !== 1) return undefined;
			if (draft.detail?.['trailingKind'] !== undefined) return undefined;
			const text = detailString(draft, 'trailing') ?? '';
			const logger = loggerOf(text);
			const trailingKind =
				logger !== undefined || classifyStrayLine(text, {hasLoneCr: false, seenJson: true}) === 'log' ? 'log' : 'text';
			const guess =
				logger !== undefined && logger in LOG_FIX
					? {runtime: logger, from: "the trailing text's log format"}
					: runtimeOfCommand(facts.meta.command);
			return {
				...draft,
				detail: {
					...draft.detail,
					trailingKind,
					...(guess === undefined ? {} : {runtime: guess.runtime, runtimeFrom: guess.from}),
				},
			};
		},
	}),
};
