import {findInvalidUtf8, isValidUtf8} from '../bytes/utf8.js';
import {isInsideJsonString} from './json-scan.js';
import {readEscapeSequence} from './stray-kind.js';
import type {BomFact, EscapeFact, InvalidUtf8Fact} from './facts.js';

/**
 * The message V8's `JSON.parse` throws for `text` (what a Node client such as the TS SDK logs, C1/C8),
 * or `undefined` when the text parses.
 */
export function jsonParseError(text: string): string | undefined {
	try {
		JSON.parse(text);
		return undefined;
	} catch (error) {
		return errorMessage(error);
	}
}

/** The `message` of a thrown value. */
export function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Where the byte-level checks look, for one frame held in one contiguous buffer. */
export interface ByteCheckInput {
	readonly buf: Uint8Array;
	/** Frame bytes are `buf[start, end)`; `offset` is the stream offset of `buf[start]`. */
	readonly start: number;
	readonly end: number;
	readonly offset: number;
	/** Start of the JSON text (after a BOM / headers), for {@link InvalidUtf8Fact.inString}. */
	readonly bodyStart: number;
	/** Index of EF of a BOM at a line start, or -1. */
	readonly bomIndex: number;
	/** Look for ESC bytes (skipped for frames that parsed as JSON: raw ESC is never valid JSON). */
	readonly checkEscape: boolean;
	/** UTF-8 validity if already known. */
	readonly isUtf8?: boolean | undefined;
	/** JSON.parse message for the line with its BOM ({@link BomFact.clientError}). */
	readonly bomClientError?: string | undefined;
}

/** The byte-level facts of one frame ({@link byteFacts}). */
export interface ByteFacts {
	bom?: BomFact;
	escape?: EscapeFact;
	invalidUtf8?: InvalidUtf8Fact;
}

/**
 * The byte-level facts of one frame: a BOM at its start (R4), its first escape sequence (R5, only when
 * `checkEscape`), its first invalid UTF-8 sequence (R3). Offsets are stream offsets. Returns undefined
 * when there is none of them (the common case: no allocation).
 */
export function byteFacts(input: ByteCheckInput): ByteFacts | undefined {
	const {buf, start, end, offset} = input;
	let facts: ByteFacts | undefined;
	if (input.bomIndex >= 0) (facts ??= {}).bom = {clientError: input.bomClientError};
	if (input.checkEscape) {
		const frame = buf.subarray(start, end);
		let index = frame.indexOf(0x1b);
		if (index !== -1) {
			const sequence = readEscapeSequence(frame, index, frame.length);
			const first = index;
			let count = 0;
			while (index !== -1) {
				count++;
				index = frame.indexOf(0x1b, index + 1);
			}

			(facts ??= {}).escape = {
				at: offset + first,
				length: sequence.length,
				kind: sequence.kind,
				isPrivate: sequence.isPrivate,
				count,
			};
		}
	}

	const valid = input.isUtf8 ?? isValidUtf8(buf, start, end);
	if (!valid) {
		const error = findInvalidUtf8(buf, start, end);
		if (error !== undefined) {
			(facts ??= {}).invalidUtf8 = {
				at: offset + error.index - start,
				length: error.length,
				inString: isInsideJsonString(buf, input.bodyStart, error.index),
			};
		}
	}

	return facts;
}
