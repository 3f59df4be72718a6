import {describe, expect, it} from 'vitest';
import {
	ClientOutcomeTracker,
	MAINSTREAM_CLIENTS,
	verdictOf,
	type ClientOutcome,
} from '../../../src/core/clients/outcome.js';
import {Session} from '../../../src/core/session/session.js';
import type {ClientFamily, ClientImpact, Reaction, SessionMeta} from '../../../src/core/types.js';
import {makeFinding, makeFrame} from '../../helpers/factories.js';

const FAMILIES: readonly ClientFamily[] = ['ts-sdk-v1', 'ts-sdk-v2', 'python-sdk', 'vscode', 'rmcp', 'cursor'];

/** An impact list: `reactions` for the named families, `ok` for the rest. */
function impact(reactions: Partial<Record<ClientFamily, Reaction>>): ClientImpact[] {
	return FAMILIES.map((client) => ({client, reaction: reactions[client] ?? 'ok', note: `${client} note`}));
}

const byClient = (outcomes: readonly ClientOutcome[]) =>
	Object.fromEntries(outcomes.map((o) => [o.client, o])) as Record<ClientFamily, ClientOutcome>;

/** A probe-shaped exchange: initialize (frames 0, 1), initialized (2), tools/list (3, 4). */
function handshakeFrames(tracker: ClientOutcomeTracker): void {
	tracker.frame(makeFrame({index: 0, stream: 'stdin', kind: 'request', method: 'initialize', id: 0, tMs: 0}));
	tracker.frame(
		makeFrame({
			index: 1,
			kind: 'response',
			id: 0,
			tMs: 10,
			answers: {method: 'initialize', requestIndex: 0, latencyMs: 10},
		}),
	);
	tracker.frame(
		makeFrame({index: 2, stream: 'stdin', kind: 'notification', method: 'notifications/initialized', tMs: 11}),
	);
	tracker.frame(makeFrame({index: 3, stream: 'stdin', kind: 'request', method: 'tools/list', id: 1, tMs: 12}));
	tracker.frame(
		makeFrame({
			index: 4,
			kind: 'response',
			id: 1,
			tMs: 20,
			answers: {method: 'tools/list', requestIndex: 3, latencyMs: 8},
		}),
	);
}

