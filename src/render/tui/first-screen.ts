import {formatBytes, rowHeader, rowLayout} from './format.js';

/**
 * The first screen of `view`, painted before ink and React are loaded (docs/performance.md#tui-on-big-captures: loading them
 * takes most of the first second, several on a busy machine). Plain text and cursor moves only (no ink,
 * no React: this module is loaded on its own): the alternate screen with the TUI's own layout, a status
 * line, the frame list's header and a progress line, so the user sees at once what is coming. The TUI
 * clears it when it draws its first frame.
 */

/** ESC sequences that switch to the alternate screen and back (xterm `?1049`). */
export const ENTER_ALT_SCREEN = '\u001B[?1049h\u001B[H';
export const LEAVE_ALT_SCREEN = '\u001B[?1049l';
/** Clears the screen and homes the cursor. */
export const CLEAR_SCREEN = '\u001B[2J\u001B[H';

/** What the first screen says. */
export interface FirstScreenInfo {
	/** The capture's name (escaped by the caller: a file name as given on the command line). */
	readonly title: string;
	/** Its size in bytes. */
	readonly totalBytes: number;
}

/** The lines of the first screen for a terminal of `columns` × `rows`: row number (1-based) → text, each at most `columns` wide. */
export function firstScreenLines(info: FirstScreenInfo, columns: number, rows: number): ReadonlyMap<number, string> {
	const fit = (text: string): string => (text.length > columns ? text.slice(0, Math.max(0, columns - 1)) + '…' : text);
	const lines = new Map<number, string>();
	lines.set(1, fit(` LOAD  ${info.title}  ● loading 0%`));
	lines.set(2, fit(rowHeader(rowLayout(columns, 0))));
	lines.set(3, fit('  (no frames yet)'));
	lines.set(Math.max(4, rows - 1), fit(`loading… 0 frames · 0 B of ${formatBytes(info.totalBytes)} · 0%`));
	lines.set(Math.max(5, rows), fit('starting the viewer…'));
	return lines;
}

/** A painted first screen: leave it (back to the shell's screen), or hand it over to the TUI. */
export interface FirstScreen {
	/** Leave the alternate screen now (an error is about to be printed). Idempotent. */
	leave(): void;
	/** The TUI took over the alternate screen (it leaves it itself): forget this screen. */
	release(): void;
}

/**
 * Enter the alternate screen of `out` and paint the first screen. Until {@link FirstScreen.release},
 * the alternate screen is left on `leave()` or when the process exits.
 */
export function paintFirstScreen(out: NodeJS.WriteStream, info: FirstScreenInfo): FirstScreen {
	const columns = out.columns ?? 80;
	const rows = out.rows ?? 24;
	let text = ENTER_ALT_SCREEN + CLEAR_SCREEN;
	for (const [row, line] of firstScreenLines(info, columns, rows)) text += `\u001B[${row};1H${line}`;
	out.write(text);
	let isActive = true;
	const leave = (): void => {
		if (!isActive) return;
		isActive = false;
		process.off('exit', leave);
		out.write(LEAVE_ALT_SCREEN);
	};

	process.once('exit', leave);
	return {
		leave,
		release() {
			isActive = false;
			process.off('exit', leave);
		},
	};
}
