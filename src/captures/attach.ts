import {Buffer} from 'node:buffer';
import {closeSync, createReadStream, fstatSync, openSync, readdirSync, readSync, unlinkSync} from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
	CaptureDecoder,
	isBinaryCapture,
	readCaptureEnd,
	type CaptureEnd,
	type CaptureStalls,
	type StreamBytes,
} from '../core/capture/binary-codec.js';
import {decodeRecordBytes, type DecodeProblem, type SessionHeader} from '../core/capture/record-codec.js';
import type {Mark, SessionEvent} from '../core/types.js';
import {
	checkPrivateDir,
	currentPlatform,
	isOwnEntry,
	isProcessAlive,
	parseSocketName,
	runtimeDir,
	sanitizeName,
	type PlatformFacts,
} from './capture-store.js';

/**
 * The watching side of a tap (docs/cli.md#attach): read NDJSON records incrementally (from a live socket or
 * a capture file), find live taps in the runtime directory, and feed records into a Session as they
 * arrive, so `attach` and `view` present exactly what a live probe presents (live = replay).
 */

/**
 * How complete a capture is, known before its records are read (a binary capture file: from its end
 * record, read first) or once it ended (a live tap, an NDJSON file).
 */
export interface CaptureCompleteness {
	/** 1: NDJSON records; 2: binary records (binary-codec.ts). */
	readonly format: 1 | 2;
	/** Every forwarded byte is in the capture and it has its end (format 2 only; format 1 cannot say). */
	readonly complete: boolean;
	/** The capture has no end record (the tap was killed) or ends inside a record. */
	readonly cutShort: boolean;
	/** Bytes per stream that crossed the wire but are not in the capture (from gap records). */
	readonly missing: StreamBytes;
	/** Number of gaps. */
	readonly gaps: number;
	/** The end record's `stalls` (the tap paused reading for its capture), when it has them. */
	readonly stalls?: CaptureStalls;
}

/** Callbacks of {@link RecordReader}. */
export interface RecordHandlers {
	/** The first `session` header. */
	onHeader(header: SessionHeader): void;
	/**
	 * Every valid non-header record, in order (a gap in a binary capture comes as a `gap` mark), with the
	 * byte offset in the input of the record it came from (its line in format 1, its head in format 2):
	 * what captures/capture-read-back.ts needs to read a frame's bytes back from a capture file.
	 */
	onEvent(event: SessionEvent, recordOffset: number): void;
	/**
	 * {@link readRecordFile} and {@link followTap} only: called after each block read from the file (up to
	 * 1 MiB) or received from the tap's socket has been decoded, with the bytes read or received so far (a
	 * progress line: `view` in the TUI). When it returns a promise, the next block is read (the socket is
	 * paused) once it settles (output backpressure: `view` and `attach` wait for stdout to drain).
	 */
	onProgress?(bytesRead: number): void | Promise<void> | undefined;
	/**
	 * How complete the capture is, as soon as that is known: by {@link readRecordFile} before the header
	 * for a binary capture file (read from its end), else never (see {@link RecordReader.completeness}).
	 */
	onCompleteness?(completeness: CaptureCompleteness): void;
}

/** One line for the top of a view, attach or report: what is missing from an incomplete capture. */
export function describeIncomplete(completeness: CaptureCompleteness): string | undefined {
	const missing = (['stdin', 'stdout', 'stderr'] as const)
		.filter((stream) => completeness.missing[stream] > 0)
		.map((stream) => `${completeness.missing[stream]} bytes of ${stream}`);
	const parts: string[] = [];
	if (missing.length > 0)
		parts.push(
			`${missing.join(' and ')} crossed the wire but are not in it (${completeness.gaps} gap${completeness.gaps === 1 ? '' : 's'}, marked where they are)`,
		);
	if (completeness.cutShort)
		parts.push(
			'it was cut short (no end record: the tap was killed or the file was cut); everything before the cut is shown',
		);
	return parts.length === 0 ? undefined : `the capture is incomplete: ${parts.join('; ')}`;
}

