import {mkdtempSync, rmSync, statSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {viewCommand, type CaptureLoadProgress, type StartTui} from '../../../src/cli/commands/view.js';
import {
	encodeCaptureStart,
	encodeChunkRecord,
	encodeEndRecord,
	encodeGapRecord,
	encodeJsonRecord,
	RECORD_TYPE,
} from '../../../src/core/capture/binary-codec.js';
import {gapBytes, statusModel} from '../../../src/render/tui/state/selectors.js';
import {statusSegments} from '../../../src/render/tui/components/status-bar.js';
import {encodeEvent, encodeHeader} from '../../../src/core/capture/record-codec.js';
import type {TableStore} from '../../../src/core/session/stores/frame-table.js';
import {makeMeta} from '../../helpers/factories.js';

// The TUI on big captures (docs/performance.md#tui-on-big-captures): `view` hands the session to the TUI on the capture's header, before the records are
// read, and reports the load through the progress store. The TUI here is a stand-in that records what it
// was given; the file is real and is read by the real reader (blocks of up to 1 MiB).

const PAIRS = 6000;

/** A capture of an initialize exchange and PAIRS - 1 tools/call pairs (one chunk record per frame), over 2 MiB. */
function writeCapture(file: string): number {
	const lines = [encodeHeader(makeMeta({mode: 'tap'}))];
	const offsets = {stdin: 0, stdout: 0};
	let seq = 0;
	const chunk = (stream: 'stdin' | 'stdout', tMs: number, text: string): void => {
		const bytes = new TextEncoder().encode(text);
		lines.push(encodeEvent({type: 'chunk', chunk: {seq: seq++, stream, tMs, offset: offsets[stream], bytes}}));
		offsets[stream] += bytes.length;
	};

	chunk(
		'stdin',
		1,
		'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n',
	);
	chunk(
		'stdout',
		2,
		'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"t","version":"1"}}}\n',
	);
	for (let id = 1; id < PAIRS; id++) {
		chunk(
			'stdin',
			2 + id,
			`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"call ${id}"}}}\n`,
		);
		chunk(
			'stdout',
			2.5 + id,
			`{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"echo of call ${id}: ${'lorem ipsum '.repeat(8)}"}]}}\n`,
		);
	}

	lines.push(encodeEvent({type: 'mark', mark: {type: 'stdin-closed', tMs: PAIRS + 5}}));
	lines.push(encodeEvent({type: 'mark', mark: {type: 'eof', stream: 'stdout', tMs: PAIRS + 6}}));
	lines.push(encodeEvent({type: 'mark', mark: {type: 'eof', stream: 'stderr', tMs: PAIRS + 6}}));
	lines.push(encodeEvent({type: 'exit', exit: {code: 0, signal: null, tMs: PAIRS + 7}}));
	writeFileSync(file, `${lines.join('\n')}\n`);
	return PAIRS * 2;
}

interface Seen {
	/** Frames in the session and the progress when the TUI was started. */
	readonly startFrames: number;
	readonly startProgress: CaptureLoadProgress;
	/** Every progress published, in order, with the session's frame count at that moment. */
	readonly updates: {progress: CaptureLoadProgress; sessionFrames: number}[];
	store?: TableStore;
}

/** A stand-in TUI: records what it sees, and quits once `quitWhen` holds for a progress update. */
function recordingTui(seen: Seen[], quitWhen: (progress: CaptureLoadProgress) => boolean): StartTui {
	return async (store, {loading}) => {
		const record: Seen = {
			startFrames: store.getSnapshot().frames.length,
			startProgress: loading!.getSnapshot(),
			updates: [],
			store,
		};
		seen.push(record);
		return new Promise<number>((resolve) => {
			const unsubscribe = loading!.subscribe(() => {
				const progress = loading!.getSnapshot();
				record.updates.push({progress, sessionFrames: store.getSnapshot().frames.length});
				if (quitWhen(progress)) {
					unsubscribe();
					resolve(0);
				}
			});
		});
	};
}

let dir: string;
let isTTY: boolean | undefined;
beforeEach(() => {
	dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-view-tui-'));
	isTTY = process.stdout.isTTY;
	// `view` picks the TUI only on a terminal.
	process.stdout.isTTY = true;
});

afterEach(() => {
	process.stdout.isTTY = isTTY as boolean;
	rmSync(dir, {recursive: true, force: true});
	vi.restoreAllMocks();
});

async function runView(file: string, tui: StartTui): Promise<void> {
	await viewCommand({loadTui: async () => tui}).parseAsync([file], {from: 'user'});
}

describe('view in the TUI: progressive loading', () => {
	it(
		'starts the TUI before any record is read, then publishes frames and bytes block by block until done',
		{timeout: 60_000},
		async () => {
			const file = path.join(dir, 'capture.ndjson');
			const frameCount = writeCapture(file);
			const size = statSync(file).size;
			expect(size).toBeGreaterThan(2 * 1024 * 1024);
			const seen: Seen[] = [];
			await runView(
				file,
				recordingTui(seen, (progress) => progress.isDone),
			);

			expect(seen).toHaveLength(1);
			const [run] = seen as [Seen];
			expect(run.startFrames).toBe(0);
			expect(run.startProgress).toEqual({frames: 0, bytesRead: 0, totalBytes: size, isDone: false});
			// After a block of 1 MiB at most (the first one is always published; later ones at most every 250 ms), then the last one (done).
			const read = run.updates.map((u) => u.progress.bytesRead);
			expect(read[0]).toBe(1024 * 1024);
			expect(read.every((bytes, i) => i === 0 || bytes >= read[i - 1]!)).toBe(true);
			expect(read.slice(0, -1).every((bytes) => bytes % (1024 * 1024) === 0 || bytes === size)).toBe(true);
			// Frames showed up in the session before the load was done, and the count published is the session's.
			const first = run.updates[0]!;
			expect(first.progress.isDone).toBe(false);
			expect(first.progress.frames).toBeGreaterThan(0);
			expect(first.progress.frames).toBeLessThan(frameCount);
			expect(first.sessionFrames).toBe(first.progress.frames);
			const last = run.updates.at(-1)!;
			expect(last.progress).toEqual({frames: frameCount, bytesRead: size, totalBytes: size, isDone: true});
			expect(run.store!.getSnapshot().isEnded).toBe(true);
			expect(run.store!.getSnapshot().frames).toHaveLength(frameCount);
		},
	);

	it('stops reading when the user quits while it loads, and says so on stderr', {timeout: 60_000}, async () => {
		const file = path.join(dir, 'capture.ndjson');
		const frameCount = writeCapture(file);
		const size = statSync(file).size;
		const stderr: string[] = [];
		vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
			stderr.push(String(chunk));
			return true;
		});
		const seen: Seen[] = [];
		// Quit after the first block.
		await runView(
			file,
			recordingTui(seen, () => true),
		);

		const [run] = seen as [Seen];
		expect(run.updates).toHaveLength(1);
		const frames = run.store!.getSnapshot().frames.length;
		expect(frames).toBe(run.updates[0]!.progress.frames);
		expect(frames).toBeLessThan(frameCount);
		expect(run.store!.getSnapshot().isEnded).toBe(false);
		expect(stderr.join('')).toBe(
			`mcp-wire: ${file}: quit while loading, after ${1024 * 1024} of ${size} bytes (${Math.floor((1024 * 1024 * 100) / size)}%); the summary covers what was read\n`,
		);
	});

	it('a binary capture cut inside its session header gets the same one line as the plain paths, and no TUI', async () => {
		const file = path.join(dir, 'cut-header.cap');
		writeFileSync(file, encodeCaptureStart(makeMeta({mode: 'tap'})).subarray(0, 100));
		const seen: Seen[] = [];
		await expect(
			runView(
				file,
				recordingTui(seen, () => true),
			),
		).rejects.toThrow(
			`view: ${file} is an mcp-wire capture cut short inside its session header: there is nothing to show`,
		);
		expect(seen).toEqual([]);
	});
});

