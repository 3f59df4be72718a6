import {Buffer} from 'node:buffer';
import {describe, expect, it} from 'vitest';
import {Session} from '../../../src/core/session/session.js';
import type {Mark, StreamName} from '../../../src/core/types.js';
import {makeMeta} from '../../helpers/factories.js';

const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text));
const gap = (stream: StreamName, offset: number, length: number, tMs: number): Mark => ({
	type: 'gap',
	stream,
	offset,
	length,
	reason: 'lag',
	tMs,
});

const INIT =
	'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n';
const INIT_REPLY =
	'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}\n';
const R1 = '{"jsonrpc":"2.0","id":1,"result":{}}\n';
const R3 = '{"jsonrpc":"2.0","id":3,"result":{}}\n';
/** The end of a line whose start is in the gap. */
const TAIL = ',"result":{"x":1}}\n';

/** A handshake, then stdout `R1` + the first 8 bytes of a response, a gap, the end of another line, `R3`. */
function run(withGap: boolean): Session {
	const session = new Session(makeMeta({mode: 'tap'}));
	session.pushChunk('stdin', 1, bytes(INIT));
	session.pushChunk('stdout', 2, bytes(INIT_REPLY));
	session.pushChunk(
		'stdin',
		3,
		bytes(
			'{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n',
		),
	);
	session.pushChunk('stdout', 4, bytes(`${R1}{"jsonrp`));
	if (withGap) session.mark(gap('stdout', INIT_REPLY.length + R1.length + 8, 100, 5));
	session.pushChunk('stdout', 6, bytes(`${TAIL}${R3}`));
	session.mark({type: 'stdin-closed', tMs: 7});
	session.exit({code: 0, signal: null, tMs: 8});
	session.finish(8);
	return session;
}

describe('Session: a gap in the capture', () => {
	it('keeps stream offsets true, leaves the cut frame and the rest of its line unframed, and frames again from the next line', () => {
		const snapshot = run(true).getSnapshot();
		const stdout = snapshot.frames.filter((f) => f.stream === 'stdout');
		const afterGap = INIT_REPLY.length + R1.length + 8 + 100;
		const resync = afterGap + TAIL.length;
		expect(stdout.map((f) => [f.offset, f.byteLength, f.kind, f.id])).toEqual([
			[0, INIT_REPLY.length, 'response', 0],
			[INIT_REPLY.length, R1.length, 'response', 1],
			[resync, R3.length, 'response', 3],
		]);
		expect(snapshot.streamLength('stdout')).toBe(resync + R3.length);
		expect(snapshot.marks.filter((m) => m.type === 'gap')).toEqual([
			gap('stdout', INIT_REPLY.length + R1.length + 8, 100, 5),
		]);
		// Nothing is concluded from the cut: no framing finding, no unanswered ping (its answer may be in the gap).
		expect(snapshot.findings.map((f) => f.code)).toEqual([]);
		expect(snapshot.summary.verdict).toBe('ok');
	});

	it('without the gap mark the same bytes are findings (the test can fail)', () => {
		const codes = run(false)
			.getSnapshot()
			.findings.map((f) => f.code);
		expect(codes.length).toBeGreaterThan(0);
		expect(
			codes.some((code) => code === 'invalid-json' || code === 'stray-output' || code === 'unanswered-request'),
		).toBe(true);
	});

	it('does not report unknown-id for a response whose request may be in a stdin gap; does without the gap', () => {
		const build = (withGap: boolean): string[] => {
			const session = new Session(makeMeta({mode: 'tap'}));
			session.pushChunk('stdin', 1, bytes(INIT));
			session.pushChunk('stdout', 2, bytes(INIT_REPLY));
			if (withGap) session.mark(gap('stdin', INIT.length, 42, 3));
			session.pushChunk('stdin', 3.5, bytes('\n'));
			session.pushChunk('stdout', 4, bytes('{"jsonrpc":"2.0","id":7,"result":{}}\n'));
			session.finish(5);
			return session.getSnapshot().findings.map((f) => f.code);
		};

		expect(build(true)).toEqual([]);
		expect(build(false)).toContain('unknown-id');
	});

	it('a stream that ends while it resyncs reports no missing-newline for the cut bytes', () => {
		const session = new Session(makeMeta({mode: 'tap'}));
		session.pushChunk('stdout', 1, bytes('{"jsonrpc":"2.0","id":1,'));
		session.mark(gap('stdout', 24, 10, 2));
		session.pushChunk('stdout', 3, bytes('"result":{}}'));
		session.endStream('stdout', 4);
		session.finish(5);
		const snapshot = session.getSnapshot();
		expect(snapshot.frames).toEqual([]);
		expect(snapshot.findings.map((f) => f.code)).toEqual([]);
		expect(snapshot.streamLength('stdout')).toBe(24 + 10 + 12);
	});
});
