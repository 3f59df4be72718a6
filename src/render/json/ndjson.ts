import {encodeEvent, encodeEventInPieces, encodeHeader} from '../../core/capture/record-codec.js';
import type {Finding, Frame, SessionEvent, SessionMeta} from '../../core/types.js';

/**
 * `--json` output: NDJSON records, one per line, in the capture-file format of
 * core/capture/record-codec.ts (style.md §1.4), so `mcp-wire view dump.ndjson` replays a `--json` dump
 * (as long as chunks were written: replay derives everything from chunks and marks).
 */

/** Options for {@link createNdjsonWriter}. */
export interface NdjsonWriterOptions {
	/** Write `chunk` records (default true). Without them the dump cannot be replayed. */
	readonly chunks?: boolean;
	/** Write `frame` records (default true). */
	readonly frames?: boolean;
	/**
	 * Applied to human-readable strings that are not the source of truth: the header's `command` items
	 * and `cwd`, a frame's `text`, a finding's `message`. It never touches bytes (base64) or the parsed
	 * `message` of a frame, which replay and offsets depend on: with chunks on, the wire content is
	 * written as captured.
	 */
	readonly redact?: (text: string) => string;
}

/** Writes a session as NDJSON records through `write`. */
export interface NdjsonWriter {
	/** Writes the `session` header record. Call it once, first. */
	header(meta: SessionMeta): void;
	/** Writes the record of one event (skipped for chunks/frames turned off by the options). */
	event(event: SessionEvent): void;
}

/**
 * Creates an NDJSON writer.
 * @param write receives one record line at a time, WITHOUT a trailing newline (the caller appends `\n`).
 * @param options see {@link NdjsonWriterOptions}.
 * @throws Error from `event()` when called before `header()`, and from a second `header()` call: a
 *   dump must start with exactly one header to be readable by `decodeRecords`.
 */
export function createNdjsonWriter(write: (line: string) => void, options: NdjsonWriterOptions = {}): NdjsonWriter {
	return createWriter(write, (event) => write(encodeEvent(event)), options);
}

/**
 * {@link createNdjsonWriter} that hands each record to `write` in pieces (`encodeEventInPieces`: short
 * strings, and the UTF-8 bytes of a long record about 64 KiB at a time), each line's `\n` as a piece of
 * its own. A big chunk's base64 or a big frame's message is never one string (docs/performance.md#replay); the pieces
 * joined are the bytes `createNdjsonWriter` writes, with the newlines.
 * @param write receives the pieces in order; it may keep a byte piece (each is a new buffer)
 * @param options see {@link NdjsonWriterOptions}.
 * @throws as {@link createNdjsonWriter}
 */
export function createNdjsonPieceWriter(
	write: (piece: string | Uint8Array) => void,
	options: NdjsonWriterOptions = {},
): NdjsonWriter {
	return createWriter(
		(line) => {
			write(line);
			write('\n');
		},
		(event) => {
			encodeEventInPieces(event, write);
			write('\n');
		},
		options,
	);
}

function createWriter(
	write: (line: string) => void,
	writeEvent: (event: SessionEvent) => void,
	options: NdjsonWriterOptions,
): NdjsonWriter {
	const redact = options.redact;
	let hasHeader = false;
	return {
		header(meta) {
			if (hasHeader) {
				throw new Error('ndjson writer: header() was already written');
			}

			hasHeader = true;
			const shown: SessionMeta =
				redact === undefined
					? meta
					: {
							...meta,
							command: meta.command.map((item) => redact(item)),
							...(meta.cwd === undefined ? {} : {cwd: redact(meta.cwd)}),
						};
			write(encodeHeader(shown));
		},
		event(event) {
			if (!hasHeader) {
				throw new Error('ndjson writer: header() must be written before any event');
			}

			if (
				(event.type === 'chunk' && options.chunks === false) ||
				(event.type === 'frame' && options.frames === false)
			) {
				return;
			}

			writeEvent(redact === undefined ? event : redactEvent(event, redact));
		},
	};
}

function redactEvent(event: SessionEvent, redact: (text: string) => string): SessionEvent {
	if (event.type === 'frame' && event.frame.text !== undefined) {
		const frame: Frame = {...event.frame, text: redact(event.frame.text)};
		return {type: 'frame', frame};
	}

	if (event.type === 'finding') {
		const finding: Finding = {...event.finding, message: redact(event.finding.message)};
		return {type: 'finding', finding};
	}

	return event;
}
