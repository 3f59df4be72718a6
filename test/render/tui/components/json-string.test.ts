import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {displayWidth, escapeText, escapeTextWithin} from '../../../../src/core/bytes/glyphs.js';
import {quotedString} from '../../../../src/render/tui/components/json-pane.js';

/** The JSON pane's string as it was made before (docs/performance.md#tui-on-big-captures): the whole string escaped, then measured. */
function quotedStringWhole(value: string, budget: number): string {
	const json = JSON.stringify(value);
	const whole = escapeText(json);
	if (displayWidth(whole) <= budget) return whole;
	const cut = escapeText(json.slice(1, -1), Math.max(1, budget - 2));
	const marker = /… \(\+[\d,]+ bytes?\)$/.exec(cut);
	return marker === null ? `"${cut}"` : `"${cut.slice(0, marker.index)}…"${cut.slice(marker.index + 1)}`;
}

// Code points that escape or measure differently: controls, DEL, C1, zero-width and combining marks, bidi
// controls, wide CJK and emoji, lone surrogates, and the marker's own characters.
const tricky = fc.constantFrom(
	'\u0000',
	'\n',
	'\r',
	'\u001B',
	'\u007F',
	'\u0085',
	'\u0301',
	'\u200B',
	'\u200D',
	'\u202E',
	'\uFE0F',
	'中',
	'😀',
	'\uD800',
	'\uDC00',
	'"',
	'\\',
	'…',
	' (+12 bytes)',
	'a',
);
const text = fc.oneof(
	fc.string({unit: 'grapheme', maxLength: 60}),
	fc.array(tricky, {maxLength: 60}).map((parts) => parts.join('')),
	fc.string({unit: 'binary', maxLength: 60}),
);

describe('quotedString (the JSON pane)', () => {
	it('gives what escaping the whole string and measuring it gave, for any string and budget', () => {
		fc.assert(
			fc.property(text, fc.integer({min: 8, max: 80}), (value, budget) => {
				expect(quotedString(value, budget)).toBe(quotedStringWhole(value, budget));
			}),
			{numRuns: 3000},
		);
	});

	it('cuts a 5 MB string to the budget with the byte count of the rest', () => {
		const value = 'x'.repeat(5_000_000);
		expect(quotedString(value, 30)).toBe(`"${'x'.repeat(8)}…" (+4,999,992 bytes)`);
		expect(quotedString(value, 30)).toBe(quotedStringWhole(value, 30));
	});
});

describe('escapeTextWithin', () => {
	it('is escapeText with the budget, and says whether it cut', () => {
		fc.assert(
			fc.property(text, fc.integer({min: 1, max: 40}), (value, budget) => {
				const {text: escaped, isCut} = escapeTextWithin(value, budget);
				expect(escaped).toBe(escapeText(value, budget));
				expect(isCut).toBe(displayWidth(escapeText(value)) > budget);
			}),
			{numRuns: 2000},
		);
	});
});
