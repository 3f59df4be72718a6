import {strayLine, startsWith, KIND_WHAT} from '../support/pasted.js';
import type {FindingDraft} from '../../types.js';
import {detailString, row} from '../support/meta.js';
import {
	inferredFrom,
	LOG_FIX,
	PRINT_FIX,
	runtimeOfCommand,
	type Runtime,
	type RuntimeGuess,
} from '../support/runtime.js';
import type {Rule, SessionFacts} from '../engine.js';
import {frameDraft} from '../support/frame-draft.js';

const GENERIC_LOG_HINT =
	'Point the logger at stderr; most logging frameworks write to stdout by default: Python `logging.basicConfig(stream=sys.stderr)`, JVM console appender `<target>System.err</target>`, Rust `tracing_subscriber::fmt().with_writer(std::io::stderr)`, .NET `LogToStandardErrorThreshold = LogLevel.Trace`, Go `log.SetOutput(os.Stderr)`, Node `console.error`.';

const LAUNCHER_HINT: Readonly<Record<string, string>> = {
	'dotnet-run':
		'`dotnet run` prints its own progress (`Using launch settings from …`, `Building...`) to stdout before the app starts; the server code is not at fault. Launch the built app (`dotnet <App>.dll`), or `dotnet run --no-build --no-launch-profile`.',
	npm: 'Launch the server directly (`node dist/index.js`), not through `npm run`/`npm start`, whose lifecycle echo goes to stdout; or `npm --silent run …`.',
	dotenv: 'dotenv 17 prints `[dotenv@…] injecting env` to stdout: `config({quiet: true})`.',
	gradle:
		'Gradle prints its task lines (`> Task :run`) to stdout: launch the built jar (`java -jar build/libs/<app>.jar`), or `gradle -q run --console=plain`.',
	'go-run':
		'`go run` downloads and builds before the server starts: build once (`go build -o server .`) and launch the binary.',
	'cargo-run':
		'`cargo run` prints its build progress: build once (`cargo build --release`) and launch `target/release/<bin>`, or `cargo run -q`.',
	docker:
		'`docker run` printed its image pull: pull the image beforehand (`docker pull …`), and never pass `-t` (a TTY merges stderr into stdout).',
};

/** A shell that runs a `-c` script (`sh -c`, `bash -lc`), by its base name. */
const SHELL = /^(?:sh|bash|dash|zsh|ksh|ash)(?:\.exe)?$/;

/**
 * The shell of a `sh -c SCRIPT` command whose script itself writes `line` with `echo` or `printf`: the
 * line's text (at least 3 characters) is in the script and the script has one of those commands. Evidence
 * that the wrapper, not the server, printed it; undefined otherwise.
 */
