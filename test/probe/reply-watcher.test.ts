import {describe, expect, it} from 'vitest';
import {createReplyWatcher, type Reply} from '../../src/probe/reply-watcher.js';

const bytes = (text: string): Uint8Array => Buffer.from(text, 'utf8');
const RESPONSE = '{"jsonrpc":"2.0","id":0,"result":{}}\n';

describe('createReplyWatcher', () => {
	it('frames a reply split across chunks, with its kind, id, offset and length', () => {
		const watcher = createReplyWatcher();
		const seen: Reply[] = [];
		watcher.onReply((reply) => seen.push(reply));
		watcher.push(5, bytes('hello\n{"jsonrpc":"2.0",'));
		expect(watcher.pendingBytes).toBe(17);
		expect(Buffer.from(watcher.pending()).toString()).toBe('{"jsonrpc":"2.0",');
		watcher.push(9, bytes('"id":0,"result":{}}\n'));
		expect(seen.map((r) => [r.kind, r.id, r.offset, r.byteLength])).toEqual([
			['text', undefined, 0, 6],
			['response', 0, 6, 37],
		]);
		expect(watcher.bytesRead).toBe(43);
		expect(watcher.pendingBytes).toBe(0);
		expect(watcher.firstReplyTMs).toBe(5);
	});

	it('gives the first watch the replies read before it (a request written at the spawn), and later ones as they come', () => {
		const watcher = createReplyWatcher();
		watcher.push(1, bytes(RESPONSE));
		const first = watcher.watch((r) => r.kind === 'response' && r.id === 0);
		expect(first.get()?.offset).toBe(0);
		first.stop();
		const second = watcher.watch((r) => r.kind === 'response' && r.id === 1);
		expect(second.get()).toBeUndefined();
		watcher.push(2, bytes('{"jsonrpc":"2.0","id":1,"result":{}}\n'));
		expect(second.get()?.offset).toBe(RESPONSE.length);
	});

	it('keeps a line without its LF pending until EOF, then frames it', () => {
		const watcher = createReplyWatcher();
		const seen: Reply[] = [];
		watcher.onReply((reply) => seen.push(reply));
		watcher.push(1, bytes(RESPONSE.slice(0, -1)));
		expect(seen).toEqual([]);
		expect(watcher.pendingBytes).toBe(RESPONSE.length - 1);
		watcher.end(2);
		expect(seen.map((r) => [r.kind, r.id, r.byteLength])).toEqual([['response', 0, RESPONSE.length - 1]]);
	});

	it('calls onData after every chunk until removed', () => {
		const watcher = createReplyWatcher();
		let calls = 0;
		const remove = watcher.onData(() => (calls += 1));
		watcher.push(1, bytes('a'));
		watcher.push(2, bytes('b'));
		remove();
		watcher.push(3, bytes('c'));
		expect(calls).toBe(2);
	});
});
