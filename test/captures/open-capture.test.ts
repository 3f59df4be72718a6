import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {
	encodeCaptureStart,
	encodeChunkRecord,
	encodeEndRecord,
	encodeJsonRecord,
	RECORD_TYPE,
} from '../../src/core/capture/binary-codec.js';
import {encodeEvent, encodeHeader} from '../../src/core/capture/record-codec.js';
import {replayEvents} from '../../src/core/session/replay.js';
import type {Session} from '../../src/core/session/session.js';
import type {SessionEvent} from '../../src/core/types.js';
import {bytesSource, fileSource, openCapture} from '../../src/captures/open-capture.js';
import {makeMeta} from '../helpers/factories.js';

const META = makeMeta({mode: 'tap', startedAt: '2026-01-01T00:00:00.000Z'});

const enc = new TextEncoder();
const INIT =
	'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n';
const RESULT =
	'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}\n';
const LIST = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n';
const chunk = (seq: number, stream: 'stdin' | 'stdout', offset: number, tMs: number, text: string): SessionEvent => ({
	type: 'chunk',
	chunk: {seq, stream, offset, tMs, bytes: enc.encode(text)},
});
const EVENTS: SessionEvent[] = [
	chunk(0, 'stdin', 0, 1, INIT),
	chunk(1, 'stdout', 0, 5, RESULT),
	chunk(2, 'stdin', INIT.length, 7, LIST),
	{type: 'mark', mark: {type: 'stdin-closed', tMs: 8}},
	{type: 'exit', exit: {code: 0, signal: null, tMs: 9}},
];
const LINES = [encodeHeader(META), ...EVENTS.map((event) => encodeEvent(event))];
const TEXT = LINES.join('\n') + '\n';

const strip = (session: Session) => {
	const snapshot = session.getSnapshot();
	return {frames: snapshot.frames, findings: snapshot.findings, summary: snapshot.summary};
};

const dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-open-capture-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));

describe('openCapture', () => {
	it('rebuilds the session replayEvents builds, starting the replay at the header, each record with its line offset', async () => {
		const calls: string[] = [];
		const offsets: number[] = [];
		const opened = await openCapture(bytesSource(enc.encode(TEXT)), {
			replay: {},
			onReplay: (_replay, header) => calls.push(`replay ${header.startedAt}`),
			onEvent: (event, offset) => {
				calls.push(event.type);
				offsets.push(offset);
			},
		});
		expect(calls).toEqual(['replay 2026-01-01T00:00:00.000Z', 'chunk', 'chunk', 'chunk', 'mark', 'exit']);
		// Each record's line starts after the header line and the records before it.
		let at = LINES[0]!.length + 1;
		const expected = LINES.slice(1).map((line) => {
			const start = at;
			at += line.length + 1;
			return start;
		});
		expect(offsets).toEqual(expected);
		expect([opened.readError, opened.replayError, opened.rejectedRecords, opened.isBinary]).toEqual([
			undefined,
			undefined,
			0,
			false,
		]);
		const session = opened.finish();
		expect(strip(session)).toEqual(strip(replayEvents(META, EVENTS)));
		expect(session.getSnapshot().summary.incomplete).toBeUndefined();
		expect(session.getSnapshot().frames.map((frame) => [frame.stream, frame.kind, frame.byteLength])).toEqual([
			['stdin', 'request', INIT.length],
			['stdout', 'response', RESULT.length],
			['stdin', 'request', LIST.length],
		]);
	});

	it('finishes a capture without the exit as cut short (a tap detached from, or killed)', async () => {
		const cut = LINES.slice(0, -1).join('\n') + '\n';
		const opened = await openCapture(bytesSource(enc.encode(cut)), {replay: {}});
		const {summary} = opened.finish().getSnapshot();
		expect(summary.incomplete?.cutShort).toBe(true);
	});

	it('a last record cut inside is truncated: the session is cut short even after the exit', async () => {
		const opened = await openCapture(bytesSource(enc.encode(TEXT + '{"type":"summ')), {replay: {}});
		expect(opened.reader?.isTruncated).toBe(true);
		expect(opened.finish().getSnapshot().summary.incomplete?.cutShort).toBe(true);
	});

	it('reads a file in blocks, telling the bytes read and the replay so far', async () => {
		const file = path.join(dir, 'capture.ndjson');
		writeFileSync(file, TEXT);
		const progress: [number, boolean][] = [];
		const opened = await openCapture(fileSource(file), {
			replay: {},
			onProgress: (bytesRead, replay) => {
				progress.push([bytesRead, replay !== undefined]);
			},
		});
		expect(progress).toEqual([[Buffer.byteLength(TEXT), true]]);
		expect(opened.finish().getSnapshot().frames).toHaveLength(3);
	});

	it('never throws: a file that cannot be read is a readError, with no reader and no replay', async () => {
		const opened = await openCapture(fileSource(path.join(dir, 'absent.ndjson')), {replay: {}});
		expect((opened.readError as NodeJS.ErrnoException).code).toBe('ENOENT');
		expect([opened.reader, opened.replay]).toEqual([undefined, undefined]);
		expect(() => opened.finish()).toThrow('openCapture: finish() before a session header was read');
	});

	it('a handler that throws stops the reading (quitting the TUI while it loads): the replay so far is kept', async () => {
		class Quit extends Error {}
		let seen = 0;
		const opened = await openCapture(bytesSource(enc.encode(TEXT)), {
			replay: {},
			onEvent: () => {
				seen++;
				if (seen === 2) throw new Quit();
			},
		});
		expect(opened.readError).toBeInstanceOf(Quit);
		expect(opened.reader).toBeUndefined();
		// The first record was fed; the second stopped the reading before it was.
		expect(opened.replay?.session.getSnapshot().summary.streams.stdin.bytes).toBe(INIT.length);
	});

	it('text that is not a capture gives a reader with problems and no replay', async () => {
		const opened = await openCapture(bytesSource(enc.encode('hello\n')), {replay: {}});
		expect(opened.replay).toBeUndefined();
		expect(opened.reader?.problems.map((problem) => problem.message).at(-1)).toBe('no session header');
	});
});