describe('ClientOutcomeTracker', () => {
	it('says every client works for a clean handshake and tools/list', () => {
		const tracker = new ClientOutcomeTracker();
		handshakeFrames(tracker);
		const outcomes = tracker.outcomes({isComplete: true, tools: 2});
		expect(outcomes.map((o) => o.client)).toEqual(FAMILIES);
		for (const o of outcomes)
			expect(o).toEqual({
				client: o.client,
				outcome: 'works',
				decidedBy: [],
				note: 'connects and lists tools (2 tools)',
				connects: true,
				toolsListed: true,
			});
	});

	it('a logged skip on a line that answers nothing degrades; the same reaction on the tools/list reply loses it', () => {
		const tracker = new ClientOutcomeTracker();
		handshakeFrames(tracker);
		tracker.finding(
			makeFinding({
				code: 'stray-output',
				frameIndex: 2,
				impact: impact({'ts-sdk-v1': 'skip-log', 'ts-sdk-v2': 'skip'}),
			}),
		);
		tracker.finding(
			makeFinding({
				code: 'invalid-jsonrpc',
				frameIndex: 4,
				tMs: 20,
				impact: impact({'python-sdk': 'drop-log', vscode: 'skip'}),
			}),
		);
		const out = byClient(tracker.outcomes({isComplete: true, tools: 1}));
		expect(out['ts-sdk-v1']).toMatchObject({
			outcome: 'degraded',
			decidedBy: ['stray-output'],
			connects: true,
			toolsListed: true,
			note: 'connects and lists tools (1 tool); stray-output: ts-sdk-v1 note',
		});
		expect(out['ts-sdk-v2']).toMatchObject({
			outcome: 'works',
			decidedBy: ['stray-output'],
			connects: true,
			toolsListed: true,
		});
		expect(out['python-sdk']).toEqual({
			client: 'python-sdk',
			outcome: 'fails',
			decidedBy: ['invalid-jsonrpc'],
			note: 'connects; tools/list fails: invalid-jsonrpc: python-sdk note',
			connects: true,
			toolsListed: false,
		});
		expect(out.vscode).toMatchObject({outcome: 'fails', connects: true, toolsListed: false});
		expect(out.rmcp.outcome).toBe('works');
	});

	it('a fatal reaction at or before the handshake reply means no connection; after tools/list, the connection closes later', () => {
		const early = new ClientOutcomeTracker();
		early.frame(makeFrame({index: 0, stream: 'stdin', kind: 'request', method: 'initialize', id: 0}));
		early.finding(makeFinding({code: 'stray-output', frameIndex: 1, tMs: 5, impact: impact({cursor: 'fatal'})}));
		early.frame(makeFrame({index: 1, kind: 'text', tMs: 5}));
		early.frame(
			makeFrame({
				index: 2,
				kind: 'response',
				id: 0,
				tMs: 6,
				answers: {method: 'initialize', requestIndex: 0, latencyMs: 6},
			}),
		);
		expect(byClient(early.outcomes({isComplete: true})).cursor).toMatchObject({
			outcome: 'fails',
			connects: false,
			toolsListed: null,
			note: 'does not connect (the connection closes): stray-output: cursor note',
		});
		expect(byClient(early.outcomes({isComplete: true})).vscode).toMatchObject({outcome: 'works', connects: true});

		const late = new ClientOutcomeTracker();
		handshakeFrames(late);
		late.finding(makeFinding({code: 'early-exit', tMs: 30, impact: impact({'ts-sdk-v1': 'fatal'})}));
		expect(byClient(late.outcomes({isComplete: true}))['ts-sdk-v1']).toMatchObject({
			outcome: 'fails',
			decidedBy: ['early-exit'],
			connects: true,
			toolsListed: true,
		});
	});

	it('a hang names the request left waiting (from detail.method when the frame answers nothing)', () => {
		const tracker = new ClientOutcomeTracker();
		handshakeFrames(tracker);
		tracker.finding(makeFinding({code: 'unknown-id', frameIndex: 7, tMs: 40, impact: impact({'ts-sdk-v1': 'hang'})}));
		tracker.finding(
			makeFinding({
				code: 'unanswered-request',
				frameIndex: 6,
				tMs: 50,
				detail: {method: 'tools/call', id: 2},
				impact: impact({'ts-sdk-v1': 'hang'}),
			}),
		);
		expect(byClient(tracker.outcomes({isComplete: true}))['ts-sdk-v1']).toMatchObject({
			outcome: 'fails',
			decidedBy: ['unknown-id', 'unanswered-request'],
			note: 'connects and lists tools; tools/call hangs: unknown-id: ts-sdk-v1 note',
			connects: true,
			toolsListed: true,
		});
	});

	it('a reaction nobody established makes the outcome unknown, never works, and never outranks a failure', () => {
		const tracker = new ClientOutcomeTracker();
		handshakeFrames(tracker);
		tracker.finding(makeFinding({code: 'crlf', frameIndex: 1, impact: impact({cursor: 'unknown', rmcp: 'unknown'})}));
		tracker.finding(makeFinding({code: 'early-exit', tMs: 30, impact: impact({rmcp: 'fatal'})}));
		const out = byClient(tracker.outcomes({isComplete: true}));
		// crlf on the initialize reply (frame 1): whether cursor reads that reply nobody established, so it claims no connection.
		expect(out.cursor).toEqual({
			client: 'cursor',
			outcome: 'unknown',
			decidedBy: ['crlf'],
			note: 'whether it connects is not established: crlf',
			connects: null,
			toolsListed: null,
		});
		expect(out.rmcp).toMatchObject({outcome: 'fails', decidedBy: ['early-exit']});
	});

	it('an unknown reaction claims only the replies before it: before the handshake reply nothing, on the tools/list reply the connection, after it both', () => {
		const at = (finding: NonNullable<Parameters<typeof makeFinding>[0]>) => {
			const tracker = new ClientOutcomeTracker();
			tracker.frame(makeFrame({index: 0, stream: 'stdin', kind: 'request', method: 'initialize', id: 0, tMs: 0}));
			// A banner line before the initialize reply, as stray-print sends it.
			if (finding.frameIndex === 1) tracker.finding(makeFinding(finding));
			tracker.frame(makeFrame({index: 1, kind: 'text', tMs: 9}));
			tracker.frame(
				makeFrame({
					index: 2,
					kind: 'response',
					id: 0,
					tMs: 10,
					answers: {method: 'initialize', requestIndex: 0, latencyMs: 10},
				}),
			);
			tracker.frame(makeFrame({index: 3, stream: 'stdin', kind: 'request', method: 'tools/list', id: 1, tMs: 12}));
			tracker.frame(
				makeFrame({
					index: 4,
					kind: 'response',
					id: 1,
					tMs: 20,
					answers: {method: 'tools/list', requestIndex: 3, latencyMs: 8},
				}),
			);
			if (finding.frameIndex !== 1) tracker.finding(makeFinding(finding));
			return byClient(tracker.outcomes({isComplete: true, tools: 1}));
		};
		const unknownForCursor = impact({cursor: 'unknown'});
		expect(at({code: 'stray-output', frameIndex: 1, tMs: 9, impact: unknownForCursor}).cursor).toEqual({
			client: 'cursor',
			outcome: 'unknown',
			decidedBy: ['stray-output'],
			note: 'whether it connects is not established: stray-output',
			connects: null,
			toolsListed: null,
		});
		expect(at({code: 'invalid-utf8', frameIndex: 4, tMs: 20, impact: unknownForCursor}).cursor).toEqual({
			client: 'cursor',
			outcome: 'unknown',
			decidedBy: ['invalid-utf8'],
			note: 'connects; whether it lists tools is not established: invalid-utf8',
			connects: true,
			toolsListed: null,
		});
		// A finding without a frame, named after the request it leaves waiting, counts for that request.
		expect(
			at({code: 'unanswered-request', tMs: 30, detail: {method: 'tools/list', id: 1}, impact: unknownForCursor}).cursor,
		).toMatchObject({connects: true, toolsListed: null});
		expect(at({code: 'ping-error', frameIndex: 6, tMs: 30, impact: unknownForCursor}).cursor).toEqual({
			client: 'cursor',
			outcome: 'unknown',
			decidedBy: ['ping-error'],
			note: 'connects and lists tools (1 tool); not established: ping-error',
			connects: true,
			toolsListed: true,
		});
		// The same findings with a known reaction keep their claims: only the unknown cell is in doubt.
		expect(at({code: 'stray-output', frameIndex: 1, tMs: 9, impact: unknownForCursor}).vscode).toMatchObject({
			outcome: 'works',
			connects: true,
			toolsListed: true,
		});
	});

	it('without a handshake reply: unknown while the session runs, a failure to connect once it ended', () => {
		const tracker = new ClientOutcomeTracker();
		tracker.frame(makeFrame({index: 0, stream: 'stdin', kind: 'request', method: 'initialize', id: 0}));
		expect(tracker.outcomes({isComplete: false})[0]).toMatchObject({
			outcome: 'unknown',
			connects: null,
			note: 'no handshake reply seen',
		});
		expect(tracker.outcomes({isComplete: true})[0]).toMatchObject({outcome: 'unknown', connects: false});
		const silent = new ClientOutcomeTracker();
		expect(silent.outcomes({isComplete: true})[0]).toMatchObject({
			outcome: 'unknown',
			connects: null,
			note: 'no handshake seen',
		});
	});

	it('a 2026-07-28-only server fails the SDK clients that send only initialize, and leaves the rest not established', () => {
		const tracker = new ClientOutcomeTracker();
		tracker.frame(makeFrame({index: 0, stream: 'stdin', kind: 'request', method: 'initialize', id: 0}));
		tracker.frame(
			makeFrame({index: 1, kind: 'error', id: 0, answers: {method: 'initialize', requestIndex: 0, latencyMs: 1}}),
		);
		tracker.frame(makeFrame({index: 2, stream: 'stdin', kind: 'request', method: 'server/discover', id: 1}));
		tracker.frame(
			makeFrame({
				index: 3,
				kind: 'response',
				id: 1,
				answers: {method: 'server/discover', requestIndex: 2, latencyMs: 1},
			}),
		);
		const out = byClient(tracker.outcomes({isComplete: true, era: 'modern'}));
		expect(out['ts-sdk-v1']).toMatchObject({outcome: 'fails', decidedBy: [], connects: false});
		expect(out['python-sdk']).toMatchObject({outcome: 'fails', connects: false});
		expect(out.vscode).toMatchObject({outcome: 'unknown', connects: null});
	});

	it('stays small on a long session: one effect per client, code and request', () => {
		const tracker = new ClientOutcomeTracker();
		handshakeFrames(tracker);
		for (let i = 0; i < 10_000; i++)
			tracker.finding(
				makeFinding({code: 'stray-output', frameIndex: 5 + i, impact: impact({'ts-sdk-v1': 'skip-log'})}),
			);
		expect(byClient(tracker.outcomes({isComplete: true}))['ts-sdk-v1'].decidedBy).toEqual(['stray-output']);
	});
});

