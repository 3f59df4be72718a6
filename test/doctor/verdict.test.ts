import {describe, expect, it} from 'vitest';
import type {ClientName} from '../../src/configs/index.js';
import {Session} from '../../src/core/session/session.js';
import {FINDING_CODES, type SessionMeta} from '../../src/core/types.js';
import {isConsequence} from '../../src/core/findings/support/catalog.js';
import {evaluateProbe, startupLimitOf, withStartupLimit} from '../../src/doctor/verdict.js';
import {utf8} from '../helpers/factories.js';
import {noResponseDraft} from '../../src/core/findings/rules/no-response.js';
import {readingStdin} from '../helpers/evidence.js';

const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.0.0'},
	node: 'v20.0.0',
	platform: 'linux-x64',
	command: ['server'],
	envMode: 'gui-minimal',
	startedAt: '2026-01-01T00:00:00.000Z',
	mode: 'probe',
};

const INIT = `${JSON.stringify({jsonrpc: '2.0', id: 0, method: 'initialize', params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'mcp-wire', version: '0'}}})}\n`;
const INITIALIZED = `${JSON.stringify({jsonrpc: '2.0', method: 'notifications/initialized'})}\n`;
const TOOLS_LIST = `${JSON.stringify({jsonrpc: '2.0', id: 1, method: 'tools/list'})}\n`;
const RESULT = {protocolVersion: '2025-11-25', capabilities: {tools: {}}, serverInfo: {name: 's', version: '1'}};
const REPLY = JSON.stringify({jsonrpc: '2.0', id: 0, result: RESULT});
const TOOLS = `${JSON.stringify({
	jsonrpc: '2.0',
	id: 1,
	result: {
		tools: [
			{name: 'a', inputSchema: {type: 'object'}},
			{name: 'b', inputSchema: {type: 'object'}},
		],
	},
})}\n`;

/** A session: initialize at `initAt` ms (default 0), the given stdout at `replyAt` ms, optionally initialized + tools/list, then stdin closed and a clean exit. */
function session(
	stdout: string,
	options: {initAt?: number; replyAt?: number; tools?: boolean; timeoutAt?: number; waitingAt?: number} = {},
): Session {
	const s = new Session(META);
	s.pushChunk('stdin', options.initAt ?? 0, utf8(INIT));
	if (options.waitingAt !== undefined) s.mark(readingStdin(options.waitingAt));
	if (options.timeoutAt !== undefined) {
		s.mark({type: 'timeout', id: 0, method: 'initialize', timeoutMs: options.timeoutAt, tMs: options.timeoutAt});
		s.mark({type: 'stdin-closed', tMs: options.timeoutAt + 1});
	}
	const at = options.replyAt ?? 12.5;
	s.pushChunk('stdout', at, utf8(stdout));
	if (options.tools) {
		s.pushChunk('stdin', at + 1, utf8(INITIALIZED + TOOLS_LIST));
		s.pushChunk('stdout', at + 3, utf8(TOOLS));
	}
	if (options.timeoutAt === undefined) s.mark({type: 'stdin-closed', tMs: at + 5});
	s.exit({code: 0, signal: null, tMs: at + 10});
	s.endStream('stdout', at + 10);
	s.endStream('stderr', at + 10);
	s.finish(at + 10);
	return s;
}

const verdict = (s: Session, client: ClientName) => {
	const v = evaluateProbe(s.getSnapshot(), client);
	return {status: v.status, connected: v.connected, startupMs: v.startupMs, tools: v.tools, code: v.finding?.code};
};

