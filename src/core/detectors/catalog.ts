import type {ClientFamily, ClientImpact, Finding, FindingCode, FindingDraft, Reaction} from '../types.js';
import {detailNumber, detailString, row, UNKNOWN, type CatalogEntry} from './meta.js';
import {RULES} from './registry.js';

export type {CatalogEntry, ExampleStep, FindingDoc, FindingExample} from './meta.js';

/** Reactions from worst to best (docs/protocol.md "Client reactions" legend), the order in which client summaries list them. */
export const REACTION_ORDER: readonly Reaction[] = [
	'fatal',
	'hang',
	'corrupt',
	'drop-log',
	'skip-log',
	'skip',
	'ok',
	'unknown',
];

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
 * Says at a glance which clients a fault breaks (docs/findings.md, "how a finding is shown").
 */
export function clientsSummary(impact: readonly ClientImpact[]): string {
	return REACTION_ORDER.map((reaction) => {
		const clients = impact
			.filter((entry) => entry.reaction === reaction)
			.map((entry) => CLIENT_FAMILY_LABEL[entry.client]);
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

/** Entries of the codes that do not have their own module yet (see `registry.ts`). */
const INLINE: Readonly<Partial<Record<FindingCode, CatalogEntry>>> = {
	'blank-line': {
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
	crlf: {
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
	'multiline-json': {
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
	'concatenated-json': {
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
		doc: {
			what: 'A message whose terminating LF never comes: the last bytes were still in a buffer when the process ended, or the output was cut short.',
			recognised:
				"Bytes without an LF pending when the stream ends (or idle past the probe's timeout). A cut at a multiple of 65,536 bytes is the fingerprint of `process.exit()` before the pipe drained ([O4](docs/protocol.md#o4)).",
			example: {
				steps: [
					{stream: 'stdout', bytes: '{"jsonrpc":"2.0","method":"notifications/initialized"}'},
					{exit: 0, tMs: 5},
				],
				note: 'The message has no `0A`; clients wait for it and drop the bytes at EOF.',
			},
		},
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
		doc: {
			what: 'A UTF-8 byte order mark (`EF BB BF`) in front of a message. JSON parsers reject it, so the first message (usually the `initialize` reply) is lost.',
			recognised: 'The bytes `EF BB BF` at the start of the stream or of a line.',
			example: {
				steps: [{stream: 'stdout', bytes: '\xEF\xBB\xBF{"jsonrpc":"2.0","method":"notifications/initialized"}\n'}],
			},
		},
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
		message: (d) =>
			`terminal control sequence (ESC${detailString(d, 'sequence') ? ' ' + detailString(d, 'sequence') : ''}) on ${d.stream}`,
		hint: () =>
			'Disable colours when stdout is not a terminal, and send logs to stderr (`NO_COLOR=1`, `FORCE_COLOR=0`, logger colour off).',
		rules: ['R5'],
		doc: {
			what: 'Terminal control sequences (colours `ESC [ … m`, cursor moves, screen clears, OSC titles) on the protocol stream, from a coloured logger or a TUI library that believes it writes to a terminal.',
			recognised: 'An ESC byte (`0x1B`) on the protocol stream; `detail.sequence` names the sequence.',
			example: {
				steps: [{stream: 'stdout', bytes: '\x1B[33mwarning\x1B[0m\n'}],
				note: 'The line is also `stray-output`: it is not JSON.',
			},
		},
		impact: row({
			'ts-sdk-v1': ['skip-log', "logs `Unexpected token ''…` and skips the line"],
			'ts-sdk-v2': ['skip', 'skips the line silently'],
			'python-sdk': ['skip-log', 'logs a parse error'],
			vscode: ['skip-log', 'logs `Failed to parse message`'],
			rmcp: ['skip', 'skips the line'],
			cursor: [
				'unknown',
				'2025 builds log and skip; 2026 builds were seen failing the connection right after a parse error, in logs of servers that were also crashing',
			],
		}),
	},
	'invalid-utf8': {
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
	'early-exit': {
		severity: 'error',
		title: 'process exited early',
		message: (d) => {
			const how = detailString(d, 'signal')
				? `signal ${detailString(d, 'signal')}`
				: `code ${detailNumber(d, 'exitCode') ?? '?'}`;
			const tail = d.detail?.['stderrTail'];
			const last = Array.isArray(tail)
				? [...tail].reverse().find((line) => typeof line === 'string' && line.trim() !== '')
				: undefined;
			const said = typeof last === 'string' ? `; stderr ends: ${last.trim().slice(0, 160)}` : '';
			return `the process exited (${how}) ${detailString(d, 'phase') === 'before-handshake' ? 'before the handshake completed' : 'in the middle of the session'}${said}`;
		},
		hint: () =>
			'Read the stderr tail: the server crashed or printed usage. Check the command, its arguments and the environment the client passes.',
		rules: ['R14'],
		doc: {
			what: 'The process exited before the session was over: it crashed, printed its usage, or found a setting missing.',
			recognised:
				'An exit (code or signal) before the client closed stdin; `detail.phase` says before the handshake or mid-session, and the message quotes the last stderr line.',
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n', tMs: 0},
					{stream: 'stderr', bytes: "KeyError: 'API_KEY'\n", tMs: 40},
					{exit: 1, tMs: 41},
				],
			},
		},
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
		message: (d) =>
			`cannot start \`${detailString(d, 'file') ?? 'the command'}\`: ${detailString(d, 'reason') ?? detailString(d, 'errno') ?? 'unknown error'}`,
		hint: (d) =>
			detailString(d, 'cwd') !== undefined && /cwd|directory/i.test(detailString(d, 'reason') ?? '')
				? `Fix the working directory (\`cwd\`): ${detailString(d, 'cwd')} must exist and be a directory.`
				: detailString(d, 'errno') === 'EISDIR'
					? 'That path is a directory: put the program (or the interpreter) in "command" and the script in "args".'
					: detailString(d, 'errno') === 'ENOENT' && /[\\/]/.test(detailString(d, 'file') ?? '')
						? 'Nothing runnable at that path: check the path, and for a script the interpreter named in its #! line.'
						: detailString(d, 'errno') === 'ENOENT'
							? 'Use an absolute path, or make sure the command is on the PATH the client passes (GUI clients get a minimal PATH).'
							: detailString(d, 'errno') === 'EACCES'
								? 'Make the file executable (`chmod +x`) or run it through its interpreter.'
								: 'Check the command, its arguments and the working directory.',
		rules: [],
		doc: {
			what: 'The command could not be started at all: not found on the PATH the client passes, not executable, or the working directory does not exist.',
			recognised:
				'The spawn error itself (`ENOENT`, `EACCES`, a bad `cwd`), reported in one line. No bytes cross the wire.',
			example: {steps: [], note: '`spawn uvx ENOENT`: GUI clients start servers with a minimal PATH.', live: true},
		},
		impact: row({
			'ts-sdk-v1': ['fatal', 'spawn error'],
			'ts-sdk-v2': ['fatal', 'spawn error'],
			'python-sdk': ['fatal', 'spawn error'],
			vscode: ['fatal', 'spawn error'],
			rmcp: ['fatal', 'spawn error'],
			cursor: ['fatal', 'spawn error'],
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
		doc: {
			what: 'The server did not exit when stdin closed: it needed SIGTERM (a warning) or even SIGKILL (an error). Clients wait a few seconds and then kill it ([R14](docs/protocol.md#r14)).',
			recognised: 'The shutdown sequence timed: stdin closed, then no exit within 2 s, then the signal that ended it.',
			example: {
				steps: [
					{event: 'stdin-closed', tMs: 100},
					{event: 'SIGTERM', tMs: 2100},
					{exit: null, signal: 'SIGTERM', tMs: 2101},
				],
				note: 'No exit in the 2 s after stdin closed.',
			},
		},
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
		message: (d) =>
			`valid JSON but not a valid MCP JSON-RPC message: ${detailString(d, 'problem') ?? detailString(d, 'reason') ?? 'shape'}`,
		hint: (d) => {
			const reason = detailString(d, 'reason');
			if (reason === 'nesting')
				return 'Flatten the message: the Python SDK rejects JSON nested more than 201 levels deep (a recursive structure serialized without a depth limit).';
			if (reason === 'unknown-key')
				return `Remove the extra top-level key \`${detailString(d, 'key') ?? ''}\`: the TS SDK's strict schema drops the whole message.`;
			if (reason === 'missing-jsonrpc' || reason === 'wrong-jsonrpc') return 'Every message needs `"jsonrpc": "2.0"`.';
			if (reason === 'id-null')
				return 'Omit `id` on an error whose request id could not be read, rather than `"id": null` (MCP 2025-11-25).';
			if (reason === 'result-not-object') return '`result` must be an object (use `{}` for an empty result).';
			if (reason === 'not-object' || reason === 'no-method-or-result')
				return 'Only JSON-RPC messages may go to stdout: send analytics and structured logs to stderr.';
			return 'Follow the JSON-RPC 2.0 message shapes as MCP tightens them (J1–J8).';
		},
		rules: ['J1', 'J2', 'J5', 'J8'],
		doc: {
			what: 'Valid JSON that is not a valid JSON-RPC 2.0 / MCP message: a structured log record or analytics event, a missing or wrong `jsonrpc`, both `result` and `error`, a non-object `result`, an `id` that is null, boolean or fractional, an unknown top-level key, a batch array outside 2025-03-26.',
			recognised:
				'The parsed value is checked against the JSON-RPC message shapes as MCP tightens them; `detail.reason` names the problem and the client impact follows from it.',
			fix: 'Follow the JSON-RPC 2.0 shapes as MCP tightens them ([J1](docs/protocol.md#j1)–[J8](docs/protocol.md#j8)); send structured logs and analytics to stderr.',
			example: {steps: [{stream: 'stdout', bytes: '{"level":"info","msg":"ready"}\n'}]},
		},
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
		message: (d) =>
			d.detail?.['reason'] === 'id-type-changed'
				? `a response echoes id ${JSON.stringify(d.detail?.['requestId'] ?? null)} as the string ${JSON.stringify(d.detail?.['id'] ?? null)}: the TS and Python SDK clients match it anyway, rmcp does not (VS Code: not established)`
				: `a response with id ${JSON.stringify(d.detail?.['id'] ?? null)} matches no outstanding request`,
		hint: () => 'Echo the request `id` unchanged (same value and type; 0 is a valid id, not "missing").',
		rules: ['J5'],
		doc: {
			what: 'A response whose `id` matches no outstanding request: the server did not echo the request id (it answered with a constant, a coerced `0`, or another type).',
			recognised: 'Correlation of requests and responses per direction.',
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n', tMs: 0},
					{stream: 'stdout', bytes: '{"jsonrpc":"2.0","id":7,"result":{}}\n', tMs: 2},
				],
			},
		},
		impact: (d) =>
			d.detail?.['reason'] === 'id-type-changed'
				? row({
						'ts-sdk-v1': ['ok', 'matches responses by `Number(id)`: "0" answers request 0'],
						'ts-sdk-v2': ['ok', 'matches by `Number(id)`'],
						'python-sdk': ['ok', 'normalises a numeric string id to the int it sent (since python-sdk PR #1720)'],
						vscode: [
							'unknown',
							'not established: it keys pending requests by the id it sent, so "0" may never match; not checked against the real client',
						],
						rmcp: ['hang', 'rejects an id whose type changed (rust-sdk #1017); the request waits'],
						cursor: UNKNOWN,
					})()
				: row({
						'ts-sdk-v1': ['hang', 'logs `Received a response for an unknown message ID`; the real request times out'],
						'ts-sdk-v2': ['hang', 'logs and ignores it'],
						'python-sdk': ['hang', 'RuntimeError to the message handler; the request waits forever'],
						vscode: ['hang', 'ignored'],
						rmcp: UNKNOWN,
						cursor: UNKNOWN,
					})(),
	},
	'duplicate-response': {
		severity: 'error',
		title: 'duplicate response',
		message: (d) => `a second response to id ${JSON.stringify(d.detail?.['id'] ?? null)}`,
		hint: () => 'Send exactly one response per request.',
		rules: ['J5'],
		doc: {
			what: 'A second response to a request that was already answered.',
			recognised: 'Correlation: a response to an id whose request already has one.',
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n', tMs: 0},
					{
						stream: 'stdout',
						bytes: '{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":1,"result":{}}\n',
						tMs: 2,
					},
				],
			},
		},
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
		message: (d) =>
			`a response${d.detail?.['method'] ? ` right after the notification ${String(d.detail['method'])}` : ''} answers no request: notifications must not be answered`,
		hint: () => 'Do not reply to messages without an `id` (notifications such as notifications/initialized).',
		rules: ['J4'],
		doc: {
			what: 'The server answered a notification (a message without `id`), typically with a "method not found" error right after `notifications/initialized`. Notifications must never be answered ([J4](docs/protocol.md#j4)).',
			recognised: 'A response without a matching request that follows a notification from the client.',
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","method":"notifications/initialized"}\n', tMs: 0},
					{
						stream: 'stdout',
						bytes: '{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found"}}\n',
						tMs: 2,
					},
				],
			},
		},
		impact: row({
			'ts-sdk-v1': ['skip-log', 'dropped; some hosts (Claude Code) drop the connection'],
			'ts-sdk-v2': ['skip-log', 'dropped and logged'],
			'python-sdk': ['drop-log', 'rejected (1.29)'],
			vscode: ['skip', 'ignored'],
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