describe('verdictOf', () => {
	const outcome = (client: ClientFamily, kind: ClientOutcome['outcome']): ClientOutcome => ({
		client,
		outcome: kind,
		decidedBy: [],
		note: '',
		connects: true,
		toolsListed: true,
	});
	const all = (kind: ClientOutcome['outcome'], over: Partial<Record<ClientFamily, ClientOutcome['outcome']>> = {}) =>
		FAMILIES.map((c) => outcome(c, over[c] ?? kind));

	it('fails only when a mainstream client fails', () => {
		expect([...MAINSTREAM_CLIENTS].sort()).toEqual(['cursor', 'python-sdk', 'ts-sdk-v1', 'vscode']);
		for (const client of MAINSTREAM_CLIENTS)
			expect(verdictOf(all('works', {[client]: 'fails'}), {errors: 0, warnings: 0})).toBe('fail');
		expect(verdictOf(all('works', {rmcp: 'fails'}), {errors: 0, warnings: 0})).toBe('warn');
		expect(verdictOf(all('works', {'ts-sdk-v2': 'fails'}), {errors: 1, warnings: 0})).toBe('warn');
	});

	it('an error finding that every mainstream client survives is a warning; unknown alone changes nothing', () => {
		expect(verdictOf(all('degraded'), {errors: 3, warnings: 0})).toBe('warn');
		expect(verdictOf(all('works', {cursor: 'unknown'}), {errors: 0, warnings: 0})).toBe('ok');
		expect(verdictOf(all('works', {cursor: 'unknown'}), {errors: 0, warnings: 1})).toBe('warn');
		expect(verdictOf(all('works'), {errors: 0, warnings: 0})).toBe('ok');
	});
});