describe('evaluateProbe', () => {
	it('a healthy server is ok for every client, with its startup time (spawn → initialize reply) and tools count', () => {
		const s = session(`${REPLY}\n`, {tools: true});
		for (const client of ['claude-desktop', 'claude-code', 'cursor', 'vscode'] as const) {
			expect(verdict(s, client)).toEqual({status: 'ok', connected: true, startupMs: 12.5, tools: 2, code: undefined});
		}
	});

	it('a banner line before the reply: ▲ for the TS SDK clients and VS Code (skipped), ▲ for Cursor (not established, never ✘ without evidence)', () => {
		const s = session(`Server v1 starting\n${REPLY}\n`);
		expect(verdict(s, 'claude-code')).toEqual({
			status: 'warn',
			connected: true,
			startupMs: 12.5,
			tools: undefined,
			code: 'stray-output',
		});
		expect(verdict(s, 'claude-desktop').status).toBe('warn');
		expect(verdict(s, 'vscode').status).toBe('warn');
		expect(verdict(s, 'cursor')).toEqual({
			status: 'warn',
			connected: true,
			startupMs: 12.5,
			tools: undefined,
			code: 'stray-output',
		});
	});

	it('a pretty-printed initialize reply does not connect (the client cannot read it): ✘ multiline-json, no startup time', () => {
		const s = session(`${JSON.stringify({jsonrpc: '2.0', id: 0, result: RESULT}, null, 2)}\n`);
		expect(verdict(s, 'claude-code')).toEqual({
			status: 'fail',
			connected: false,
			startupMs: undefined,
			tools: undefined,
			code: 'multiline-json',
		});
	});

	it('a reply that only comes after the probe gave up and closed stdin, while the server sat reading stdin, is ✘ unflushed-output', () => {
		const s = session(`${REPLY}\n`, {replyAt: 2002, timeoutAt: 2000, waitingAt: 1000});
		expect(verdict(s, 'claude-desktop')).toEqual({
			status: 'fail',
			connected: false,
			startupMs: undefined,
			tools: undefined,
			code: 'unflushed-output',
		});
	});

	it('a 2026-07-28-only server: ✘ for the TS SDK 1.x hosts (they send only initialize), not connected', () => {
		const s = new Session(META);
		s.pushChunk(
			'stdin',
			0,
			new TextEncoder().encode(
				`${JSON.stringify({jsonrpc: '2.0', id: 0, method: 'initialize', params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'mcp-wire', version: '0'}}})}\n`,
			),
		);
		s.pushChunk(
			'stdout',
			5,
			new TextEncoder().encode(
				'{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2025-11-25"}}}\n',
			),
		);
		s.mark({type: 'phase', name: 'modern-era', tMs: 6});
		s.pushChunk(
			'stdin',
			7,
			new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}\n'),
		);
		s.pushChunk(
			'stdout',
			9,
			new TextEncoder().encode(
				'{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{},"serverInfo":{"name":"m","version":"1"}}}\n',
			),
		);
		s.mark({type: 'stdin-closed', tMs: 10});
		s.endStream('stdout', 11);
		s.endStream('stderr', 11);
		s.exit({code: 0, signal: null, tMs: 11});
		s.finish(12);
		expect(verdict(s, 'claude-code')).toMatchObject({status: 'fail', connected: false, startupMs: undefined});
		expect(verdict(s, 'vscode')).toMatchObject({status: 'warn'});
	});

	it("startupMs runs from the spawn (the session clock's 0) to the initialize reply, not from our write of initialize", () => {
		// doctor writes initialize ~100 ms after the spawn (more under load); the column says startup, spawn → reply.
		const s = session(`${REPLY}\n`, {initAt: 100, replyAt: 4_100});
		expect(verdict(s, 'claude-code')).toEqual({
			status: 'ok',
			connected: true,
			startupMs: 4_100,
			tools: undefined,
			code: undefined,
		});
	});

	it('a server that answers initialize after 11 s, inside the 30 s wait, is ✔ (not unflushed-output, not slow-response)', () => {
		const s = session(`${REPLY}\n`, {replyAt: 11_000});
		expect(verdict(s, 'claude-code')).toEqual({
			status: 'ok',
			connected: true,
			startupMs: 11_000,
			tools: undefined,
			code: undefined,
		});
	});

	it("a give-up at the user's --timeout, shorter than the clients' 30 s startup limit, is ▲ no-response (mcp-wire's own limit), not ✘", () => {
		const s = new Session(META);
		s.pushChunk('stdin', 0, utf8(INIT));
		s.mark({type: 'timeout', id: 0, method: 'initialize', timeoutMs: 5000, tMs: 5000});
		s.addFinding(noResponseDraft({at: {tMs: 5000, stdoutBytes: 0}, timeoutMs: 5000, stderrTail: []}));
		s.mark({type: 'stdin-closed', tMs: 5001});
		s.mark({type: 'signal-sent', signal: 'SIGTERM', tMs: 7001});
		s.exit({code: null, signal: 'SIGTERM', tMs: 7002});
		s.finish(7002);
		expect(s.getSnapshot().findings.find((f) => f.code === 'no-response')?.severity).toBe('warning');
		expect(verdict(s, 'claude-code')).toEqual({
			status: 'warn',
			connected: false,
			startupMs: undefined,
			tools: undefined,
			code: 'no-response',
		});
	});

	it('CRLF line ends are a warning every client accepts', () => {
		const s = session(`${REPLY}\r\n`);
		expect(verdict(s, 'vscode')).toEqual({
			status: 'warn',
			connected: true,
			startupMs: 12.5,
			tools: undefined,
			code: 'crlf',
		});
		expect(verdict(s, 'claude-code').status).toBe('warn');
	});

	it('an early exit before any reply is ✘ early-exit', () => {
		const s = new Session(META);
		s.pushChunk('stdin', 0, utf8(INIT));
		s.pushChunk('stderr', 3, utf8('ModuleNotFoundError: No module named x\n'));
		s.exit({code: 1, signal: null, tMs: 4});
		s.endStream('stdout', 4);
		s.endStream('stderr', 4);
		s.finish(600);
		expect(verdict(s, 'claude-code')).toEqual({
			status: 'fail',
			connected: false,
			startupMs: undefined,
			tools: undefined,
			code: 'early-exit',
		});
	});

	it('shows the cause of a request left open (a cut reply), not the unanswered request, in either order', () => {
		const s = new Session(META);
		s.pushChunk('stdin', 0, utf8(INIT));
		s.pushChunk('stdout', 10, utf8(`${REPLY}\n`));
		s.pushChunk('stdin', 11, utf8(INITIALIZED + TOOLS_LIST));
		s.pushChunk('stdout', 12, utf8('{"jsonrpc":"2.0","id":1,"result":{"tools":[]}\n'));
		s.mark({type: 'stdin-closed', tMs: 20});
		s.exit({code: 0, signal: null, tMs: 25});
		s.endStream('stdout', 25);
		s.endStream('stderr', 25);
		s.finish(25);
		// The rules that mark their code a consequence of another fault (meta.consequenceOf).
		expect(FINDING_CODES.filter(isConsequence)).toEqual(['shutdown-timeout', 'unanswered-request']);
		const snapshot = s.getSnapshot();
		expect(snapshot.findings.map((f) => f.code)).toEqual(['invalid-json', 'unanswered-request']);
		const reversed = {...snapshot, findings: [...snapshot.findings].reverse()};
		for (const shown of [snapshot, reversed]) {
			expect(evaluateProbe(shown, 'claude-code')).toMatchObject({status: 'fail', finding: {code: 'invalid-json'}});
			// Cursor's outcome is decided by the unanswered request alone: the consequence is all there is.
			expect(evaluateProbe(shown, 'cursor')).toMatchObject({status: 'fail', finding: {code: 'unanswered-request'}});
		}
	});
});

