import {
	chmodSync,
	chownSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import {execFileSync} from 'node:child_process';
import net from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {decodeRecords, encodeEvent, encodeHeader, type SessionHeader} from '../../src/core/capture/record-codec.js';
import type {SessionEvent, SessionMeta} from '../../src/core/types.js';
import {
	chooseTap,
	describeIncomplete,
	followTap,
	listLiveTaps,
	readRecordFile,
	RecordReader,
	type CaptureCompleteness,
	type LiveTap,
} from '../../src/captures/attach.js';
import {
	encodeCaptureStart,
	encodeChunkRecord,
	encodeEndRecord,
	encodeGapRecord,
	encodeJsonRecord,
	RECORD_TYPE,
} from '../../src/core/capture/binary-codec.js';
import type {PlatformFacts} from '../../src/captures/capture-store.js';
import {LiveSocketServer} from '../../src/tap/live-socket.js';

const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.0.0'},
	node: 'v20.0.0',
	platform: 'linux-x64',
	command: ['server'],
	envMode: 'inherit',
	startedAt: '2026-01-01T00:00:00.000Z',
	pid: 99,
	mode: 'tap',
	name: 'srv',
};

const enc = new TextEncoder();
const chunk = (
	seq: number,
	stream: 'stdin' | 'stdout' | 'stderr',
	offset: number,
	tMs: number,
	text: string,
): SessionEvent => ({
	type: 'chunk',
	chunk: {seq, stream, offset, tMs, bytes: enc.encode(text)},
});

const EVENTS: SessionEvent[] = [
	chunk(
		0,
		'stdin',
		0,
		1,
		'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n',
	),
	chunk(
		1,
		'stdout',
		0,
		5,
		'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}\n',
	),
	chunk(2, 'stderr', 0, 6, 'log: ünïcode ✓\n'),
	chunk(3, 'stdin', 147, 7, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n'),
	{type: 'mark', mark: {type: 'stdin-closed', tMs: 8}},
	{type: 'exit', exit: {code: 0, signal: null, tMs: 9}},
];

const FILE_TEXT = [encodeHeader(META), ...EVENTS.map((e) => encodeEvent(e))].join('\n') + '\n';

function readAllAt(
	bytes: Uint8Array,
	cuts: readonly number[],
): {header?: SessionHeader; events: SessionEvent[]; reader: RecordReader} {
	const events: SessionEvent[] = [];
	let header: SessionHeader | undefined;
	const reader = new RecordReader({onHeader: (h) => (header = h), onEvent: (e) => events.push(e)});
	let at = 0;
	for (const cut of [...cuts, bytes.length]) {
		reader.push(bytes.subarray(at, cut));
		at = cut;
	}

	reader.end();
	return {...(header ? {header} : {}), events, reader};
}

describe('RecordReader', () => {
	it('decodes the same records as decodeRecords wherever the bytes are split (every single cut point)', () => {
		const bytes = enc.encode(FILE_TEXT);
		const expected = decodeRecords(FILE_TEXT);
		for (let cut = 0; cut <= bytes.length; cut++) {
			const got = readAllAt(bytes, [cut]);
			expect(got.header).toEqual(expected.header);
			expect(got.events).toEqual(expected.events);
			expect(got.reader.problems).toEqual([]);
		}
	});

	it('reports a cut last line as truncated, with its line number, and keeps every record before it', () => {
		const bytes = enc.encode(FILE_TEXT);
		const cut = bytes.subarray(0, bytes.length - 30);
		const got = readAllAt(cut, [100, 1000]);
		expect(got.reader.isTruncated).toBe(true);
		expect(got.events).toEqual(EVENTS.slice(0, -1));
		const lastLine = FILE_TEXT.split('\n').length - 1;
		expect(got.reader.problems).toEqual([
			{
				line: lastLine,
				message: `the input ends inside a record (${encodeEvent(EVENTS.at(-1)!).length + 1 - 30} bytes cut); the cut record is skipped`,
			},
		]);
		expect(decodeRecords(new TextDecoder().decode(cut)).isTruncated).toBe(true);
	});

	it('reports bad lines and records before the header', () => {
		const text = `${encodeEvent(EVENTS[0]!)}\nnot json\n${encodeHeader(META)}\n{"type":"chunk"}\n${encodeHeader(META)}\n`;
		const got = readAllAt(enc.encode(text), []);
		expect(got.events).toEqual([]);
		expect(got.reader.problems.map((p) => p.line)).toEqual([1, 2, 4, 5]);
		expect(got.reader.problems[0]?.message).toBe('record before any session header, skipped');
		expect(got.reader.problems[3]?.message).toBe('a second session header, skipped');
	});

	it('reads a file through readRecordFile', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-read-'));
		try {
			const file = path.join(dir, 'c.ndjson');
			writeFileSync(file, FILE_TEXT);
			const events: SessionEvent[] = [];
			const reader = await readRecordFile(file, {onHeader: () => undefined, onEvent: (e) => events.push(e)});
			expect(reader.sessionHeader).toEqual({...META, format: 1});
			expect(events).toEqual(decodeRecords(FILE_TEXT).events);
		} finally {
			rmSync(dir, {recursive: true, force: true});
		}
	});
});

