import {describe, expect, it} from 'vitest';
import {Session} from '../../../src/core/session/session.js';
import {USER_STOP_PHASE, type SessionMeta} from '../../../src/core/types.js';

// The TUI's live view shows the findings the plain log shows (end-of-session checks run once
// the scripted exchange is done), and a user who quits early is not the server's fault.

const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.0.0-test'},
	node: 'v20.0.0',
	platform: 'linux',
	command: ['server'],
	envMode: 'sdk-default',
	startedAt: '2026-01-01T00:00:00.000Z',
	mode: 'probe',
};
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const INITIALIZE =
	'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n';
const REPLY =
	'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}\n';
const TOOLS_LIST = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n';
/** The reply to tools/list, written to stderr (a logger bound to the wrong fd): message-on-stderr, an end-of-session check. */
const REPLY_ON_STDERR = '{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}\n';
const codes = (session: Session): string[] =>
	session.getSnapshot().findings.map((finding) => `${finding.code}@${finding.stream}:${finding.offset}`);

function replyOnStderrSession(): Session {
	const session = new Session(META);
	session.pushChunk('stdin', 0, encode(INITIALIZE));
	session.pushChunk('stdout', 5, encode(REPLY));
	session.pushChunk('stdin', 6, encode(TOOLS_LIST));
	session.pushChunk('stderr', 8, encode(REPLY_ON_STDERR));
	return session;
}

describe('Session.settle', () => {
	it('runs the end-of-session checks while the session stays open (message-on-stderr before q)', () => {
		const session = replyOnStderrSession();
		expect(codes(session)).toEqual([]);
		session.settle(10);
		expect(codes(session)).toEqual(['message-on-stderr@stderr:0']);
		expect(session.getSnapshot().isEnded).toBe(false);
	});

	it('gives the findings of a session finished at that point, and finish does not repeat them', () => {
		const settled = replyOnStderrSession();
		settled.settle(10);
		settled.finish(20);
		const finished = replyOnStderrSession();
		finished.finish(20);
		expect(codes(settled)).toEqual(codes(finished));
		expect(codes(finished)).toEqual(['message-on-stderr@stderr:0', 'unanswered-request@stdin:147']);
		expect(settled.getSnapshot().summary.findings).toEqual(finished.getSnapshot().summary.findings);
	});

	it('blames no end that has not come: an open request is not unanswered yet', () => {
		const session = new Session(META);
		session.pushChunk('stdin', 0, encode(INITIALIZE));
		session.settle(5_000);
		expect(codes(session)).toEqual([]);
	});
});

describe('a probe stopped by the user', () => {
	it('derives no unanswered-request for what the user cut off', () => {
		const stopped = new Session(META);
		stopped.pushChunk('stdin', 0, encode(INITIALIZE));
		stopped.mark({type: 'stdin-closed', tMs: 7_000});
		stopped.mark({type: 'phase', name: USER_STOP_PHASE, tMs: 7_000});
		stopped.exit({code: null, signal: 'SIGKILL', tMs: 8_000});
		stopped.finish(8_000);
		expect(codes(stopped)).toEqual([]);
		// …nor a clean verdict: what the user cut off was never exercised.
		expect(stopped.getSnapshot().summary.verdict).toBe('stopped');

		// The same bytes without the mark: the server never answered, a real finding.
		const silent = new Session(META);
		silent.pushChunk('stdin', 0, encode(INITIALIZE));
		silent.mark({type: 'stdin-closed', tMs: 7_000});
		silent.exit({code: 0, signal: null, tMs: 7_100});
		silent.finish(7_100);
		expect(codes(silent)).toEqual(['unanswered-request@stdin:0']);
	});
});