describe('the owning client’s start-up limit (docs/clients.md#the-clients)', () => {
	const connected = {status: 'ok', connected: true, startupMs: 11_000, tools: 1, findings: []} as const;

	it('comes from the entry when its client reads one, else from the client module, else none', () => {
		expect(startupLimitOf('gemini-cli', undefined)).toEqual({limitMs: 5_000, knob: '"timeout" in the entry (ms)'});
		expect(startupLimitOf('gemini-cli', 20_000)).toEqual({limitMs: 20_000, knob: '"timeout" in the entry (ms)'});
		expect(startupLimitOf('codex', undefined)).toEqual({
			limitMs: 30_000,
			knob: '"startup_timeout_sec" in the entry (seconds)',
		});
		expect(startupLimitOf('claude-code', undefined)).toEqual({
			limitMs: 30_000,
			knob: 'the MCP_TIMEOUT environment variable (ms)',
		});
		expect(startupLimitOf('vscode', undefined)).toBeUndefined();
		expect(startupLimitOf('cursor', undefined)).toBeUndefined();
		expect(startupLimitOf('windsurf', undefined)).toBeUndefined();
	});

	it("honours Claude Code's MCP_TIMEOUT from the user's environment, up to 60 s; the entry's own value wins elsewhere", () => {
		const knob = 'the MCP_TIMEOUT environment variable (ms)';
		expect(startupLimitOf('claude-code', undefined, {MCP_TIMEOUT: '10000'})).toEqual({limitMs: 10_000, knob});
		expect(startupLimitOf('claude-code', undefined, {MCP_TIMEOUT: '100000'})).toEqual({limitMs: 60_000, knob});
		expect(startupLimitOf('claude-code', undefined, {MCP_TIMEOUT: 'soon'})).toEqual({limitMs: 30_000, knob});
		expect(startupLimitOf('claude-code', undefined, {MCP_TIMEOUT: '0'})).toEqual({limitMs: 30_000, knob});
		// Only Claude Code reads it.
		expect(startupLimitOf('gemini-cli', undefined, {MCP_TIMEOUT: '10000'})?.limitMs).toBe(5_000);
		const slow = {...connected, startupMs: 12_000};
		expect(
			withStartupLimit(slow, 'claude-code', startupLimitOf('claude-code', undefined, {MCP_TIMEOUT: '10000'})).fix,
		).toBe(
			'it starts in 12 s; Claude Code waits 10 s for a server to start: start faster (answer initialize first), or raise it with the MCP_TIMEOUT environment variable (ms)',
		);
	});

	it('fails a server that starts in 11 s for Gemini CLI and not for Claude Code', () => {
		const gemini = withStartupLimit(connected, 'gemini-cli', startupLimitOf('gemini-cli', undefined));
		expect(gemini.verdict.status).toBe('fail');
		expect(gemini.fix).toBe(
			'it starts in 11 s; Gemini CLI waits 5 s for a server to start: start faster (answer initialize first), or raise it with "timeout" in the entry (ms)',
		);
		expect(withStartupLimit(connected, 'gemini-cli', {limitMs: 12_000, knob: 'x'})).toEqual({verdict: connected});
		expect(withStartupLimit(connected, 'claude-code', startupLimitOf('claude-code', undefined))).toEqual({
			verdict: connected,
		});
		// Not connected: the limit adds nothing to what the probe already says.
		const silent = {status: 'fail', connected: false, findings: []} as const;
		expect(withStartupLimit(silent, 'gemini-cli', {limitMs: 5_000, knob: 'x'})).toEqual({verdict: silent});
	});
});
