import type {SessionEvent, SessionMeta} from '../types.js';

/**
 * The NDJSON record format shared by `--json` output, tap capture files and replay (style.md §1.4).
 *
 * One JSON object per line, each with a `type` discriminator; the first line is the `session` header.
 * Offsets are bytes per stream, times are ms since session start, bytes travel as base64.
 *
 * | type | fields |
 * | --- | --- |
 * | `session` | `format` (this is 1) + every {@link SessionMeta} field |
 * | `chunk` | `seq, stream, tMs, offset, length, base64`, and `text` (a UTF-8 preview, only when the bytes are valid UTF-8 and at most {@link CHUNK_PREVIEW_MAX_BYTES} long; ignored on decode) |
 * | `frame` | every {@link Frame} field (`message` as parsed JSON, `text` for text frames) |
 * | `finding` | every {@link Finding} field, and `docs`: the code's section, `docs/findings.md#<code>` (written only; added in format 1 without a version bump: readers ignore unknown fields) |
 * | `mark` | `mark`: the {@link Mark} object (it has its own `type`; `evidence` marks carry a {@link ProcessEvidence}; a `gap` mark says `length` bytes of `stream` from `offset` are not in the capture, with a `reason`; older readers skip both as bad marks) |
 * | `exit` | `code, signal, tMs` ({@link ExitInfo}) |
 * | `summary` | every {@link Summary} field |
 *
 * Lines never contain a raw newline: JSON escapes controls, and this codec also escapes U+0085, U+2028
 * and U+2029, which some line splitters (Python `str.splitlines`) treat as line ends.
 */

/** The record format version this code writes and reads. */
export const RECORD_FORMAT = 1;

/** Chunks up to this many bytes carry a `text` preview when they are valid UTF-8. */
export const CHUNK_PREVIEW_MAX_BYTES = 1024;

/** The decoded header: session facts plus the format version of the file. */
export type SessionHeader = SessionMeta & {readonly format: number};

/**
 * A problem met while decoding. `line`: its 1-based line number in an NDJSON capture (format 1); in a
 * binary capture (format 2, binary-codec.ts) the 1-based number of its record (the magic line is 1,
 * the session header 2, records from 3), and then `byteOffset` is where that record starts in the file
 * (bytes from 0): a binary capture has no lines to point at.
 */
export interface DecodeProblem {
	readonly line: number;
	readonly byteOffset?: number;
	readonly message: string;
}

/**
 * Where a {@link DecodeProblem} is, in words for a `FILE: PLACE: message` line: `line 10` for an NDJSON
 * capture, `record 4 at byte 1480` for a binary one.
 */
export function problemPlace(problem: DecodeProblem): string {
	return problem.byteOffset === undefined
		? `line ${problem.line}`
		: `record ${problem.line} at byte ${problem.byteOffset}`;
}

/** What {@link decodeRecords} returns. */
export interface DecodedRecords {
	/** The first valid `session` record, if any. */
	readonly header?: SessionHeader;
	/** Every valid non-header record, in file order. */
	readonly events: SessionEvent[];
	/** Lines that were skipped or doubtful, in line order. */
	readonly problems: DecodeProblem[];
	/** True when the last line was cut short (no final newline and not complete JSON). */
	readonly isTruncated: boolean;
}

/** One decoded line, for readers that consume records incrementally (a socket, a growing file). */
export type DecodedLine =
	| {readonly kind: 'header'; readonly header: SessionHeader; readonly problem?: string}
	| {readonly kind: 'event'; readonly event: SessionEvent}
	| {readonly kind: 'empty'}
	| {readonly kind: 'problem'; readonly message: string; readonly isJson: boolean};

/** The characters {@link toLine} escapes in a record line (see the module comment). */
// Also C1 and bidi controls and U+FEFF: a `--json` line printed on a terminal must not repaint or reorder it
// (escapeJsonHazards in core/bytes/glyphs.ts is the same set).
export const LINE_ENDS = /[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/g;
/** The `\uXXXX` escape of one of {@link LINE_ENDS}, for `replaceAll`. */
export const escapeLineEnd = (char: string): string => `\\u${char.codePointAt(0)!.toString(16).padStart(4, '0')}`;

/** `JSON.stringify(record)` with the line-end escapes of the module comment: one record line, no newline in it. */
export function toLine(record: Record<string, unknown>): string {
	return JSON.stringify(record).replaceAll(LINE_ENDS, escapeLineEnd);
}
