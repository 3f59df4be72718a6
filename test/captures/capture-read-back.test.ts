import {Buffer} from 'node:buffer';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {
	encodeCaptureStart,
	encodeChunkRecord,
	encodeEndRecord,
	encodeGapRecord,
	encodeJsonRecord,
	RECORD_TYPE,
} from '../../src/core/capture/binary-codec.js';
import {encodeEvent, encodeHeader} from '../../src/core/capture/record-codec.js';
import type {SessionEvent, StreamName} from '../../src/core/types.js';
import {RecordReader} from '../../src/captures/attach.js';
import {CaptureBytesReader, CaptureIndex, CHECKPOINT_BYTES} from '../../src/captures/capture-read-back.js';
import {makeMeta} from '../helpers/factories.js';

const META = makeMeta({pid: 4242, mode: 'tap', name: 'demo'});
const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-read-back-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));

/** Deterministic bytes of a stream: byte i of `stream` is a function of i (so any range can be checked). */
function streamByte(stream: StreamName, i: number): number {
	return (i * (stream === 'stdin' ? 7 : 13) + (stream === 'stdin' ? 1 : 3)) & 0xff;
}

function streamBytes(stream: StreamName, offset: number, length: number): Uint8Array {
	return Uint8Array.from({length}, (_, k) => streamByte(stream, offset + k));
}

/** Chunks taking turns on stdin and stdout, of the given sizes, and the stream offsets they cover. */
function chunks(sizes: readonly number[]): Array<{stream: StreamName; offset: number; bytes: Uint8Array}> {
	const at = {stdin: 0, stdout: 0, stderr: 0};
	return sizes.map((size, i) => {
		const stream: StreamName = i % 2 === 0 ? 'stdin' : 'stdout';
		const chunk = {stream, offset: at[stream], bytes: streamBytes(stream, at[stream], size)};
		at[stream] += size;
		return chunk;
	});
}

const SIZES = [10, 3, 700_000, 5, 1, 300_000, 200_000, 2, 64, 400_000, 7, 9];

function binaryCapture(withGap: boolean): Buffer {
	const parts = [encodeCaptureStart(META)];
	for (const [i, chunk] of chunks(SIZES).entries()) {
		// With a gap: the 8th chunk (stdout, 2 bytes) is not recorded, a gap record stands for it.
		if (withGap && i === 7)
			parts.push(
				encodeGapRecord({
					stream: chunk.stream,
					offset: chunk.offset,
					length: chunk.bytes.length,
					reason: 'lag',
					tMs: i,
				}),
			);
		else parts.push(encodeChunkRecord(chunk.stream, i, chunk.offset, chunk.bytes));
		if (i === 4)
			parts.push(
				encodeJsonRecord(RECORD_TYPE.mark, i, encodeEvent({type: 'mark', mark: {type: 'stdin-closed', tMs: i}})),
			);
	}

	parts.push(
		encodeEndRecord(
			{complete: true, recorded: {stdin: 0, stdout: 0, stderr: 0}, missing: {stdin: 0, stdout: 0, stderr: 0}, gaps: 0},
			99,
		),
	);
	return Buffer.concat(parts);
}

function ndjsonCapture(): Buffer {
	const lines = [encodeHeader(META)];
	for (const [i, chunk] of chunks(SIZES).entries()) {
		lines.push(
			encodeEvent({
				type: 'chunk',
				chunk: {seq: i, stream: chunk.stream, tMs: i, offset: chunk.offset, bytes: chunk.bytes},
			}),
		);
	}

	return Buffer.from(`${lines.join('\n')}\n`);
}

/** Read a capture the way view/report do, 4,096 bytes at a time, noting every record's offset. */
function readAll(bytes: Buffer): {index: CaptureIndex; offsets: Array<{event: SessionEvent; at: number}>} {
	const index = new CaptureIndex();
	const offsets: Array<{event: SessionEvent; at: number}> = [];
	const reader = new RecordReader({
		onHeader() {},
		onEvent(event, at) {
			index.note(event, at);
			offsets.push({event, at});
		},
	});
	for (let at = 0; at < bytes.length; at += 4096) reader.push(bytes.subarray(at, at + 4096));
	reader.end();
	return {index, offsets};
}