/**
 * An incremental record reader for both capture formats, told apart by their first bytes: binary
 * captures (format 2, binary-codec.ts) and NDJSON records (format 1: `--json` dumps and older captures).
 * NDJSON follows the rules of `decodeRecords` (record-codec.ts): lines are split on LF, each decoded
 * with `decodeRecord`; bad lines become problems with their 1-based line number; a last line without LF
 * that is not complete JSON marks the input as truncated (a cut capture). A binary capture without its
 * end record is truncated too. Bytes may arrive split anywhere, also inside a multi-byte character.
 */
export class RecordReader {
	/** Problems so far (bad lines, a missing or second header, a cut last line). */
	readonly problems: DecodeProblem[] = [];
	private header: SessionHeader | undefined;
	private pending: Buffer[] = [];
	private lineNumber = 0;
	private eventCount = 0;
	private truncated = false;
	private readonly decoder = new TextDecoder('utf-8');
	/** Set once the first bytes told the format: the binary decoder, or null for NDJSON. */
	private binary: CaptureDecoder | null | undefined;
	private start: Buffer[] = [];
	private readonly missing = {stdin: 0, stdout: 0, stderr: 0};
	private gapCount = 0;
	/** NDJSON: where the next recorded byte of each stream is expected (chunks and gap marks move it). */
	private readonly next = {stdin: 0, stdout: 0, stderr: 0};
	/** A `--json` dump's summary said the capture it was made from was cut short (`incomplete.cutShort`). */
	private isDumpOfCut = false;
	/** NDJSON: bytes of input split into lines so far, and the input offset of the pending line's start. */
	private lineInput = 0;
	private pendingStart = 0;
	private lineStart = 0;

	constructor(private readonly handlers: RecordHandlers) {}

	/** The format once known (1 NDJSON, 2 binary). */
	get format(): 1 | 2 | undefined {
		return this.binary === undefined ? undefined : this.binary === null ? 1 : 2;
	}

	/** The end record of a binary capture, once read. */
	get captureEnd(): CaptureEnd | undefined {
		return this.binary?.captureEnd;
	}

	/**
	 * How complete the input is, from what was read so far (after {@link end}: the whole of it). Gap
	 * marks count for both formats (a `--json` dump of a capture with gaps carries them as marks), and a
	 * dump whose summary says `incomplete.cutShort` is cut short (the capture it was made from was).
	 */
	get completeness(): CaptureCompleteness {
		const end = this.binary?.captureEnd;
		const missing = end?.missing ?? {...this.missing};
		const gaps = end?.gaps ?? this.gapCount;
		const isCut = this.truncated || this.isDumpOfCut;
		return {
			format: this.format ?? 1,
			complete: !isCut && gaps === 0 && (this.binary ? end !== undefined && end.complete : true),
			cutShort: isCut,
			missing,
			gaps,
		};
	}

	/** The header, once read. */
	get sessionHeader(): SessionHeader | undefined {
		return this.header;
	}

	/** True when the input ended inside a record. */
	get isTruncated(): boolean {
		return this.truncated;
	}

	/** Number of events handed out. */
	get events(): number {
		return this.eventCount;
	}

	/** Bytes received after the last LF (a record not complete yet). */
	get pendingBytes(): number {
		if (this.binary) return this.binary.pendingBytes;
		let bytes = 0;
		for (const piece of this.pending) bytes += piece.length;
		return bytes;
	}

	/**
	 * Feed the next bytes.
	 * @param isOwned true when the caller never writes to `bytes` again (a file read stream's chunks): a
	 *   record's first part is then held as is, not copied (a 7 MB record line is not copied twice)
	 */
	push(bytes: Uint8Array, isOwned = false): void {
		const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
		if (this.binary === undefined) {
			this.start.push(Buffer.from(buffer));
			const start = Buffer.concat(this.start);
			const isBinary = isBinaryCapture(start);
			if (isBinary === undefined) return;
			this.start = [];
			this.binary = isBinary ? this.binaryDecoder() : null;
			this.push(start);
			return;
		}

		if (this.binary) {
			this.binary.push(buffer);
			this.takeProblems();
			return;
		}

		this.pushLines(buffer, isOwned);
	}