export function scriptEchoShell(command: readonly string[], line: string | undefined): string | undefined {
	const shell = (command[0]?.split(/[\\/]/).pop() ?? '').toLowerCase();
	if (!SHELL.test(shell) || line === undefined) return undefined;
	const flag = command.findIndex((word, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(word));
	const script = flag === -1 ? undefined : command[flag + 1];
	const text = line.trim();
	if (script === undefined || text.length < 3 || !/\b(?:echo|printf)\b/.test(script)) return undefined;
	return script.includes(text) ? shell.replace(/\.exe$/, '') : undefined;
}

const HINT: Readonly<Record<string, string>> = {
	banner:
		'Print startup messages to stderr, not stdout: Python `print(..., file=sys.stderr)`, Node `console.error(...)`.',
	progress: 'Send progress output to stderr, or use MCP progress notifications.',
	launcher:
		'Launch the server directly (no `npm run`, no wrapper echo): use `exec` in wrapper scripts, `npm --silent`/`node` instead of `npm start`, dotenv `config({quiet: true})`.',
	text: 'Only MCP messages may go to stdout (R5): move this output to stderr.',
};

/** Requests whose reply window is a server handler at work: a stray line there came from the handler (R5). */
const HANDLER_METHODS: ReadonlySet<string> = new Set([
	'tools/call',
	'resources/read',
	'prompts/get',
	'completion/complete',
]);

/**
 * The handler request awaiting its reply when a stray line arrived (the newest, when several are), as
 * `detail.during`: `{method, id, name}` (the tool or prompt) or `{method, id, uri}` (the resource).
 */
function handlerWindow(facts: SessionFacts): Readonly<Record<string, unknown>> | undefined {
	const open = facts.outstanding('stdin').filter((r) => HANDLER_METHODS.has(r.method));
	const last = open[open.length - 1];
	if (last === undefined) return undefined;
	const params = (last.frame.message as {params?: unknown}).params;
	const p = params !== null && typeof params === 'object' ? (params as Record<string, unknown>) : {};
	return {
		method: last.method,
		id: last.id,
		...(typeof p['name'] === 'string' ? {name: p['name']} : {}),
		...(typeof p['uri'] === 'string' ? {uri: p['uri']} : {}),
	};
}

/** `tools/call "get_weather" (id 3)`: the request of a `detail.during` window, in words. */
export function windowWords(during: unknown): string | undefined {
	if (during === null || typeof during !== 'object') return undefined;
	const w = during as {method?: unknown; id?: unknown; name?: unknown; uri?: unknown};
	if (typeof w.method !== 'string') return undefined;
	const what = typeof w.name === 'string' ? ` ${JSON.stringify(w.name)}` : typeof w.uri === 'string' ? ` ${w.uri}` : '';
	return `${w.method}${what} (id ${JSON.stringify(w.id ?? null)})`;
}

/** The start of the fix when a reply is glued after the line's text (`detail.glued`). */
const GLUED_HINT =
	'The reply itself is whole: the text before it ends without a newline (Python `print(..., end="")`, Node `process.stdout.write`, an escape sequence or a spinner frame), so clients read text and reply as one line and drop both.';

/** `; the reply to initialize (id 0) follows on the same line at offset 12, …` for `detail.glued`, else ''. */
function gluedWords(glued: unknown): string {
	if (glued === null || typeof glued !== 'object') return '';
	const g = glued as {offset?: unknown; id?: unknown; method?: unknown};
	return `; the reply to ${String(g.method)} (id ${JSON.stringify(g.id ?? null)}) follows on the same line at offset ${String(g.offset)}, with no newline before it, so clients drop it with the line`;
}

/** `detail.runtime` and `detail.runtimeFrom` of a draft, as a guess, when a rule set them. */
function guessOf(d: FindingDraft): RuntimeGuess | undefined {
	const runtime = detailString(d, 'runtime') as Runtime | undefined;
	const from = detailString(d, 'runtimeFrom');
	return runtime !== undefined && from !== undefined && runtime in LOG_FIX ? {runtime, from} : undefined;
}

/** `Fix` with its first letter upper-cased, and a full stop. */
const sentence = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

/**
 * The fix for one stray line: the merge first when stderr is merged upstream (`detail.merged`); a launcher
 * line by its launcher; a log line or printed text in the inferred runtime's words first (`detail.runtime`,
 * from the log format or the command), saying what it was inferred from.
 */
function strayHint(d: FindingDraft): string {
	if (d.detail?.['merged'] === true) {
		return "stderr is merged into stdout upstream (see `stderr-merged`): this is the server's stderr output. Remove the merge (`2>&1`, `docker run -t`) first; its logging to stderr is then correct.";
	}
	const kind = detailString(d, 'kind') ?? 'text';
	if (kind === 'launcher') return LAUNCHER_HINT[detailString(d, 'launcher') ?? ''] ?? HINT['launcher']!;
	const shell = detailString(d, 'scriptShell');
	if (shell !== undefined)
		return `The line's text is in the \`${shell} -c\` script, which has an \`echo\`/\`printf\`: the wrapper script most likely prints it before the server starts, so the server's code is not at fault. Send it to stderr (\`echo … >&2\`) or drop it, and start the server with \`exec\`.`;
	const guess = guessOf(d);
	if (kind === 'log')
		return guess === undefined ? GENERIC_LOG_HINT : `${sentence(LOG_FIX[guess.runtime])} ${inferredFrom(guess)}`;
	if ((kind === 'banner' || kind === 'text') && guess !== undefined)
		return `Only MCP messages may go to stdout (R5): ${PRINT_FIX[guess.runtime]}, and ${LOG_FIX[guess.runtime]}. ${inferredFrom(guess)}`;
	return HINT[kind] ?? HINT['text']!;
}

/**
 * The runtime behind a stray line: the logging framework its format names (`detail.logger`), else the
 * one the command names ({@link runtimeOfCommand}).
 */
export function strayRuntime(logger: string | undefined, command: readonly string[]): RuntimeGuess | undefined {
	if (logger !== undefined && logger in LOG_FIX) return {runtime: logger as Runtime, from: "the log line's format"};
	return runtimeOfCommand(command);
}

/**
 * `stray-output` (R5): a line on the protocol stream that is not JSON at all (the framer's `text`
 * content fact), reported at the line's first byte with `detail.kind` (`banner`, `log`, `progress`, `launcher`, `text`),
 * `detail.clientError` (what a TS SDK client logs), `detail.logger` (`jvm`, `python`, `dotnet`, `rust`) for a
 * log line whose format names its framework, and `detail.launcher` (`dotnet-run`, `npm`, `dotenv`). The
 * `stderr-merged` rule sets `detail.merged` on the lines it explains; this rule sets `detail.during` on a line
 * inside the reply window of a handler request (`tools/call`, …), naming it, and `detail.glued` (`{offset, id,
 * method}`) when the line ends with the reply to an awaited request, glued after its text. A log line with a silent stderr is a
 * logger writing to stdout (most do by default), not evidence of a merge (F35).
 */
export const strayOutput: Rule = {
	code: 'stray-output',
	meta: {
		severity: 'error',
		title: 'stray output on the protocol stream',
		message: (d) => {
			const kind = detailString(d, 'kind') ?? 'text';
			const what =
				kind === 'banner'
					? 'a banner line before any message'
					: kind === 'log'
						? 'a log line'
						: kind === 'launcher'
							? 'launcher output'
							: kind === 'progress'
								? 'progress output'
								: 'a line that is not JSON';
			const during = windowWords(d.detail?.['during']);
			return `${d.stream} carries ${what}, not an MCP message${d.detail?.['merged'] === true ? ' (stderr output, merged into stdout upstream)' : ''}${
				during === undefined ? '' : `, inside the reply window of ${during}`
			}${gluedWords(d.detail?.['glued'])}`;
		},
		hint: (d) => {
			const during = windowWords(d.detail?.['during']);
			const glued = d.detail?.['glued'] === undefined ? '' : `${GLUED_HINT} `;
			return during === undefined
				? `${glued}${strayHint(d)}`
				: `It was printed while the server handled ${during}: the handler, or code it calls, writes to stdout. ${glued}${strayHint(d)}`;
		},
		rules: ['R5'],
		doc: {
			what: 'A line on the protocol stream that is not JSON at all: a start-up banner, a `print()` or `console.log`, a log line, usage text, a progress bar, or what a launcher (npm, dotenv, a wrapper script, `dotnet run`) printed before the server started.',
			recognised:
				"The line does not parse as JSON, and it is neither part of a pretty-printed value (`multiline-json`) nor an LSP header (`content-length-framing`), nor a line that opens like a message (`invalid-json`). `detail.kind` says what it looks like: `banner` (before the first message), `log` (a timestamp or level prefix; `detail.logger` names the framework when the format does), `progress` (text rewritten with CR), `launcher` (known launcher shapes; `detail.launcher`), otherwise `text`. A banner or text line whose text is in the command's `sh -c` script, which has an `echo` or `printf`, gets `detail.scriptShell`: the wrapper most likely printed it, and the fix says so instead of naming the server's runtime. Log lines with a silent stderr are just this: most logging frameworks write to stdout by default. A line that arrives while a `tools/call`, `resources/read`, `prompts/get` or `completion/complete` awaits its reply gets `detail.during` (`{method, id, name}` or `{…, uri}`): it lies inside that request's reply window, so the handler printed it (only a call shows it: `probe --call`). A line that ends with the whole reply to a request the client awaits, glued after its text with no newline between (`print('ready', end='')`, an escape sequence, a spinner's last frame), gets `detail.glued` (`{offset, id, method}`): clients drop the reply with the line, and when the request stays unanswered, `unanswered-request` names this line as its cause.",
			fix: "Only MCP messages may go to stdout ([R5](docs/protocol.md#r5)). Print start-up text to stderr (Python `print(..., file=sys.stderr)`, Node `console.error`); point the logger's console output at stderr (JVM appender target `System.err`, Rust `with_writer(std::io::stderr)`, Python `stream=sys.stderr`); launch the server directly (`exec` in wrapper scripts, `node` instead of `npm start`, `dotnet <App>.dll` instead of `dotnet run`, dotenv `config({quiet: true})`).",
			example: {
				steps: [
					{stream: 'stdout', bytes: 'Server started\n'},
					{
						stream: 'stdout',
						bytes: '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"ok"}}\n',
					},
				],
				note: 'The TS SDK logs `Unexpected token \'S\', "Server sta"... is not valid JSON` for the first line.',
			},
		},
		impact: row({
			'ts-sdk-v1': ['skip-log', 'logs `Unexpected token …` and skips the line; Claude Desktop shows a toast'],
			'ts-sdk-v2': ['skip', 'skips the line silently'],
			'python-sdk': ['skip-log', 'logs `Failed to parse JSONRPC message from server` and skips the line'],
			vscode: ['skip-log', 'logs `Failed to parse message` and skips the line'],
			rmcp: ['skip', 'skips the line (before 1.7.0: closes the transport)'],
			cursor: [
				'unknown',
				'2025 builds log and skip; 2026 builds were seen failing the connection right after a parse error, in logs of servers that were also crashing',
			],
		}),
	},
	errors: [
		{
			on: ['v8-unexpected-token', 'v8-unexpected-token-old'],
			rank: 1,
			likelihood: 'likely',
			why: (p) => {
				if (p.line?.kind === 'ansi')
					return 'The coloured line is itself not a JSON message (usually a logger writing to stdout).';
				const kind = strayLine(p);
				return kind === undefined ? undefined : `${startsWith(p)}: ${KIND_WHAT[kind]}, not a JSON message.`;
			},
			detail: (p) => ({kind: strayLine(p) ?? 'log'}),
		},
		{
			on: 'v8-after-json',
			rank: 0,
			likelihood: 'likely',
			why: (p) => {
				const position = Number(p.match[1]);
				return `A line started with something that parses as JSON on its own and then went on: usually a log line that starts with a number, such as a timestamp \`2025-06-09 …\`${position === 4 ? ' (the year ends at position 4)' : ` (the number ends at position ${position})`}.`;
			},
			detail: {kind: 'log'},
		},
		{
			on: 'v8-minus-sign',
			rank: 0,
			likelihood: 'likely',
			why: 'A line on stdout starts with `-` and no digit: a Markdown/YAML list item (`- item`) or a `---` separator printed to stdout.',
			detail: {kind: 'banner'},
		},
		{
			on: 'v8-unexpected-number',
			rank: 0,
			likelihood: 'likely',
			why: 'A line on stdout starts with a number followed by more text: usually a log line with a timestamp.',
			detail: {kind: 'log'},
		},
		{
			on: 'python-parse-failed',
			rank: 0,
			likelihood: 'likely',
			why: (p) =>
				strayLine(p) === undefined
					? undefined
					: `A line on the server's stdout is not a JSON-RPC message${p.line === undefined ? '' : `: it starts with ${JSON.stringify(p.line.text.slice(0, 30))}`}.`,
			detail: (p) => ({kind: strayLine(p)}),
		},
		{
			on: 'vscode-parse-failed',
			rank: 0,
			likelihood: 'likely',
			why: (p) =>
				strayLine(p) === undefined
					? undefined
					: `A line on the server's stdout is not JSON${p.line === undefined ? '' : `: ${JSON.stringify(p.line.text.slice(0, 30))}`}.`,
			detail: (p) => ({kind: strayLine(p)}),
		},
		{
			on: 'claude-desktop-invalid-message',
			rank: 0,
			likelihood: 'likely',
			why: (p) => {
				const kind = strayLine(p);
				const rest = p.line?.text ?? '';
				return kind === undefined
					? undefined
					: `The rejected line is ${KIND_WHAT[kind]}${rest === '' ? '' : `: ${JSON.stringify(rest.slice(0, 30))}`}.`;
			},
			detail: (p) => ({kind: strayLine(p)}),
		},
		{
			on: 'cursor-client-closed',
			rank: 2,
			likelihood: 'possible',
			why: 'Cursor 2026 builds were seen closing right after a line they could not parse (a banner or log line on stdout).',
			detail: {kind: 'banner'},
		},
		{
			on: 'transport-closed',
			rank: 1,
			likelihood: 'possible',
			why: (p) =>
				/initialize response/i.test(p.message)
					? 'rmcp before 1.7.0 closes the transport on any line it cannot decode, such as a banner.'
					: undefined,
			detail: {kind: 'banner'},
		},
	],
	clientTexts: [{text: 'cursor/client-closed', rank: 2}],
	create: ({facts, report}) => ({
		onFrameFacts(frame, {content}, frameIndex) {
			if (content?.kind !== 'text') return;
			const detail: Record<string, unknown> = {kind: content.strayKind, clientError: content.clientError};
			if (content.logger !== undefined) detail['logger'] = content.logger;
			else if (content.launcher !== undefined) detail['launcher'] = content.launcher;
			if (content.stderrOnly !== undefined) detail['stderrOnly'] = content.stderrOnly;
			if (content.glued !== undefined)
				detail['glued'] = {offset: content.glued.at, id: content.glued.id, method: content.glued.method};
			const shell =
				content.strayKind === 'banner' || content.strayKind === 'text'
					? scriptEchoShell(facts.meta.command, frame.text)
					: undefined;
			if (shell !== undefined) detail['scriptShell'] = shell;
			report(frameDraft('stray-output', frame, frame.offset, content.length, frameIndex, detail));
		},
		onDraft(draft) {
			if (draft.code !== 'stray-output') return undefined;
			const during = draft.detail?.['during'] === undefined ? handlerWindow(facts) : undefined;
			// A line the wrapper script printed says nothing of the server's runtime.
			const guess =
				draft.detail?.['runtime'] === undefined && draft.detail?.['scriptShell'] === undefined
					? strayRuntime(detailString(draft, 'logger'), facts.meta.command)
					: undefined;
			if (guess === undefined && during === undefined) return undefined;
			return {
				...draft,
				detail: {
					...draft.detail,
					...(guess === undefined ? {} : {runtime: guess.runtime, runtimeFrom: guess.from}),
					...(during === undefined ? {} : {during}),
				},
			};
		},
	}),
};
