import {Buffer} from 'node:buffer';
import {describe, expect, it} from 'vitest';
import {
	CAPTURE_MAGIC,
	CaptureDecoder,
	decodeCapture,
	encodeCaptureStart,
	encodeChunkRecord,
	encodeEndRecord,
	encodeGapRecord,
	encodeJsonRecord,
	isBinaryCapture,
	readCaptureEnd,
	RECORD_HEAD_BYTES,
	RECORD_TYPE,
	type CaptureEnd,
} from '../../../src/core/capture/binary-codec.js';
import {encodeEvent, encodeHeader, problemPlace} from '../../../src/core/capture/record-codec.js';
import type {SessionEvent} from '../../../src/core/types.js';
import {makeMeta} from '../../helpers/factories.js';

const META = makeMeta({pid: 4242, mode: 'tap', name: 'demo'});
const END: CaptureEnd = {
	complete: false,
	recorded: {stdin: 3, stdout: 2, stderr: 0},
	missing: {stdin: 0, stdout: 5, stderr: 0},
	gaps: 1,
};

/** A small capture: header, chunks both ways, a mark, a gap, the exit and the end record. */
function sample(): Buffer {
	return Buffer.concat([
		encodeCaptureStart(META),
		encodeChunkRecord('stdin', 1.5, 0, Buffer.from('ab\n')),
		encodeChunkRecord('stdout', 2.25, 0, Uint8Array.of(0xff, 0x0a)),
		encodeJsonRecord(RECORD_TYPE.mark, 3, encodeEvent({type: 'mark', mark: {type: 'stdin-closed', tMs: 3}})),
		encodeGapRecord({stream: 'stdout', offset: 2, length: 5, reason: 'lag', tMs: 3.5}),
		encodeJsonRecord(RECORD_TYPE.exit, 4, encodeEvent({type: 'exit', exit: {code: 0, signal: null, tMs: 4}})),
		encodeEndRecord(END, 4.5),
	]);
}

const EXPECTED_EVENTS: SessionEvent[] = [
	{type: 'chunk', chunk: {seq: 0, stream: 'stdin', tMs: 1.5, offset: 0, bytes: new Uint8Array(Buffer.from('ab\n'))}},
	{type: 'chunk', chunk: {seq: 1, stream: 'stdout', tMs: 2.25, offset: 0, bytes: Uint8Array.of(0xff, 0x0a)}},
	{type: 'mark', mark: {type: 'stdin-closed', tMs: 3}},
	{type: 'mark', mark: {type: 'gap', stream: 'stdout', offset: 2, length: 5, reason: 'lag', tMs: 3.5}},
	{type: 'exit', exit: {code: 0, signal: null, tMs: 4}},
];

