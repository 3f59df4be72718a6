import {describe, expect, it} from 'vitest';
import {decodeRecords, encodeEvent, encodeHeader} from '../../../src/core/capture/record-codec.js';
import {replayEvents} from '../../../src/core/session/replay.js';
import {Session} from '../../../src/core/session/session.js';
import type {SessionEvent, SessionMeta} from '../../../src/core/types.js';
import {evidence, evidenceMark, proc, readingStdin} from '../../helpers/evidence.js';

const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.0.0-test'},
	node: 'v20.0.0',
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
	params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'mcp-wire', version: '0'}},
};
const INIT_OK = {
	jsonrpc: '2.0',
	id: 0,
	result: {protocolVersion: '2025-11-25', capabilities: {tools: {}}, serverInfo: {name: 's', version: '1'}},
};
const INITIALIZED = {jsonrpc: '2.0', method: 'notifications/initialized'};
const LIST = {jsonrpc: '2.0', id: 1, method: 'tools/list'};
const LIST_OK = {
	jsonrpc: '2.0',
	id: 1,
	result: {
		tools: [
			{name: 'a', inputSchema: {type: 'object'}},
			{name: 'b', inputSchema: {type: 'object'}},
		],
	},
};

const codesAt = (session: Session) => session.getSnapshot().findings.map((f) => `${f.code}@${f.stream}:${f.offset}`);

function handshake(session: Session): void {
	session.pushChunk('stdin', 0, line(INIT));
	session.pushChunk('stdout', 12.5, line(INIT_OK));
	session.pushChunk('stdin', 13, line(INITIALIZED));
	session.pushChunk('stdin', 13.2, line(LIST));
	session.pushChunk('stdout', 14.7, line(LIST_OK));
}

