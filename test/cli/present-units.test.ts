import {Writable} from 'node:stream';
import {describe, expect, it} from 'vitest';
import {createStdoutHorizon, findingLines, reprobeLines} from '../../src/cli/present.js';
import {createBatchedOutput, OUTPUT_BATCH_BYTES} from '../../src/cli/present-output.js';
import {Session} from '../../src/core/session/session.js';
import {PACKAGE_ROOT} from '../../src/cli/version.js';
import {formatFinding} from '../../src/render/text/plain-log.js';
import {makeFinding, makeMeta, makeSnapshot} from '../helpers/factories.js';

// The pieces createPresenter is made of (src/cli/present.ts, src/cli/present-output.ts), each on its own.

/** A stdout stand-in that records each write as it came. */
function recorder(): {readonly out: Writable; readonly writes: string[]} {
	const writes: string[] = [];
	const out = new Writable({
		write(chunk: Buffer, _encoding, callback) {
			writes.push(chunk.toString('latin1'));
			callback();
		},
	});
	return {out, writes};
}

const nextTurn = async (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('createBatchedOutput', () => {
	it('joins lines into one write at the next turn of the event loop', async () => {
		const {out, writes} = recorder();
		const output = createBatchedOutput(out);
		output.writeLine('a');
		output.writeLine('bc');
		expect(writes).toEqual([]);
		await nextTurn();
		expect(writes).toEqual(['a\nbc\n']);
	});

	it('writes a full batch at once, and bytes and big pieces as they are after the batch before them', () => {
		const {out, writes} = recorder();
		const output = createBatchedOutput(out);
		const half = 'x'.repeat(OUTPUT_BATCH_BYTES / 2);
		output.writeText(half);
		output.writeText(half);
		expect(writes.map((w) => w.length)).toEqual([OUTPUT_BATCH_BYTES]);
		output.writeText('head');
		output.writeText(new Uint8Array([0x41, 0x42]));
		output.writeText('y'.repeat(OUTPUT_BATCH_BYTES));
		expect(writes.slice(1).map((w) => (w.length > 8 ? w.length : w))).toEqual(['head', 'AB', OUTPUT_BATCH_BYTES]);
		output.writeText('tail');
		output.flush();
		output.flush();
		expect(writes.at(-1)).toBe('tail');
		expect(writes).toHaveLength(5);
	});

	it('stops writing after EPIPE and says the output can take more', async () => {
		const {out, writes} = recorder();
		const output = createBatchedOutput(out);
		out.emit('error', Object.assign(new Error('write EPIPE'), {code: 'EPIPE'}));
		output.writeLine('lost');
		output.flush();
		await nextTurn();
		expect(writes).toEqual([]);
		expect(output.whenWritable()).toBeUndefined();
	});
});

describe('createStdoutHorizon', () => {
	it('is the time of the stdout chunk holding the first unframed byte, Infinity when nothing is pending', () => {
		let pending = 0;
		let length = 0;
		const horizon = createStdoutHorizon({pendingBytes: () => pending, streamLength: () => length});
		const feed = (offset: number, size: number, tMs: number): void => {
			horizon.chunk({offset, bytes: new Uint8Array(size), tMs});
			length = offset + size;
		};
		feed(0, 10, 5);
		feed(10, 10, 7);
		feed(20, 10, 9);
		pending = 15; // bytes 15..29 unframed: the chunk at 10 holds the first of them
		expect(horizon.horizon()).toBe(7);
		pending = 10; // bytes 20..29: the chunk at 20
		expect(horizon.horizon()).toBe(9);
		pending = 0;
		expect(horizon.horizon()).toBe(Number.POSITIVE_INFINITY);
		// Everything before was forgotten: a new chunk alone decides.
		feed(30, 4, 11);
		pending = 4;
		expect(horizon.horizon()).toBe(11);
	});
});

describe('reprobeLines', () => {
	const INIT = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}';
	const framed = (body: string): Buffer => Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);

	it('a re-probe that got no reply: its request, the wait and the shutdown in time order', () => {
		const s = new Session(makeMeta());
		s.pushChunk('stdin', 10, framed(INIT));
		s.mark({type: 'stdin-closed', tMs: 3010});
		s.mark({type: 'timeout', id: 0, method: 'initialize', timeoutMs: 3000, tMs: 3005});
		s.exit({code: 0, signal: null, tMs: 3021});
		s.finish(3022);
		expect(reprobeLines(s.getSnapshot(), false)).toEqual([
			'   10.0 ms  C→S    80 B  request      id=0 initialize  [content-length, 2 lines]',
			' 3005.0 ms  ···  mcp-wire stopped waiting for initialize (id 0) after 3,000 ms',
			' 3010.0 ms  ···  stdin closed (EOF sent to the server)',
			' 3021.0 ms  ···  process exited, code 0',
		]);
	});

	it('a re-probe that was answered: no line for the wait its reply ended', () => {
		const s = new Session(makeMeta());
		s.pushChunk('stdin', 10, framed(INIT));
		s.pushChunk('stdout', 500, framed('{"jsonrpc":"2.0","id":0,"result":{}}'));
		s.mark({type: 'timeout', id: 0, method: 'initialize', timeoutMs: 1000, tMs: 1000});
		s.endStream('stdout', 1100);
		s.finish(1200);
		const lines = reprobeLines(s.getSnapshot(), false);
		expect(lines).toEqual([
			'   10.0 ms  C→S    80 B  request      id=0 initialize  [content-length, 2 lines]',
			'  500.0 ms  S→C    58 B  response     id=0  [content-length, 2 lines]',
			' 1100.0 ms  ···  stdout closed by the server',
		]);
	});
});

describe('findingLines', () => {
	const textOptions = {color: false, hex: 'plain' as const, docsRoot: PACKAGE_ROOT};

	it('the first in full, then one line each, then the count of the rest, then a blank line', () => {
		const first = makeFinding({code: 'crlf', offset: 0});
		const more = [2, 4].map((offset) => makeFinding({code: 'crlf', offset, frameIndex: offset / 2}));
		const view = makeSnapshot({findings: [first, ...more]});
		expect(findingLines({code: 'crlf', full: [first], more, count: 9}, view, textOptions)).toEqual([
			...formatFinding(first, view, textOptions),
			'  also crlf at stdout offset 2 (frame 1)',
			'  also crlf at stdout offset 4 (frame 2)',
			'  … and 3 more crlf',
			'',
		]);
	});

	it('no count line when every finding was shown', () => {
		const first = makeFinding({code: 'crlf', offset: 0});
		const view = makeSnapshot({findings: [first]});
		expect(findingLines({code: 'crlf', full: [first], more: [], count: 1}, view, textOptions)).toEqual([
			...formatFinding(first, view, textOptions),
			'',
		]);
	});
});
