import {Session} from '../../../src/core/session/session.js';
import {FIELD_CASES, type FieldCase} from '../../fixtures/field-cases/cases.js';
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

export const INIT = line({
	method: 'initialize',
	params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'mcp-wire', version: '0'}},
	jsonrpc: '2.0',
	id: 0,
});
export const INIT_OK = line({
	jsonrpc: '2.0',
	id: 0,
	result: {protocolVersion: '2025-11-25', capabilities: {tools: {}}, serverInfo: {name: 's', version: '1'}},
});
export const INITIALIZED = line({method: 'notifications/initialized', jsonrpc: '2.0'});
export const LIST = (id: number): string => line({method: 'tools/list', jsonrpc: '2.0', id});

/** One scripted step: bytes on a stream at a time. */
export type Step = readonly ['stdin' | 'stdout' | 'stderr', number, string | Uint8Array];

/**
 * Runs a scripted session: the steps in order, then stdin closed at `endMs` and exit 0 right after, unless
 * `open` (no close, no exit: the capture just ends). Returns the session after `finish`.
 */
export function run(
	steps: readonly Step[],
	options: {command?: readonly string[]; endMs?: number; open?: boolean} = {},
): Session {
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
export const codesAt = (findings: readonly Finding[]): string[] =>
	findings.map((f) => `${f.code}@${f.stream}:${f.offset}`);

/** Feeds a field case's chunks, marks and exit to a fresh Session in time order (as test/core/session/field-cases.test.ts does). */
export function runFieldCase(fieldCase: FieldCase): Session {
	const session = new Session(meta(fieldCase.command));
	const steps: Array<{tMs: number; order: number; run: () => void}> = [];
	let order = 0;
	for (const c of fieldCase.chunks)
		steps.push({tMs: c.tMs, order: order++, run: () => session.pushChunk(c.stream, c.tMs, c.bytes)});
	for (const mark of fieldCase.marks ?? []) steps.push({tMs: mark.tMs, order: order++, run: () => session.mark(mark)});
	const exit = fieldCase.exit;
	if (exit) steps.push({tMs: exit.tMs, order: order++, run: () => session.exit(exit)});
	steps.sort((a, b) => a.tMs - b.tMs || a.order - b.order);
	for (const step of steps) step.run();
	session.finish(Math.max(0, ...steps.map((s) => s.tMs)));
	return session;
}

/** The field case with this id (throws when there is none). */
export function fieldCase(id: string): FieldCase {
	const found = FIELD_CASES.find((c) => c.id === id);
	if (!found) throw new Error(`no field case ${id}`);
	return found;
}