describe.each([
	['format 2', () => binaryCapture(false)],
	['format 1', () => ndjsonCapture()],
])('reading stream bytes back from a %s capture', (_name, make) => {
	const bytes = make();
	const file = path.join(dir, `${_name.replace(' ', '-')}.capture`);
	writeFileSync(file, bytes);
	const {index, offsets} = readAll(bytes);

	it('gives every record its file offset (the record starts there)', () => {
		const chunkOffsets = offsets.filter(({event}) => event.type === 'chunk').map(({at}) => at);
		expect(chunkOffsets).toHaveLength(SIZES.length);
		for (const at of chunkOffsets) {
			if (_name === 'format 1') expect(bytes.subarray(at, at + 16).toString()).toBe('{"type":"chunk",');
			else expect(bytes[at]).toBe(RECORD_TYPE.chunk);
		}
	});

	it('keeps a checkpoint at the first chunk record and then at the first one 256 KiB or more after the last', () => {
		expect(CHECKPOINT_BYTES).toBe(256 * 1024);
		const records = offsets.filter(({event}) => event.type === 'chunk').map(({at}) => at);
		const expected: number[] = [];
		for (const at of records) if (expected.length === 0 || at - expected.at(-1)! >= CHECKPOINT_BYTES) expected.push(at);
		expect(index.size).toBe(expected.length);
		expect(expected.length).toBeGreaterThan(2);
		// The 4th stdout chunk (2 bytes at 300_008) comes after the 700_000 and 300_000-byte records: a checkpoint at or after the 300_000 one.
		const recordOf300k = records[5]!;
		expect(index.startFor('stdout', 300_008)).toBeGreaterThanOrEqual(recordOf300k);
		expect(index.startFor('stdin', 0)).toBe(records[0]);
	});

	it.each([
		['stdin', 0, 10],
		['stdin', 5, 20],
		['stdin', 10, 700_000],
		['stdin', 700_009, 300_000],
		['stdout', 0, 3],
		['stdout', 2, 200_000],
		['stdout', 200_008, 400_000],
		['stdout', 600_000, 100],
	] as const)('%s bytes at %i, %i long, with and without the index', (stream, offset, length) => {
		for (const withIndex of [true, false]) {
			const reader = new CaptureBytesReader(file, withIndex ? index : undefined);
			try {
				const total = SIZES.filter((_, i) => (i % 2 === 0) === (stream === 'stdin')).reduce((a, b) => a + b, 0);
				const got = reader.read(stream, offset, length);
				expect(got.length).toBe(Math.max(0, Math.min(length, total - offset)));
				expect(Buffer.from(got).equals(Buffer.from(streamBytes(stream, offset, got.length)))).toBe(true);
			} finally {
				reader.close();
			}
		}
	});

	it('reads nothing past the end of a stream or of a stream never written', () => {
		const reader = new CaptureBytesReader(file, index);
		try {
			expect(reader.read('stdin', 5_000_000, 10)).toHaveLength(0);
			expect(reader.read('stderr', 0, 10)).toHaveLength(0);
		} finally {
			reader.close();
		}
	});
});

describe('reading back across a gap (format 2)', () => {
	const bytes = binaryCapture(true);
	const file = path.join(dir, 'gap.capture');
	writeFileSync(file, bytes);
	const {index} = readAll(bytes);
	// stdout chunks: 3, 5, 300_000, 2 (the gap, at 300_008), 400_000, 9.
	it('stops at the gap: the bytes before it, none of it, and the bytes after it from their start', () => {
		const reader = new CaptureBytesReader(file, index);
		try {
			expect(
				Buffer.from(reader.read('stdout', 300_000, 100)).equals(Buffer.from(streamBytes('stdout', 300_000, 8))),
			).toBe(true);
			expect(reader.read('stdout', 300_008, 10)).toHaveLength(0);
			expect(
				Buffer.from(reader.read('stdout', 300_010, 50)).equals(Buffer.from(streamBytes('stdout', 300_010, 50))),
			).toBe(true);
		} finally {
			reader.close();
		}
	});
});