/** {@link EVENTS} with chunk offsets that tile each stream (a binary capture checks them). */
const TILED: SessionEvent[] = (() => {
	const next = {stdin: 0, stdout: 0, stderr: 0};
	return EVENTS.map((event) => {
		if (event.type !== 'chunk') return event;
		const offset = next[event.chunk.stream];
		next[event.chunk.stream] += event.chunk.bytes.length + (event.chunk.seq === 1 ? 4096 : 0);
		return {type: 'chunk', chunk: {...event.chunk, offset}};
	});
})();
const byteLength = (stream: 'stdin' | 'stdout' | 'stderr'): number =>
	TILED.reduce((n, e) => n + (e.type === 'chunk' && e.chunk.stream === stream ? e.chunk.bytes.length : 0), 0);

/** The same session as a binary capture (format 2) with a gap on stdout and its end record. */
function binaryFile(withEnd: boolean): Buffer {
	const parts: Buffer[] = [encodeCaptureStart(META)];
	for (const event of TILED) {
		if (event.type === 'chunk')
			parts.push(encodeChunkRecord(event.chunk.stream, event.chunk.tMs, event.chunk.offset, event.chunk.bytes));
		else if (event.type === 'mark') parts.push(encodeJsonRecord(RECORD_TYPE.mark, event.mark.tMs, encodeEvent(event)));
		else if (event.type === 'exit') parts.push(encodeJsonRecord(RECORD_TYPE.exit, event.exit.tMs, encodeEvent(event)));
		if (event.type === 'chunk' && event.chunk.seq === 1)
			parts.push(
				encodeGapRecord({stream: 'stdout', offset: event.chunk.bytes.length, length: 4096, reason: 'lag', tMs: 5.5}),
			);
	}

	if (withEnd)
		parts.push(
			encodeEndRecord(
				{
					complete: false,
					recorded: {stdin: byteLength('stdin'), stdout: byteLength('stdout'), stderr: byteLength('stderr')},
					missing: {stdin: 0, stdout: 4096, stderr: 0},
					gaps: 1,
				},
				10,
			),
		);
	return Buffer.concat(parts);
}

const BINARY_EVENTS: SessionEvent[] = [
	...TILED.slice(0, 2),
	{type: 'mark', mark: {type: 'gap', stream: 'stdout', offset: 125, length: 4096, reason: 'lag', tMs: 5.5}},
	...TILED.slice(2),
];

describe('RecordReader: binary captures (format 2)', () => {
	it('decodes the same events wherever the bytes are split (every single cut point), gaps as gap marks', () => {
		const bytes = binaryFile(true);
		for (let cut = 0; cut <= bytes.length; cut++) {
			const got = readAllAt(bytes, [cut]);
			expect(got.header, `cut at ${cut}`).toEqual({...META, format: 1});
			expect(got.events, `cut at ${cut}`).toEqual(BINARY_EVENTS);
			expect(got.reader.problems).toEqual([]);
			expect(got.reader.format).toBe(2);
			expect(got.reader.isTruncated).toBe(false);
			expect(got.reader.completeness).toEqual({
				format: 2,
				complete: false,
				cutShort: false,
				missing: {stdin: 0, stdout: 4096, stderr: 0},
				gaps: 1,
			});
		}
	});

	it('a capture without its end record is cut short', () => {
		const got = readAllAt(binaryFile(false), [50]);
		expect(got.events).toEqual(BINARY_EVENTS);
		expect(got.reader.isTruncated).toBe(true);
		expect(got.reader.completeness).toMatchObject({format: 2, complete: false, cutShort: true});
	});

	it('readRecordFile says how complete a file is before its header, from its end record', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-read-'));
		try {
			const order: string[] = [];
			const handlers = {
				onCompleteness: (c: CaptureCompleteness) => order.push(`completeness ${describeIncomplete(c) ?? 'complete'}`),
				onHeader: () => order.push('header'),
				onEvent: () => undefined,
			};
			const file = path.join(dir, 'c.ndjson');
			writeFileSync(file, binaryFile(true));
			await readRecordFile(file, handlers);
			writeFileSync(file, binaryFile(false));
			await readRecordFile(file, handlers);
			writeFileSync(file, FILE_TEXT);
			await readRecordFile(file, handlers);
			expect(order).toEqual([
				'completeness the capture is incomplete: 4096 bytes of stdout crossed the wire but are not in it (1 gap, marked where they are)',
				'header',
				'completeness the capture is incomplete: it was cut short (no end record: the tap was killed or the file was cut); everything before the cut is shown',
				'header',
				// NDJSON (format 1) cannot say before it is read.
				'header',
			]);
		} finally {
			rmSync(dir, {recursive: true, force: true});
		}
	});
});