	private binaryDecoder(): CaptureDecoder {
		const decoder: CaptureDecoder = new CaptureDecoder({
			onHeader: (header) => {
				this.header = header;
				this.handlers.onHeader(header);
			},
			onEvent: (event) => this.event(event, decoder.recordOffset),
		});
		return decoder;
	}

	private takeProblems(): void {
		if (this.binary && this.binary.problems.length > 0) this.problems.push(...this.binary.problems.splice(0));
	}

	private event(event: SessionEvent, recordOffset: number): void {
		if (event.type === 'mark' && event.mark.type === 'gap') {
			this.gapCount++;
			this.missing[event.mark.stream] += event.mark.length;
		}

		if (event.type === 'summary' && event.summary.incomplete?.cutShort === true) this.isDumpOfCut = true;
		this.eventCount++;
		this.handlers.onEvent(event, recordOffset);
	}

	private pushLines(buffer: Buffer, isOwned = false): void {
		const base = this.lineInput;
		this.lineInput += buffer.length;
		let start = 0;
		for (;;) {
			const newline = buffer.indexOf(0x0a, start);
			if (newline === -1) break;
			const piece = buffer.subarray(start, newline);
			let line: Buffer | Buffer[];
			if (this.pending.length === 0) {
				this.lineStart = base + start;
				line = piece;
			} else {
				// Handed on in its parts: a big chunk record is decoded from them without joining them (docs/performance.md#replay).
				this.lineStart = this.pendingStart;
				this.pending.push(piece);
				line = this.pending;
				this.pending = [];
			}

			this.line(line, false);
			start = newline + 1;
		}

		if (start < buffer.length) {
			if (this.pending.length === 0) this.pendingStart = base + start;
			this.pending.push(isOwned ? buffer.subarray(start) : Buffer.from(buffer.subarray(start)));
		}
	}

	/** The input ended: decode a last line without LF (a cut one is reported) and check for a header. */
	end(): void {
		if (this.binary === undefined && this.start.length > 0) {
			// Fewer bytes than the binary magic: NDJSON (or nothing usable).
			const start = Buffer.concat(this.start);
			this.start = [];
			this.binary = null;
			this.pushLines(start);
		}

		if (this.binary) {
			this.binary.end();
			this.takeProblems();
			this.truncated = this.binary.isCutShort;
			return;
		}

		if (this.pending.length > 0) {
			const line = Buffer.concat(this.pending);
			this.pending = [];
			this.lineStart = this.pendingStart;
			this.line(line, true);
		}

		if (
			this.header === undefined &&
			this.lineNumber > 0 &&
			this.problems.every((p) => p.message !== 'no session header')
		) {
			this.problems.push({line: 1, message: 'no session header'});
		}
	}

	/**
	 * Format 1: a chunk or gap that starts past the bytes of its stream recorded so far, with no gap mark
	 * in between, is a hole in the file (records lost): an `unrecorded` gap mark is handed on first, at the
	 * exact offset and size, as the binary decoder does (docs/capture-format.md#gaps-and-incomplete-captures).
	 * @returns true when the record overlaps the bytes before it: a problem, and it is skipped
	 */
	private isHole(event: SessionEvent): boolean {
		const at =
			event.type === 'chunk'
				? {
						stream: event.chunk.stream,
						offset: event.chunk.offset,
						length: event.chunk.bytes.length,
						tMs: event.chunk.tMs,
					}
				: event.type === 'mark' && event.mark.type === 'gap'
					? {stream: event.mark.stream, offset: event.mark.offset, length: event.mark.length, tMs: event.mark.tMs}
					: undefined;
		if (at === undefined) return false;
		const expected = this.next[at.stream];
		if (at.offset < expected) {
			this.problems.push({
				line: this.lineNumber,
				message: `${at.stream} ${event.type === 'chunk' ? 'chunk' : 'gap'} at offset ${at.offset} overlaps the ${expected} bytes before it, skipped`,
			});
			return true;
		}
		if (at.offset > expected) {
			const length = at.offset - expected;
			const gap: Mark = {type: 'gap', stream: at.stream, offset: expected, length, reason: 'unrecorded', tMs: at.tMs};
			this.event({type: 'mark', mark: gap}, this.lineStart);
		}
		this.next[at.stream] = at.offset + at.length;
		return false;
	}

