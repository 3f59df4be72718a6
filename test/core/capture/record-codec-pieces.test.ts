import {Buffer} from 'node:buffer';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {encodeEvent, encodeEventInPieces, RECORD_PIECE_CHARS} from '../../../src/core/capture/record-codec.js';
import type {SessionEvent} from '../../../src/core/types.js';
import {makeChunk, makeFinding, makeFrame} from '../../helpers/factories.js';

/** The pieces of `event`, and their bytes joined. */
function pieces(event: SessionEvent): {readonly list: Array<string | Uint8Array>; readonly bytes: Buffer} {
	const list: Array<string | Uint8Array> = [];
	encodeEventInPieces(event, (piece) => list.push(piece));
	return {
		list,
		bytes: Buffer.concat(list.map((piece) => (typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece))),
	};
}

/** Deterministic bytes that use every byte value (and so every base64 character). */
const bytesOf = (length: number): Uint8Array => Uint8Array.from({length}, (_, i) => (i * 131 + (i >> 8)) & 0xff);

/** A frame `byteLength` bytes long whose message is `message` (as the framer makes one). */
const bigFrame = (message: unknown, text?: string): SessionEvent => ({
	type: 'frame',
	frame: makeFrame({
		index: 3,
		stream: 'stdin',
		offset: 206,
		byteLength: 200_000,
		kind: text === undefined ? 'request' : 'text',
		...(text === undefined ? {message, method: 'tools/call', id: 1} : {text}),
	}),
});

const longest = (list: ReadonlyArray<string | Uint8Array>): number => Math.max(...list.map((piece) => piece.length));

describe('encodeEventInPieces (a big record handed out in pieces, docs/performance.md#replay)', () => {
	it.each([49_153, 49_154, 49_155, 5_242_880])(
		'a %i-byte chunk: the pieces are encodeEvent’s line byte for byte, none longer than a piece',
		(length) => {
			const event: SessionEvent = {
				type: 'chunk',
				chunk: makeChunk({seq: 4, stream: 'stdout', tMs: 2.2, offset: 139, bytes: bytesOf(length)}),
			};
			const {list, bytes} = pieces(event);
			expect(bytes.equals(Buffer.from(encodeEvent(event), 'utf8'))).toBe(true);
			expect(longest(list)).toBeLessThanOrEqual(RECORD_PIECE_CHARS);
			expect(list.length).toBe(2 + Math.ceil(length / 49_152));
		},
	);

	it('a short chunk, a short frame and a finding are one piece: encodeEvent’s line', () => {
		const events: SessionEvent[] = [
			{type: 'chunk', chunk: makeChunk({bytes: bytesOf(49_152)})},
			{
				type: 'frame',
				frame: makeFrame({byteLength: 65_536, message: {jsonrpc: '2.0', id: 1, result: {text: 'x'.repeat(65_000)}}}),
			},
			{type: 'finding', finding: makeFinding()},
		];
		for (const event of events) expect(pieces(event).list).toEqual([encodeEvent(event)]);
	});

	it('a big frame: escapes, multi-byte characters, surrogate pairs across a piece boundary, lone surrogates, U+2028 and nesting come out as encodeEvent writes them', () => {
		const edge = RECORD_PIECE_CHARS;
		const cases: unknown[] = [
			{jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'echo', arguments: {text: 'x'.repeat(5_000_000)}}},
			// A pair straddling the first piece boundary, then one at it, then a lone high and low surrogate.
			{text: `${'a'.repeat(edge - 1)}😀${'b'.repeat(edge - 2)}😀${'c'.repeat(100)}\uD800x\uDC00${'d'.repeat(edge)}`},
			{
				text: `"quoted" back\\slash\n\t\u0000\u001F é ü 中文 \u0085\u2028\u2029 `.repeat(10_000),
				'key "with" \u2028': [1, -0, 1e21, 0.1, true, null, 'x'.repeat(70_000), [[[{}]]]],
			},
			JSON.parse(`{"__proto__":{"a":1},"1":"one","b":"${'y'.repeat(100_000)}","0":[]}`),
			// Nothing JSON.stringify escapes, only what a record line escapes (U+0085, U+2028, U+2029).
			{text: 'a\u2028b\u0085c\u2029'.repeat(50_000)},
			// Deeper than the walk goes: the rest is JSON.stringify's.
			JSON.parse(`${'['.repeat(200)}"${'z'.repeat(80_000)}\\u2028"${']'.repeat(200)}`),
		];
		for (const message of cases) {
			const event = bigFrame(message);
			const {list, bytes} = pieces(event);
			expect(bytes.equals(Buffer.from(encodeEvent(event), 'utf8'))).toBe(true);
			expect(list.length).toBeGreaterThan(1);
		}

		// The 5 MB string went out in pieces of at most a piece's length (bytes: nothing in it is escaped).
		const five = pieces(bigFrame(cases[0]));
		expect(longest(five.list)).toBeLessThanOrEqual(RECORD_PIECE_CHARS + 16);
		expect(five.list.filter((piece) => typeof piece !== 'string').length).toBeGreaterThanOrEqual(
			Math.floor(5_000_000 / RECORD_PIECE_CHARS),
		);
	});

	it('a big text frame (not JSON): its text comes out as encodeEvent writes it', () => {
		const event = bigFrame(undefined, `${'log line é\r\u2028'.repeat(30_000)}`);
		expect(pieces(event).bytes.equals(Buffer.from(encodeEvent(event), 'utf8'))).toBe(true);
	});

	it('any JSON message with long strings (property): the pieces are encodeEvent’s line', () => {
		const longText = fc
			.tuple(fc.string({unit: 'binary', maxLength: 40}), fc.integer({min: 1, max: 3000}))
			.map(([unit, n]) => unit.repeat(n));
		const value = fc.letrec((tie) => ({
			node: fc.oneof(
				{depthSize: 'small'},
				fc.jsonValue({maxDepth: 1}),
				longText,
				fc.array(tie('node'), {maxLength: 4}),
				fc.dictionary(fc.string({unit: 'binary', maxLength: 6}), tie('node'), {maxKeys: 4}),
			),
		})).node;
		fc.assert(
			fc.property(value, (message) => {
				const event = bigFrame(message);
				return pieces(event).bytes.equals(Buffer.from(encodeEvent(event), 'utf8'));
			}),
			{numRuns: 200},
		);
	});
});
