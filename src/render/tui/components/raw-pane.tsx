import {Box, Text} from 'ink';
import {codePointWidth, escapeBytes, groupDigits} from '../../../core/bytes/glyphs.js';
import {useTheme} from '../theme.js';

/**
 * The raw tab: the frame's bytes as escaped text (core/bytes/glyphs.ts: LF `↵`, CR `←`, ESC `␛`, other
 * controls and non-UTF-8 bytes `\xNN`), a new line after each LF, wrapped to the pane width. Only the
 * first {@link RAW_LIMIT} bytes are shown; the hex tab has all of them.
 */

/** Bytes shown by the raw tab at most. */
export const RAW_LIMIT = 65_536;

/**
 * Lays bytes out as escaped, wrapped lines.
 * @param bytes the frame's bytes (only the first {@link RAW_LIMIT} are used).
 * @param width pane width in columns (at least 1).
 * @param totalBytes the frame's full length when `bytes` was already cut (default `bytes.length`).
 * @returns lines of inert text; when the input was cut, a last line says how many bytes were left out.
 */
export function rawLines(bytes: Uint8Array, width: number, totalBytes = bytes.length): string[] {
	const columns = Math.max(1, width);
	const shown = bytes.subarray(0, RAW_LIMIT);
	const lines: string[] = [];
	let start = 0;
	while (start < shown.length) {
		let end = shown.indexOf(0x0a, start);
		end = end === -1 ? shown.length : end + 1;
		// LF is never inside a UTF-8 sequence, so escaping line by line decodes the same as the whole.
		const text = escapeBytes(shown.subarray(start, end));
		let line = '';
		let used = 0;
		for (const char of text) {
			const w = codePointWidth(char.codePointAt(0)!);
			if (used + w > columns) {
				lines.push(line);
				line = '';
				used = 0;
			}

			line += char;
			used += w;
		}

		lines.push(line);
		start = end;
	}

	if (totalBytes > shown.length) {
		lines.push(
			`… (${groupDigits(totalBytes - shown.length)} more bytes; the hex tab shows all ${groupDigits(totalBytes)})`,
		);
	}

	return lines;
}

/** Props of {@link RawPane}. */
export interface RawPaneProps {
	readonly lines: readonly string[];
	readonly scroll: number;
	readonly height: number;
}

/** Shows `height` escaped lines from `scroll`. */
export function RawPane({lines, scroll, height}: RawPaneProps) {
	const theme = useTheme();
	const visible = lines.slice(scroll, scroll + height);
	return (
		<Box flexDirection="column" height={height} overflow="hidden">
			{visible.length === 0 ? <Text {...theme.tokens['ui.dim']}>(empty)</Text> : null}
			{visible.map((line, i) => (
				<Text key={scroll + i} wrap="truncate-end">
					{line === '' ? ' ' : line}
				</Text>
			))}
		</Box>
	);
}