	private line(bytes: Buffer | Buffer[], isLast: boolean): void {
		this.lineNumber++;
		const decoded = decodeRecordBytes(bytes, this.decoder);
		const byteLength = Array.isArray(bytes) ? bytes.reduce((n, part) => n + part.length, 0) : bytes.length;
		// The decoded record holds none of the line's parts: let go of them before the event is handed on
		// (a 7 MB record line is not kept while its 5 MB chunk is replayed and written out; docs/performance.md#replay).
		if (Array.isArray(bytes)) bytes.length = 0;
		switch (decoded.kind) {
			case 'empty': {
				return;
			}

			case 'header': {
				if (this.header === undefined) {
					this.header = decoded.header;
					if (decoded.problem !== undefined) this.problems.push({line: this.lineNumber, message: decoded.problem});
					this.handlers.onHeader(decoded.header);
				} else {
					this.problems.push({line: this.lineNumber, message: 'a second session header, skipped'});
				}

				return;
			}

			case 'event': {
				if (this.header === undefined) {
					this.problems.push({line: this.lineNumber, message: 'record before any session header, skipped'});
					return;
				}

				if (this.isHole(decoded.event)) return;
				this.event(decoded.event, this.lineStart);
				return;
			}

			case 'problem': {
				if (isLast && !decoded.isJson) {
					this.truncated = true;
					this.problems.push({
						line: this.lineNumber,
						message: `the input ends inside a record (${byteLength} bytes cut); the cut record is skipped`,
					});
				} else {
					this.problems.push({line: this.lineNumber, message: decoded.message});
				}
			}
		}
	}
}

/**
 * Read a capture file (or a `--json` dump) as a stream of records (no whole-file string, so large
 * captures open). Never throws for bad content; rejects only when the file cannot be read.
 */
export async function readRecordFile(file: string, handlers: RecordHandlers): Promise<RecordReader> {
	const reader = new RecordReader(handlers);
	const completeness = peekCompleteness(file);
	if (completeness !== undefined) handlers.onCompleteness?.(completeness);
	const stream = createReadStream(file, {highWaterMark: 1024 * 1024});
	let bytesRead = 0;
	for await (const chunk of stream) {
		reader.push(chunk as Buffer, true);
		bytesRead += (chunk as Buffer).length;
		const wait = handlers.onProgress?.(bytesRead);
		if (wait !== undefined) await wait;
	}
	reader.end();
	return reader;
}

/** Bytes read from a capture's end to find its end record. */
const TAIL_BYTES = 64 * 1024;

/**
 * The completeness of a binary capture file from its end record (read from the file's last bytes, so
 * readers can say at the top what is missing); undefined for an NDJSON file. Throws when it cannot be read.
 */
export function peekCompleteness(file: string): CaptureCompleteness | undefined {
	const fd = openSync(file, 'r');
	try {
		const size = fstatSync(fd).size;
		const start = Buffer.alloc(Math.min(size, 32));
		readSync(fd, start, 0, start.length, 0);
		if (isBinaryCapture(start) !== true) return undefined;
		const tail = Buffer.alloc(Math.min(size, TAIL_BYTES));
		readSync(fd, tail, 0, tail.length, size - tail.length);
		const end = readCaptureEnd(tail);
		if (end === undefined)
			return {format: 2, complete: false, cutShort: true, missing: {stdin: 0, stdout: 0, stderr: 0}, gaps: 0};
		return {
			format: 2,
			complete: end.complete && end.gaps === 0,
			cutShort: false,
			missing: end.missing,
			gaps: end.gaps,
			...(end.stalls === undefined ? {} : {stalls: end.stalls}),
		};
	} finally {
		closeSync(fd);
	}
}

