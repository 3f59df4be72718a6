import type {Severity} from '../../types.js';

/**
 * The error messages clients log, as `mcp-wire explain` reads them (docs/protocol.md C8, "Message texts a user
 * will paste"). This module knows the messages and what they quote; which wire fault each one points at lives in
 * the rules (`rules/<code>.ts`, their `errors`), and `findings/explain.ts` walks both. Pure: text in, readings out.
 */

const ESC = '\u001B';
const V8 = "V8's JSON.parse, in TS SDK v1 hosts (Claude Desktop, Claude Code, MCP Inspector) and Cursor";

/** What a stray (non-JSON) line most likely is: `stray-output`'s `detail.kind`. */
export type StrayKind = 'launcher' | 'log' | 'banner';

/**
 * What the line a client quotes is (`"Starting B"`, pydantic's `input_value='…'`): a stray line of some
 * {@link StrayKind}, an LSP header, an ESC or BOM start, a fragment of pretty-printed JSON, an empty line, or a
 * JSON object that is not JSON-RPC. Each message reads its quote its own way ({@link CLIENT_MESSAGES}).
 */
export type LineKind = StrayKind | 'content-length' | 'ansi' | 'bom' | 'fragment' | 'blank' | 'object';

/** One pasted message as a known client message read it. */
export interface Pasted {
	/** The whole pasted text, trimmed, with escapes such as `\u001b` turned into their characters. */
	readonly message: string;
	/** The message's pattern matched against `message` (its groups: positions, tokens). */
	readonly match: RegExpExecArray;
	/** The line the message quotes, when it quotes one, and what that line is. */
	readonly line?: {readonly text: string; readonly kind: LineKind};
}

/** A message some client or reader logs: how to recognise it, who logs it, and what it quotes. */
export interface ClientMessage {
	/** Who logs it (explain's `source`). Unset: several clients do, and the message does not say which. */
	readonly client?: string;
	/** The client named here replaces one named by an earlier message (otherwise the first one named stays). */
	readonly namesClient?: 'always';
	/**
	 * Recognises the message in the unescaped paste: the reading, or undefined when it is not this message.
	 * @param message the pasted text, trimmed and unescaped
	 */
	readonly read: (message: string) => Pasted | undefined;
}

/**
 * How one rule explains one client message: the rule's own code, with how likely it is and why. A rule lists
 * these in its `errors`; `explain` collects every rule's entries for each message that matched.
 */
export interface ErrorText {
	/** The message(s) this entry reacts to: keys of {@link CLIENT_MESSAGES}. */
	readonly on: ClientMessageId | readonly ClientMessageId[];
	/** Where this code stands among the codes the message points at (0 first; entries of equal likelihood keep it). */
	readonly rank: number;
	readonly likelihood: 'likely' | 'possible';
	/**
	 * Why the message points at this fault, one or two sentences; a function may return undefined when this
	 * instance of the message does not point at it (the quoted line is of another kind).
	 */
	readonly why: string | ((pasted: Pasted) => string | undefined);
	/** The finding `detail` the fix and impact are dressed with (e.g. `stray-output`'s `kind`). */
	readonly detail?: Readonly<Record<string, unknown>> | ((pasted: Pasted) => Readonly<Record<string, unknown>>);
	/** A severity other than the code's default (as the finding would carry). */
	readonly severity?: Severity;
}

/** Turns pasted escapes (`\u001b`, `\x1B`, `^[`, `\uFEFF`) into the characters they stand for. */
export function unescapePasted(text: string): string {
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
export function strayKind(snippet: string): StrayKind {
	if (/^(?:> |\[dotenv@|npm (?:WARN|warn|notice)|Activating |Now using node )/.test(snippet)) {
		return 'launcher';
	}
	return LOG_PREFIX.test(snippet) ? 'log' : 'banner';
}

/** The words for each {@link StrayKind}. */
export const KIND_WHAT: Readonly<Record<StrayKind, string>> = {
	launcher: 'launcher or wrapper output (npm run, dotenv, a shell wrapper)',
	log: 'a log line',
	banner: 'a text line (a banner or print)',
};

/** The stray kind of the quoted line (a message that quotes nothing counts as a banner), or undefined for any other kind. */
export function strayLine(pasted: Pasted): StrayKind | undefined {
	const kind = pasted.line?.kind ?? 'banner';
	return kind === 'launcher' || kind === 'log' || kind === 'banner' ? kind : undefined;
}

/** The opening of a `why` about the line V8 quoted: `The client read a line … that starts with "<snippet>"`. */
export function startsWith(pasted: Pasted): string {
	return `The client read a line on the server's stdout that starts with ${JSON.stringify(pasted.line?.text ?? '')}`;
}

/** What the first characters of a line V8 refused are (`token` is the character it names). */
function v8LineKind(token: string, snippet: string): LineKind {
	if (/^content-le/i.test(snippet) || (token === 'C' && snippet === '')) return 'content-length';
	if (snippet.startsWith(ESC) || token === ESC || token === '') return 'ansi';
	if (snippet.startsWith('\uFEFF') || token === '\uFEFF') return 'bom';
	const trimmed = snippet.trimStart();
	if (token === '}' || token === ']' || /^[}\]],?$/.test(trimmed) || /^"[\w$-]+"\s*:/.test(trimmed)) return 'fragment';
	return strayKind(snippet);
}