describe('chooseTap', () => {
	const tap = (name: string, pid: number, serverPid: number, state: LiveTap['state'] = 'live'): LiveTap => ({
		name,
		pid,
		address: `/run/${name}-${pid}.sock`,
		state,
		header: {...META, name, pid: serverPid, format: 1},
	});
	const taps = [tap('fs', 10, 11), tap('git', 20, 21), tap('mute', 30, 31, 'silent')];

	it('picks by name, tap pid or server pid', () => {
		expect(chooseTap(taps, 'git').pid).toBe(20);
		expect(chooseTap(taps, '10').name).toBe('fs');
		expect(chooseTap(taps, '21').name).toBe('git');
	});

	it('picks the only live tap without a target, and explains otherwise', () => {
		expect(chooseTap([taps[0]!, taps[2]!], undefined).name).toBe('fs');
		expect(() => chooseTap(taps, undefined)).toThrow(
			'several taps are live, name one: fs (pid 10, server 11), git (pid 20, server 21)',
		);
		expect(() => chooseTap([], undefined)).toThrow(/^no live taps/);
		expect(() => chooseTap(taps, 'mute')).toThrow(
			'no live tap named "mute" (live: fs (pid 10, server 11), git (pid 20, server 21))',
		);
		expect(() => chooseTap(taps, '99')).toThrow(/^no live tap with pid 99/);
	});
});

describe('listLiveTaps', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-run-'));
	});
	afterEach(() => {
		rmSync(dir, {recursive: true, force: true});
	});

	it('lists sockets that answer with a header, marks silent ones, removes dead ones', async () => {
		const run = path.join(dir, 'mcp-wire');
		mkdirSync(run, {mode: 0o700});
		const facts: PlatformFacts = {
			env: {XDG_RUNTIME_DIR: dir},
			platform: 'linux',
			homedir: dir,
			tmpdir: dir,
			uid: process.getuid!(),
			user: 'me',
		};
		const file = path.join(dir, 'c.ndjson');
		writeFileSync(file, FILE_TEXT);
		const live = new LiveSocketServer(
			path.join(run, `srv-${process.pid}.sock`),
			{path: file, size: () => Buffer.byteLength(FILE_TEXT)},
			() => undefined,
		);
		await live.listen();
		const silent = net.createServer(() => undefined);
		await new Promise<void>((resolve) => silent.listen(path.join(run, `quiet-${process.pid}.sock`), resolve));
		// A socket whose tap died (bound by a process that exited without unlinking it).
		const dead = path.join(run, 'gone-2147483646.sock');
		execFileSync('python3', ['-c', 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])', dead]);
		// Not a socket: neither listed nor removed (readers trust only their own sockets).
		const planted = path.join(run, 'fake-2147483645.sock');
		writeFileSync(planted, '');
		try {
			const taps = await listLiveTaps({facts, timeoutMs: 300});
			expect(taps.map((t) => [t.name, t.pid, t.state, t.header?.pid])).toEqual([
				['srv', process.pid, 'live', 99],
				['quiet', process.pid, 'silent', undefined],
			]);
			expect(existsSync(dead)).toBe(false);
			expect(existsSync(planted)).toBe(true);
		} finally {
			await live.close(10);
			silent.close();
		}
	});
});

describe('listLiveTaps on a slow tap', () => {
	it('a tap that answers after the first wait is live, not silent', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-slow-'));
		const run = path.join(dir, 'mcp-wire');
		mkdirSync(run, {mode: 0o700});
		const facts: PlatformFacts = {
			env: {XDG_RUNTIME_DIR: dir},
			platform: 'linux',
			homedir: dir,
			tmpdir: dir,
			uid: process.getuid!(),
			user: 'me',
		};
		// Each connection gets the header 450 ms late, as a tap busy forwarding (or starved of CPU) answers.
		const slow = net.createServer((socket) => {
			const timer = setTimeout(() => socket.end(`${FILE_TEXT.split('\n')[0]}\n`), 450);
			socket.on('close', () => clearTimeout(timer));
		});
		await new Promise<void>((resolve) => slow.listen(path.join(run, `slow-${process.pid}.sock`), resolve));
		try {
			const taps = await listLiveTaps({facts, timeoutMs: 150});
			expect(taps.map((t) => [t.name, t.state, t.header?.pid])).toEqual([['slow', 'live', 99]]);
		} finally {
			slow.close();
			rmSync(dir, {recursive: true, force: true});
		}
	});
});

