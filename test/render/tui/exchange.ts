import {Session} from '../../../src/core/session/session.js';
import type {SessionMeta} from '../../../src/core/types.js';

/**
 * A realistic stdio exchange, byte for byte, for the TUI tests: an initialize request, a banner printed
 * to stdout before the reply (stray-output), the initialize reply terminated by CR LF (crlf), the
 * initialized notification, tools/list and its reply delivered in two reads, and two stderr lines (one
 * carrying ANSI colour codes, which must be shown escaped).
 */

export const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.1.0'},
	node: 'v20.20.2',
	platform: 'linux',
	command: ['node', 'server.mjs'],
	envMode: 'sdk-default',
	startedAt: '2026-01-01T00:00:00.000Z',
	mode: 'probe',
};

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

export const INITIALIZE =
	'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcp-wire","version":"0.1.0"}}}\n';
export const BANNER = 'Server listening on stdio\n';
export const INITIALIZE_REPLY =
	'{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"demo","version":"1.0.0"}}}\r\n';
export const INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}\n';
export const TOOLS_LIST = '{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n';
export const TOOLS_REPLY =
	'{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}]}}';
export const STDERR_1 = '[info] demo server starting\n';
export const STDERR_2 = '\u001B[31mwarn\u001B[0m: slow disk\n';

/**
 * Builds the session. Frames come out as:
 * 0 C→S initialize #1 (158 B) · 1 ERR `[info]…` · 2 S→C banner (26 B, stray-output) · 3 S→C #1 reply
 * (143 B @26, CR LF: crlf at stdout offset 167) · 4 C→S notifications/initialized · 5 C→S tools/list #2
 * · 6 S→C #2 reply (154 B @169, two reads at 9 ms and 12 ms) · 7 ERR `␛[31mwarn…`.
 */
export function exchangeSession(): Session {
	const session = new Session(META);
	session.pushChunk('stdin', 1, encode(INITIALIZE));
	session.pushChunk('stderr', 2, encode(STDERR_1));
	session.pushChunk('stdout', 3, encode(BANNER));
	session.pushChunk('stdout', 5, encode(INITIALIZE_REPLY));
	session.pushChunk('stdin', 6, encode(INITIALIZED));
	session.pushChunk('stdin', 7, encode(TOOLS_LIST));
	session.pushChunk('stdout', 9, encode(TOOLS_REPLY));
	session.pushChunk('stdout', 12, encode('\n'));
	session.pushChunk('stderr', 13, encode(STDERR_2));
	return session;
}

/** A request/response pair number `n` (ids from 100), for follow-tail tests. */
export function pingPair(n: number): {request: Uint8Array; response: Uint8Array} {
	return {
		request: encode(`{"jsonrpc":"2.0","id":${100 + n},"method":"ping"}\n`),
		response: encode(`{"jsonrpc":"2.0","id":${100 + n},"result":{}}\n`),
	};
}