describe('a hole in a format-1 capture (docs/capture-format.md#gaps-and-incomplete-captures)', () => {
	// The second stdin chunk (LIST, 47 bytes at offset INIT.length) is missing, then one more comes after it.
	const PING = '{"jsonrpc":"2.0","id":2,"method":"ping"}\n';
	const HOLED = [
		encodeHeader(META),
		encodeEvent(chunk(0, 'stdin', 0, 1, INIT)),
		encodeEvent(chunk(1, 'stdout', 0, 5, RESULT)),
		encodeEvent(chunk(3, 'stdin', INIT.length + LIST.length, 9, PING)),
		encodeEvent({type: 'exit', exit: {code: 0, signal: null, tMs: 10}}),
	].join('\n');

	it('is an unrecorded gap at its exact offset and size, counted as missing, as in format 2', async () => {
		const marks: unknown[] = [];
		const opened = await openCapture(bytesSource(enc.encode(`${HOLED}\n`)), {
			replay: {},
			onEvent: (event) => {
				if (event.type === 'mark') marks.push(event.mark);
			},
		});
		expect(marks).toEqual([
			{type: 'gap', stream: 'stdin', offset: INIT.length, length: LIST.length, reason: 'unrecorded', tMs: 9},
		]);
		expect(opened.reader?.problems).toEqual([]);
		expect(opened.reader?.completeness).toEqual({
			format: 1,
			complete: false,
			cutShort: false,
			missing: {stdin: LIST.length, stdout: 0, stderr: 0},
			gaps: 1,
		});
		const summary = opened.finish().getSnapshot().summary;
		expect(summary.incomplete).toEqual({cutShort: false, missingBytes: LIST.length, gaps: 1});
		// Offsets stay true: the stream counts the missing bytes too.
		expect(summary.streams.stdin.bytes).toBe(INIT.length + LIST.length + PING.length);
	});

	it('a chunk overlapping the bytes before it is a problem and skipped', async () => {
		const overlapping = [
			encodeHeader(META),
			encodeEvent(chunk(0, 'stdin', 0, 1, INIT)),
			encodeEvent(chunk(1, 'stdin', 10, 2, LIST)),
		].join('\n');
		const opened = await openCapture(bytesSource(enc.encode(`${overlapping}\n`)), {replay: {}});
		expect(opened.reader?.problems).toEqual([
			{line: 3, message: `stdin chunk at offset 10 overlaps the ${INIT.length} bytes before it, skipped`},
		]);
		expect(opened.finish().getSnapshot().summary.streams.stdin.bytes).toBe(INIT.length);
	});
});

describe('capture files by name: .mcpcap and the .ndjson of older taps (docs/capture-format.md#where-captures-are-and-what-they-are-named)', () => {
	/** EVENTS as a binary (format 2) capture with its end record. */
	const binary = (): Buffer => {
		const records = EVENTS.map((event) => {
			if (event.type === 'chunk')
				return encodeChunkRecord(event.chunk.stream, event.chunk.tMs, event.chunk.offset, event.chunk.bytes);
			if (event.type === 'mark') return encodeJsonRecord(RECORD_TYPE.mark, event.mark.tMs, encodeEvent(event));
			if (event.type === 'exit') return encodeJsonRecord(RECORD_TYPE.exit, event.exit.tMs, encodeEvent(event));
			throw new Error(`no ${event.type} in EVENTS`);
		});
		const end = encodeEndRecord(
			{
				complete: true,
				recorded: {stdin: INIT.length + LIST.length, stdout: RESULT.length, stderr: 0},
				missing: {stdin: 0, stdout: 0, stderr: 0},
				gaps: 0,
			},
			10,
		);
		return Buffer.concat([encodeCaptureStart(META), ...records, end]);
	};

	it.each([
		['a binary capture named .mcpcap (a tap now)', 'new.mcpcap', binary],
		['a binary capture named .ndjson (a tap of an older version)', 'old-binary.ndjson', binary],
		['an NDJSON capture named .ndjson (doctor, a --json dump)', 'old-records.ndjson', () => Buffer.from(TEXT)],
	])('%s replays to the session replayEvents builds', async (_, name, bytes) => {
		const file = path.join(dir, name);
		writeFileSync(file, bytes());
		const opened = await openCapture(fileSource(file), {replay: {}});
		expect([opened.readError, opened.replayError, opened.isBinary]).toEqual([
			undefined,
			undefined,
			name !== 'old-records.ndjson',
		]);
		const session = opened.finish();
		expect(strip(session)).toEqual(strip(replayEvents(META, EVENTS)));
		expect(session.getSnapshot().frames).toHaveLength(3);
		expect(session.getSnapshot().summary.incomplete).toBeUndefined();
	});
});
