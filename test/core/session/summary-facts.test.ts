// The summary says what a session exercised: a capture cut before any frame is no clean verdict, and the
// client a capture shows connected is named (its initialize's clientInfo).
import {describe, expect, it} from 'vitest';
import {decodeRecords, encodeEvent} from '../../../src/core/capture/record-codec.js';
import {Session} from '../../../src/core/session/session.js';
import type {SessionMeta} from '../../../src/core/types.js';
import {formatSummary} from '../../../src/render/text/plain-log.js';

const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.0.0-test'},
	node: 'v20.0.0',
	platform: 'linux',
	command: ['server'],
	envMode: 'inherit',
	startedAt: '2026-01-01T00:00:00.000Z',
	mode: 'tap',
};
const line = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value)}\n`);
const INIT = {
	jsonrpc: '2.0',
	id: 0,
	method: 'initialize',
	params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'claude-code', version: '2.1.3'}},
};
const INIT_OK = {
	jsonrpc: '2.0',
	id: 0,
	result: {protocolVersion: '2025-06-18', capabilities: {}, serverInfo: {name: 's', version: '1'}},
};

describe('a capture cut before any frame', () => {
	it('is WARN, saying nothing was exercised (was: verdict OK)', () => {
		const session = new Session(META);
		const summary = session.finish(0, {isComplete: false});
		expect(summary.verdict).toBe('warn');
		expect(summary.incomplete).toEqual({cutShort: true, missingBytes: 0, gaps: 0});
		expect(formatSummary(summary)[0]).toBe(
			'verdict WARN: 0 errors, 0 warnings, 0 info · the capture was cut before any frame: nothing was exercised',
		);
	});

	it('a whole session with no frame (the server exited) and a cut one with frames keep their verdicts', () => {
		const exited = new Session(META);
		exited.exit({code: 0, signal: null, tMs: 3});
		const whole = exited.finish(3);
		expect(whole.incomplete).toBeUndefined();
		expect([whole.verdict, whole.findings.map((f) => f.code)]).toEqual(['fail', ['early-exit']]);
		const cut = new Session(META);
		cut.pushChunk('stdin', 0, line(INIT));
		cut.pushChunk('stdout', 2, line(INIT_OK));
		expect(cut.finish(3, {isComplete: false}).verdict).toBe('ok');
	});
});

describe('the connected client', () => {
	it('is in the summary, the --json summary record and the plain log (was: never named)', () => {
		const session = new Session(META);
		session.pushChunk('stdin', 0, line(INIT));
		session.pushChunk('stdout', 2, line(INIT_OK));
		session.exit({code: 0, signal: null, tMs: 3});
		const summary = session.finish(3);
		expect(summary.clientInfo).toEqual({name: 'claude-code', version: '2.1.3'});
		const record = encodeEvent({type: 'summary', summary});
		expect(JSON.parse(record).clientInfo).toEqual({name: 'claude-code', version: '2.1.3'});
		const decoded = decodeRecords(`${record}\n`).events[0];
		expect(decoded?.type === 'summary' ? decoded.summary.clientInfo : undefined).toEqual({
			name: 'claude-code',
			version: '2.1.3',
		});
		expect(formatSummary(summary)).toContain('client   claude-code 2.1.3 (clientInfo of its initialize)');
	});

	it("a probe's own clientInfo (mcp-wire) is no line: the header says it is a probe", () => {
		const session = new Session({...META, mode: 'probe'});
		session.pushChunk(
			'stdin',
			0,
			line({...INIT, params: {...INIT.params, clientInfo: {name: 'mcp-wire', version: '0.1.0'}}}),
		);
		const summary = session.finish(1, {isComplete: false});
		expect(summary.clientInfo).toEqual({name: 'mcp-wire', version: '0.1.0'});
		expect(formatSummary(summary).some((text) => text.startsWith('client '))).toBe(false);
	});
});

describe('the report names the connected client', () => {
	it('a client line under the server line, redacted like the rest', async () => {
		const {renderReport} = await import('../../../src/render/report/markdown.js');
		const session = new Session(META);
		session.pushChunk('stdin', 0, line(INIT));
		session.pushChunk('stdout', 2, line(INIT_OK));
		session.exit({code: 0, signal: null, tMs: 3});
		session.finish(3);
		const lines = renderReport(session.getSnapshot()).split('\n');
		const server = lines.findIndex((text) => text.startsWith('- server: '));
		expect(lines[server + 1]).toBe('- client: `claude-code 2.1.3` (clientInfo of its `initialize`)');
	});
});
