import type {Severity, StreamName} from '../../core/types.js';
import {applyStyle, type StyleFormat} from '../hex/sgr.js';

/**
 * Colours of the plain (non-TUI) text output, by semantic token (style.md §1.3: colour only through
 * semantic tokens). Painted with `node:util` `styleText`; nothing is painted when colour is off.
 */

/** The semantic colour tokens of the text renderer. */
export type ThemeToken =
	| 'stream.stdin'
	| 'stream.stdout'
	| 'stream.stderr'
	| 'severity.error'
	| 'severity.warning'
	| 'severity.info'
	| 'ui.dim'
	| 'ui.accent';

/** Token → `styleText` formats. */
export const TEXT_THEME: Readonly<Record<ThemeToken, readonly StyleFormat[]>> = {
	'stream.stdin': ['cyan'],
	'stream.stdout': ['green'],
	'stream.stderr': ['yellow'],
	'severity.error': ['red', 'bold'],
	'severity.warning': ['yellow', 'bold'],
	'severity.info': ['blue'],
	'ui.dim': ['gray'],
	'ui.accent': ['bold'],
};

/** The token of a stream (`stream.stdout`…). */
export function streamToken(stream: StreamName): ThemeToken {
	return `stream.${stream}`;
}

/** The token of a severity (`severity.error`…). */
export function severityToken(severity: Severity): ThemeToken {
	return `severity.${severity}`;
}

/**
 * Paints `text` with a token's formats when `isColor` is true; returns `text` unchanged otherwise.
 * `text` must already be escaped (core/bytes/glyphs.ts) if it came from the wire.
 */
export function paint(token: ThemeToken, text: string, isColor: boolean): string {
	return isColor ? applyStyle(TEXT_THEME[token], text) : text;
}
