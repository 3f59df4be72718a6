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

/**
 * Whether to use colour: `--color always` → true, `never` → false, `auto` → false when `NO_COLOR` is set
 * to a non-empty value (no-color.org) or `FORCE_COLOR=0`, otherwise whether the output is a terminal
 * (hexyl, xxd). Pure: the environment and the terminal check come in.
 * @param flag the `--color` option value.
 * @param env the environment (for `NO_COLOR`, `FORCE_COLOR`).
 * @param isTerminal whether the output stream is a TTY.
 */
export function resolveColor(
	flag: 'auto' | 'always' | 'never',
	env: Readonly<Record<string, string | undefined>>,
	isTerminal: boolean,
): boolean {
	if (flag === 'always') return true;
	if (flag === 'never') return false;
	const noColor = env['NO_COLOR'];
	if (noColor !== undefined && noColor !== '') return false;
	if (env['FORCE_COLOR'] === '0') return false;
	return isTerminal;
}