describe('readers trust only their own runtime directory and sockets', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-trust-'));
	});
	afterEach(() => {
		rmSync(dir, {recursive: true, force: true});
	});
	const factsFor = (uid: number): PlatformFacts => ({
		env: {},
		platform: 'linux',
		homedir: dir,
		tmpdir: dir,
		uid,
		user: 'me',
	});

	it('a fallback runtime directory made by another user is refused, with the reason', async () => {
		const run = path.join(dir, 'mcp-wire-4242');
		mkdirSync(run, {mode: 0o700});
		const server = net.createServer((socket) => socket.end(`${FILE_TEXT.split('\n')[0]}\n`));
		await new Promise<void>((resolve) => server.listen(path.join(run, `evil-${process.pid}.sock`), resolve));
		try {
			// The directory is ours on disk; the reader runs as uid 4242: it belongs to "someone else".
			await expect(listLiveTaps({facts: factsFor(4242), timeoutMs: 300})).rejects.toThrow(
				`${run} is owned by uid ${process.getuid!()}, not 4242`,
			);
		} finally {
			server.close();
		}
	});

	it('a symlinked or world-writable runtime directory is refused', async () => {
		const uid = process.getuid!();
		const elsewhere = path.join(dir, 'elsewhere');
		mkdirSync(elsewhere, {mode: 0o700});
		symlinkSync(elsewhere, path.join(dir, `mcp-wire-${uid}`));
		await expect(listLiveTaps({facts: factsFor(uid), timeoutMs: 300})).rejects.toThrow('is a symlink');
		rmSync(path.join(dir, `mcp-wire-${uid}`));
		mkdirSync(path.join(dir, `mcp-wire-${uid}`), {mode: 0o700});
		chmodSync(path.join(dir, `mcp-wire-${uid}`), 0o777);
		await expect(listLiveTaps({facts: factsFor(uid), timeoutMs: 300})).rejects.toThrow(
			'is writable by others (mode 777)',
		);
	});

	it('a socket owned by someone else is not listed', async () => {
		const uid = process.getuid!();
		const run = path.join(dir, `mcp-wire-${uid}`);
		mkdirSync(run, {mode: 0o700});
		const sock = path.join(run, `other-${process.pid}.sock`);
		const server = net.createServer((socket) => socket.end(`${FILE_TEXT.split('\n')[0]}\n`));
		await new Promise<void>((resolve) => server.listen(sock, resolve));
		try {
			expect((await listLiveTaps({facts: factsFor(uid), timeoutMs: 300})).map((t) => t.name)).toEqual(['other']);
			if (uid === 0) {
				chownSync(sock, 4242, 4242);
				expect(await listLiveTaps({facts: factsFor(uid), timeoutMs: 300})).toEqual([]);
				expect(existsSync(sock)).toBe(true);
			}
		} finally {
			server.close();
		}
	});
});

