import {Buffer} from 'node:buffer';
import {describe, expect, it} from 'vitest';
import {
	decodeRecord,
	decodeRecordBytes,
	encodeEvent,
	type DecodedLine,
} from '../../../src/core/capture/record-codec.js';

const utf8 = new TextDecoder('utf-8');
/** Deterministic bytes that use every byte value (and so every base64 character). */
const bytesOf = (length: number): Uint8Array => Uint8Array.from({length}, (_, i) => (i * 131 + (i >> 8)) & 0xff);
/** A decoded line with a chunk's bytes as base64 (deep equality on a big Uint8Array is slow). */
const comparable = (decoded: DecodedLine): unknown =>
	decoded.kind === 'event' && decoded.event.type === 'chunk'
		? {
				...decoded,
				event: {
					...decoded.event,
					chunk: {...decoded.event.chunk, bytes: Buffer.from(decoded.event.chunk.bytes).toString('base64')},
				},
			}
		: decoded;
const chunkLine = (length: number): string =>
	encodeEvent({type: 'chunk', chunk: {seq: 7, stream: 'stdout', tMs: 12.5, offset: 4096, bytes: bytesOf(length)}});

describe('decodeRecordBytes (a record line given as bytes, docs/performance.md#replay)', () => {
	it.each([65_536, 65_537, 65_538, 100_000, 300_001])(
		'decodes a %i-byte chunk record to the same chunk as decodeRecord (base64 decoded from the bytes)',
		(length) => {
			const line = chunkLine(length);
			expect(Buffer.byteLength(line)).toBeGreaterThanOrEqual(64 * 1024);
			const fast = decodeRecordBytes(Buffer.from(line), utf8);
			expect(comparable(fast)).toEqual(comparable(decodeRecord(line)));
			if (fast.kind !== 'event' || fast.event.type !== 'chunk') throw new Error('not a chunk');
			expect(fast.event.chunk).toMatchObject({seq: 7, stream: 'stdout', tMs: 12.5, offset: 4096});
			expect(Buffer.from(fast.event.chunk.bytes).equals(Buffer.from(bytesOf(length)))).toBe(true);
		},
	);

	it('gives the same problem as decodeRecord for bad base64, a wrong length, a second base64 member and a cut line', () => {
		const line = chunkLine(70_000);
		const cases = [
			line.replace('"base64":"', '"base64":"!'),
			line.replace('"base64":"', '"base64":"AAA'),
			line.replace('"length":70000', '"length":70001'),
			line.replace(/=*"\}$/, '=A"}'),
			`${line.slice(0, -1)},"base64":"AAAA"}`,
			line.slice(0, -10),
			line.replace('"type":"chunk"', '"type":"chonk"'),
		];
		for (const text of cases) {
			const expected = decodeRecord(text);
			expect(comparable(decodeRecordBytes(Buffer.from(text), utf8))).toEqual(comparable(expected));
		}

		expect(decodeRecord(cases[0]!)).toMatchObject({kind: 'problem'});
		expect(decodeRecord(cases[2]!)).toMatchObject({
			kind: 'problem',
			message: expect.stringContaining('holds 70000 bytes but `length` says 70001'),
		});
		// The last base64 member wins, as in JSON.parse (its 3 bytes are not the 70,000 `length` says).
		expect(decodeRecordBytes(Buffer.from(cases[4]!), utf8)).toMatchObject({
			kind: 'problem',
			message: expect.stringContaining('holds 3 bytes'),
		});
	});

	it('decodes a record given in parts (as it was read) to what the whole line gives, split anywhere', () => {
		const line = Buffer.from(chunkLine(70_001));
		const whole = comparable(decodeRecord(line.toString('utf8')));
		const base64At = line.indexOf('"base64":"') + 10;
		const quoteAt = line.indexOf('"', base64At);
		const cuts = [
			1,
			15,
			16,
			base64At - 1,
			base64At,
			base64At + 1,
			base64At + 2,
			base64At + 3,
			base64At + 4,
			40_000,
			40_001,
			40_002,
			quoteAt - 3,
			quoteAt - 1,
			quoteAt,
			quoteAt + 1,
			line.length - 1,
		];
		for (const cut of cuts) {
			expect(comparable(decodeRecordBytes([line.subarray(0, cut), line.subarray(cut)], utf8)), `cut at ${cut}`).toEqual(
				whole,
			);
		}

		// Many parts, and empty ones.
		const parts = [
			line.subarray(0, 0),
			...Array.from({length: Math.ceil(line.length / 997)}, (_, i) => line.subarray(i * 997, (i + 1) * 997)),
			line.subarray(line.length),
		];
		expect(comparable(decodeRecordBytes(parts, utf8))).toEqual(whole);
		const bad = Buffer.from(line.toString('utf8').replace('"base64":"', '"base64":"!'));
		expect(decodeRecordBytes([bad.subarray(0, 500), bad.subarray(500)], utf8)).toEqual(
			decodeRecord(bad.toString('utf8')),
		);
	});

	it('decodes small records and other record types as text', () => {
		for (const text of [
			chunkLine(10),
			encodeEvent({type: 'mark', mark: {type: 'stdin-closed', tMs: 1}}),
			'',
			'not json',
		]) {
			expect(comparable(decodeRecordBytes(Buffer.from(text), utf8))).toEqual(comparable(decodeRecord(text)));
		}
	});
});
