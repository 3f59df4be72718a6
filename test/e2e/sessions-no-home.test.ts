// `mcp-wire sessions` without a home ($HOME unset or empty, no $XDG_STATE_HOME): like `tap`, which then
// records nothing and warns, it says there is no capture directory and exits 0; it never lists (or
// creates) a directory under a guessed home.
import {existsSync, mkdirSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {execa} from 'execa';
import {afterAll, describe, expect, it} from 'vitest';
import {BIN} from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-wire-sessions-no-home-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));
const runtime = join(dir, 'run');
mkdirSync(runtime, {mode: 0o700});

/** The environment of this process without HOME and XDG_STATE_HOME, with `extra`. */
function envWithout(extra: Record<string, string>): Record<string, string> {
	const env: Record<string, string> = {};
	for (const [key, value] of Object.entries(process.env))
		if (value !== undefined && key !== 'HOME' && key !== 'XDG_STATE_HOME') env[key] = value;
	return {...env, XDG_RUNTIME_DIR: runtime, ...extra};
}

describe.skipIf(process.platform === 'win32')('sessions without a home', () => {
	it.each([
		['unset', {}, '$HOME is not set'],
		['empty', {HOME: ''}, '$HOME is empty'],
	])('$HOME %s: says there is no capture directory, lists no captures, exit 0', async (_, extra, problem) => {
		const note = `mcp-wire: sessions: no capture directory: ${problem} (set HOME or XDG_STATE_HOME; a tap records nothing without one unless given --capture FILE)`;
		const plain = await execa('node', [BIN, 'sessions'], {
			env: envWithout(extra),
			extendEnv: false,
			cwd: dir,
			reject: false,
			stdin: 'ignore',
		});
		expect([plain.exitCode, plain.stdout, plain.stderr]).toEqual([
			0,
			`no live taps\n\nno capture directory (${problem})`,
			note,
		]);
		const json = await execa('node', [BIN, 'sessions', '--json'], {
			env: envWithout(extra),
			extendEnv: false,
			cwd: dir,
			reject: false,
			stdin: 'ignore',
		});
		expect([json.exitCode, json.stdout, json.stderr]).toEqual([0, '', note]);
		// Nothing made in the working directory (what a relative home would give).
		expect(existsSync(join(dir, '.local'))).toBe(false);
	});
});
