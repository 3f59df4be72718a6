import chalk from 'chalk';
import stripAnsi from 'strip-ansi';
import {describe, expect, it} from 'vitest';
import {CLEAR_SCREEN} from '../../../src/render/tui/first-screen.js';
import {ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN, startTui} from '../../../src/render/tui/start-tui.js';
import {CTRL_C} from '../../helpers/keys.js';
import {FakeStdin, FakeStdout, tick} from '../../helpers/render-tui.js';
import {exchangeSession} from './exchange.js';

// The production entry: ink with the injected streams (no debug mode), alternate screen, colour level.

async function run(keys: string[], color: boolean) {
	const stdout = new FakeStdout(100, 30);
	const stdin = new FakeStdin();
	const levelBefore = chalk.level;
	let isDone = false;
	const done = startTui({
		store: exchangeSession(),
		stdin: stdin as unknown as NodeJS.ReadStream,
		stdout: stdout as unknown as NodeJS.WriteStream,
		color,
	}).then(() => {
		isDone = true;
	});
	for (let i = 0; i < 50 && !stripAnsi(stdout.frames.join('')).includes('#7 ERR'); i++) await tick();
	const wasRaw = stdin.isRaw;
	expect(isDone).toBe(false);
	for (const key of keys) {
		stdin.write(key);
		await tick();
	}

	await done;
	return {stdout, stdin, wasRaw, levelBefore, output: stdout.frames.join('')};
}

describe('startTui', () => {
	it('draws on the alternate screen, resolves when q is pressed, and restores the terminal', async () => {
		const exitListeners = process.listenerCount('exit');
		const {stdout, stdin, wasRaw, levelBefore, output} = await run(['j', 'q'], true);
		// Cleared too: `view` may have painted its first screen there while ink loaded.
		expect(stdout.frames[0]).toBe(ENTER_ALT_SCREEN + CLEAR_SCREEN);
		expect(stdout.frames.at(-1)).toBe(LEAVE_ALT_SCREEN);
		expect(process.listenerCount('exit')).toBe(exitListeners);
		expect(stripAnsi(output)).toContain('▶    7      13.0 ERR     25 text           ␛[31mwarn␛[0m: slow disk');
		expect(wasRaw).toBe(true);
		expect(stdin.isRaw).toBe(false);
		// ink shows the cursor again before the alternate screen is left.
		expect(output.lastIndexOf('\u001B[?25h')).toBeGreaterThan(output.indexOf(ENTER_ALT_SCREEN));
		expect(chalk.level).toBe(levelBefore);
		// Colour: 256-colour depth reported by the fake terminal → chalk level 2; the red CR LF highlight is painted.
		expect(output).toContain('\u001B[31m');
	});

	it('resolves on Ctrl+C (exitOnCtrlC is off; the app handles it)', async () => {
		const {stdout} = await run([CTRL_C], true);
		expect(stdout.frames.at(-1)).toBe(LEAVE_ALT_SCREEN);
	});

	it('refuses a stdin that is not a terminal, before drawing anything', async () => {
		const stdout = new FakeStdout(100, 30);
		const stdin = Object.assign(new FakeStdin(), {isTTY: false});
		await expect(
			startTui({
				store: exchangeSession(),
				stdin: stdin as unknown as NodeJS.ReadStream,
				stdout: stdout as unknown as NodeJS.WriteStream,
				color: true,
			}),
		).rejects.toThrow('mcp-wire: the TUI needs a terminal on stdin to read keys; use --no-tui for the plain log');
		expect(stdout.frames).toEqual([]);
	});

	it('without colour uses attributes only (the selection is still inverse)', async () => {
		const {output} = await run(['q'], false);
		// No foreground/background colour SGR (30–37, 39 excepted, 40–47, 90–97, 38;/48;) …
		expect(output).not.toMatch(/\u001B\[(?:3[0-8]|4[0-8]|9\d|10\d)(?:;\d+)*m/);
		// … but inverse video marks the selected row.
		expect(output).toContain('\u001B[7m');
	});
});