describe('view in the TUI: an incomplete capture', () => {
	const REQUEST =
		'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n';
	const REPLY =
		'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"t","version":"1"}}}\n';
	const LOG = 'log line\n';
	/** After a gap, framing starts again after the first line end: the rest of the line cut by the gap, then the reply. */
	const AFTER_GAP = `cut"}}\n${REPLY}`;

	/** A binary capture: the request, a 1,000-byte gap on stdout, the reply after it, and the end record saying so. */
	function writeGapCapture(file: string): void {
		const enc = (text: string) => new TextEncoder().encode(text);
		writeFileSync(
			file,
			Buffer.concat([
				encodeCaptureStart(makeMeta({mode: 'tap'})),
				encodeChunkRecord('stdin', 1, 0, enc(REQUEST)),
				encodeChunkRecord('stderr', 1.5, 0, enc(LOG)),
				encodeGapRecord({stream: 'stdout', offset: 0, length: 1000, reason: 'lag', tMs: 2}),
				encodeChunkRecord('stdout', 3, 1000, enc(AFTER_GAP)),
				encodeJsonRecord(RECORD_TYPE.exit, 4, encodeEvent({type: 'exit', exit: {code: 0, signal: null, tMs: 4}})),
				encodeEndRecord(
					{
						complete: false,
						recorded: {stdin: REQUEST.length, stdout: AFTER_GAP.length, stderr: LOG.length},
						missing: {stdin: 0, stdout: 1000, stderr: 0},
						gaps: 1,
					},
					5,
				),
			]),
		);
	}

	/** What `view --no-tui` writes on stderr for the file (the plain path's words). */
	async function plainStderr(file: string): Promise<string> {
		const stderr: string[] = [];
		const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
			stderr.push(String(chunk));
			return true;
		});
		const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
		try {
			await viewCommand({}).parseAsync([file, '--no-tui'], {from: 'user'});
		} finally {
			err.mockRestore();
			out.mockRestore();
		}

		return stderr.join('');
	}

	it("a binary capture with a gap: the TUI is told from the start, in the plain path's words, and counts only the bytes captured", async () => {
		const file = path.join(dir, 'gap.cap');
		writeGapCapture(file);
		const sentence =
			'the capture is incomplete: 1000 bytes of stdout crossed the wire but are not in it (1 gap, marked where they are)';
		expect(await plainStderr(file)).toContain(`mcp-wire: ${file}: ${sentence}\n`);
		const seen: Seen[] = [];
		await runView(
			file,
			recordingTui(seen, (progress) => progress.isDone),
		);
		const [run] = seen as [Seen];
		expect(run.startProgress.incomplete).toBe(sentence);
		const done = run.updates.at(-1)!.progress;
		expect(done.isDone).toBe(true);
		expect(done.incomplete).toBe(sentence);
		const snapshot = run.store!.getSnapshot();
		// The session's stdout length counts the gap (offsets stay true); the status bar counts what was captured.
		expect(snapshot.summary.streams.stdout.bytes).toBe(1000 + AFTER_GAP.length);
		const model = statusModel(snapshot, {missing: gapBytes(snapshot.marks), incomplete: done.incomplete!});
		expect(model.streams.map((s) => [s.stream, s.bytes])).toEqual([
			['stdin', REQUEST.length],
			['stdout', AFTER_GAP.length],
			['stderr', LOG.length],
		]);
		const bar = statusSegments(model, 120)
			.map((segment) => segment.text)
			.join('');
		expect(bar).toContain(`S→C 1 fr ${AFTER_GAP.length} B`);
		expect(bar.endsWith('■ ended, exit 0  ▲ incomplete')).toBe(true);
	});

	it('a tap capture whose end record has stalls: the status bar says so from the start (while it loads) and after', async () => {
		const file = path.join(dir, 'stalls.cap');
		const enc = (text: string) => new TextEncoder().encode(text);
		const stalls = {count: 3, totalMs: 120, longestMs: 80, timedOut: 0};
		writeFileSync(
			file,
			Buffer.concat([
				encodeCaptureStart(makeMeta({mode: 'tap'})),
				encodeChunkRecord('stdin', 1, 0, enc(REQUEST)),
				encodeChunkRecord('stdout', 3, 0, enc(REPLY)),
				encodeJsonRecord(RECORD_TYPE.exit, 4, encodeEvent({type: 'exit', exit: {code: 0, signal: null, tMs: 4}})),
				encodeEndRecord(
					{
						complete: true,
						recorded: {stdin: REQUEST.length, stdout: REPLY.length, stderr: 0},
						missing: {stdin: 0, stdout: 0, stderr: 0},
						gaps: 0,
						stalls,
					},
					5,
				),
			]),
		);
		const seen: Seen[] = [];
		await runView(
			file,
			recordingTui(seen, (progress) => progress.isDone),
		);
		const [run] = seen as [Seen];
		// Known from the end record before the first frame is read: the bar shows it while the capture loads.
		expect(run.startProgress.stalls).toEqual(stalls);
		const bar = (model: ReturnType<typeof statusModel>, width: number) =>
			statusSegments(model, width)
				.map((segment) => segment.text)
				.join('');
		const snapshot = run.store!.getSnapshot();
		expect(snapshot.summary.stalls).toEqual(stalls);
		expect(bar(statusModel(snapshot), 120).endsWith('■ ended, exit 0  stalls 3×, 120 ms')).toBe(true);
		expect(bar(statusModel(snapshot), 80).endsWith('■ ended, exit 0  stalls 3×')).toBe(true);
		expect(statusModel(snapshot).stalls).toEqual(stalls);
	});

	it('a binary capture cut inside a record: its problem line gives the record and its byte offset, never a line number', async () => {
		const file = path.join(dir, 'cut.mcpcap');
		const whole = Buffer.concat([
			encodeCaptureStart(makeMeta({mode: 'tap'})),
			encodeChunkRecord('stdin', 1, 0, Buffer.from(REQUEST)),
			encodeChunkRecord('stdout', 2, 0, Buffer.from(REPLY)),
		]);
		writeFileSync(file, whole.subarray(0, whole.length - 5));
		const cutAt = whole.length - (24 + Buffer.byteLength(REPLY));
		const stderr = await plainStderr(file);
		expect(stderr).toContain(
			`mcp-wire: ${file}: record 4 at byte ${cutAt}: the capture ends inside a record (${24 + Buffer.byteLength(REPLY) - 5} bytes of it); the cut record is skipped\n`,
		);
		expect(stderr).not.toContain(`${file}:4:`);
	});

	it("an NDJSON capture cut inside its last record: said once read, in the plain path's words, and the summary says cut short", async () => {
		const file = path.join(dir, 'cut.ndjson');
		const chunk = (stream: 'stdin' | 'stdout', seq: number, tMs: number, text: string) =>
			encodeEvent({type: 'chunk', chunk: {seq, stream, tMs, offset: 0, bytes: new TextEncoder().encode(text)}});
		const whole = [
			encodeHeader(makeMeta({mode: 'tap'})),
			chunk('stdin', 0, 1, REQUEST),
			chunk('stdout', 1, 2, REPLY),
			encodeEvent({type: 'exit', exit: {code: 0, signal: null, tMs: 3}}),
		].join('\n');
		writeFileSync(file, whole.slice(0, -10));
		const words = 'the capture was cut short (its last record is incomplete); showing everything before it';
		expect(await plainStderr(file)).toContain(`mcp-wire: ${file}: ${words}\n`);
		vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
		const seen: Seen[] = [];
		await runView(
			file,
			recordingTui(seen, (progress) => progress.isDone),
		);
		const [run] = seen as [Seen];
		expect(run.startProgress.incomplete).toBeUndefined();
		expect(run.updates.at(-1)!.progress).toMatchObject({isDone: true, incomplete: words});
		expect(run.store!.getSnapshot().summary.incomplete).toEqual({cutShort: true, missingBytes: 0, gaps: 0});
	});
});
