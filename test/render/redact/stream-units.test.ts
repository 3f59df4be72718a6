import {describe, expect, it} from 'vitest';
import type {Chunk, SessionEvent} from '../../../src/core/types.js';
import {Redactor} from '../../../src/render/redact/redactor.js';
import {
	createHoldQueue,
	maskCarried,
	maskChunk,
	newStreamCarry,
	redactEvent,
	type Held,
} from '../../../src/render/redact/stream.js';

// The pieces createEventRedactor is made of (src/render/redact/stream.ts), each on its own.
const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');
const bytesOf = (value: string): Uint8Array => new Uint8Array(Buffer.from(value, 'latin1'));
const chunkOf = (seq: number, offset: number, value: string): Chunk => ({
	seq,
	stream: 'stdout',
	tMs: seq,
	offset,
	bytes: bytesOf(value),
});

describe('maskCarried', () => {
	it('masks a key prefix at the end after its prefix and carries the run into the next chunk', () => {
		const own = {isCarrying: false};
		const out = bytesOf('token ghp_0123');
		maskCarried(own, 'token ghp_0123', 'token ghp_0123', 0, out, []);
		expect([text(out), own.isCarrying]).toEqual(['token ghp_****', true]);
		const next = bytesOf('4567 done');
		maskCarried(own, '4567 done', 'token ghp_01234567 done', 14, next, []);
		expect([text(next), own.isCarrying]).toEqual(['**** done', false]);
	});

	it('masks a value after a secret name, a partial home path and the start of a known secret, not plain words', () => {
		const named = bytesOf('API_KEY: ab');
		maskCarried({isCarrying: false}, 'API_KEY: ab', 'API_KEY: ab', 0, named, []);
		expect(text(named)).toBe('API_KEY: **');
		const home = bytesOf('see /home/ali');
		maskCarried({isCarrying: false}, 'see /home/ali', 'see /home/ali', 0, home, []);
		expect(text(home)).toBe('see /home/***');
		const known = bytesOf('pass hunt');
		maskCarried({isCarrying: false}, 'pass hunt', 'pass hunt', 0, known, ['hunter2secret']);
		expect(text(known)).toBe('pass ****');
		const plain = bytesOf('hello world');
		const own = {isCarrying: false};
		maskCarried(own, 'hello world', 'hello world', 0, plain, ['hunter2secret']);
		expect([text(plain), own.isCarrying]).toEqual(['hello world', false]);
	});

	it("masks only this chunk's part of a carried tail (base), never before it", () => {
		const out = bytesOf('0123');
		maskCarried({isCarrying: false}, '0123', 'x ghp_ab0123', 8, out, []);
		expect(text(out)).toBe('****');
	});
});

describe('maskChunk', () => {
	it('masks a token split by reads: the held first chunk gets the masks the second finds', () => {
		const redactor = new Redactor({});
		const own = newStreamCarry();
		const first = maskChunk(chunkOf(0, 0, 'tok ghp_0123'), own, [], redactor, false);
		expect([text(first.chunk.bytes), first.endsInRun, first.continuesRun]).toEqual(['tok ghp_****', true, false]);
		expect(own.tail).toBe('tok ghp_0123');
		const waiting: Held[] = [{out: first.chunk.bytes, offset: 0, isFinal: false}];
		const second = maskChunk(chunkOf(1, 12, '456789abcdefghijABCDEFGHIJ012345\n'), own, waiting, redactor, false);
		expect([text(second.chunk.bytes), second.endsInRun, second.continuesRun]).toEqual([
			`${'*'.repeat(32)}\n`,
			false,
			false,
		]);
		expect(text(waiting[0]!.out)).toBe('tok ghp_****');
		expect(redactor.getCounts()).toEqual({'github-token': 1});
	});

	it('with payloads masks string values of stdout, not of stderr, and counts them', () => {
		const redactor = new Redactor({payloads: true});
		const stdout = maskChunk(chunkOf(0, 0, '{"text":"secret"}\n'), newStreamCarry(), [], redactor, true);
		expect(text(stdout.chunk.bytes)).toBe('{"text":"******"}\n');
		const stderr = maskChunk(
			{...chunkOf(1, 0, '{"text":"secret"}\n'), stream: 'stderr'},
			newStreamCarry(),
			[],
			redactor,
			true,
		);
		expect(text(stderr.chunk.bytes)).toBe('{"text":"secret"}\n');
		expect(redactor.getCounts()).toEqual({payload: 1});
	});

	it('an all-token chunk continues a run; the input bytes are never changed', () => {
		const input = chunkOf(0, 0, 'abcdef');
		const masked = maskChunk(input, newStreamCarry(), [], new Redactor({}), false);
		expect([text(masked.chunk.bytes), masked.endsInRun, masked.continuesRun]).toEqual(['abcdef', true, true]);
		expect(masked.chunk.bytes).not.toBe(input.bytes);
		expect([masked.chunk.offset, masked.chunk.seq]).toEqual([0, 0]);
	});
});

describe('createHoldQueue', () => {
	const mark = (tMs: number): SessionEvent => ({type: 'mark', mark: {type: 'stdin-closed', tMs}});

	it('releases events in order, holding everything behind a held chunk until its stream is finalized', () => {
		const queue = createHoldQueue();
		queue.push(mark(1));
		const held: Held = {out: bytesOf('ab'), offset: 0, isFinal: false};
		queue.hold('stdout', held);
		queue.push({type: 'chunk', chunk: chunkOf(0, 0, 'ab')}, held);
		queue.push(mark(2));
		expect(queue.release()).toEqual([mark(1)]);
		expect([queue.length, queue.heldOn('stdout')]).toEqual([2, [held]]);
		queue.finalize('stdin');
		expect(queue.release()).toEqual([]);
		queue.finalize('stdout');
		expect(held.isFinal).toBe(true);
		expect(queue.heldOn('stdout')).toEqual([]);
		expect(queue.release().map((event) => event.type)).toEqual(['chunk', 'mark']);
		expect(queue.length).toBe(0);
	});
});

describe('redactEvent', () => {
	it('redacts a mark as text and passes an exit as it is', () => {
		const redactor = new Redactor({home: '/home/alice'});
		const exit: SessionEvent = {type: 'exit', exit: {code: 0, signal: null, tMs: 3}};
		expect(redactEvent(redactor, exit)).toBe(exit);
		const observed = (path: string): SessionEvent => ({
			type: 'mark',
			mark: {type: 'observed', what: 'spawn-failed', offset: 0, detail: {path}, tMs: 1},
		});
		expect(redactEvent(redactor, observed('/home/alice/x.json'))).toEqual(observed('~/x.json'));
	});
});
