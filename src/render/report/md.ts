import {escapeText, groupDigits} from '../../core/bytes/glyphs.js';

/**
 * GitHub-flavoured Markdown building blocks for the support report. Every helper takes text that may come
 * from the wire or from stderr and returns inert Markdown: control bytes become glyphs (core/bytes/glyphs.ts,
 * so no ANSI ever reaches the report), backtick runs cannot close a code span or fence early, `|` cannot
 * split a table cell, and `<`/`>`/`&` cannot open HTML (a stray `</details>` in a log line stays text).
 */

/** Longest run of backticks in `text` (0 when none). */
function longestBacktickRun(text: string): number {
	let longest = 0;
	for (const match of text.matchAll(/`+/g)) {
		longest = Math.max(longest, match[0].length);
	}

	return longest;
}

/**
 * An inline code span around `text` (escaped with {@link escapeText} first, optionally cut to
 * `maxColumns` with a `… (+N bytes)` marker). Uses a longer backtick fence when the text holds backticks
 * (CommonMark §6.1), and pads with spaces when the text starts or ends with one.
 */
export function code(text: string, maxColumns?: number): string {
	const shown = escapeText(text, maxColumns);
	if (shown === '') {
		return '` `';
	}

	const ticks = '`'.repeat(longestBacktickRun(shown) + 1);
	const pad =
		shown.startsWith('`') ||
		shown.endsWith('`') ||
		(shown.startsWith(' ') && shown.endsWith(' ') && shown.trim() !== '')
			? ' '
			: '';
	return `${ticks}${pad}${shown}${pad}${ticks}`;
}

/** `text` for a table cell: newlines become spaces and `|` is escaped (GFM tables, also inside code spans). */
export function cell(text: string): string {
	return text.replaceAll(/\r?\n/g, ' ').replaceAll('|', String.raw`\|`);
}

/**
 * Words that GitHub turns live even as plain text: an `@mention` (a user, a team `@org/team`, an email),
 * a URL or a `www.` autolink. They are shown in a code span, where nothing is linked.
 */
const LIVE_WORD = /[^\s`(]*(?:@|:\/\/|\bwww\.)[^\s`]*?(?=[).,;:!?'"]*(?:\s|`|$))/g;

/**
 * Plain text made inert: `&`, `<`, `>` as entities (no HTML), `\`, `[` and `]` backslash-escaped (no link
 * or image), a `#`, `>`, `-`, `+`, `=` or `N.` that opens the text escaped (no heading, quote or list),
 * and live words ({@link LIVE_WORD}) in code spans.
 */
function inert(text: string): string {
	const escape = (part: string): string =>
		part
			.replaceAll('&', '&amp;')
			.replaceAll('<', '&lt;')
			.replaceAll('>', '&gt;')
			.replaceAll(/[\\[\]]/g, String.raw`\$&`);
	let out = '';
	let at = 0;
	for (const match of text.matchAll(LIVE_WORD)) {
		out += escape(text.slice(at, match.index)) + code(match[0]);
		at = match.index + match[0].length;
	}

	out += escape(text.slice(at));
	return out
		.replace(/^[#+=-]/, String.raw`\$&`)
		.replace(/^(\d+)([.)])/, String.raw`$1\$2`)
		.replace(/^&gt;/, String.raw`\&gt;`);
}

/**
 * Prose that may hold `code spans` (a finding message, a catalog fix), where server text may sit outside
 * them: escaped, and outside code spans made inert ({@link inert}: no HTML, link, image, mention,
 * autolink or heading can come from it; inside a code span nothing is live anyway). An unmatched
 * backtick is treated as text.
 */
export function prose(text: string): string {
	const shown = escapeText(text);
	let out = '';
	let at = 0;
	for (const match of shown.matchAll(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g)) {
		out += inert(shown.slice(at, match.index)) + match[0];
		at = match.index + match[0].length;
	}

	return out + inert(shown.slice(at));
}

/** Text for inside HTML (`<summary>`): escaped, `<`, `>` and `&` as entities. */
export function html(text: string): string {
	return escapeText(text).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * A fenced code block with info string `info` (default `text`). The fence is one backtick longer than any
 * backtick run in the lines, so captured bytes can never end it early. Lines are used as given: escape
 * captured text before (the xxd layout from render/hex/plain.ts is already inert).
 */
export function fence(lines: readonly string[], info = 'text'): string[] {
	const ticks = '`'.repeat(Math.max(3, ...lines.map((line) => longestBacktickRun(line) + 1)));
	return [`${ticks}${info}`, ...lines, ticks];
}

/**
 * A folded block: `<details>`, `<summary>` (given as HTML-safe text, see {@link html}), a blank line so
 * GitHub renders the Markdown inside, the body, a blank line and `</details>`.
 */
export function details(summaryHtml: string, body: readonly string[]): string[] {
	return ['<details>', `<summary>${summaryHtml}</summary>`, '', ...body, '', '</details>'];
}

/** A GFM table: a header row, the alignment row (`l`/`r` per column) and the rows (cells already formatted). */
export function table(
	header: readonly string[],
	align: readonly ('l' | 'r')[],
	rows: readonly (readonly string[])[],
): string[] {
	const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
	return [
		line(header),
		`|${align.map((a) => (a === 'r' ? '---:' : '---')).join('|')}|`,
		...rows.map((row) => line(row)),
	];
}

/** `1 error`, `2 errors` with `,` digit grouping. */
export function plural(count: number, word: string, pluralWord = `${word}s`): string {
	return `${groupDigits(count)} ${count === 1 ? word : pluralWord}`;
}

/** Milliseconds with one decimal and `,` grouping: `1,234.5`. */
export function ms(value: number): string {
	const tenths = Math.round(value * 10);
	const sign = tenths < 0 ? '-' : '';
	return `${sign}${groupDigits(Math.trunc(Math.abs(tenths) / 10))}.${Math.abs(tenths) % 10}`;
}

/** A stream offset as `26 (0x1a)`. */
export function offsetText(offset: number): string {
	return `${groupDigits(offset)} (0x${offset.toString(16)})`;
}