describe('binary capture records (format 2)', () => {
	it('starts with the magic line and the session header line', () => {
		expect(encodeCaptureStart(META).toString('utf8')).toBe(`mcp-wire capture 2\n${encodeHeader(META)}\n`);
		expect(CAPTURE_MAGIC).toBe('mcp-wire capture 2\n');
	});

	it('writes a chunk record as a 24-byte little-endian head and the raw bytes', () => {
		const record = encodeChunkRecord('stdout', 1.5, 0x1_0000_0002, Uint8Array.of(0x7b, 0x7d, 0x0a));
		expect([...record]).toEqual([
			1,
			1,
			0,
			0, // type chunk, stream stdout, reserved
			3,
			0,
			0,
			0, // length 3
			0,
			0,
			0,
			0,
			0,
			0,
			0xf8,
			0x3f, // 1.5 as float64 LE
			2,
			0,
			0,
			0,
			1,
			0,
			0,
			0, // offset 2^32 + 2 as u64 LE
			0x7b,
			0x7d,
			0x0a,
		]);
	});

	it('writes a gap record with its stream and offset in the head and {length, reason} as JSON', () => {
		const record = encodeGapRecord({stream: 'stdin', offset: 10, length: 300, reason: 'writer-timeout', tMs: 0});
		expect([...record.subarray(0, 24)]).toEqual([
			5, 0, 0, 0, 40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0,
		]);
		expect(record.subarray(24).toString('utf8')).toBe('{"length":300,"reason":"writer-timeout"}');
	});

	it("ends with the end record: JSON, its own size and MWND, found from the file's last bytes", () => {
		const record = encodeEndRecord(END, 4.5);
		const json =
			'{"complete":false,"recorded":{"stdin":3,"stdout":2,"stderr":0},"missing":{"stdin":0,"stdout":5,"stderr":0},"gaps":1}';
		expect(record[0]).toBe(6);
		expect(record.readUInt32LE(4)).toBe(json.length + 8);
		expect(record.subarray(24, 24 + json.length).toString('utf8')).toBe(json);
		expect(record.readUInt32LE(24 + json.length)).toBe(record.length);
		expect(record.subarray(-4).toString('latin1')).toBe('MWND');
		expect(readCaptureEnd(sample())).toEqual(END);
		expect(readCaptureEnd(sample().subarray(0, -1))).toBeUndefined();
		expect(readCaptureEnd(encodeCaptureStart(META))).toBeUndefined();
	});

	it('round-trips: header, chunks byte-exact, marks, gaps as gap marks, exit and the end record', () => {
		const decoded = decodeCapture(sample());
		expect(decoded.format).toBe(2);
		expect(decoded.problems).toEqual([]);
		expect(decoded.header).toEqual({...META, format: 1});
		expect(decoded.events).toEqual(EXPECTED_EVENTS);
		expect(decoded.end).toEqual(END);
		expect(decoded.isTruncated).toBe(false);
	});

	it('tells the formats apart by the first bytes', () => {
		expect(isBinaryCapture(Buffer.from('mcp-wire capture 2\n'))).toBe(true);
		expect(isBinaryCapture(Buffer.from('mcp-wire cap'))).toBeUndefined();
		expect(isBinaryCapture(Buffer.from('{"type":"session"'))).toBe(false);
		expect(decodeCapture(Buffer.from(`${encodeHeader(META)}\n`)).format).toBe(1);
	});

	it('decodes the same events wherever the bytes are split (every cut point, two pieces)', () => {
		const bytes = sample();
		for (let cut = 0; cut <= bytes.length; cut++) {
			const events: SessionEvent[] = [];
			let end: CaptureEnd | undefined;
			const decoder = new CaptureDecoder({
				onHeader: () => undefined,
				onEvent: (e) => events.push(e),
				onEnd: (e) => (end = e),
			});
			decoder.push(bytes.subarray(0, cut));
			decoder.push(bytes.subarray(cut));
			decoder.end();
			expect(decoder.problems, `cut at ${cut}`).toEqual([]);
			expect(events, `cut at ${cut}`).toEqual(EXPECTED_EVENTS);
			expect(end).toEqual(END);
		}
	});

	it('a file cut at any byte never throws, keeps every whole record before the cut, and says it was cut short', () => {
		const bytes = sample();
		// (Fewer bytes than `mcp-wire capture ` cannot be told from anything else.)
		for (let cut = 'mcp-wire capture '.length; cut < bytes.length; cut++) {
			let decoded: ReturnType<typeof decodeCapture> | undefined;
			expect(() => {
				decoded = decodeCapture(bytes.subarray(0, cut));
			}, `cut at ${cut}`).not.toThrow();
			expect(decoded!.isTruncated, `cut at ${cut}`).toBe(true);
			expect(decoded!.end).toBeUndefined();
			// What was decoded is a prefix of the whole capture's events.
			expect(decoded!.events, `cut at ${cut}`).toEqual(EXPECTED_EVENTS.slice(0, decoded!.events.length));
			if (cut < CAPTURE_MAGIC.length + encodeHeader(META).length + 1) expect(decoded!.header).toBeUndefined();
			else expect(decoded!.header).toEqual({...META, format: 1});
		}
	});

	it('reports a hole no gap record explains as an unrecorded gap, and skips an overlapping chunk', () => {
		const bytes = Buffer.concat([
			encodeCaptureStart(META),
			encodeChunkRecord('stdout', 1, 0, Buffer.from('a\n')),
			encodeChunkRecord('stdout', 2, 10, Buffer.from('b\n')),
			encodeChunkRecord('stdout', 3, 5, Buffer.from('c\n')),
			encodeEndRecord(
				{
					complete: true,
					recorded: {stdin: 0, stdout: 4, stderr: 0},
					missing: {stdin: 0, stdout: 0, stderr: 0},
					gaps: 0,
				},
				4,
			),
		]);
		const decoded = decodeCapture(bytes);
		expect(
			decoded.events.map((e) => (e.type === 'chunk' ? ['chunk', e.chunk.offset] : e.type === 'mark' ? e.mark : e.type)),
		).toEqual([
			['chunk', 0],
			{type: 'gap', stream: 'stdout', offset: 2, length: 8, reason: 'unrecorded', tMs: 2},
			['chunk', 10],
		]);
		// The third chunk record starts after the magic line, the header and two chunk records of 2 bytes each.
		const thirdAt = encodeCaptureStart(META).length + 2 * (RECORD_HEAD_BYTES + 2);
		expect(decoded.problems).toEqual([
			{line: 5, byteOffset: thirdAt, message: 'stdout chunk at offset 5 overlaps the 12 bytes before it, skipped'},
		]);
		// Pushed in pieces, the offset is still the file's (not the piece's).
		const decoder = new CaptureDecoder({onHeader: () => undefined, onEvent: () => undefined});
		for (let at = 0; at < bytes.length; at += 7) decoder.push(bytes.subarray(at, at + 7));
		decoder.end();
		expect(decoder.problems).toEqual(decoded.problems);
	});

	it('a record cut by the end of the file is placed at the byte where that record starts (a binary capture has no lines)', () => {
		const whole = Buffer.concat([
			encodeCaptureStart(META),
			encodeChunkRecord('stdout', 1, 0, Buffer.from('a\n')),
			encodeChunkRecord('stdout', 2, 2, Buffer.from('bcdef\n')),
		]);
		const secondAt = encodeCaptureStart(META).length + RECORD_HEAD_BYTES + 2;
		const decoded = decodeCapture(whole.subarray(0, whole.length - 3));
		expect(decoded.problems).toEqual([
			{
				line: 4,
				byteOffset: secondAt,
				message: `the capture ends inside a record (${RECORD_HEAD_BYTES + 6 - 3} bytes of it); the cut record is skipped`,
			},
		]);
		expect(problemPlace(decoded.problems[0]!)).toBe(`record 4 at byte ${secondAt}`);
		expect(problemPlace({line: 10, message: 'x'})).toBe('line 10');
	});

	it('skips a record of an unknown type (its length is known) and goes on', () => {
		const unknown = encodeChunkRecord('stdout', 1, 0, Buffer.from('zz'));
		unknown[0] = 99;
		const decoded = decodeCapture(
			Buffer.concat([encodeCaptureStart(META), unknown, encodeChunkRecord('stdout', 2, 0, Buffer.from('ok\n'))]),
		);
		expect(decoded.events.map((e) => e.type)).toEqual(['chunk']);
		expect(decoded.problems.map((p) => p.message)).toEqual([expect.stringMatching(/unknown record type 99, skipped$/)]);
		expect(decoded.isTruncated).toBe(true);
	});
});
