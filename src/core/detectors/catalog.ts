import type {ClientFamily, ClientImpact, Finding, FindingCode, FindingDraft, Reaction} from '../types.js';
import {detailNumber, detailString, row, UNKNOWN, type CatalogEntry} from './meta.js';
import {RULES} from './registry.js';

export type {CatalogEntry} from './meta.js';

/** Reactions from worst to best (protocol.md §6 legend), the order in which client summaries list them. */
export const REACTION_ORDER: readonly Reaction[] = ['fatal', 'hang', 'corrupt', 'drop-log', 'skip-log', 'skip', 'ok', 'unknown'];

/** Words for the reactions in prose (reports, `explain`). */
export const REACTION_WORDS: Readonly<Record<Reaction, string>> = {
	fatal: 'fatal',
	hang: 'hang',
	corrupt: 'corrupt',
	'drop-log': 'drop+log',
	'skip-log': 'skip+log',
	skip: 'skip',
	ok: 'ok',
	unknown: 'not established',
};

/**
 * The client impact in one line, worst first: `fatal: Cursor · skip+log: TS SDK v1 (…), Python SDK`.
 * Says at a glance which clients a fault breaks (wire-faults.md "Presenting a finding").
 */
export function clientsSummary(impact: readonly ClientImpact[]): string {
	return REACTION_ORDER.map((reaction) => {
		const clients = impact.filter((entry) => entry.reaction === reaction).map((entry) => CLIENT_FAMILY_LABEL[entry.client]);
		return clients.length === 0 ? '' : `${REACTION_WORDS[reaction]}: ${clients.join(', ')}`;
	})
		.filter((group) => group !== '')
		.join(' · ');
}

/** Human names of the client families, as shown in reports and the TUI. */
export const CLIENT_FAMILY_LABEL: Readonly<Record<ClientFamily, string>> = {
	'ts-sdk-v1': 'TS SDK v1 (Claude Desktop, Claude Code, MCP Inspector)',
	'ts-sdk-v2': 'TS SDK v2',
	'python-sdk': 'Python SDK',
	vscode: 'VS Code',
	rmcp: 'rmcp (Rust SDK)',
	cursor: 'Cursor',
};

const STRAY_HINT: Readonly<Record<string, string>> = {
	banner:
		'Print startup messages to stderr, not stdout: Python `print(..., file=sys.stderr)`, Node `console.error(...)`.',
	log: 'Point the logger at stderr: Python `logging.basicConfig(stream=sys.stderr)`, .NET `LogToStandardErrorThreshold = LogLevel.Trace`, Node loggers to `process.stderr`.',
	progress: 'Send progress output to stderr, or use MCP progress notifications.',
	launcher:
		'Launch the server directly (no `npm run`, no wrapper echo): use `exec` in wrapper scripts, `npm --silent`/`node` instead of `npm start`, dotenv `config({quiet: true})`.',
	text: 'Only MCP messages may go to stdout (R5): move this output to stderr.',
};