describe('Session', () => {
	it('frames, classifies and correlates a healthy exchange with exact offsets and latencies', () => {
		const session = new Session(META);
		handshake(session);
		session.mark({type: 'stdin-closed', tMs: 20});
		session.exit({code: 0, signal: null, tMs: 25});
		const summary = session.finish(25);
		const snapshot = session.getSnapshot();
		const initLength = line(INIT).length;
		expect(
			snapshot.frames.map((f) => [
				f.index,
				f.stream,
				f.kind,
				f.offset,
				f.byteLength,
				f.method ?? f.answers?.method,
				f.answers?.latencyMs,
			]),
		).toEqual([
			[0, 'stdin', 'request', 0, initLength, 'initialize', undefined],
			[1, 'stdout', 'response', 0, line(INIT_OK).length, 'initialize', 12.5],
			[2, 'stdin', 'notification', initLength, line(INITIALIZED).length, 'notifications/initialized', undefined],
			[3, 'stdin', 'request', initLength + line(INITIALIZED).length, line(LIST).length, 'tools/list', undefined],
			[4, 'stdout', 'response', line(INIT_OK).length, line(LIST_OK).length, 'tools/list', 1.5],
		]);
		expect(snapshot.findings).toEqual([]);
		expect(summary.verdict).toBe('ok');
		expect(summary.tools).toBe(2);
		expect(summary.serverInfo).toEqual({name: 's', version: '1'});
		expect(summary.era).toBe('legacy');
		expect(summary.streams.stdout).toEqual({bytes: line(INIT_OK).length + line(LIST_OK).length, chunks: 2, frames: 2});
	});

	it('reports unknown-id, duplicate-response and response-to-notification at the response frame', () => {
		const session = new Session(META);
		session.pushChunk('stdin', 0, line(INIT));
		const wrongId = line({...INIT_OK, id: 7});
		session.pushChunk('stdout', 1, wrongId);
		session.pushChunk('stdout', 2, line(INIT_OK));
		session.pushChunk('stdout', 3, line(INIT_OK));
		session.pushChunk('stdin', 4, line(INITIALIZED));
		const error = line({jsonrpc: '2.0', error: {code: -32601, message: 'Method not found'}});
		session.pushChunk('stdout', 5, error);
		session.finish(6);
		const a = wrongId.length;
		const b = a + line(INIT_OK).length;
		const c = b + line(INIT_OK).length;
		expect(codesAt(session)).toEqual([
			`unknown-id@stdout:0`,
			`duplicate-response@stdout:${b}`,
			`response-to-notification@stdout:${c}`,
		]);
	});

	it('tells a re-sent answer (duplicate-response) from a stale id answering a newer request (unknown-id)', () => {
		const resent = new Session(META);
		handshake(resent);
		const ping = line({jsonrpc: '2.0', id: 2, method: 'ping'});
		resent.pushChunk('stdin', 15, ping);
		const offset = resent.streamLength('stdout');
		resent.pushChunk('stdout', 16, line(LIST_OK)); // the tools/list answer again, byte for byte, while ping waits
		resent.finish(17, {isComplete: false});
		expect(codesAt(resent)).toEqual([`duplicate-response@stdout:${offset}`]);

		const stale = new Session(META);
		handshake(stale);
		stale.pushChunk('stdin', 15, ping);
		const at = stale.streamLength('stdout');
		stale.pushChunk('stdout', 16, line({jsonrpc: '2.0', id: 1, result: {}})); // ping answered with a stale id
		stale.finish(17, {isComplete: false});
		expect(codesAt(stale)).toEqual([`unknown-id@stdout:${at}`]);
	});

	it('treats a reply whose first byte arrives after stdin closed as unflushed-output when the server was seen waiting for input', () => {
		const session = new Session(META);
		session.pushChunk('stdin', 0, line(INIT));
		session.mark(readingStdin(1000));
		session.mark({type: 'timeout', id: 0, method: 'initialize', timeoutMs: 2000, tMs: 2000});
		session.mark({type: 'stdin-closed', tMs: 2000});
		session.pushChunk('stdout', 2001.5, line(INIT_OK));
		session.endStream('stdout', 2002);
		session.exit({code: 0, signal: null, tMs: 2003});
		session.finish(2003);
		expect(codesAt(session)).toEqual(['unflushed-output@stdout:0']);
		expect(session.getSnapshot().findings[0]?.detail).toEqual({
			method: 'initialize',
			afterStdinClosedMs: 1.5,
			latencyMs: 2001.5,
			evidence: 'pid 100 (python3 server.py) blocked reading stdin',
			evidenceTMs: 1000,
			waiting: 'pid 100 (python3 server.py) blocked reading stdin',
		});
	});

	it('does not call a reply after stdin closed unflushed without evidence, or when the server was seen asleep (a slow start)', () => {
		for (const marks of [
			[],
			[evidenceMark(1000, evidence('stall', [proc(100, 'timer', {syscall: {name: 'clock_nanosleep'}})]))],
		]) {
			const session = new Session(META);
			session.pushChunk('stdin', 0, line(INIT));
			for (const mark of marks) session.mark(mark);
			session.mark({type: 'stdin-closed', tMs: 2000});
			session.pushChunk('stdout', 11_000, line(INIT_OK));
			session.endStream('stdout', 11_001);
			session.exit({code: 0, signal: null, tMs: 11_002});
			session.finish(11_002);
			expect(codesAt(session)).toEqual([]);
		}
	});

	it('derives early-exit before the handshake and shutdown-timeout from the marks', () => {
		const early = new Session(META);
		early.pushChunk('stdin', 0, line(INIT));
		early.pushChunk('stderr', 1, enc('Traceback (most recent call last):\nImportError: x\n'));
		early.exit({code: 1, signal: null, tMs: 2});
		early.finish(2);
		const finding = early.getSnapshot().findings.find((f) => f.code === 'early-exit');
		expect(codesAt(early)).toEqual(['early-exit@stdout:0']);
		expect(finding?.detail).toEqual({
			exitCode: 1,
			signal: null,
			phase: 'before-handshake',
			stdoutBytes: 0,
			stderrTail: ['Traceback (most recent call last):', 'ImportError: x'],
		});

		const stubborn = new Session(META);
		handshake(stubborn);
		stubborn.mark({type: 'stdin-closed', tMs: 20});
		stubborn.mark({type: 'signal-sent', signal: 'SIGTERM', tMs: 2020});
		stubborn.mark({type: 'signal-sent', signal: 'SIGKILL', tMs: 4020});
		stubborn.exit({code: null, signal: 'SIGKILL', tMs: 4021});
		stubborn.finish(4021);
		const stdoutLength = stubborn.streamLength('stdout');
		expect(codesAt(stubborn)).toEqual([`shutdown-timeout@stdout:${stdoutLength}`]);
		expect(stubborn.getSnapshot().findings[0]?.severity).toBe('error');
	});

	it('a log line on stdout with a silent stderr is stray-output only: no evidence of a merge (F35)', () => {
		const session = new Session(META);
		session.pushChunk('stdin', 0, line(INIT));
		const log = enc('2025-06-09 21:38:09,942 - server - INFO - starting\n');
		session.pushChunk('stdout', 1, log);
		session.pushChunk('stdout', 2, line(INIT_OK));
		session.finish(3);
		expect(codesAt(session)).toEqual(['stray-output@stdout:0']);
	});

	it('blames a slow initialize only past half of the strictest limit (15 s), never a 3 s one', () => {
		const fine = new Session(META);
		fine.pushChunk('stdin', 0, line(INIT));
		fine.pushChunk('stdout', 3000, line(INIT_OK));
		fine.finish(3001);
		expect(codesAt(fine)).toEqual([]);

		const slow = new Session(META);
		slow.pushChunk('stdin', 0, line(INIT));
		slow.pushChunk('stdout', 16_000, line(INIT_OK));
		slow.finish(16_001);
		expect(codesAt(slow)).toEqual(['slow-response@stdout:0']);
	});

	it('drops ignored codes from findings and the verdict', () => {
		const session = new Session(META, {ignore: ['stray-output']});
		session.pushChunk('stdout', 0, enc('hello\n'));
		expect(session.finish(1).verdict).toBe('ok');
		expect(session.getSnapshot().findings).toEqual([]);
	});

	it('replays its own NDJSON records to the same frames and findings (live = replay)', () => {
		const session = new Session(META);
		const lines = [encodeHeader(META)];
		session.on((event: SessionEvent) => lines.push(encodeEvent(event)));
		session.pushChunk('stdin', 0, line(INIT));
		session.pushChunk('stdout', 1, enc('banner\r\n'));
		session.pushChunk('stdout', 2, enc(JSON.stringify(INIT_OK).slice(0, 20)));
		session.pushChunk('stdout', 3, enc(`${JSON.stringify(INIT_OK).slice(20)}\r\n`));
		session.mark({type: 'stdin-closed', tMs: 4});
		session.exit({code: 0, signal: null, tMs: 5});
		session.finish(5);
		const decoded = decodeRecords(lines.join('\n') + '\n');
		expect(decoded.problems).toEqual([]);
		const replayed = replayEvents(decoded.header!, decoded.events).getSnapshot();
		const live = session.getSnapshot();
		expect(replayed.frames).toEqual(live.frames);
		expect(replayed.findings).toEqual(live.findings);
		expect(replayed.summary).toEqual(live.summary);
	});
});