/** A tap found in the runtime directory. */
export interface LiveTap {
	/** The name part of the socket name. */
	readonly name: string;
	/** The tap's pid (from the socket name). */
	readonly pid: number;
	/** Unix socket path or Windows pipe name. */
	readonly address: string;
	/** `live`: it answered with a session header; `silent`: it accepted but sent nothing in time. */
	readonly state: 'live' | 'silent';
	/** The header it sent (server pid, command, start time). */
	readonly header?: SessionHeader;
}

/** Options of {@link listLiveTaps}. */
export interface ListLiveOptions {
	readonly facts?: PlatformFacts;
	/** ms to wait for each tap's header (default 500); a tap that accepted but stayed silent gets six times that once more. */
	readonly timeoutMs?: number;
	/** Remove socket files whose tap is dead (default true). */
	readonly removeStale?: boolean;
}

/**
 * The live taps of this user: every socket in the runtime directory (named pipes on Windows) that
 * this user owns and that accepts a connection, with the header it sends. Throws UnsafeDirectoryError
 * when the runtime directory is not this user's private directory (see `checkPrivateDir`). Sockets whose tap process is gone (killed with
 * SIGKILL) are removed. Sorted newest first.
 */
export async function listLiveTaps(options: ListLiveOptions = {}): Promise<LiveTap[]> {
	const facts = options.facts ?? currentPlatform();
	const timeoutMs = options.timeoutMs ?? 500;
	const candidates: {name: string; pid: number; address: string}[] = [];
	if (facts.platform === 'win32') {
		const prefix = runtimeDir(facts);
		const pipePrefix = path.win32.basename(prefix);
		try {
			for (const entry of readdirSync('\\\\.\\pipe\\')) {
				if (!entry.startsWith(pipePrefix)) continue;
				const parsed = parseSocketName(entry.slice(pipePrefix.length));
				if (parsed) candidates.push({...parsed, address: `\\\\.\\pipe\\${entry}`});
			}
		} catch {
			// no pipes
		}
	} else {
		const dir = runtimeDir(facts);
		let names: string[] = [];
		try {
			// Another user may have made the runtime directory first (in the shared temp dir): trust it
			// only as the tap does. Throws UnsafeDirectoryError.
			names = checkPrivateDir(dir, facts.uid) ? readdirSync(dir) : [];
		} catch (error) {
			if (error instanceof Error && error.name === 'UnsafeDirectoryError') throw error;
			names = [];
		}

		for (const entry of names) {
			if (!entry.endsWith('.sock')) continue;
			const parsed = parseSocketName(entry);
			// Only sockets this user owns (not followed through a symlink): a socket's owner is the
			// process that bound it, so this stands in for a peer-credential check (SO_PEERCRED is not
			// reachable from Node without native code).
			if (parsed && isOwnEntry(path.join(dir, entry), 'socket', facts.uid))
				candidates.push({...parsed, address: path.join(dir, entry)});
		}
	}

	const results = await Promise.all(
		candidates.map(async (candidate): Promise<LiveTap | undefined> => {
			let answer = await readHeader(candidate.address, timeoutMs);
			// A tap that accepted but had not answered yet may only be slow (a loaded machine, many readers
			// starting at once): one more look with a longer wait before calling it silent.
			if (answer.kind === 'silent') answer = await readHeader(candidate.address, timeoutMs * 6);
			if (answer.kind === 'header') return {...candidate, state: 'live', header: answer.header};
			if (answer.kind === 'silent') return {...candidate, state: 'silent'};
			if (options.removeStale !== false && facts.platform !== 'win32' && !isProcessAlive(candidate.pid)) {
				try {
					unlinkSync(candidate.address);
				} catch {
					// someone else removed it
				}
			}

			return undefined;
		}),
	);
	return results
		.filter((tap): tap is LiveTap => tap !== undefined)
		.sort((a, b) => (b.header?.startedAt ?? '').localeCompare(a.header?.startedAt ?? '') || b.pid - a.pid);
}

