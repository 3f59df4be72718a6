import {Session} from '../../../src/core/session/session.js';
import type {Finding, SessionMeta} from '../../../src/core/types.js';

/** Session header for detector tests (`command` overridable: some rules read it). */
export function meta(command: readonly string[] = ['server']): SessionMeta {
	return {
		tool: {name: 'mcp-wire', version: '0.0.0-test'},
		node: 'v20.0.0',
		platform: 'linux',
		command,
		envMode: 'sdk-default',
		startedAt: '2026-01-01T00:00:00.000Z',
		mode: 'probe',
	};
}

export const enc = (text: string): Uint8Array => new TextEncoder().encode(text);
export const line = (value: unknown): string => `${JSON.stringify(value)}\n`;

export const INIT = line({method: 'initialize', params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'mcp-wire', version: '0'}}, jsonrpc: '2.0', id: 0});
export const INIT_OK = line({jsonrpc: '2.0', id: 0, result: {protocolVersion: '2025-11-25', capabilities: {tools: {}}, serverInfo: {name: 's', version: '1'}}});
export const INITIALIZED = line({method: 'notifications/initialized', jsonrpc: '2.0'});
export const LIST = (id: number): string => line({method: 'tools/list', jsonrpc: '2.0', id});

/** One scripted step: bytes on a stream at a time. */
export type Step = readonly ['stdin' | 'stdout' | 'stderr', number, string | Uint8Array];

/**
 * Runs a scripted session: the steps in order, then stdin closed at `endMs` and exit 0 right after, unless
 * `open` (no close, no exit: the capture just ends). Returns the session after `finish`.
 */
export function run(steps: readonly Step[], options: {command?: readonly string[]; endMs?: number; open?: boolean} = {}): Session {
	const session = new Session(meta(options.command));
	let last = 0;
	for (const [stream, tMs, bytes] of steps) {
		session.pushChunk(stream, tMs, typeof bytes === 'string' ? enc(bytes) : bytes);
		last = Math.max(last, tMs);
	}
	const end = options.endMs ?? last + 10;
	if (!options.open) {
		session.mark({type: 'stdin-closed', tMs: end});
		session.exit({code: 0, signal: null, tMs: end + 5});
	}
	session.finish(end + 5);
	return session;
}

/** `code@stream:offset` of every finding, in report order. */
export const codesAt = (findings: readonly Finding[]): string[] => findings.map((f) => `${f.code}@${f.stream}:${f.offset}`);
