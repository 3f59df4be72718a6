import type {SessionHeader} from '../core/capture/record-codec.js';
import {createReplay, type Replay, type ReplayOptions} from '../core/session/replay.js';
import type {Session} from '../core/session/session.js';
import type {SessionEvent} from '../core/types.js';
import {readRecordFile, RecordReader, type CaptureCompleteness, type RecordHandlers} from './attach.js';

/**
 * Where a capture's records come from: given the reader's handlers, read every record and resolve with the
 * reader once the input ended (or reject when it cannot be read).
 */
export type RecordSource = (handlers: RecordHandlers) => Promise<RecordReader>;

/** A capture file or `--json` dump, read as a stream of records in blocks of up to 1 MiB (`readRecordFile`). */
export function fileSource(file: string): RecordSource {
	return (handlers) => readRecordFile(file, handlers);
}

/** Records already in memory (a capture piped into stdin): one push, then the end. */
export function bytesSource(bytes: Uint8Array): RecordSource {
	return async (handlers) => {
		const reader = new RecordReader(handlers);
		reader.push(bytes);
		reader.end();
		return reader;
	};
}

/** Options of {@link openCapture}. */
export interface OpenCaptureOptions {
	/** How the session is rebuilt (`createReplay`); `onSession` is where a presenter subscribes. */
	readonly replay: ReplayOptions;
	/** The session header was read and the replay has started. */
	readonly onReplay?: (replay: Replay, header: SessionHeader) => void;
	/** A binary capture file told how complete it is (from its end record), before its header. */
	readonly onCompleteness?: (completeness: CaptureCompleteness) => void;
	/** Each record before it is fed to the session, with its byte offset in the input (`RecordHandlers.onEvent`). */
	readonly onEvent?: (event: SessionEvent, recordOffset: number) => void;
	/**
	 * After each block read (bytes so far); a promise returned holds the next block back until it settles
	 * (stdout backpressure). `replay` is undefined before the header.
	 */
	readonly onProgress?: (bytesRead: number, replay: Replay | undefined) => void | Promise<void> | undefined;
}

/** What {@link openCapture} read. */
export interface OpenedCapture {
	/** The reader once the input ended (its problems, truncation, completeness, end record); undefined when reading failed. */
	readonly reader: RecordReader | undefined;
	/** The replay, once the session header was read. */
	readonly replay: Replay | undefined;
	/** Why reading stopped early: the source rejected (an I/O error, or a handler threw to stop it). */
	readonly readError: unknown;
	/** Why the session rejected the first record it rejected (it contradicted what came before); the rest were fed. */
	readonly replayError: Error | undefined;
	/** Records the session rejected (each skipped). */
	readonly rejectedRecords: number;
	/** A binary capture told its completeness before its header (`onCompleteness` was called). */
	readonly isBinary: boolean;
	/**
	 * Finish the session (`Replay.finish`): cut short when the input ended inside a record or without its
	 * end, with the end record's `stalls`. Call once.
	 * @throws Error when no session header was read (`replay` is undefined)
	 */
	finish(): Session;
}

/**
 * The one replay loop of `view`, `report` and `attach` (live = replay): read a capture's records from
 * `source`, start a replay at its session header, feed it every record as it is read (no list of records:
 * memory stays flat), and report progress. Never throws: a read error is in `readError`, a record the
 * session rejects in `replayError`; each command says them in its own words.
 */
export async function openCapture(source: RecordSource, options: OpenCaptureOptions): Promise<OpenedCapture> {
	let replay: Replay | undefined;
	let replayError: Error | undefined;
	let rejectedRecords = 0;
	let isBinary = false;
	const handlers: RecordHandlers = {
		onCompleteness: (completeness) => {
			isBinary = true;
			options.onCompleteness?.(completeness);
		},
		onHeader: (header) => {
			replay = createReplay(header, options.replay);
			options.onReplay?.(replay, header);
		},
		onEvent: (event, recordOffset) => {
			options.onEvent?.(event, recordOffset);
			if (replay === undefined) return;
			try {
				replay.feed(event);
			} catch (error) {
				rejectedRecords++;
				replayError ??= error as Error;
			}
		},
		...(options.onProgress === undefined
			? {}
			: {onProgress: (bytesRead: number) => options.onProgress!(bytesRead, replay)}),
	};
	let reader: RecordReader | undefined;
	let readError: unknown;
	try {
		reader = await source(handlers);
	} catch (error) {
		readError = error;
	}

	return {
		reader,
		replay,
		readError,
		replayError,
		rejectedRecords,
		isBinary,
		finish() {
			if (replay === undefined) throw new Error('openCapture: finish() before a session header was read');
			return replay.finish({isCutShort: reader?.isTruncated === true, stalls: reader?.captureEnd?.stalls});
		},
	};
}