const V8_TOKEN = (message: string): RegExpExecArray | null =>
	/Unexpected token '([\s\S]?)', "((?:[^"\\]|\\.)*)"(?:\.\.\.)? is not valid JSON/.exec(message) ??
	/Unexpected token '([\s\S]?)', "([\s\S]*?)"(?:\.\.\.)? is not valid JSON/.exec(message);

/** A message recognised by one pattern, quoting nothing. */
function plain(pattern: RegExp): (message: string) => Pasted | undefined {
	return (message) => {
		const match = pattern.exec(message);
		return match === null ? undefined : {message, match};
	};
}

/** What pydantic's `input_value` (the line the Python SDK could not parse) is. */
function pydanticLineKind(value: string): LineKind {
	if (/^(?:\\[rn]|\s)*$/.test(value)) return 'blank';
	if (/^content-length/i.test(value)) return 'content-length';
	if (/^\s*[{[]\s*$|^\s*"[\w$-]+"\s*:/.test(value)) return 'fragment';
	if (/^\s*\{/.test(value)) return 'object';
	return strayKind(value);
}

/**
 * Every client message `explain` knows, in the order it tries them (docs/protocol.md C1–C8, §6). The order
 * decides which client `source` names and, with each entry's `rank`, the order of the explanations.
 */
export const CLIENT_MESSAGES = {
	/** V8 `JSON.parse` as the TS SDK logs it: `Unexpected token 'X', "<first 10 chars>"... is not valid JSON`. */
	'v8-unexpected-token': {
		client: V8,
		namesClient: 'always',
		read: (message) => {
			const match = V8_TOKEN(message);
			return match === null
				? undefined
				: {message, match, line: {text: match[2]!, kind: v8LineKind(match[1]!, match[2]!)}};
		},
	},
	/** The same on Node 18 and older: `Unexpected token X in JSON at position N` (it quotes the token at 0 only). */
	'v8-unexpected-token-old': {
		client: `${V8} (Node 18 and older)`,
		namesClient: 'always',
		read: (message) => {
			const match =
				V8_TOKEN(message) === null ? /Unexpected token ([\s\S]) in JSON at position (\d+)/.exec(message) : null;
			if (match === null) return undefined;
			const snippet = match[2] === '0' ? match[1]! : '';
			return {message, match, line: {text: snippet, kind: v8LineKind(match[1]!, snippet)}};
		},
	},
	'v8-end-of-input': {client: V8, read: plain(/Unexpected end of JSON input/i)},
	'v8-property-name': {client: V8, read: plain(/Expected property name or '}' in JSON at position (\d+)/)},
	'v8-after-json': {client: V8, read: plain(/Unexpected non-whitespace character after JSON at position (\d+)/)},
	'v8-minus-sign': {client: V8, read: plain(/No number after minus sign in JSON at position (\d+)/)},
	/**
	 * `Unexpected token 'I', ..."maximum": Infinity}}"... is not valid JSON`: V8 stopped at a `NaN` or `Infinity`
	 * written as a value (after `:`, `[` or `,`), which Python's `json.dumps` writes by default (R26). V8 quotes
	 * the text around the error, with its own quotes unescaped.
	 */
	'v8-non-finite': {
		client: V8,
		namesClient: 'always',
		read: (message) => {
			const match = /Unexpected token '([NI])', (?:\.\.\.)?"([\s\S]*)"(?:\.\.\.)? is not valid JSON/.exec(message);
			return match !== null && /[:[,]\s*-?(?:NaN|Infinity)\b/.test(match[2]!) ? {message, match} : undefined;
		},
	},
	'v8-unexpected-number': {
		client: `${V8} (Node 18 and older)`,
		read: plain(/Unexpected number in JSON at position \d+/),
	},
	/** The Python SDK client, refined by pydantic's `input_value='…'` (the line it skipped). */
	'python-parse-failed': {
		client: 'the Python SDK client (mcp.client.stdio), which logs it and skips the line',
		namesClient: 'always',
		read: (message) => {
			const match = /Failed to parse JSONRPC message from server|ValidationError[\s\S]*JSONRPCMessage/i.exec(message);
			if (match === null) return undefined;
			const value = /input_value=(['"])((?:\\[\s\S]|(?!\1)[\s\S])*)\1/.exec(message)?.[2];
			return value === undefined
				? {message, match}
				: {message, match, line: {text: value, kind: pydanticLineKind(value)}};
		},
	},
	'pydantic-eof': {
		client: 'pydantic, in a Python SDK server or client',
		read: plain(/Invalid JSON: EOF while parsing/i),
	},
	'vscode-parse-failed': {
		client: 'VS Code (mainThreadMcp), which logs it as a warning and skips the line',
		read: (message) => {
			const match = /JSONRPC/i.test(message) ? null : /Failed to parse message/i.exec(message);
			if (match === null) return undefined;
			const quoted = /Failed to parse message: "((?:[^"\\]|\\.)*)"/.exec(message)?.[1];
			if (quoted === undefined) return {message, match};
			const kind = /^(?:\\[rn]|\s)*$/.test(quoted) ? 'blank' : strayKind(quoted);
			return {message, match, line: {text: quoted, kind}};
		},
	},
	'claude-desktop-invalid-message': {
		client: 'Claude Desktop (2026 builds), which then fails to start the server',
		read: (message) => {
			const match = /Invalid JSON-RPC message:\s*(.*)/i.exec(message);
			if (match === null) return undefined;
			const rest = /Invalid JSON-RPC message:\s*(.*)/.exec(message)?.[1] ?? '';
			return {message, match, line: {text: rest, kind: rest.trimStart().startsWith('{') ? 'object' : strayKind(rest)}};
		},
	},
	'claude-code-failed-to-connect': {
		client: '`claude mcp list` (Claude Code), after a real spawn and initialize',
		read: plain(/Failed to connect/i),
	},
	'request-timed-out': {
		client: 'the TS SDK (60 s per request; Claude Code: 30 s at startup)',
		read: plain(/Request timed out|-32001\b|timed out waiting for/i),
	},
	'claude-code-connection-timeout': {
		client: 'Claude Code (startup limit: 30 s, `MCP_TIMEOUT` in ms)',
		read: plain(/Connection timeout triggered after \d+ ?ms/i),
	},
	'cursor-client-closed': {client: 'Cursor', read: plain(/Client closed for command/i)},
	'node-module-not-found': {
		client: 'Node.js, in the server process (its stderr)',
		read: plain(/Cannot find module|ERR_MODULE_NOT_FOUND/),
	},
	'transport-closed': {
		client: 'the TS SDK client (Claude Desktop, Claude Code)',
		read: plain(
			/Server transport closed unexpectedly|Connection closed|Server disconnected|-32000\b|transport closed/i,
		),
	},
	'read-buffer-exceeded': {
		client: 'the TS SDK (≥1.30.0) read buffer',
		read: plain(/ReadBuffer exceeded maximum size/i),
	},
	'spawn-enoent': {
		read: plain(
			/\bspawn\b.*\bENOENT\b|\bENOENT\b.*\bspawn\b|command not found|is not recognized as an internal or external command/i,
		),
	},
	'spawn-eacces': {read: plain(/\bspawn\b.*\bEACCES\b|Permission denied/i)},
	'unsupported-protocol-version': {read: plain(/protocol version is not supported|Unsupported protocol version/i)},
	'unknown-message-id': {read: plain(/unknown message ID|unknown request ID/i)},
	'unicode-decode-error': {read: plain(/UnicodeDecodeError|codec can't decode byte/i)},
	'vscode-waiting': {client: 'VS Code', read: plain(/Waiting for server to respond/i)},
	'zod-schema': {
		client: "the TS SDK's strict zod schema",
		read: plain(/Unrecognized key|invalid_union|"code":\s*"invalid_type"/),
	},
} satisfies Record<string, ClientMessage>;

/** The name of a known client message (a key of {@link CLIENT_MESSAGES}). */
export type ClientMessageId = keyof typeof CLIENT_MESSAGES;