/** Entries of the codes that do not have their own module yet (see `registry.ts`). */
const INLINE: Readonly<Partial<Record<FindingCode, CatalogEntry>>> = {
	'stray-output': {
		severity: 'error',
		title: 'stray output on the protocol stream',
		message: (d) => {
			const kind = detailString(d, 'kind') ?? 'text';
			const what = kind === 'banner' ? 'a banner line before the first message' : kind === 'log' ? 'a log line' : kind === 'launcher' ? 'launcher output' : kind === 'progress' ? 'progress output' : 'a line that is not JSON';
			return `${d.stream} carries ${what}, not an MCP message`;
		},
		hint: (d) => STRAY_HINT[detailString(d, 'kind') ?? 'text'] ?? STRAY_HINT['text']!,
		rules: ['R5'],
		impact: row({
			'ts-sdk-v1': ['skip-log', 'logs `Unexpected token …` and skips the line; Claude Desktop shows a toast'],
			'ts-sdk-v2': ['skip', 'skips the line silently'],
			'python-sdk': ['skip-log', 'logs `Failed to parse JSONRPC message from server` and skips the line'],
			vscode: ['skip-log', 'logs `Failed to parse message` and skips the line'],
			rmcp: ['skip', 'skips the line (before 1.7.0: closes the transport)'],
			cursor: ['fatal', '2026 builds move the connection to failed after a parse error'],
		}),
	},
	'blank-line': {
		severity: 'warning',
		title: 'blank line',
		message: (d) => `an empty line on ${d.stream}`,
		hint: () => 'Write exactly one `JSON + "\\n"` per message; do not write an extra newline.',
		rules: ['R5'],
		impact: row({
			'ts-sdk-v1': ['skip-log', 'logs `Unexpected end of JSON input`'],
			'ts-sdk-v2': ['skip', 'skips silently'],
			'python-sdk': ['skip-log', 'logs a parse error and skips'],
			vscode: ['skip-log', 'logs `Failed to parse message: "\\n"`'],
			rmcp: ['skip', 'skips empty lines'],
			cursor: ['fatal', '2026 builds fail the connection on `Unexpected end of JSON input`'],
		}),
	},
	crlf: {
		severity: 'warning',
		title: 'CRLF line ending',
		message: (d) => `a message on ${d.stream} ends with CR LF (0D 0A) instead of LF`,
		hint: () =>
			'Write LF only: Python `sys.stdout.reconfigure(newline="\\n")` or a TextIOWrapper with `newline=""`; C `_setmode(_fileno(stdout), _O_BINARY)`; .NET/Java: write "\\n" explicitly.',
		rules: ['R2', 'O5'],
		impact: row({
			'ts-sdk-v1': ['ok', 'strips the trailing CR (since 1.9.0)'],
			'ts-sdk-v2': ['ok', 'strips the trailing CR'],
			'python-sdk': ['ok', 'CR is JSON whitespace'],
			vscode: ['ok', 'JSON.parse accepts trailing CR'],
			rmcp: ['ok', 'strips the trailing CR'],
			cursor: UNKNOWN,
		}),
	},
	'multiline-json': {
		severity: 'error',
		title: 'pretty-printed (multi-line) JSON',
		message: (d) => `one JSON message spread over ${detailNumber(d, 'lines') ?? 'several'} lines`,
		hint: () => 'Serialize each message on one line: `JSON.stringify(msg)` / `json.dumps(msg)` with no indent.',
		rules: ['R1'],
		impact: row({
			'ts-sdk-v1': ['hang', 'logs a parse error per line (`Expected property name or \'}\'…`); the message is never delivered'],
			'ts-sdk-v2': ['hang', 'skips every line silently; the request times out'],
			'python-sdk': ['hang', 'logs a parse error per line; the message is lost'],
			vscode: ['hang', 'logs `Failed to parse message` per line'],
			rmcp: ['hang', 'skips every line'],
			cursor: UNKNOWN,
		}),
	},
	'concatenated-json': {
		severity: 'error',
		title: 'two JSON values on one line',
		message: (d) => `${detailNumber(d, 'values') ?? 2} JSON values share one line`,
		hint: () => 'End every message with "\\n"; never write two messages without a newline between them.',
		rules: ['J9'],
		impact: row({
			'ts-sdk-v1': ['hang', 'logs `Unexpected non-whitespace character after JSON`; both messages are lost'],
			'ts-sdk-v2': ['hang', 'skips the line silently; both messages are lost'],
			'python-sdk': ['hang', 'rejects the line; both messages are lost'],
			vscode: ['hang', 'logs `Failed to parse message`'],
			rmcp: ['skip', 'skips the line'],
			cursor: UNKNOWN,
		}),
	},
	'content-length-framing': {
		severity: 'error',
		title: 'Content-Length (LSP) framing',
		message: (d) =>
			d.detail?.['reprobe'] === true
				? 'the server answers only Content-Length-framed input; MCP stdio is newline-delimited JSON'
				: `a Content-Length header block on ${d.stream}; MCP stdio is newline-delimited JSON`,
		hint: (d) =>
			d.stream === 'stdin'
				? 'The client sends LSP framing; configure it for MCP stdio (one JSON message per line).'
				: 'Drop the headers: write `JSON + "\\n"` per message and read input line by line (MCP stdio, not LSP base protocol).',
		rules: ['L1', 'L6', 'R1'],
		impact: row({
			'ts-sdk-v1': ['hang', 'logs `Unexpected token \'C\', "Content-Le"...` and `Unexpected end of JSON input`; connect times out'],
			'ts-sdk-v2': ['hang', 'silent until the timeout'],
			'python-sdk': ['hang', 'logs parse errors; never initializes'],
			vscode: ['hang', 'logs `Failed to parse message`'],
			rmcp: ['hang', 'skips the lines'],
			cursor: UNKNOWN,
		}),
	},
	'missing-newline': {
		severity: 'error',
		title: 'message without a terminating newline',
		message: (d) =>
			d.detail?.['cutAt64KiB'] === true
				? `the last message is cut at a multiple of 65,536 bytes with no newline: the process exited before the pipe drained`
				: detailNumber(d, 'bytes') === undefined
					? `the last bytes on ${d.stream} have no terminating newline`
					: `the last ${detailNumber(d, 'bytes')!.toLocaleString('en-US')} bytes on ${d.stream} have no terminating newline`,
		hint: (d) =>
			d.detail?.['cutAt64KiB'] === true
				? 'Do not call `process.exit()` right after writing: let stdout drain (exit from the write callback, or set `process.exitCode`).'
				: 'End every message with "\\n" and flush it.',
		rules: ['R1', 'O4'],
		impact: row({
			'ts-sdk-v1': ['hang', 'waits for the newline; discards the bytes at EOF'],
			'ts-sdk-v2': ['hang', 'waits for the newline'],
			'python-sdk': ['hang', 'keeps the tail buffered'],
			vscode: ['hang', 'waits for the newline'],
			rmcp: ['hang', 'discards a partial last line'],
			cursor: UNKNOWN,
		}),
	},
	bom: {
		severity: 'error',
		title: 'UTF-8 byte order mark',
		message: (d) => `a byte order mark (EF BB BF) before a message on ${d.stream}`,
		hint: () =>
			'Write UTF-8 without BOM: Python `encoding="utf-8"` (not "utf-8-sig"); .NET `new UTF8Encoding(false)`; PowerShell `[Console]::OutputEncoding = [Text.UTF8Encoding]::new($false)`.',
		rules: ['R4'],
		impact: row({
			'ts-sdk-v1': ['hang', 'JSON.parse rejects U+FEFF: the first message (the initialize reply) is lost'],
			'ts-sdk-v2': ['hang', 'skips the line silently; connect times out'],
			'python-sdk': ['hang', 'pydantic rejects the line; the first message is lost'],
			vscode: ['hang', 'the first message is lost'],
			rmcp: ['ok', 'strips a leading BOM (since 1.7.0)'],
			cursor: UNKNOWN,
		}),
	},
	'ansi-escape': {
		severity: 'error',
		title: 'terminal escape sequences',
		message: (d) => `terminal control sequence (ESC${detailString(d, 'sequence') ? ' ' + detailString(d, 'sequence') : ''}) on ${d.stream}`,
		hint: () => 'Disable colours when stdout is not a terminal, and send logs to stderr (`NO_COLOR=1`, `FORCE_COLOR=0`, logger colour off).',
		rules: ['R5'],
		impact: row({
			'ts-sdk-v1': ['skip-log', "logs `Unexpected token ''…` and skips the line"],
			'ts-sdk-v2': ['skip', 'skips the line silently'],
			'python-sdk': ['skip-log', 'logs a parse error'],
			vscode: ['skip-log', 'logs `Failed to parse message`'],
			rmcp: ['skip', 'skips the line'],
			cursor: ['fatal', '2026 builds fail the connection on a parse error'],
		}),
	},
	'invalid-utf8': {
		severity: 'error',
		title: 'invalid UTF-8',
		message: (d) => `bytes on ${d.stream} are not valid UTF-8${d.detail?.['inString'] === true ? ' (inside a JSON string)' : ''}`,
		hint: () =>
			'Decode text from its real encoding before putting it in JSON (e.g. `bytes.decode("cp949")`), or escape binary data as base64; write stdout as UTF-8.',
		rules: ['R3'],
		impact: (d) => {
			const inString = d.detail?.['inString'] === true;
			return row({
				'ts-sdk-v1': inString ? ['corrupt', 'replaces the bytes with U+FFFD silently'] : ['skip-log', 'logs a parse error and skips the line'],
				'ts-sdk-v2': inString ? ['corrupt', 'replaces the bytes with U+FFFD silently'] : ['skip', 'skips the line'],
				'python-sdk': ['fatal', 'UnicodeDecodeError ends the whole stdio_client'],
				vscode: inString ? ['corrupt', 'replaces the bytes with U+FFFD'] : ['skip-log', 'logs `Failed to parse message`'],
				rmcp: ['skip', 'rejects the line'],
				cursor: UNKNOWN,
			})();
		},
	},
	'oversize-frame': {
		severity: 'warning',
		title: 'frame larger than a client limit',
		message: (d) => `a ${(d.byteLength).toLocaleString('en-US')}-byte frame exceeds ${d.severity === 'error' ? "the TS SDK's 10 MiB read-buffer cap" : 'the 64 KiB asyncio readline default'}`,
		hint: () => 'Return large data in pages or as resources; keep single messages small.',
		rules: ['C1'],
		impact: (d) =>
			d.severity === 'error'
				? row({
						'ts-sdk-v1': ['fatal', '`ReadBuffer exceeded maximum size` closes the connection (≥1.30.0)'],
						'ts-sdk-v2': ['fatal', 'closes the connection'],
						'python-sdk': ['ok', 'unbounded'],
						vscode: ['ok', 'unbounded'],
						rmcp: ['fatal', 'when max_length is set'],
						cursor: UNKNOWN,
					})()
				: row({
						'ts-sdk-v1': ['ok', 'below the 10 MiB cap'],
						'ts-sdk-v2': ['ok', 'below the 10 MiB cap'],
						'python-sdk': ['ok', 'the SDK reader is unbounded; asyncio-readline clients fail at 64 KiB'],
						vscode: ['ok', 'unbounded'],
						rmcp: ['ok', 'unless max_length is set'],
						cursor: UNKNOWN,
					})(),
	},
	'unflushed-output': {
		severity: 'error',
		title: 'reply held in an output buffer',
		message: (d) =>
			d.confidence === 'inferred'
				? 'reply bytes arrived in a buffer-sized burst long after their request (likely an unflushed stdout buffer)'
				: 'the reply arrived only when stdin was closed or the process exited: it sat in a stdout buffer',
		hint: (d) => {
			const runtime = detailString(d, 'runtime');
			if (runtime === 'python') return 'Flush after each message: `print(..., flush=True)` or `sys.stdout.flush()`, or run with `python -u` / `PYTHONUNBUFFERED=1` in the config env.';
			if (runtime === 'node') return 'Node writes to a pipe without a user-space buffer: look for a wrapper or a child process that buffers, or bytes written with no newline until exit.';
			if (runtime === 'c') return 'Call `fflush(stdout)` after each message, or `setvbuf(stdout, NULL, _IOLBF, 0)` at startup.';
			return 'Flush stdout after each message: Python `print(..., flush=True)` or `-u`; C `fflush(stdout)` / `setvbuf(stdout, NULL, _IOLBF, 0)`; .NET `Console.Out.Flush()`.';
		},
		rules: ['O2', 'O3'],
		impact: row({
			'ts-sdk-v1': ['hang', 'the reply never comes while the session is open; `Request timed out` after 60 s (Claude Code: 30 s)'],
			'ts-sdk-v2': ['hang', 'times out'],
			'python-sdk': ['hang', 'waits forever (no default timeout)'],
			vscode: ['hang', 'waits; logs "Waiting for server to respond" every 5 s'],
			rmcp: ['hang', 'waits'],
			cursor: ['hang', 'waits'],
		}),
	},
	'no-response': {
		severity: 'error',
		title: 'no response',
		message: (d) => `the process is alive but sent nothing in ${detailNumber(d, 'timeoutMs') ?? '?'} ms, and closing stdin released nothing`,
		hint: () =>
			'The server blocks before its read loop: move slow start-up work (network calls, telemetry, model loading) after the handshake or into the background, and read stdin first.',
		rules: ['R15'],
		impact: row({
			'ts-sdk-v1': ['hang', '`Request timed out` after 60 s; Claude Code fails after 30 s'],
			'ts-sdk-v2': ['hang', 'times out'],
			'python-sdk': ['hang', 'waits forever'],
			vscode: ['hang', 'waits'],
			rmcp: ['hang', 'waits'],
			cursor: ['hang', 'times out'],
		}),
	},
	'early-exit': {
		severity: 'error',
		title: 'process exited early',
		message: (d) => {
			const how = detailString(d, 'signal') ? `signal ${detailString(d, 'signal')}` : `code ${detailNumber(d, 'exitCode') ?? '?'}`;
			const tail = d.detail?.['stderrTail'];
			const last = Array.isArray(tail) ? [...tail].reverse().find((line) => typeof line === 'string' && line.trim() !== '') : undefined;
			const said = typeof last === 'string' ? `; stderr ends: ${last.trim().slice(0, 160)}` : '';
			return `the process exited (${how}) ${detailString(d, 'phase') === 'before-handshake' ? 'before the handshake completed' : 'in the middle of the session'}${said}`;
		},
		hint: () => 'Read the stderr tail: the server crashed or printed usage. Check the command, its arguments and the environment the client passes.',
		rules: ['R14'],
		impact: row({
			'ts-sdk-v1': ['fatal', '`Server transport closed unexpectedly` / `Connection closed`'],
			'ts-sdk-v2': ['fatal', 'connection closed'],
			'python-sdk': ['fatal', 'the session ends'],
			vscode: ['fatal', 'server stopped'],
			rmcp: ['fatal', 'connection closed'],
			cursor: ['fatal', 'connection failed'],
		}),
	},
	'spawn-failed': {
		severity: 'error',
		title: 'the command could not be started',
		message: (d) => `cannot start \`${detailString(d, 'file') ?? 'the command'}\`: ${detailString(d, 'reason') ?? detailString(d, 'errno') ?? 'unknown error'}`,
		hint: (d) =>
			detailString(d, 'cwd') !== undefined && /cwd|directory/i.test(detailString(d, 'reason') ?? '')
				? `Fix the working directory (\`cwd\`): ${detailString(d, 'cwd')} must exist and be a directory.`
				: detailString(d, 'errno') === 'ENOENT' && /[\\/]/.test(detailString(d, 'file') ?? '')
					? 'Nothing runnable at that path: check the path, and for a script the interpreter named in its #! line.'
					: detailString(d, 'errno') === 'ENOENT'
						? 'Use an absolute path, or make sure the command is on the PATH the client passes (GUI clients get a minimal PATH).'
				: detailString(d, 'errno') === 'EACCES'
					? 'Make the file executable (`chmod +x`) or run it through its interpreter.'
					: 'Check the command, its arguments and the working directory.',
		rules: [],
		impact: row({
			'ts-sdk-v1': ['fatal', 'spawn error'],
			'ts-sdk-v2': ['fatal', 'spawn error'],
			'python-sdk': ['fatal', 'spawn error'],
			vscode: ['fatal', 'spawn error'],
			rmcp: ['fatal', 'spawn error'],
			cursor: ['fatal', 'spawn error'],
		}),
	},
	'slow-response': {
		severity: 'warning',
		title: 'slow response',
		message: (d) => `${detailString(d, 'method') ?? 'a request'} took ${Math.round(detailNumber(d, 'latencyMs') ?? 0)} ms (limit of the strictest client: ${detailNumber(d, 'limitMs') ?? '?'} ms)`,
		hint: () => 'Answer the handshake first and do slow work later or in the background; report progress on long tool calls.',
		rules: ['R15'],
		impact: row({
			'ts-sdk-v1': ['ok', 'within the 60 s request timeout, but close (Claude Code: 30 s at startup)'],
			'ts-sdk-v2': ['ok', 'within the timeout'],
			'python-sdk': ['ok', 'no default timeout'],
			vscode: ['ok', 'no initialize timeout'],
			rmcp: ['ok', 'no default timeout'],
			cursor: UNKNOWN,
		}),
	},
	'shutdown-timeout': {
		severity: 'warning',
		title: 'slow shutdown',
		message: (d) =>
			detailString(d, 'signal') === 'SIGKILL'
				? 'the process ignored stdin EOF and SIGTERM and had to be killed with SIGKILL'
				: 'the process did not exit within 2 s of stdin closing and needed SIGTERM',
		hint: () => 'Exit when a read on stdin returns EOF (the primary shutdown signal), and handle SIGTERM.',
		rules: ['R14'],
		impact: row({
			'ts-sdk-v1': ['ok', 'killed after 2 s + 2 s (≥1.24.0)'],
			'ts-sdk-v2': ['ok', 'killed after 2 s + 2 s'],
			'python-sdk': ['ok', 'process group killed after 2 s + 2 s'],
			vscode: ['ok', 'killed after 10 s + 10 s'],
			rmcp: UNKNOWN,
			cursor: UNKNOWN,
		}),
	},
	'invalid-jsonrpc': {
		severity: 'error',
		title: 'not a valid JSON-RPC message',
		message: (d) => `valid JSON but not a valid MCP JSON-RPC message: ${detailString(d, 'problem') ?? detailString(d, 'reason') ?? 'shape'}`,
		hint: (d) => {
			const reason = detailString(d, 'reason');
			if (reason === 'unknown-key') return `Remove the extra top-level key \`${detailString(d, 'key') ?? ''}\`: the TS SDK's strict schema drops the whole message.`;
			if (reason === 'missing-jsonrpc' || reason === 'wrong-jsonrpc') return 'Every message needs `"jsonrpc": "2.0"`.';
			if (reason === 'id-null') return 'Omit `id` on an error whose request id could not be read, rather than `"id": null` (MCP 2025-11-25).';
			if (reason === 'result-not-object') return '`result` must be an object (use `{}` for an empty result).';
			if (reason === 'not-object' || reason === 'no-method-or-result') return 'Only JSON-RPC messages may go to stdout: send analytics and structured logs to stderr.';
			return 'Follow the JSON-RPC 2.0 message shapes as MCP tightens them (J1–J8).';
		},
		rules: ['J1', 'J2', 'J5', 'J8'],
		impact: (d) => {
			const given = d.detail?.['impact'];
			if (Array.isArray(given)) return given as ClientImpact[];
			return row({
				'ts-sdk-v1': ['drop-log', 'zod rejects the message; it is logged and dropped'],
				'ts-sdk-v2': ['drop-log', 'rejected by the schema'],
				'python-sdk': ['drop-log', 'rejected by pydantic'],
				vscode: ['ok', 'duck-typed; not validated'],
				rmcp: UNKNOWN,
				cursor: UNKNOWN,
			})();
		},
	},
	'unknown-id': {
		severity: 'error',
		title: 'response to an unknown id',
		message: (d) => `a response with id ${JSON.stringify(d.detail?.['id'] ?? null)} matches no outstanding request`,
		hint: () => 'Echo the request `id` unchanged (same value and type; 0 is a valid id, not "missing").',
		rules: ['J5'],
		impact: row({
			'ts-sdk-v1': ['hang', 'logs `Received a response for an unknown message ID`; the real request times out'],
			'ts-sdk-v2': ['hang', 'logs and ignores it'],
			'python-sdk': ['hang', 'RuntimeError to the message handler; the request waits forever'],
			vscode: ['hang', 'ignored'],
			rmcp: UNKNOWN,
			cursor: UNKNOWN,
		}),
	},
	'duplicate-response': {
		severity: 'error',
		title: 'duplicate response',
		message: (d) => `a second response to id ${JSON.stringify(d.detail?.['id'] ?? null)}`,
		hint: () => 'Send exactly one response per request.',
		rules: ['J5'],
		impact: row({
			'ts-sdk-v1': ['skip-log', 'logs `unknown message ID` for the second one'],
			'ts-sdk-v2': ['skip-log', 'logs it'],
			'python-sdk': ['skip-log', 'RuntimeError to the message handler'],
			vscode: ['skip', 'ignored'],
			rmcp: UNKNOWN,
			cursor: UNKNOWN,
		}),
	},
	'response-to-notification': {
		severity: 'error',
		title: 'a notification was answered',
		message: (d) => `a response${d.detail?.['method'] ? ` right after the notification ${String(d.detail['method'])}` : ''} answers no request: notifications must not be answered`,
		hint: () => 'Do not reply to messages without an `id` (notifications such as notifications/initialized).',
		rules: ['J4'],
		impact: row({
			'ts-sdk-v1': ['skip-log', 'dropped; some hosts (Claude Code) drop the connection'],
			'ts-sdk-v2': ['skip-log', 'dropped and logged'],
			'python-sdk': ['drop-log', 'rejected (1.29)'],
			vscode: ['skip', 'ignored'],
			rmcp: UNKNOWN,
			cursor: UNKNOWN,
		}),
	},
	'unanswered-request': {
		severity: 'error',
		title: 'request never answered',
		message: (d) => `${detailString(d, 'method') ?? 'a request'} (id ${JSON.stringify(d.detail?.['id'] ?? null)}) got no response before the session ended`,
		hint: () => 'Answer every request, with a result or an error.',
		rules: ['R15'],
		impact: row({
			'ts-sdk-v1': ['hang', '`Request timed out` after 60 s'],
			'ts-sdk-v2': ['hang', 'times out'],
			'python-sdk': ['hang', 'waits forever'],
			vscode: ['hang', 'waits'],
			rmcp: ['hang', 'waits'],
			cursor: ['hang', 'times out'],
		}),
	},
	'protocol-version': {
		severity: 'error',
		title: 'protocol version not negotiated',
		message: (d) => detailString(d, 'message') ?? 'the protocol version was not negotiated',
		hint: (d) =>
			detailString(d, 'reason') === 'rejected-version'
				? 'Answer an unsupported requested version with a result naming a version you support (counter-offer, R11), not with an error.'
				: 'Echo the requested version when you support it; otherwise answer with the latest version you support.',
		rules: ['R11'],
		impact: row({
			'ts-sdk-v1': ['fatal', "`Server's protocol version is not supported`"],
			'ts-sdk-v2': ['fatal', 'disconnects'],
			'python-sdk': ['fatal', '`Unsupported protocol version from the server`'],
			vscode: ['ok', 'not checked'],
			rmcp: UNKNOWN,
			cursor: UNKNOWN,
		}),
	},
	'invalid-initialize': {
		severity: 'error',
		title: 'invalid initialize result',
		message: (d) => `the initialize result lacks ${detailString(d, 'missing') ?? 'required fields'}`,
		hint: () => 'The initialize result must carry `protocolVersion`, `capabilities` and `serverInfo` ({name, version}).',
		rules: ['R8'],
		impact: row({
			'ts-sdk-v1': ['fatal', 'zod rejects the result; connect fails'],
			'ts-sdk-v2': ['fatal', 'connect fails'],
			'python-sdk': ['fatal', 'validation error'],
			vscode: UNKNOWN,
			rmcp: UNKNOWN,
			cursor: UNKNOWN,
		}),
	},
};

/** The catalog, one entry per code: the inline entries plus each rule module's `meta`. */
export const CATALOG: Readonly<Record<FindingCode, CatalogEntry>> = {
	...INLINE,
	...Object.fromEntries(RULES.map((rule) => [rule.code, rule.meta])),
} as Record<FindingCode, CatalogEntry>;

/**
 * Dress a detector's draft as a presentable finding: severity (the draft's override or the catalog
 * default), message, hint, rules and client impact from {@link CATALOG}.
 */
export function dressFinding(draft: FindingDraft): Finding {
	const entry = CATALOG[draft.code];
	return {
		...draft,
		severity: draft.severity ?? entry.severity,
		message: draft.message ?? entry.message(draft),
		hint: entry.hint(draft),
		impact: entry.impact(draft),
		rules: entry.rules,
	};
}
