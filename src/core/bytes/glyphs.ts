/**
 * Escaping captured bytes and strings for display (style.md §1.3 "Never print captured bytes raw").
 *
 * Whatever crossed the wire may contain bytes that repaint a terminal: a bare CR returns the cursor, ESC
 * starts a control sequence, BS moves back, C1 controls (U+0080–U+009F, e.g. U+009B CSI) act as escapes in
 * some terminals, and bidi overrides reorder what is shown. Everything returned here is inert:
 *
 * | input | shown as |
 * | --- | --- |
 * | NUL 0x00 | `␀` |
 * | LF 0x0A | `↵` |
 * | CR 0x0D | `←` (CRLF is a finding, so CR always gets a glyph; style.md §1.4) |
 * | ESC 0x1B | `␛` |
 * | TAB 0x09 | `\t` |
 * | other C0 (0x01–0x1F) and DEL 0x7F | `\xNN` (lowercase hex) |
 * | bytes that are not UTF-8 (R3) | `\xNN`, one per byte |
 * | C1 controls, bidi controls (U+061C, U+200E/F, U+202A–E, U+2066–9), U+2028/9, U+FEFF, lone surrogates | `\u{hex}` |
 *
 * A literal backslash is not escaped (JSON text is full of them), so `\x41` in the output may also be
 * those four characters in the input: the hex dump is the unambiguous view.
 */

/** The gutter/escape glyph of the four bytes that always get one. */
export const CONTROL_GLYPH = {nul: '␀', lf: '↵', cr: '←', esc: '␛'} as const;

const HEX = '0123456789abcdef';

function hex2(byte: number): string {
	return HEX[(byte >> 4) & 0xf]! + HEX[byte & 0xf]!;
}

/** `\xNN` for one byte (lowercase hex). */
function byteEscape(byte: number): string {
	return `\\x${hex2(byte)}`;
}

/** True for code points that are printable as such but can reorder or reshape a terminal line. */
function isHazardCodePoint(cp: number): boolean {
	return (
		(cp >= 0x80 && cp <= 0x9f) ||
		cp === 0x061c ||
		cp === 0x200e ||
		cp === 0x200f ||
		(cp >= 0x202a && cp <= 0x202e) ||
		(cp >= 0x2066 && cp <= 0x2069) ||
		cp === 0x2028 ||
		cp === 0x2029 ||
		cp === 0xfeff ||
		(cp >= 0xd800 && cp <= 0xdfff)
	);
}

/**
 * Code points JSON.stringify leaves raw that can repaint or reorder a terminal line when a `--json` line
 * is printed (C1 controls, bidi controls, U+2028/9 line ends, U+FEFF); see {@link escapeJsonHazards}.
 */
