// The session's framing part: one framer per stream, started over after a gap, ended once.
import {describe, expect, it} from 'vitest';
import type {FramerOutput} from '../../../src/core/framing/framer.js';
import {GapTracker} from '../../../src/core/session/gaps.js';
import {StreamDecoders} from '../../../src/core/session/stream-decoders.js';
import type {Chunk, StreamName} from '../../../src/core/types.js';

const enc = new TextEncoder();
const chunk = (stream: StreamName, offset: number, text: string, seq = 0): Chunk => ({
	seq,
	stream,
	tMs: seq,
	offset,
	bytes: enc.encode(text),
});

function setUp(awaited?: (requester: StreamName, token: string) => string | undefined) {
	const out: FramerOutput[] = [];
	const asked: [StreamName, string][] = [];
	const gaps = new GapTracker();
	const decoders = new StreamDecoders({
		onFramed: (output) => out.push(output),
		awaitedMethod: (requester, token) => {
			asked.push([requester, token]);
			return awaited?.(requester, token);
		},
		gaps,
	});
	const frames = () =>
		out.map(({frame}) => [frame.stream, frame.offset, frame.byteLength, frame.terminator, frame.isJson]);
	return {out, asked, gaps, decoders, frames};
}

describe('StreamDecoders', () => {
	it('frames each stream on its own: stdin and stdout as messages with facts, stderr as log lines without', () => {
		const {out, decoders, frames} = setUp();
		decoders.push(chunk('stdout', 0, '{"jsonrpc":"2.0","id":1,"result":{}}\n{"a"'));
		decoders.push(chunk('stderr', 0, 'starting\n'));
		decoders.push(chunk('stdin', 0, '{"jsonrpc":"2.0","method":"x"}\n'));
		expect(frames()).toEqual([
			['stdout', 0, 37, 'lf', true],
			['stderr', 0, 9, 'lf', false],
			['stdin', 0, 31, 'lf', true],
		]);
		expect(out.map((o) => o.facts !== undefined)).toEqual([true, false, true]);
		expect([decoders.pendingBytes('stdout'), decoders.pendingOffset('stdout')]).toEqual([4, 37]);
		expect([decoders.pendingBytes('stdin'), decoders.pendingOffset('stdin')]).toEqual([0, 31]);
	});

	it('ends a stream once: its pending bytes become a last frame without terminator', () => {
		const {decoders, frames} = setUp();
		decoders.push(chunk('stdout', 0, 'partial'));
		expect(decoders.hasEnded('stdout')).toBe(false);
		decoders.end('stdout', 5);
		decoders.end('stdout', 6);
		expect(decoders.hasEnded('stdout')).toBe(true);
		expect(decoders.hasEnded('stdin')).toBe(false);
		expect(frames()).toEqual([['stdout', 0, 7, 'none', false]]);
	});

	it('after a gap, drops the cut line and frames from the first line after it at true offsets', () => {
		const {gaps, decoders, frames} = setUp();
		decoders.push(chunk('stdout', 0, '{"jsonrpc":"2.0","id":1,"res'));
		// 100 bytes are missing from offset 28: the cut frame is dropped, framing resumes at offset 128.
		gaps.gap('stdout', 100);
		decoders.restartAt('stdout', 128);
		decoders.push(chunk('stdout', 128, 'ult":{}}\n{"jsonrpc":"2.0","id":2,"result":{}}\n'));
		expect(frames()).toEqual([['stdout', 137, 37, 'lf', true]]);
		expect(decoders.pendingOffset('stdout')).toBe(174);
	});

	it('while resyncing, a chunk without LF is skipped whole and the next LF ends the skip', () => {
		const {gaps, decoders, frames} = setUp();
		gaps.gap('stderr', 10);
		decoders.restartAt('stderr', 10);
		decoders.push(chunk('stderr', 10, 'no newline yet'));
		decoders.push(chunk('stderr', 24, 'still\n'));
		expect(frames()).toEqual([]);
		decoders.push(chunk('stderr', 30, 'next line\n'));
		expect(frames()).toEqual([['stderr', 30, 10, 'lf', false]]);
	});

	it("asks the other stream's outstanding requests about an unparsed line's id", () => {
		const {asked, out, decoders} = setUp((requester, token) =>
			requester === 'stdin' && token === '7' ? 'tools/call' : undefined,
		);
		// A bad escape and no "jsonrpc" member: only the awaited id makes it an unparsed reply.
		decoders.push(chunk('stdout', 0, '{"id":7,"result":"a\\qb"}\n'));
		expect(asked).toEqual([['stdin', '7']]);
		expect(out).toHaveLength(1);
		expect(out[0]!.frame.isJson).toBe(false);
		const content = out[0]!.facts?.content;
		expect(content?.kind).toBe('unparsed-message');
		expect(content?.kind === 'unparsed-message' ? content.awaitedMethod : undefined).toBe('tools/call');
	});
});
