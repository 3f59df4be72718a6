import {createContext, useContext} from 'react';
import type {ByteCategory} from '../../core/bytes/byte-category.js';
import type {FrameKind, Severity, StreamName, Verdict} from '../../core/types.js';

/**
 * The TUI's one place for colours (style.md §1.3): semantic tokens → ink `<Text>` props. Components
 * never name a colour; they ask for a token. Two themes exist: colour (hexyl-like byte colours, the same
 * palette as render/hex/ansi.ts) and mono (`NO_COLOR`, `--color never`), which keeps only attributes
 * (inverse, bold, underline) so the selection and highlighted bytes stay visible without colour.
 */

/** Every semantic token of the TUI. */
export type ThemeToken =
	| 'stream.stdin'
	| 'stream.stdout'
	| 'stream.stderr'
	| 'byte.null'
	| 'byte.printable'
	| 'byte.whitespace'
	| 'byte.other'
	| 'byte.nonAscii'
	| 'byte.cr'
	| 'byte.highlight'
	| 'hex.offset'
	| 'severity.error'
	| 'severity.warning'
	| 'severity.info'
	| 'verdict.ok'
	| 'verdict.warn'
	| 'verdict.fail'
	| 'verdict.stopped'
	| 'kind.message'
	| 'kind.error'
	| 'kind.stray'
	| 'kind.blank'
	| 'json.key'
	| 'json.string'
	| 'json.number'
	| 'json.literal'
	| 'json.punct'
	| 'ui.dim'
	| 'ui.accent'
	| 'ui.selected'
	| 'ui.focus'
	| 'ui.plain';

/** The `<Text>` props a token resolves to (a subset of ink's Text props). */
export interface TokenStyle {
	readonly color?: string;
	readonly backgroundColor?: string;
	readonly bold?: boolean;
	readonly dimColor?: boolean;
	readonly inverse?: boolean;
	readonly underline?: boolean;
}

/** A resolved theme: one style per token, and whether it uses colour at all. */
export interface Theme {
	readonly isColor: boolean;
	readonly tokens: Readonly<Record<ThemeToken, TokenStyle>>;
}

const COLOR_TOKENS: Readonly<Record<ThemeToken, TokenStyle>> = {
	'stream.stdin': {color: 'cyan'},
	'stream.stdout': {color: 'green'},
	'stream.stderr': {color: 'yellow'},
	// hexyl: null bright black, printable cyan, whitespace green, other magenta, non-ASCII yellow.
	'byte.null': {color: 'gray'},
	'byte.printable': {color: 'cyan'},
	'byte.whitespace': {color: 'green'},
	'byte.other': {color: 'magenta'},
	'byte.nonAscii': {color: 'yellow'},
	'byte.cr': {color: 'redBright', bold: true},
	'byte.highlight': {color: 'red', inverse: true, bold: true},
	'hex.offset': {color: 'gray'},
	'severity.error': {color: 'red', bold: true},
	'severity.warning': {color: 'yellow', bold: true},
	'severity.info': {color: 'blue'},
	'verdict.ok': {color: 'black', backgroundColor: 'green', bold: true},
	'verdict.warn': {color: 'black', backgroundColor: 'yellow', bold: true},
	'verdict.fail': {color: 'white', backgroundColor: 'red', bold: true},
	'verdict.stopped': {color: 'black', backgroundColor: 'white', bold: true},
	'kind.message': {},
	'kind.error': {color: 'red'},
	'kind.stray': {color: 'magenta'},
	'kind.blank': {color: 'gray'},
	'json.key': {color: 'blue', bold: true},
	'json.string': {color: 'green'},
	'json.number': {color: 'yellow'},
	'json.literal': {color: 'magenta'},
	'json.punct': {color: 'gray'},
	'ui.dim': {color: 'gray'},
	'ui.accent': {color: 'cyan', bold: true},
	'ui.selected': {inverse: true},
	'ui.focus': {color: 'cyan', bold: true, underline: true},
	'ui.plain': {},
};

const MONO_TOKENS: Readonly<Record<ThemeToken, TokenStyle>> = {
	...(Object.fromEntries(Object.keys(COLOR_TOKENS).map((token) => [token, {}])) as Record<ThemeToken, TokenStyle>),
	'byte.cr': {bold: true},
	'byte.highlight': {inverse: true, underline: true},
	'severity.error': {bold: true},
	'severity.warning': {bold: true},
	'verdict.ok': {inverse: true},
	'verdict.warn': {inverse: true, bold: true},
	'verdict.fail': {inverse: true, bold: true},
	'verdict.stopped': {inverse: true},
	'json.key': {bold: true},
	'ui.accent': {bold: true},
	'ui.selected': {inverse: true},
	'ui.focus': {bold: true, underline: true},
};

/** The colour theme (hexyl-like). */
export const COLOR_THEME: Theme = {isColor: true, tokens: COLOR_TOKENS};

/** The mono theme: attributes only, no colour (NO_COLOR, `--color never`). */
export const MONO_THEME: Theme = {isColor: false, tokens: MONO_TOKENS};

/** The theme for a colour decision. */
export function createTheme(isColor: boolean): Theme {
	return isColor ? COLOR_THEME : MONO_THEME;
}

/** Whether to use colour (`--color`, `NO_COLOR`): one rule for every front end, in render/text/theme.ts. */
export {resolveColor} from '../text/theme.js';

/** React context carrying the theme; the colour theme unless a provider says otherwise. */
export const ThemeContext = createContext<Theme>(COLOR_THEME);

/** The current theme (from {@link ThemeContext}). */
export function useTheme(): Theme {
	return useContext(ThemeContext);
}

/** Token of a stream (`stream.stdout`…). */
export function streamToken(stream: StreamName): ThemeToken {
	return `stream.${stream}`;
}

/** Token of a severity. */
export function severityToken(severity: Severity): ThemeToken {
	return `severity.${severity}`;
}

/** Token of a verdict. */
export function verdictToken(verdict: Verdict): ThemeToken {
	return `verdict.${verdict}`;
}

const CATEGORY_TOKEN: Readonly<Record<ByteCategory, ThemeToken>> = {
	null: 'byte.null',
	'ascii-printable': 'byte.printable',
	'ascii-whitespace': 'byte.whitespace',
	'ascii-other': 'byte.other',
	'non-ascii': 'byte.nonAscii',
};

/** Token of one hex cell: highlight first, then CR (its own token, CRLF is a finding), then the byte category. */
export function byteToken(byte: number, category: ByteCategory, isHighlighted: boolean): ThemeToken {
	if (isHighlighted) {
		return 'byte.highlight';
	}

	return byte === 0x0d ? 'byte.cr' : CATEGORY_TOKEN[category];
}

/** Token of a frame kind in the list: stray text on a protocol stream stands apart from messages. */
export function kindToken(kind: FrameKind, stream: StreamName): ThemeToken {
	switch (kind) {
		case 'error': {
			return 'kind.error';
		}

		case 'text': {
			return stream === 'stderr' ? 'stream.stderr' : 'kind.stray';
		}

		case 'blank': {
			return 'kind.blank';
		}

		case 'json': {
			return 'kind.stray';
		}

		default: {
			return 'kind.message';
		}
	}
}