const JSON_HAZARDS = /[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/g;

/**
 * Writes the hazard code points of a JSON text (C1, bidi, U+2028/9, U+FEFF) as `\uXXXX` escapes. JSON
 * text holds non-ASCII only inside strings, so the result is still valid JSON and parses to the same
 * value; JSON.stringify already escapes C0 controls and lone surrogates.
 * @param json the output of JSON.stringify (or any JSON text).
 * @returns the same JSON with those code points escaped.
 */
export function escapeJsonHazards(json: string): string {
	return json.replaceAll(JSON_HAZARDS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** How one code point (or one ASCII byte) is shown. */
function codePointGlyph(cp: number): string {
	if (cp < 0x20 || cp === 0x7f) {
		switch (cp) {
			case 0x00: {
				return CONTROL_GLYPH.nul;
			}

			case 0x0a: {
				return CONTROL_GLYPH.lf;
			}

			case 0x0d: {
				return CONTROL_GLYPH.cr;
			}

			case 0x1b: {
				return CONTROL_GLYPH.esc;
			}

			case 0x09: {
				return '\\t';
			}

			default: {
				return byteEscape(cp);
			}
		}
	}

	if (isHazardCodePoint(cp)) {
		return `\\u{${cp.toString(16)}}`;
	}

	return String.fromCodePoint(cp);
}

/**
 * The one-column glyph of one byte in a hex dump's character gutter (hexyl's default character table,
 * plus the MCP emphasis of style.md §1.4): printable ASCII as itself, space as a space, NUL `␀`,
 * LF `↵`, CR `←`, ESC `␛`, other whitespace (TAB, FF) `_`, other ASCII controls and DEL `•`, bytes
 * 0x80–0xFF `×`.
 * @param byte an integer 0–255.
 */
export function byteGlyph(byte: number): string {
	return BYTE_GLYPH_TABLE[byte & 0xff]!;
}

const BYTE_GLYPH_TABLE: readonly string[] = Array.from({length: 256}, (_, byte) => {
	switch (byte) {
		case 0x00: {
			return CONTROL_GLYPH.nul;
		}

		case 0x0a: {
			return CONTROL_GLYPH.lf;
		}

		case 0x0d: {
			return CONTROL_GLYPH.cr;
		}

		case 0x1b: {
			return CONTROL_GLYPH.esc;
		}

		case 0x20: {
			return ' ';
		}

		case 0x09:
		case 0x0c: {
			return '_';
		}

		default: {
			if (byte >= 0x21 && byte <= 0x7e) {
				return String.fromCharCode(byte);
			}

			return byte < 0x80 ? '•' : '×';
		}
	}
});

/**
 * Terminal column width of one code point: 0 for combining marks, ZWJ and variation selectors, 2 for
 * East Asian wide/fullwidth characters and emoji, 1 otherwise. An approximation of `wcwidth` that is
 * good enough to keep a truncated line inside its column budget.
 */
export function codePointWidth(cp: number): number {
	if (
		(cp >= 0x0300 && cp <= 0x036f) ||
		(cp >= 0x1ab0 && cp <= 0x1aff) ||
		(cp >= 0x1dc0 && cp <= 0x1dff) ||
		(cp >= 0x20d0 && cp <= 0x20ff) ||
		(cp >= 0xfe00 && cp <= 0xfe0f) ||
		(cp >= 0xfe20 && cp <= 0xfe2f) ||
		cp === 0x200b ||
		cp === 0x200c ||
		cp === 0x200d ||
		(cp >= 0xe0100 && cp <= 0xe01ef)
	) {
		return 0;
	}

	if (
		(cp >= 0x1100 && cp <= 0x115f) ||
		(cp >= 0x2e80 && cp <= 0x303e) ||
		(cp >= 0x3041 && cp <= 0x33ff) ||
		(cp >= 0x3400 && cp <= 0x4dbf) ||
		(cp >= 0x4e00 && cp <= 0x9fff) ||
		(cp >= 0xa000 && cp <= 0xa4cf) ||
		(cp >= 0xac00 && cp <= 0xd7a3) ||
		(cp >= 0xf900 && cp <= 0xfaff) ||
		(cp >= 0xfe30 && cp <= 0xfe4f) ||
		(cp >= 0xff00 && cp <= 0xff60) ||
		(cp >= 0xffe0 && cp <= 0xffe6) ||
		(cp >= 0x1f300 && cp <= 0x1f64f) ||
		(cp >= 0x1f900 && cp <= 0x1f9ff) ||
		(cp >= 0x1fa70 && cp <= 0x1faff) ||
		(cp >= 0x20000 && cp <= 0x3fffd)
	) {
		return 2;
	}

	return 1;
}

/** Column width of a string (already escaped, so free of controls) using {@link codePointWidth}. */
export function displayWidth(text: string): number {
	let width = 0;
	for (const char of text) {
		width += codePointWidth(char.codePointAt(0)!);
	}

	return width;
}

/** `12345` → `12,345` (fixed `,` grouping, independent of the locale). */
export function groupDigits(value: number): string {
	const sign = value < 0 ? '-' : '';
	const digits = String(Math.trunc(Math.abs(value)));
	let out = '';
	for (let i = 0; i < digits.length; i++) {
		if (i > 0 && (digits.length - i) % 3 === 0) {
			out += ',';
		}

		out += digits[i]!;
	}

	return sign + out;
}

/** The marker appended to a truncated line: `… (+12,345 bytes)`. */
export function truncationMarker(omittedBytes: number): string {
	return `… (+${groupDigits(omittedBytes)} ${omittedBytes === 1 ? 'byte' : 'bytes'})`;
}

/** One displayed unit: its glyph text, its width in columns, and the input position just after it. */
interface Token {
	readonly text: string;
	readonly width: number;
	/** Bytes of input consumed up to and including this token. */
	readonly endByte: number;
}

/**
 * Joins tokens, truncating to `maxColumns` with a byte-count marker when they do not fit. Tokens are
 * pulled lazily, so a 10 MiB input with a small budget costs only the visible prefix.
 */
function assemble(
	tokens: Iterable<Token>,
	totalBytes: number,
	maxColumns: number | undefined,
	cut?: {isCut: boolean},
): string {
	if (maxColumns === undefined) {
		let out = '';
		for (const token of tokens) {
			out += token.text;
		}

		return out;
	}

	const budget = Math.max(0, Math.floor(maxColumns));
	const kept: Token[] = [];
	let width = 0;
	let isOver = false;
	for (const token of tokens) {
		if (width + token.width > budget) {
			isOver = true;
			break;
		}

		kept.push(token);
		width += token.width;
	}

	if (!isOver) {
		return kept.map((token) => token.text).join('');
	}

	if (cut !== undefined) cut.isCut = true;

	// Drop tokens from the end until prefix + marker fits (the marker shrinks as fewer bytes are omitted,
	// so the first fit from the end is the longest one).
	let prefixWidth = width;
	let count = kept.length;
	while (count > 0) {
		const endByte = kept[count - 1]!.endByte;
		if (prefixWidth + displayWidth(truncationMarker(totalBytes - endByte)) <= budget) {
			break;
		}

		count--;
		prefixWidth -= kept[count]!.width;
	}

	const endByte = count > 0 ? kept[count - 1]!.endByte : 0;
	let out = '';
	for (let i = 0; i < count; i++) {
		out += kept[i]!.text;
	}

	return out + truncationMarker(totalBytes - endByte);
}

/** Length of the valid UTF-8 sequence starting at `i` (1–4), or 0 when the byte there starts none (R3). */
function utf8SequenceLength(bytes: Uint8Array, i: number): number {
	const b0 = bytes[i]!;
	if (b0 < 0x80) {
		return 1;
	}

	let need: number;
	let lo = 0x80;
	let hi = 0xbf;
	if (b0 >= 0xc2 && b0 <= 0xdf) {
		need = 1;
	} else if (b0 >= 0xe0 && b0 <= 0xef) {
		need = 2;
		if (b0 === 0xe0) {
			lo = 0xa0;
		} else if (b0 === 0xed) {
			hi = 0x9f;
		}
	} else if (b0 >= 0xf0 && b0 <= 0xf4) {
		need = 3;
		if (b0 === 0xf0) {
			lo = 0x90;
		} else if (b0 === 0xf4) {
			hi = 0x8f;
		}
	} else {
		return 0;
	}

	if (i + need >= bytes.length) {
		// A cut sequence: its lead byte is invalid on its own (the continuation bytes are checked below
		// only when they exist).
		return 0;
	}

	const b1 = bytes[i + 1]!;
	if (b1 < lo || b1 > hi) {
		return 0;
	}

	for (let k = 2; k <= need; k++) {
		const b = bytes[i + k]!;
		if (b < 0x80 || b > 0xbf) {
			return 0;
		}
	}

	return need + 1;
}

function* byteTokens(bytes: Uint8Array): Generator<Token> {
	let i = 0;
	while (i < bytes.length) {
		const length = utf8SequenceLength(bytes, i);
		if (length === 0) {
			i++;
			yield {text: byteEscape(bytes[i - 1]!), width: 4, endByte: i};
			continue;
		}

		let cp: number;
		const b0 = bytes[i]!;
		switch (length) {
			case 1: {
				cp = b0;
				break;
			}

			case 2: {
				cp = ((b0 & 0x1f) << 6) | (bytes[i + 1]! & 0x3f);
				break;
			}

			case 3: {
				cp = ((b0 & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f);
				break;
			}

			default: {
				cp =
					((b0 & 0x07) << 18) | ((bytes[i + 1]! & 0x3f) << 12) | ((bytes[i + 2]! & 0x3f) << 6) | (bytes[i + 3]! & 0x3f);
			}
		}

		i += length;
		const text = codePointGlyph(cp);
		yield {text, width: displayWidth(text), endByte: i};
	}
}

function utf8Length(cp: number): number {
	if (cp < 0x80) {
		return 1;
	}

	if (cp < 0x800) {
		return 2;
	}

	return cp < 0x10000 ? 3 : 4;
}

function* textTokens(text: string): Generator<Token> {
	let endByte = 0;
	// `for…of` iterates code points; a lone surrogate comes through as one 16-bit unit.
	for (const char of text) {
		const cp = char.codePointAt(0)!;
		endByte += utf8Length(cp);
		const glyph = codePointGlyph(cp);
		yield {text: glyph, width: displayWidth(glyph), endByte};
	}
}

function utf8ByteLengthOfString(text: string): number {
	let total = 0;
	for (const char of text) {
		total += utf8Length(char.codePointAt(0)!);
	}

	return total;
}

/**
 * Escapes raw captured bytes for display (see the module table): valid UTF-8 is decoded, every byte that
 * is not part of a valid UTF-8 sequence (R3; overlongs, surrogates and cut sequences included) becomes
 * `\xNN`, and controls become glyphs.
 * @param bytes the bytes as captured.
 * @param maxColumns optional column budget; when the escaped text is wider, it is cut and
 *   `… (+N bytes)` is appended, N being the input bytes not shown. The result then fits in
 *   `maxColumns` columns unless the marker alone is wider. Absent: no limit.
 * @returns a single line of inert text (it never contains a control character).
 */
export function escapeBytes(bytes: Uint8Array, maxColumns?: number): string {
	return assemble(byteTokens(bytes), bytes.length, maxColumns);
}

/**
 * Escapes an already decoded string (a frame's `text`, a JSON string value, a stderr line) for display,
 * with the same glyphs as {@link escapeBytes}. U+FFFD is shown as is (the decoder's replacement for
 * invalid bytes); lone surrogates become `\u{d8xx}`.
 * @param text any string.
 * @param maxColumns optional column budget; the truncation marker counts UTF-8 bytes of the omitted text.
 * @returns a single line of inert text.
 */
export function escapeText(text: string, maxColumns?: number): string {
	return assemble(textTokens(text), maxColumns === undefined ? 0 : utf8ByteLengthOfString(text), maxColumns);
}

/**
 * {@link escapeText} with a column budget, and whether the text was cut to fit it: a caller can tell
 * whether a text fits without escaping it whole (a 5 MB JSON string escaped whole to be measured cost
 * ~150 MiB of transient memory in the TUI's JSON pane; docs/performance.md#tui-on-big-captures).
 * @param text any string.
 * @param maxColumns column budget.
 * @returns the escaped text (with the truncation marker when cut) and `isCut`.
 */
export function escapeTextWithin(text: string, maxColumns: number): {readonly text: string; readonly isCut: boolean} {
	const cut = {isCut: false};
	const escaped = assemble(textTokens(text), utf8ByteLengthOfString(text), maxColumns, cut);
	return {text: escaped, isCut: cut.isCut};
}
