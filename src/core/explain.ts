import {CATALOG, dressFinding} from './findings/support/catalog.js';
import {findingDocsRef} from './findings/support/docs-ref.js';
import {FINDING_CODES, type ClientImpact, type FindingCode, type FindingDraft, type Severity} from './types.js';

/**
 * `mcp-wire explain`: maps an error message a user copied from a client log back to the wire fault behind
 * it (docs/findings.md, "how a finding is shown", docs/protocol.md C8 "Message texts a user will paste"), with
 * the catalog's title, fix and client impact (core/detectors/catalog.ts; nothing is restated here).
 *
 * Pure: text in, explanations out.
 */

/** One fault that can produce the pasted message. */
export interface Explanation {
	readonly code: FindingCode;
	/** `likely`: the message points at this fault; `possible`: one of several faults that produce it. */
	readonly likelihood: 'likely' | 'possible';
	/** How the message points at the fault, in one or two sentences. */
	readonly why: string;
	/** From the catalog: the fault's title, severity, fix, client reactions and docs/protocol.md rules. */
	readonly title: string;
	readonly severity: Severity;
	readonly hint: string;
	readonly impact: readonly ClientImpact[];
	readonly rules: readonly string[];
}

/** What {@link explainError} returns. */
export interface ExplainResult {
	/** The message as read (trimmed). */
	readonly input: string;
	/** Which client or reader logs this message, when it can be told (e.g. V8's `JSON.parse` in the TS SDK). */
	readonly source?: string;
	/** The faults, most likely first; empty when nothing known matches. */
	readonly explanations: readonly Explanation[];
	/**
	 * Set when the input is a finding code itself (`stray-output`, as the plain log's `docs:` line names
	 * it): its one explanation is the code's catalog entry, `why` its description, and this is its
	 * documentation pointer (`docs/findings.md#stray-output`).
	 */
	readonly docs?: string;
}

const V8 = "V8's JSON.parse, in TS SDK v1 hosts (Claude Desktop, Claude Code, MCP Inspector) and Cursor";
const ESC = '\u001B';

interface Candidate {
	readonly code: FindingCode;
	readonly likelihood: 'likely' | 'possible';
	readonly why: string;
	readonly detail?: Readonly<Record<string, unknown>>;
	readonly severity?: Severity;
}

function explain(candidate: Candidate): Explanation {
	const draft: FindingDraft = {
		code: candidate.code,
		stream: 'stdout',
		offset: 0,
		byteLength: 0,
		tMs: 0,
		...(candidate.detail === undefined ? {} : {detail: candidate.detail}),
		...(candidate.severity === undefined ? {} : {severity: candidate.severity}),
	};
	const finding = dressFinding(draft);
	return {
		code: candidate.code,
		likelihood: candidate.likelihood,
		why: candidate.why,
		title: CATALOG[candidate.code].title,
		severity: finding.severity,
		hint: finding.hint,
		impact: finding.impact,
		rules: finding.rules,
	};
}