describe('reading back part of a big chunk record (format 1: only the base64 that holds the bytes wanted)', () => {
	// Chunks longer than a read block (1 MiB) of base64, of every padding (2_000_000 % 3 = 2, 1_500_001 % 3 = 1,
	// 1_200_000 % 3 = 0), between small ones; stdin and stdout take turns.
	const BIG_SIZES = [10, 2_000_000, 1_500_001, 5, 1_200_000, 300_000, 7, 1_100_000];
	const lines = (): string[] => {
		const out = [encodeHeader(META)];
		for (const [i, chunk] of chunks(BIG_SIZES).entries())
			out.push(
				encodeEvent({
					type: 'chunk',
					chunk: {seq: i, stream: chunk.stream, tMs: i, offset: chunk.offset, bytes: chunk.bytes},
				}),
			);
		return out;
	};

	const total = (stream: StreamName): number =>
		BIG_SIZES.filter((_, i) => (i % 2 === 0) === (stream === 'stdin')).reduce((a, b) => a + b, 0);
	// stdin: 10, 1_500_001, 1_200_000, 7 (ends 2_700_018); stdout: 2_000_000, 5, 300_000, 1_100_000 (ends 3_400_005).
	const RANGES = [
		['stdout', 0, 100],
		['stdout', 1_000_001, 3],
		['stdout', 1_999_990, 20],
		['stdout', 1_999_999, 1],
		['stdout', 2_000_003, 400_000],
		['stdout', 2_300_004, 1_100_001],
		['stdin', 9, 2],
		['stdin', 10, 1_500_001],
		['stdin', 1_500_009, 1_200_005],
		['stdin', 2_700_010, 100],
		['stdin', 1_234_567, 10],
	] as const;

	const variants: Array<[string, () => Buffer]> = [
		['LF line ends', () => Buffer.from(`${lines().join('\n')}\n`)],
		['CRLF line ends', () => Buffer.from(`${lines().join('\r\n')}\r\n`)],
		['no LF after the last record', () => Buffer.from(lines().join('\n'))],
		// Not as encodeEvent writes a big chunk: a member after the base64. Read whole, as any other line.
		[
			'a member after the base64',
			() =>
				Buffer.from(
					`${lines()
						.map((line) => line.replace(/"\}$/, '","note":"x"}'))
						.join('\n')}\n`,
				),
		],
	];

	describe.each(variants)('%s', (name, make) => {
		const bytes = make();
		const file = path.join(dir, `big-${name.replaceAll(' ', '-')}.ndjson`);
		writeFileSync(file, bytes);
		const {index} = readAll(bytes);

		it.each(RANGES)('%s bytes at %i, %i long, with and without the index', (stream, offset, length) => {
			for (const withIndex of [true, false]) {
				const reader = new CaptureBytesReader(file, withIndex ? index : undefined);
				try {
					const got = reader.read(stream, offset, length);
					expect(got.length).toBe(Math.max(0, Math.min(length, total(stream) - offset)));
					expect(Buffer.from(got).equals(Buffer.from(streamBytes(stream, offset, got.length)))).toBe(true);
				} finally {
					reader.close();
				}
			}
		});
	});

	it('skips a big record whose base64 does not decode, far from the bytes wanted too, as the record readers skip it', () => {
		const good = lines();
		// The 2_000_000-byte stdout chunk (line 2) gets a bad character near its end; the 1_500_001-byte stdin
		// chunk (line 3) a base64 of one quad too few (its length no longer matches).
		const bad = [...good];
		const at = bad[2]!.length - 100;
		bad[2] = `${bad[2]!.slice(0, at)}*${bad[2]!.slice(at + 1)}`;
		bad[3] = bad[3]!.replace(/[A-Za-z\d+/]{4}(={0,2}"\}$)/, '$1');
		const bytes = Buffer.from(`${bad.join('\n')}\n`);
		const file = path.join(dir, 'big-damaged.ndjson');
		writeFileSync(file, bytes);
		const problems: number[] = [];
		const reader = new RecordReader({onHeader() {}, onEvent() {}});
		reader.push(bytes);
		reader.end();
		for (const problem of reader.problems) problems.push(problem.line);
		expect(problems).toEqual([3, 4]);
		const back = new CaptureBytesReader(file);
		try {
			expect(back.read('stdout', 0, 100)).toHaveLength(0);
			expect(back.read('stdin', 10, 50)).toHaveLength(0);
			// The records after them read back as ever.
			expect(
				Buffer.from(back.read('stdout', 2_000_003, 50)).equals(Buffer.from(streamBytes('stdout', 2_000_003, 50))),
			).toBe(true);
			expect(
				Buffer.from(back.read('stdin', 1_500_011, 50)).equals(Buffer.from(streamBytes('stdin', 1_500_011, 50))),
			).toBe(true);
			expect(Buffer.from(back.read('stdin', 0, 10)).equals(Buffer.from(streamBytes('stdin', 0, 10)))).toBe(true);
		} finally {
			back.close();
		}
	});
});
