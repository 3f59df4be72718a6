// doctor without a home keeps no captures, as tap and sessions (it took the passwd home before).
import {existsSync, mkdtempSync, rmSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {prepareCaptureDir} from '../../src/cli/commands/doctor.js';
import type {PlatformFacts} from '../../src/captures/capture-store.js';

let dir: string | undefined;
afterEach(() => {
	if (dir !== undefined) rmSync(dir, {recursive: true, force: true});
	dir = undefined;
});

function facts(env: NodeJS.ProcessEnv, homedir: string): PlatformFacts {
	return {env, platform: 'linux', homedir, tmpdir: os.tmpdir(), uid: process.getuid?.(), user: 'someone'};
}

describe('prepareCaptureDir', () => {
	it('without $HOME: no directory, one line saying why (the passwd home is not used)', () => {
		dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-nohome-'));
		const warned: string[] = [];
		// homedir as os.homedir() gives it without $HOME: the passwd entry's.
		expect(prepareCaptureDir(facts({}, dir), (line) => warned.push(line))).toBeUndefined();
		expect(warned).toEqual(['mcp-wire: doctor keeps no captures: $HOME is not set (set HOME or XDG_STATE_HOME)\n']);
		expect(existsSync(path.join(dir, '.local'))).toBe(false);
		expect(prepareCaptureDir(facts({HOME: ''}, dir), (line) => warned.push(line))).toBeUndefined();
		expect(warned[1]).toBe('mcp-wire: doctor keeps no captures: $HOME is empty (set HOME or XDG_STATE_HOME)\n');
	});

	it('with $HOME: the private directory under it', () => {
		dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-home-'));
		const warned: string[] = [];
		expect(prepareCaptureDir(facts({HOME: dir}, dir), (line) => warned.push(line))).toBe(
			path.join(dir, '.local', 'state', 'mcp-wire', 'captures'),
		);
		expect(existsSync(path.join(dir, '.local', 'state', 'mcp-wire', 'captures'))).toBe(true);
		expect(warned).toEqual([]);
	});
});