type HeaderAnswer =
	{readonly kind: 'header'; readonly header: SessionHeader} | {readonly kind: 'silent'} | {readonly kind: 'refused'};

/** Connect, read the first record line, disconnect. */
async function readHeader(address: string, timeoutMs: number): Promise<HeaderAnswer> {
	return new Promise<HeaderAnswer>((resolve) => {
		let isConnected = false;
		let isDone = false;
		let header: SessionHeader | undefined;
		const reader = new RecordReader({
			onHeader: (h) => {
				header = h;
			},
			onEvent: () => undefined,
		});
		const socket = net.connect(address);
		const finish = (answer: HeaderAnswer): void => {
			if (isDone) return;
			isDone = true;
			clearTimeout(timer);
			socket.destroy();
			resolve(answer);
		};
		// setImmediate: a process starved past the wait runs timers before it polls the socket; bytes that
		// arrived meanwhile are read first.
		const timer = setTimeout(
			() => setImmediate(() => finish(isConnected ? {kind: 'silent'} : {kind: 'refused'})),
			timeoutMs,
		);
		socket.on('connect', () => {
			isConnected = true;
		});
		let seen = 0;
		socket.on('data', (bytes: Buffer) => {
			// Only the header matters (the first line, or the second after a binary capture's magic line).
			reader.push(bytes);
			seen += bytes.length;
			if (header) finish({kind: 'header', header});
			else if (reader.format === 1 ? bytes.includes(0x0a) : seen > 64 * 1024) finish({kind: 'silent'});
		});
		socket.on('error', () => finish({kind: 'refused'}));
		socket.on('close', () =>
			finish(header ? {kind: 'header', header} : isConnected ? {kind: 'silent'} : {kind: 'refused'}),
		);
	});
}

/** Why an attach target could not be chosen (a usage error for the CLI). */
export class AttachTargetError extends Error {
	override readonly name = 'AttachTargetError';
}

/**
 * Pick the tap to attach to: a socket path (contains a path separator), a pid (the tap's or the
 * server's), or a name (newest first). Without a target, the only live tap.
 * @throws AttachTargetError when none or (without a target) several taps are live, or nothing matches
 */
export function chooseTap(taps: readonly LiveTap[], target: string | undefined): LiveTap {
	const live = taps.filter((tap) => tap.state === 'live');
	const list = (): string =>
		live
			.map((tap) => `${tap.name} (pid ${tap.pid}${tap.header?.pid === undefined ? '' : `, server ${tap.header.pid}`})`)
			.join(', ');
	if (target === undefined) {
		if (live.length === 1) return live[0]!;
		if (live.length === 0)
			throw new AttachTargetError(
				'no live taps (start one with `mcp-wire tap -- <command>`; `mcp-wire sessions` lists them)',
			);
		throw new AttachTargetError(`several taps are live, name one: ${list()}`);
	}

	if (/^\d+$/.test(target)) {
		const pid = Number(target);
		const byPid = live.find((tap) => tap.pid === pid) ?? live.find((tap) => tap.header?.pid === pid);
		if (byPid) return byPid;
		throw new AttachTargetError(`no live tap with pid ${pid}${live.length > 0 ? ` (live: ${list()})` : ''}`);
	}

	const wanted = sanitizeName(target);
	const byName = live.find((tap) => tap.name === wanted || tap.header?.name === target);
	if (byName) return byName;
	throw new AttachTargetError(`no live tap named "${target}"${live.length > 0 ? ` (live: ${list()})` : ''}`);
}

/** Callbacks of {@link followTap}. */
export interface FollowHandlers extends RecordHandlers {
	/** The connection ended (the session is over, the tap died, or `stop` was called); not called when it never connected. */
	onEnd(reader: RecordReader): void;
}

