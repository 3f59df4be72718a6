import process from 'node:process';
import chalk from 'chalk';
import {render} from 'ink';
import {useState} from 'react';
import type {TableStore as SessionStore} from '../../core/session/stores/frame-table.js';
import {App, type TuiActions} from './app.js';
import {CLEAR_SCREEN, ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN} from './first-screen.js';
import type {LoadProgressStore} from './state/loading.js';
import {createTheme, ThemeContext, type Theme} from './theme.js';

export type {TuiActions} from './app.js';
export type {LoadProgress, LoadProgressStore} from './state/loading.js';

/** Options of {@link startTui}. */
export interface StartTuiOptions {
	/** The session to show (live or replayed). */
	readonly store: SessionStore;
	/** Where keys come from (a TTY; raw mode is set while the TUI runs). */
	readonly stdin: NodeJS.ReadStream;
	/** Where the TUI draws (a TTY). In tap mode this is `/dev/tty`, never the MCP wire. */
	readonly stdout: NodeJS.WriteStream;
	/** Whether to use colours (`--color`, `NO_COLOR`; see `resolveColor` in theme.ts). */
	readonly color: boolean;
	/** Probe actions: `s` (send) and `r` (re-run) appear only when given. */
	readonly actions?: TuiActions;
	/** How long the probe waits for the `initialize` reply (ms): the status shows `waiting for initialize 3 s / 30 s`. */
	readonly waitLimitMs?: number;
	/** `view` of a capture still being read: the TUI shows a progress line until the load is done (app.tsx `AppProps.loading`). */
	readonly loading?: LoadProgressStore;
}

export {ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN} from './first-screen.js';

/** Props of {@link TuiRoot}. */
export interface TuiRootProps {
	readonly initialStore: SessionStore;
	readonly actions?: TuiActions | undefined;
	readonly theme: Theme;
	readonly waitLimitMs?: number | undefined;
	readonly loading?: LoadProgressStore | undefined;
}

/**
 * The component tree startTui renders: the theme provider and the app, holding the current session
 * store (it changes only when `actions.rerun` hands over a fresh session).
 */
export function TuiRoot({initialStore, actions, theme, waitLimitMs, loading}: TuiRootProps) {
	const [store, setStore] = useState(initialStore);
	return (
		<ThemeContext.Provider value={theme}>
			<App
				store={store}
				{...(actions ? {actions} : {})}
				onStore={setStore}
				{...(waitLimitMs === undefined ? {} : {waitLimitMs})}
				{...(loading === undefined ? {} : {loading})}
			/>
		</ThemeContext.Provider>
	);
}

/** The chalk colour level for a stream: from its colour depth when it reports one, else basic colours. */
function colorLevel(stdout: NodeJS.WriteStream): 1 | 2 | 3 {
	const depth = typeof stdout.getColorDepth === 'function' ? stdout.getColorDepth() : 4;
	return depth >= 24 ? 3 : depth >= 8 ? 2 : 1;
}

/**
 * Runs the TUI on the given streams until the user quits (`q` or Ctrl+C), then restores the terminal:
 * ink leaves raw mode and shows the cursor, and the alternate screen is left, so the shell comes back as
 * it was. ink is started with the injected streams, `patchConsole: false` and `exitOnCtrlC: false` (one
 * root owns `exit()`; style.md §1.3). Nothing captured reaches the terminal unescaped.
 *
 * Colour: chalk's level is set from `stdout` for the TUI's lifetime (in tap mode `process.stdout` is the
 * MCP wire, so chalk's own detection would look at the wrong stream); with `color: false` only
 * attributes (inverse, bold) are used. The previous level is restored on exit.
 * If the process exits while the TUI runs (a signal), the alternate screen is still left on `exit`.
 * @returns a promise that resolves once the TUI has quit and the terminal is restored; it rejects if
 *   rendering throws.
 * @throws Error (as a rejection) when `stdin` is not a terminal: keys need raw mode (use the plain log).
 */
export async function startTui(options: StartTuiOptions): Promise<void> {
	const {stdout, stdin} = options;
	if (stdin.isTTY !== true) {
		throw new Error('mcp-wire: the TUI needs a terminal on stdin to read keys; use --no-tui for the plain log');
	}

	const previousLevel = chalk.level;
	chalk.level = colorLevel(stdout);
	const isTerminal = stdout.isTTY === true;
	const leaveOnExit = (): void => {
		stdout.write(LEAVE_ALT_SCREEN);
	};

	if (isTerminal) {
		// Cleared: a first screen painted while ink loaded (first-screen.ts) may be on it.
		stdout.write(ENTER_ALT_SCREEN + CLEAR_SCREEN);
		process.once('exit', leaveOnExit);
	}

	const instance = render(
		<TuiRoot
			initialStore={options.store}
			actions={options.actions}
			theme={createTheme(options.color)}
			waitLimitMs={options.waitLimitMs}
			loading={options.loading}
		/>,
		{
			stdin,
			stdout,
			patchConsole: false,
			exitOnCtrlC: false,
		},
	);
	try {
		await instance.waitUntilExit();
	} finally {
		instance.cleanup();
		if (isTerminal) {
			process.off('exit', leaveOnExit);
			stdout.write(LEAVE_ALT_SCREEN);
		}

		chalk.level = previousLevel;
	}
}