describe('followTap: a viewer the tap cut off finishes from the capture file', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-follow-'));
	});
	afterEach(() => {
		rmSync(dir, {recursive: true, force: true});
	});

	/** 300 stdout chunks of 8 KiB (about 3.3 MB of records) and the exit. */
	const bulk: SessionEvent[] = [
		...Array.from({length: 300}, (_, k) => chunk(k, 'stdout', k * 8192, k, `${String(k).padStart(8191, '.')}\n`)),
		{type: 'exit', exit: {code: 0, signal: null, tMs: 400}},
	];

	/**
	 * Serve a capture whose first 10 events are on the socket, let the viewer read them, then end the
	 * session with the rest still unsent and no grace: the tap cuts the viewer off, as it does to one
	 * still behind 1 s after the session ended.
	 */
	async function followCutOff(
		meta: SessionMeta,
		file: string,
	): Promise<{events: SessionEvent[]; reader: RecordReader}> {
		const lines = [encodeHeader(meta), ...bulk.map((e) => encodeEvent(e))];
		writeFileSync(file, lines.join('\n') + '\n');
		let size = Buffer.byteLength(lines.slice(0, 11).join('\n') + '\n');
		const live = new LiveSocketServer(path.join(dir, 'tap.sock'), {path: file, size: () => size}, () => undefined);
		expect(await live.listen()).toBe(true);
		const events: SessionEvent[] = [];
		let tenSeen: () => void = () => undefined;
		const ten = new Promise<void>((resolve) => (tenSeen = resolve));
		const ended = new Promise<RecordReader>((resolve) => {
			followTap(live.address, {
				onHeader: () => undefined,
				onEvent: (event) => {
					events.push(event);
					if (events.length === 10) tenSeen();
				},
				onEnd: resolve,
			});
		});
		await ten;
		size = Buffer.byteLength(lines.join('\n') + '\n');
		await live.close(0);
		return {events, reader: await ended};
	}

	it('hands out every event of the session once, in order, and ends as the file does', async () => {
		const file = path.join(dir, 'cap.ndjson');
		const {events, reader} = await followCutOff({...META, capturePath: file}, file);
		expect(events.length).toBe(bulk.length);
		expect(events.map((e) => (e.type === 'chunk' ? e.chunk.seq : e.type))).toEqual(
			bulk.map((e) => (e.type === 'chunk' ? e.chunk.seq : e.type)),
		);
		const bytesOf = (list: readonly SessionEvent[]): Buffer =>
			Buffer.concat(list.flatMap((e) => (e.type === 'chunk' ? [Buffer.from(e.chunk.bytes)] : [])));
		expect(bytesOf(events).equals(bytesOf(decodeRecords(readFileSync(file, 'utf8')).events))).toBe(true);
		expect(events.at(-1)).toEqual(bulk.at(-1));
		expect([reader.problems, reader.isTruncated]).toEqual([[], false]);
	});

	it('without a capture path in the header the session ends where the socket did (the cut is real)', async () => {
		const {events, reader} = await followCutOff(META, path.join(dir, 'cap.ndjson'));
		expect(events.length).toBeGreaterThanOrEqual(10);
		expect(events.length).toBeLessThan(bulk.length);
		expect(reader.isTruncated || reader.pendingBytes === 0).toBe(true);
	});

	it('reads no more from the socket while onProgress holds (stdout not drained), then hands out the rest (docs/performance.md#replay: attach --json into a slow pipe)', async () => {
		const file = path.join(dir, 'cap.ndjson');
		writeFileSync(file, [encodeHeader(META), ...bulk.map((e) => encodeEvent(e))].join('\n') + '\n');
		const live = new LiveSocketServer(
			path.join(dir, 'tap.sock'),
			{path: file, size: () => readFileSync(file).length},
			() => undefined,
		);
		expect(await live.listen()).toBe(true);
		const events: SessionEvent[] = [];
		const received: number[] = [];
		let release: () => void = () => undefined;
		let held: () => void = () => undefined;
		const isHeld = new Promise<void>((resolve) => (held = resolve));
		const ended = new Promise<RecordReader>((resolve) => {
			followTap(live.address, {
				onHeader: () => undefined,
				onEvent: (event) => events.push(event),
				onProgress: (bytes) => {
					received.push(bytes);
					if (received.length > 1) return undefined;
					held();
					return new Promise<void>((resolve) => (release = resolve));
				},
				onEnd: resolve,
			});
		});
		await Promise.race([
			isHeld,
			new Promise((_, reject) => setTimeout(() => reject(new Error('onProgress was never called')), 10_000)),
		]);
		const atHold = events.length;
		await new Promise((resolve) => setTimeout(resolve, 300));
		// The file is 3.3 MB: far more than one read; nothing more was read while held.
		expect([events.length, received.length]).toEqual([atHold, 1]);
		expect(atHold).toBeLessThan(bulk.length);
		release();
		const closing = live.close(30_000);
		const reader = await ended;
		await closing;
		expect(events.map((e) => (e.type === 'chunk' ? e.chunk.seq : e.type))).toEqual(
			bulk.map((e) => (e.type === 'chunk' ? e.chunk.seq : e.type)),
		);
		expect(received.at(-1)).toBe(readFileSync(file).length);
		expect([reader.problems, reader.isTruncated]).toEqual([[], false]);
	});

	it('ignores a capture path whose file is another session', async () => {
		const file = path.join(dir, 'cap.ndjson');
		const other = path.join(dir, 'other.ndjson');
		writeFileSync(
			other,
			[encodeHeader({...META, pid: 7, capturePath: file}), ...bulk.map((e) => encodeEvent(e))].join('\n') + '\n',
		);
		// The socket serves cap.ndjson, whose header names other.ndjson: a different session (pid 7).
		const {events} = await followCutOff({...META, capturePath: other}, file);
		expect(events.length).toBeLessThan(bulk.length);
	});
});