/**
 * Connect to a live tap and stream its records (from the first byte of the capture, then live).
 *
 * When the connection ends before the session's `exit` record arrived whole (the tap cuts off a viewer
 * still behind 1 s after the session ended, or the tap died), the rest is read from the capture file the
 * header names (`capturePath`): the file is read with {@link readRecordFile}, the events
 * already handed out are skipped by count (the socket sends the file's own bytes, so the first N events
 * are the same), and the rest are handed out. The file is used only when its header is the same session
 * (start time, pid, path); otherwise, or when it cannot be read, the session ends where the socket did.
 * Not after `stop()`.
 * @returns `stop()` to disconnect early; `connected` resolves once connected, rejects when it cannot
 */
export function followTap(
	address: string,
	handlers: FollowHandlers,
): {readonly stop: () => void; readonly connected: Promise<void>} {
	let header: SessionHeader | undefined;
	let sawExit = false;
	const reader = new RecordReader({
		onHeader: (received) => {
			header = received;
			handlers.onHeader(received);
		},
		onEvent: (event, recordOffset) => {
			if (event.type === 'exit') sawExit = true;
			// The socket sends the capture file's own bytes: offsets in it are offsets in the file.
			handlers.onEvent(event, recordOffset);
		},
	});
	const socket = net.connect(address);
	let isEnded = false;
	let isConnected = false;
	let isStopped = false;
	socket.once('connect', () => {
		isConnected = true;
	});
	const endWithSocket = (): void => {
		reader.end();
		handlers.onEnd(reader);
	};
	const end = (): void => {
		if (isEnded || !isConnected) return;
		isEnded = true;
		// A binary capture is whole once its end record came; an NDJSON one once its exit record did.
		const isWhole = reader.format === 2 ? reader.captureEnd !== undefined : sawExit && reader.pendingBytes === 0;
		if (isStopped || header?.capturePath === undefined || isWhole) {
			endWithSocket();
			return;
		}

		void finishFromCapture(header, reader.events, handlers).then((fileReader) => {
			if (fileReader) handlers.onEnd(fileReader);
			else endWithSocket();
		});
	};
	const connected = new Promise<void>((resolve, reject) => {
		socket.once('connect', () => resolve());
		socket.once('error', (error) => reject(error));
	});
	connected.catch(() => undefined);
	let received = 0;
	socket.on('data', (bytes: Buffer) => {
		reader.push(bytes);
		received += bytes.length;
		// Output backpressure (stdout a pipe read slower than the tap sends): read on once it drained. The tap
		// sends a client it cannot write to from its capture file meanwhile (live-socket.ts), so nothing waits on us.
		const wait = handlers.onProgress?.(received);
		if (!(wait instanceof Promise)) return;
		socket.pause();
		void wait.then(
			() => socket.resume(),
			() => socket.resume(),
		);
	});
	socket.on('error', () => undefined);
	socket.on('close', end);
	return {
		stop: () => {
			isStopped = true;
			socket.destroy();
		},
		connected,
	};
}

/**
 * Hand out the events of `header.capturePath` after the first `delivered` ones (see {@link followTap}).
 * @returns the file's reader (its problems and truncation cover the whole session), or undefined when the
 * file is not this session's capture or cannot be read (nothing was handed out then)
 */
async function finishFromCapture(
	header: SessionHeader,
	delivered: number,
	handlers: RecordHandlers,
): Promise<RecordReader | undefined> {
	let isSame = false;
	let seen = 0;
	try {
		const fileReader = await readRecordFile(header.capturePath!, {
			...(handlers.onProgress === undefined ? {} : {onProgress: handlers.onProgress}),
			onHeader: (fileHeader) => {
				isSame =
					fileHeader.startedAt === header.startedAt &&
					fileHeader.pid === header.pid &&
					fileHeader.capturePath === header.capturePath;
			},
			onEvent: (event, recordOffset) => {
				if (!isSame) return;
				seen++;
				if (seen > delivered) handlers.onEvent(event, recordOffset);
			},
		});
		return isSame && seen >= delivered ? fileReader : undefined;
	} catch {
		return undefined;
	}
}
