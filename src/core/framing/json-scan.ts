/**
 * Byte-level, string-aware JSON structure scanning (rules R1, J9, L6). These helpers never decode: they
 * walk bytes and track bracket depth, whether the cursor is inside a JSON string, and backslash escapes,
 * so brackets and quotes inside strings (`"a}\"b"`) do not count.
 */

/** Scanner state carried across calls (across lines of pretty-printed JSON, across chunks of a body). */
export interface JsonScanState {
	/** Open `{`/`[` count. */
	depth: number;
	/** Inside a JSON string. */
	inString: boolean;
	/** The previous byte was a backslash inside a string. */
	escape: boolean;
}

/** A fresh state: depth 0, outside strings. */
export function newJsonScanState(): JsonScanState {
	return {depth: 0, inString: false, escape: false};
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Scans `bytes[start, end)` with `state` until bracket depth returns to 0 after having been opened.
 * Call it with the first byte being `{` or `[` (or with a state carried from a previous call).
 *
 * @returns the index just after the byte that closed the value, or -1 when `end` is reached first
 *   (`state` then describes the open value and can be passed to the next call).
 */
export function scanJsonValueEnd(bytes: Uint8Array, start: number, end: number, state: JsonScanState): number {
	let {depth, inString, escape} = state;
	for (let i = start; i < end; i++) {
		const b = bytes[i]!;
		if (inString) {
			if (escape) {
				escape = false;
			} else if (b === BACKSLASH) {
				escape = true;
			} else if (b === QUOTE) {
				inString = false;
			}
		} else if (b === QUOTE) {
			inString = true;
		} else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
			depth++;
		} else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
			depth--;
			if (depth <= 0) {
				state.depth = 0;
				state.inString = false;
				state.escape = false;
				return i + 1;
			}
		}
	}

	state.depth = depth;
	state.inString = inString;
	state.escape = escape;
	return -1;
}

/** True for the bytes JSON treats as whitespace (RFC 8259 §2): space, tab, CR, LF. */
export function isJsonWhitespace(b: number): boolean {
	return b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a;
}

/** Index of the first non-whitespace byte in `bytes[start, end)`, or `end` when there is none. */
export function skipJsonWhitespace(bytes: Uint8Array, start: number, end: number): number {
	let i = start;
	while (i < end && isJsonWhitespace(bytes[i]!)) {
		i++;
	}

	return i;
}

/** True when `b` opens a JSON object or array. */
export function isOpenBracket(b: number | undefined): boolean {
	return b === OPEN_BRACE || b === OPEN_BRACKET;
}

/**
 * Whether byte `target` lies inside a JSON string when `bytes` is read as JSON from `start`
 * (quotes toggle, backslash escapes inside strings). Used for `invalid-utf8` `detail.inString` (R3).
 */
export function isInsideJsonString(bytes: Uint8Array, start: number, target: number): boolean {
	let inString = false;
	let escape = false;
	for (let i = start; i < target; i++) {
		const b = bytes[i]!;
		if (inString) {
			if (escape) {
				escape = false;
			} else if (b === BACKSLASH) {
				escape = true;
			} else if (b === QUOTE) {
				inString = false;
			}
		} else if (b === QUOTE) {
			inString = true;
		}
	}

	return inString;
}

/** Number of LF bytes in `bytes[start, end)`. */
export function countLineFeeds(bytes: Uint8Array, start: number, end: number): number {
	let count = 0;
	let i = bytes.indexOf(0x0a, start);
	while (i !== -1 && i < end) {
		count++;
		i = bytes.indexOf(0x0a, i + 1);
	}

	return count;
}
