/**
 * A small script language for detector tests: feed a Session the exact bytes of an MCP exchange step by
 * step (`[stream, tMs, message or raw text]`), and read back findings as `code@stream:offset`.
 */
import {Session, type SessionOptions} from '../../../src/core/session/session.js';
import type {Finding, Mark, SessionMeta, StreamName} from '../../../src/core/types.js';

export const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.0.0-test'},
	node: 'v20.0.0',
	platform: 'linux',
	command: ['server'],
	envMode: 'sdk-default',
	startedAt: '2026-01-01T00:00:00.000Z',
	mode: 'probe',
};

const encoder = new TextEncoder();

/** The bytes of one message as `JSON.stringify(message) + "\n"` (a string is taken as raw text, bytes as they are). */
export const bytesOf = (message: unknown): Uint8Array =>
	message instanceof Uint8Array
		? message
		: encoder.encode(typeof message === 'string' ? message : `${JSON.stringify(message)}\n`);

export const INIT = {
	jsonrpc: '2.0',
	id: 0,
	method: 'initialize',
	params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'mcp-wire', version: '0'}},
};
export const initOk = (capabilities: object = {tools: {}}, protocolVersion = '2025-11-25') => ({
	jsonrpc: '2.0',
	id: 0,
	result: {protocolVersion, capabilities, serverInfo: {name: 's', version: '1'}},
});
export const INITIALIZED = {jsonrpc: '2.0', method: 'notifications/initialized'};
export const request = (id: number, method: string, params?: unknown) => ({
	jsonrpc: '2.0',
	id,
	method,
	...(params === undefined ? {} : {params}),
});
export const result = (id: number, value: unknown = {}) => ({jsonrpc: '2.0', id, result: value});
export const error = (id: number, code: number, message: string) => ({jsonrpc: '2.0', id, error: {code, message}});

/** One step: bytes on a stream at a time, `close` (stdin closed), `exit` (code 0 unless given), or a mark. */
export type Step =
	| readonly [StreamName, number, unknown]
	| readonly ['close', number]
	| readonly ['exit', number, {readonly code?: number | null; readonly signal?: string | null}?]
	| readonly ['mark', number, Mark];

/**
 * Feed `steps` to a new session; `finish` ends it at the last step's time (pass false to leave it open).
 * `command` replaces {@link META}'s (the runtime-specific fixes read the runtime from it).
 */
export function run(
	steps: readonly Step[],
	options: SessionOptions & {finish?: boolean; isComplete?: boolean; command?: readonly string[]} = {},
): Session {
	const session = new Session(options.command ? {...META, command: options.command} : META, options);
	let last = 0;
	for (const step of steps) {
		if (step[0] === 'close') session.mark({type: 'stdin-closed', tMs: step[1]});
		else if (step[0] === 'exit')
			session.exit({code: step[2]?.code ?? 0, signal: step[2]?.signal ?? null, tMs: step[1]});
		else if (step[0] === 'mark') session.mark(step[2]);
		else session.pushChunk(step[0], step[1], bytesOf(step[2]));
		last = step[1];
	}
	if (options.finish !== false) session.finish(last, options.isComplete === false ? {isComplete: false} : {});
	return session;
}

/** The first steps of a healthy session: initialize, its result (with `capabilities`), initialized. */
export const handshake = (capabilities: object = {tools: {}}): Step[] => [
	['stdin', 0, INIT],
	['stdout', 10, initOk(capabilities)],
	['stdin', 11, INITIALIZED],
];

/** Byte length of what `steps` put on `stream` (the offset the next message there starts at). */
export function lengthOn(stream: StreamName, steps: readonly Step[]): number {
	let total = 0;
	for (const step of steps) if (step[0] === stream) total += bytesOf(step[2]).length;
	return total;
}

export const codesAt = (session: Session): string[] =>
	session.getSnapshot().findings.map((f) => `${f.code}@${f.stream}:${f.offset}`);
export const findingsOf = (session: Session, code: string): Finding[] =>
	session.getSnapshot().findings.filter((f) => f.code === code);