describe('replayEvents on damaged or tapped captures', () => {
	it('skips a chunk recorded after its stream ended, reports it, and keeps the rest', () => {
		const problems: string[] = [];
		const events: SessionEvent[] = [
			{type: 'chunk', chunk: {seq: 0, stream: 'stdout', tMs: 1, offset: 0, bytes: line(INIT_OK)}},
			{type: 'mark', mark: {type: 'eof', stream: 'stdout', tMs: 2}},
			{type: 'chunk', chunk: {seq: 1, stream: 'stdout', tMs: 3, offset: 0, bytes: enc('late\n')}},
		];
		const snapshot = replayEvents(META, events, {onProblem: (m) => problems.push(m)}).getSnapshot();
		expect(problems).toEqual(["1 chunk record(s) after their stream's end were skipped"]);
		expect(snapshot.frames.map((f) => [f.stream, f.offset, f.byteLength])).toEqual([
			['stdout', 0, line(INIT_OK).length],
		]);
	});

	it('does not call a server ended by a signal the client sent through the tap an early exit', () => {
		const session = new Session({...META, mode: 'tap'});
		handshake(session);
		session.mark({type: 'phase', name: 'signal-forwarded:SIGTERM', tMs: 30});
		session.exit({code: null, signal: 'SIGTERM', tMs: 31});
		session.finish(31);
		expect(codesAt(session)).toEqual([]);
	});
});