describe('Session summary clients (detected from bytes)', () => {
	const META: SessionMeta = {
		tool: {name: 'mcp-wire', version: '0'},
		node: 'v20',
		platform: 'linux',
		command: ['server'],
		envMode: 'sdk-default',
		startedAt: '2026-01-01T00:00:00.000Z',
		mode: 'probe',
	};
	const enc = (text: string) => new TextEncoder().encode(text);
	const line = (value: unknown) => enc(`${JSON.stringify(value)}\n`);
	const INIT = {
		jsonrpc: '2.0',
		id: 0,
		method: 'initialize',
		params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 't', version: '0'}},
	};
	const INIT_OK = {
		jsonrpc: '2.0',
		id: 0,
		result: {protocolVersion: '2025-11-25', capabilities: {tools: {}}, serverInfo: {name: 's', version: '1'}},
	};
	const LIST = {jsonrpc: '2.0', id: 1, method: 'tools/list'};

	function run(listReply: Uint8Array): Session {
		const session = new Session(META);
		session.pushChunk('stdin', 0, line(INIT));
		session.pushChunk('stdout', 5, line(INIT_OK));
		session.pushChunk('stdin', 6, line({jsonrpc: '2.0', method: 'notifications/initialized'}));
		session.pushChunk('stdin', 7, line(LIST));
		session.pushChunk('stdout', 9, listReply);
		session.mark({type: 'stdin-closed', tMs: 10});
		session.endStream('stdout', 11);
		session.endStream('stderr', 11);
		session.exit({code: 0, signal: null, tMs: 11});
		session.finish(12);
		return session;
	}

	it('bytes that are not UTF-8 inside a tools/list string: the TS SDK reads U+FFFD, the Python SDK ends the session', () => {
		const head = enc('{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","description":"');
		const tail = enc('","inputSchema":{"type":"object"}}]}}\n');
		const summary = run(new Uint8Array([...head, 0xb0, 0xcb, ...tail])).getSnapshot().summary;
		const out = byClient(summary.clients ?? []);
		expect(out['ts-sdk-v1']).toMatchObject({
			outcome: 'degraded',
			decidedBy: ['invalid-utf8'],
			connects: true,
			toolsListed: true,
		});
		expect(out['python-sdk']).toMatchObject({
			outcome: 'fails',
			decidedBy: ['invalid-utf8'],
			connects: true,
			toolsListed: false,
		});
		expect(summary.verdict).toBe('fail');
	});

	it('a clean exchange: every client works and the verdict is ok', () => {
		const summary = run(line({jsonrpc: '2.0', id: 1, result: {tools: []}})).getSnapshot().summary;
		expect(summary.clients?.map((o) => o.outcome)).toEqual(['works', 'works', 'works', 'works', 'works', 'works']);
		expect(summary.verdict).toBe('ok');
	});
});