/** Turns pasted escapes (`\u001b`, `\x1B`, `^[`, `\uFEFF`) into the characters they stand for. */
function unescapePasted(text: string): string {
	return text
		.replaceAll(/\\u001b|\\x1b|\\033|\\e(?=\[)|\^\[/gi, ESC)
		.replaceAll(/\\ufeff/gi, '\uFEFF')
		.replaceAll(/\\r/g, '\r')
		.replaceAll(/\\n/g, '\n')
		.replaceAll(/\\"/g, '"');
}

const LOG_PREFIX =
	/^\s*(?:\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL)\b|\[?(?:trace|debug|info|warn|warning|error|fatal):|\[?\d{4}-\d{2}-\d{2}|\d{2}:\d{2}:\d{2}|\[\w+\])/;

/** What a stray line starting with `snippet` most likely is (stray-output `detail.kind`). */
function strayKind(snippet: string): 'launcher' | 'log' | 'banner' {
	if (/^(?:> |\[dotenv@|npm (?:WARN|warn|notice)|Activating |Now using node )/.test(snippet)) {
		return 'launcher';
	}

	return LOG_PREFIX.test(snippet) ? 'log' : 'banner';
}

const KIND_WHAT = {
	launcher: 'launcher or wrapper output (npm run, dotenv, a shell wrapper)',
	log: 'a log line',
	banner: 'a text line (a banner or print)',
} as const;

/** Explanations for a line that V8 refused with "Unexpected token 'X', "<snippet>"…". */
function fromUnexpectedToken(token: string, snippet: string): Candidate[] {
	const shown = JSON.stringify(snippet);
	const starts = `The client read a line on the server's stdout that starts with ${shown}`;
	if (/^content-le/i.test(snippet) || (token === 'C' && snippet === '')) {
		return [
			{
				code: 'content-length-framing',
				likelihood: 'likely',
				why: `${starts}: an LSP \`Content-Length:\` header. The server frames messages like a language server; MCP stdio is one JSON message per line.`,
			},
		];
	}

	if (snippet.startsWith(ESC) || token === ESC || token === '') {
		return [
			{
				code: 'ansi-escape',
				likelihood: 'likely',
				why: `${starts.replace(shown, 'an ESC byte (0x1B)')}: a terminal colour or cursor sequence, so something prints coloured output to stdout.`,
			},
			{
				code: 'stray-output',
				likelihood: 'likely',
				why: 'The coloured line is itself not a JSON message (usually a logger writing to stdout).',
				detail: {kind: 'log'},
			},
		];
	}

	if (snippet.startsWith('\uFEFF') || token === '\uFEFF') {
		return [
			{
				code: 'bom',
				likelihood: 'likely',
				why: 'The offending character is U+FEFF, a UTF-8 byte order mark (EF BB BF) before the first message.',
			},
		];
	}

	const trimmed = snippet.trimStart();
	if (token === '}' || token === ']' || /^[}\]],?$/.test(trimmed) || /^"[\w$-]+"\s*:/.test(trimmed)) {
		return [
			{
				code: 'multiline-json',
				likelihood: 'likely',
				why: `${starts}: a fragment of pretty-printed JSON. Each line of an indented message is parsed alone and fails, so the message is lost.`,
			},
		];
	}

	const kind = strayKind(snippet);
	const candidates: Candidate[] = [
		{
			code: 'stray-output',
			likelihood: 'likely',
			why: `${starts}: ${KIND_WHAT[kind]}, not a JSON message.`,
			detail: {kind},
		},
	];
	if (kind === 'log') {
		candidates.push({
			code: 'stderr-merged',
			likelihood: 'possible',
			why: 'If the server does log to stderr, something upstream (`2>&1`, `docker run -t`) folds stderr into stdout.',
		});
	}

	return candidates;
}

/**
 * Maps a pasted client error message to the faults behind it.
 *
 * Recognised (docs/protocol.md C1–C8, §6): V8 `JSON.parse` errors as the TS SDK logs them — `Unexpected token
 * 'X', "<first 10 chars>"... is not valid JSON` (and the older `Unexpected token X in JSON at position N`),
 * `Unexpected end of JSON input`, `Expected property name or '}' in JSON at position 1`, `Unexpected
 * non-whitespace character after JSON at position N`, `No number after minus sign in JSON at position N`;
 * host messages `Failed to connect` (claude mcp list), `Request timed out` / `-32001`, `Server transport
 * closed unexpectedly` / `Connection closed`; the Python SDK's `Failed to parse JSONRPC message from server`
 * (refined by pydantic's `input_value='…'`) and `Unsupported protocol version`; VS Code's `Failed to parse
 * message`; `ReadBuffer exceeded maximum size`; unknown response ids; `UnicodeDecodeError`; spawn ENOENT.
 *
 * @param text the message as pasted (escapes such as `\u001b` are understood).
 * @returns the explanations, most likely first, one per code.
 */
export function explainError(text: string): ExplainResult {
	const input = text.trim();
	const code = FINDING_CODES.find((known) => known === input.toLowerCase());
	if (code !== undefined) {
		// Markdown links of the catalog's description read as their text in a terminal.
		const what = CATALOG[code].doc?.what.replaceAll(/\[([^\]]+)\]\([^)]*\)/g, '$1') ?? CATALOG[code].title;
		return {input, explanations: [explain({code, likelihood: 'likely', why: what})], docs: findingDocsRef(code)};
	}
	const message = unescapePasted(input);
	const candidates: Candidate[] = [];
	let source: string | undefined;
	const add = (...more: Candidate[]): void => {
		candidates.push(...more);
	};

	const token =
		/Unexpected token '([\s\S]?)', "((?:[^"\\]|\\.)*)"(?:\.\.\.)? is not valid JSON/.exec(message) ??
		/Unexpected token '([\s\S]?)', "([\s\S]*?)"(?:\.\.\.)? is not valid JSON/.exec(message);
	const oldToken = /Unexpected token ([\s\S]) in JSON at position (\d+)/.exec(message);
	if (token !== null) {
		source = V8;
		add(...fromUnexpectedToken(token[1]!, token[2]!));
	} else if (oldToken !== null) {
		source = `${V8} (Node 18 and older)`;
		add(...fromUnexpectedToken(oldToken[1]!, oldToken[2] === '0' ? oldToken[1]! : ''));
	}

	if (/Unexpected end of JSON input/i.test(message)) {
		source ??= V8;
		add(
			{
				code: 'blank-line',
				likelihood: 'likely',
				why: 'JSON.parse was given an empty line: the server wrote a blank line (an extra "\\n") on stdout. Cursor 2026 builds drop the connection on it.',
			},
			{
				code: 'content-length-framing',
				likelihood: 'possible',
				why: 'The blank line may be the one after LSP `Content-Length:` headers (`\\r\\n\\r\\n`); then the log also shows `Unexpected token \'C\', "Content-Le"…`.',
			},
		);
	}

	const propertyName = /Expected property name or '}' in JSON at position (\d+)/.exec(message);
	if (propertyName !== null) {
		source ??= V8;
		add({
			code: 'multiline-json',
			likelihood: 'likely',
			why: `JSON.parse read a line that opens an object and stops${propertyName[1] === '1' ? ' (the line is just `{`)' : ''}: the server pretty-prints its messages over several lines, and every line fails alone.`,
		});
	}

	const afterJson = /Unexpected non-whitespace character after JSON at position (\d+)/.exec(message);
	if (afterJson !== null) {
		source ??= V8;
		const position = Number(afterJson[1]);
		add(
			{
				code: 'stray-output',
				likelihood: 'likely',
				why: `A line started with something that parses as JSON on its own and then went on: usually a log line that starts with a number, such as a timestamp \`2025-06-09 …\`${position === 4 ? ' (the year ends at position 4)' : ` (the number ends at position ${position})`}.`,
				detail: {kind: 'log'},
			},
			{
				code: 'concatenated-json',
				likelihood: 'likely',
				why: `Or two JSON messages share one line (no "\\n" between them, or a lone CR): the first ends and the second starts at position ${position}.`,
			},
			{
				code: 'multiline-json',
				likelihood: 'possible',
				why: 'Or a line of pretty-printed JSON such as `  "jsonrpc": "2.0",` (a quoted key, then a colon).',
			},
		);
	}

	if (/No number after minus sign in JSON at position \d+/.test(message)) {
		source ??= V8;
		add({
			code: 'stray-output',
			likelihood: 'likely',
			why: 'A line on stdout starts with `-` and no digit: a Markdown/YAML list item (`- item`) or a `---` separator printed to stdout.',
			detail: {kind: 'banner'},
		});
	}

	if (/Unexpected number in JSON at position \d+/.test(message)) {
		source ??= `${V8} (Node 18 and older)`;
		add({
			code: 'stray-output',
			likelihood: 'likely',
			why: 'A line on stdout starts with a number followed by more text: usually a log line with a timestamp.',
			detail: {kind: 'log'},
		});
	}

	if (/Failed to parse JSONRPC message from server|ValidationError[\s\S]*JSONRPCMessage/i.test(message)) {
		source = 'the Python SDK client (mcp.client.stdio), which logs it and skips the line';
		const value = /input_value=(['"])((?:\\[\s\S]|(?!\1)[\s\S])*)\1/.exec(message)?.[2];
		if (value !== undefined && /^(?:\\[rn]|\s)*$/.test(value)) {
			add({
				code: 'blank-line',
				likelihood: 'likely',
				why: `pydantic's input_value is empty (${JSON.stringify(value)}): the server wrote a blank line.`,
			});
		} else if (value !== undefined && /^content-length/i.test(value)) {
			add({
				code: 'content-length-framing',
				likelihood: 'likely',
				why: "pydantic's input_value is a `Content-Length:` header: the server uses LSP framing.",
			});
		} else if (value !== undefined && /^\s*[{[]\s*$|^\s*"[\w$-]+"\s*:/.test(value)) {
			add({
				code: 'multiline-json',
				likelihood: 'likely',
				why: `pydantic's input_value ${JSON.stringify(value)} is a fragment of pretty-printed JSON.`,
			});
		} else if (value !== undefined && /^\s*\{/.test(value)) {
			add({
				code: 'invalid-jsonrpc',
				likelihood: 'likely',
				why: 'The line is JSON but not a JSON-RPC message the SDK accepts (pydantic rejected its shape).',
			});
		} else {
			const kind = value === undefined ? 'banner' : strayKind(value);
			add(
				{
					code: 'stray-output',
					likelihood: 'likely',
					why: `A line on the server's stdout is not a JSON-RPC message${value === undefined ? '' : `: it starts with ${JSON.stringify(value.slice(0, 30))}`}.`,
					detail: {kind},
				},
				{
					code: 'blank-line',
					likelihood: 'possible',
					why: 'An empty line gives the same log (pydantic: `EOF while parsing a value`).',
				},
				{code: 'multiline-json', likelihood: 'possible', why: 'So does each line of a pretty-printed message.'},
				{
					code: 'invalid-jsonrpc',
					likelihood: 'possible',
					why: 'And valid JSON that is not a JSON-RPC message (an analytics or log record).',
				},
			);
		}
	}

	if (
		/Invalid JSON: EOF while parsing/i.test(message) &&
		candidates.every((candidate) => candidate.code !== 'blank-line')
	) {
		source ??= 'pydantic, in a Python SDK server or client';
		add({
			code: 'blank-line',
			likelihood: 'likely',
			why: "pydantic was given an empty line (`input_value='\\n'`): a blank line was written on the stream (by the client if the server logs it).",
		});
	}

	if (/Failed to parse message/i.test(message) && !/JSONRPC/i.test(message)) {
		source ??= 'VS Code (mainThreadMcp), which logs it as a warning and skips the line';
		const quoted = /Failed to parse message: "((?:[^"\\]|\\.)*)"/.exec(message)?.[1];
		if (quoted !== undefined && /^(?:\\[rn]|\s)*$/.test(quoted)) {
			add({code: 'blank-line', likelihood: 'likely', why: 'The quoted line is empty: the server wrote a blank line.'});
		} else {
			add(
				{
					code: 'stray-output',
					likelihood: 'likely',
					why: `A line on the server's stdout is not JSON${quoted === undefined ? '' : `: ${JSON.stringify(quoted.slice(0, 30))}`}.`,
					detail: {kind: quoted === undefined ? 'banner' : strayKind(quoted)},
				},
				{
					code: 'multiline-json',
					likelihood: 'possible',
					why: 'Each line of a pretty-printed message gives the same warning.',
				},
			);
		}
	}

	if (/Invalid JSON-RPC message:/i.test(message)) {
		source ??= 'Claude Desktop (2026 builds), which then fails to start the server';
		const rest = /Invalid JSON-RPC message:\s*(.*)/.exec(message)?.[1] ?? '';
		if (rest.trimStart().startsWith('{')) {
			add({
				code: 'invalid-jsonrpc',
				likelihood: 'likely',
				why: 'The rejected line is JSON but not a JSON-RPC message.',
			});
		} else {
			const kind = strayKind(rest);
			add({
				code: 'stray-output',
				likelihood: 'likely',
				why: `The rejected line is ${KIND_WHAT[kind]}${rest === '' ? '' : `: ${JSON.stringify(rest.slice(0, 30))}`}.`,
				detail: {kind},
			});
		}
	}

	if (/Failed to connect/i.test(message)) {
		source ??= '`claude mcp list` (Claude Code), after a real spawn and initialize';
		const why =
			'It only says that spawning the server and answering `initialize` did not succeed; each of these faults causes it.';
		add(
			{
				code: 'early-exit',
				likelihood: 'possible',
				why: `${why} Most often the process exits at once (a missing module, a wrong path, usage text).`,
			},
			{
				code: 'spawn-failed',
				likelihood: 'possible',
				why: 'The command is not found on the PATH the client passes (GUI clients get a minimal PATH).',
				detail: {errno: 'ENOENT'},
			},
			{
				code: 'no-response',
				likelihood: 'possible',
				why: 'The server never answers `initialize` (blocked before its read loop, or hangs when stdin closes).',
			},
			{code: 'unflushed-output', likelihood: 'possible', why: 'The answer sits in a stdout buffer until exit.'},
			{code: 'content-length-framing', likelihood: 'possible', why: 'The server speaks LSP Content-Length framing.'},
			{code: 'bom', likelihood: 'possible', why: 'A byte order mark spoils the `initialize` result.'},
			{
				code: 'protocol-version',
				likelihood: 'possible',
				why: 'The server rejects or does not negotiate the protocol version.',
			},
		);
	}

	if (/Request timed out|-32001\b|timed out waiting for/i.test(message)) {
		source ??= 'the TS SDK (60 s per request; Claude Code: 30 s at startup)';
		add(
			{
				code: 'no-response',
				likelihood: 'possible',
				why: 'The client waited for a response that never came: the server may be blocked before reading stdin.',
			},
			{
				code: 'slow-response',
				likelihood: 'possible',
				why: "Or the response came, but after the client's limit: a tool call slower than 60 s (the TS SDK's default per request; Claude Desktop and Claude Code use it) times out though the server is working. Answer sooner, send progress notifications, or raise the client's timeout.",
			},
			{
				code: 'unflushed-output',
				likelihood: 'possible',
				why: 'Or the response sits in a stdout buffer (Python `print` without flush, C stdio) and comes out only at exit.',
			},
			{
				code: 'multiline-json',
				likelihood: 'possible',
				why: 'Or the response was written but lost on the way: it was pretty-printed over several lines, and the client parses each line alone.',
			},
			{
				code: 'missing-newline',
				likelihood: 'possible',
				why: 'Or it was written without the final "\\n", so the client never sees the line end.',
			},
			{
				code: 'content-length-framing',
				likelihood: 'possible',
				why: 'Or it was framed with Content-Length headers, which an MCP stdio client does not read.',
			},
			{
				code: 'bom',
				likelihood: 'possible',
				why: 'Or a byte order mark (EF BB BF) came before it, and the client could not parse the line.',
			},
			{code: 'unknown-id', likelihood: 'possible', why: 'Or it was sent with an id that does not match the request.'},
		);
	}

	if (/Connection timeout triggered after \d+ ?ms/i.test(message)) {
		source ??= 'Claude Code (startup limit: 30 s, `MCP_TIMEOUT` in ms)';
		add(
			{
				code: 'no-response',
				likelihood: 'likely',
				why: 'Claude Code gave up waiting for the `initialize` answer: the server never answered (blocked before reading stdin, or its answer was lost on the wire).',
			},
			{
				code: 'slow-response',
				likelihood: 'possible',
				why: 'Or the server answers, but later than 30 s (a first-start package download by `npx`/`uvx`, slow start-up work): raise `MCP_TIMEOUT` or start faster.',
			},
			{
				code: 'unflushed-output',
				likelihood: 'possible',
				why: 'Or the answer sits in a stdout buffer (Python `print` without flush, C stdio).',
			},
			{
				code: 'multiline-json',
				likelihood: 'possible',
				why: 'Or it was written but lost on the way: it was pretty-printed over several lines, and the client parses each line alone.',
			},
			{
				code: 'content-length-framing',
				likelihood: 'possible',
				why: 'Or it was framed with Content-Length headers, which an MCP stdio client does not read.',
			},
		);
	}

	if (/Client closed for command/i.test(message)) {
		source ??= 'Cursor';
		add(
			{
				code: 'early-exit',
				likelihood: 'likely',
				why: 'Cursor lost the server process: it exited (a crash, a missing module, usage text and exit) or closed stdout. Its stderr says why.',
			},
			{
				code: 'spawn-failed',
				likelihood: 'possible',
				why: 'Or the command could not be started at all (not on the PATH Cursor passes).',
				detail: {errno: 'ENOENT'},
			},
			{
				code: 'stray-output',
				likelihood: 'possible',
				why: 'Cursor 2026 builds were seen closing right after a line they could not parse (a banner or log line on stdout).',
				detail: {kind: 'banner'},
			},
		);
	}

	if (/Cannot find module|ERR_MODULE_NOT_FOUND/.test(message)) {
		source ??= 'Node.js, in the server process (its stderr)';
		add({
			code: 'early-exit',
			likelihood: 'likely',
			why: "Node could not load the server's entry file or one of its dependencies (a wrong path in the config's args, a missing `npm install` or build step), so the process exits before the handshake.",
		});
	}

	if (
		/Server transport closed unexpectedly|Connection closed|Server disconnected|-32000\b|transport closed/i.test(
			message,
		)
	) {
		source ??= 'the TS SDK client (Claude Desktop, Claude Code)';
		add({
			code: 'early-exit',
			likelihood: 'likely',
			why: 'The server process exited (or closed stdout) while the client still needed it: read its stderr for the reason.',
		});
		if (/initialize response/i.test(message)) {
			add({
				code: 'stray-output',
				likelihood: 'possible',
				why: 'rmcp before 1.7.0 closes the transport on any line it cannot decode, such as a banner.',
				detail: {kind: 'banner'},
			});
		}

		if (/ReadBuffer/i.test(message)) {
			add({
				code: 'oversize-frame',
				likelihood: 'likely',
				why: 'The TS SDK closes the connection when one line exceeds its 10 MiB read buffer.',
				severity: 'error',
			});
		}
	}

	if (/ReadBuffer exceeded maximum size/i.test(message)) {
		source ??= 'the TS SDK (≥1.30.0) read buffer';
		add({
			code: 'oversize-frame',
			likelihood: 'likely',
			why: "One message line was larger than the TS SDK's 10 MiB read buffer, so it closed the connection.",
			severity: 'error',
		});
	}

	if (
		/\bspawn\b.*\bENOENT\b|\bENOENT\b.*\bspawn\b|command not found|is not recognized as an internal or external command/i.test(
			message,
		)
	) {
		add({
			code: 'spawn-failed',
			likelihood: 'likely',
			why: 'The client could not find the program: use an absolute path or fix the PATH it passes.',
			detail: {errno: 'ENOENT'},
		});
	}

	if (/\bspawn\b.*\bEACCES\b|Permission denied/i.test(message)) {
		add({code: 'spawn-failed', likelihood: 'likely', why: 'The program is not executable.', detail: {errno: 'EACCES'}});
	}

	if (/protocol version is not supported|Unsupported protocol version/i.test(message)) {
		add({
			code: 'protocol-version',
			likelihood: 'likely',
			why: 'The client does not accept the version the server answered with: the server did not negotiate (echo the requested version or counter-offer one the client knows).',
		});
	}

	if (/unknown message ID|unknown request ID/i.test(message)) {
		add(
			{
				code: 'unknown-id',
				likelihood: 'likely',
				why: 'The server answered with an id the client never sent (an id not echoed unchanged, or a changed type).',
			},
			{code: 'duplicate-response', likelihood: 'possible', why: 'Or it answered the same request twice.'},
		);
	}

	if (/UnicodeDecodeError|codec can't decode byte/i.test(message)) {
		add({
			code: 'invalid-utf8',
			likelihood: 'likely',
			why: 'The Python SDK decodes stdout as strict UTF-8 and stops the whole client on the first invalid byte.',
			detail: {inString: true},
		});
	}

	if (/Waiting for server to respond/i.test(message)) {
		source ??= 'VS Code';
		add(
			{code: 'no-response', likelihood: 'possible', why: 'VS Code is still waiting for the `initialize` answer.'},
			{code: 'unflushed-output', likelihood: 'possible', why: 'The answer may be stuck in a stdout buffer.'},
		);
	}

	if (/Unrecognized key|invalid_union|"code":\s*"invalid_type"/.test(message)) {
		source ??= "the TS SDK's strict zod schema";
		add({
			code: 'invalid-jsonrpc',
			likelihood: 'likely',
			why: 'The message is JSON but fails the JSON-RPC schema (an extra top-level key, a missing `jsonrpc`, a null id…).',
		});
	}

	const seen = new Set<FindingCode>();
	const unique = candidates.filter((candidate) => {
		if (seen.has(candidate.code)) {
			return false;
		}

		seen.add(candidate.code);
		return true;
	});
	const ordered = [
		...unique.filter((candidate) => candidate.likelihood === 'likely'),
		...unique.filter((candidate) => candidate.likelihood === 'possible'),
	];
	return {
		input,
		...(source === undefined ? {} : {source}),
		explanations: ordered.map((candidate) => explain(candidate)),
	};
}
