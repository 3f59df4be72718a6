import {chmodSync, mkdirSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {resolveCommand} from '../../src/configs/index.js';
import {makeTempDir} from './fixtures.js';

let root: string;
let a: string;
let b: string;
beforeEach(() => {
	root = makeTempDir('mcp-wire-which-');
	a = path.join(root, 'a');
	b = path.join(root, 'b');
	mkdirSync(a);
	mkdirSync(b);
	const make = (file: string, mode: number): void => {
		writeFileSync(file, '#!/bin/sh\n');
		chmodSync(file, mode);
	};
	make(path.join(a, 'tool'), 0o755);
	make(path.join(b, 'tool'), 0o755);
	make(path.join(a, 'plain'), 0o644);
	make(path.join(b, 'plain'), 0o755);
	make(path.join(root, 'local'), 0o755);
	make(path.join(b, 'srv.CMD'), 0o644);
	make(path.join(a, 'node.exe'), 0o644);
	mkdirSync(path.join(a, 'dir'));
});
afterEach(() => {
	rmSync(root, {recursive: true, force: true});
});

describe('resolveCommand on POSIX', () => {
	it('takes the first PATH entry that has it', () => {
		expect(resolveCommand('tool', `${a}:${b}`, root, {platform: 'linux'})).toBe(path.join(a, 'tool'));
		expect(resolveCommand('tool', `${b}:${a}`, root, {platform: 'linux'})).toBe(path.join(b, 'tool'));
	});

	it('skips files without execute permission and directories', () => {
		// Even root needs one execute bit (access(2) X_OK).
		expect(resolveCommand('plain', `${a}:${b}`, root, {platform: 'linux'})).toBe(path.join(b, 'plain'));
		expect(resolveCommand('dir', a, root, {platform: 'linux'})).toBeNull();
	});

	it('returns null when the command is on no PATH entry', () => {
		expect(resolveCommand('definitely-missing-mcp-server', `${a}:${b}`, root, {platform: 'linux'})).toBeNull();
		expect(resolveCommand('tool', '/usr/bin:/bin', root, {platform: 'linux'})).toBeNull();
		expect(resolveCommand('', a, root, {platform: 'linux'})).toBeNull();
	});

	it('takes a command with a slash relative to cwd, without searching PATH', () => {
		expect(resolveCommand('./local', a, root, {platform: 'linux'})).toBe(path.join(root, 'local'));
		expect(resolveCommand('a/tool', '', root, {platform: 'linux'})).toBe(path.join(a, 'tool'));
		expect(resolveCommand(path.join(b, 'tool'), '', '/', {platform: 'linux'})).toBe(path.join(b, 'tool'));
		expect(resolveCommand('./missing', a, root, {platform: 'linux'})).toBeNull();
	});

	it('treats an empty PATH entry as cwd (execvp)', () => {
		expect(resolveCommand('local', `${a}::${b}`, root, {platform: 'linux'})).toBe(path.join(root, 'local'));
		expect(resolveCommand('local', `${a}:${b}`, root, {platform: 'linux'})).toBeNull();
	});
});

describe('resolveCommand with Windows rules', () => {
	it('tries each PATHEXT extension, in order, on the ;-separated PATH', () => {
		expect(resolveCommand('srv', `${a};${b}`, root, {platform: 'win32', pathExt: '.EXE;.CMD'})).toBe(
			path.join(b, 'srv.CMD'),
		);
		expect(resolveCommand('node', `"${a}";${b}`, root, {platform: 'win32', pathExt: '.COM;.exe'})).toBe(
			path.join(a, 'node.exe'),
		);
		expect(resolveCommand('srv', `${a};${b}`, root, {platform: 'win32', pathExt: '.EXE'})).toBeNull();
	});

	it('takes a name that already has a PATHEXT extension as it is, and searches cwd first', () => {
		expect(resolveCommand('srv.CMD', b, root, {platform: 'win32'})).toBe(path.join(b, 'srv.CMD'));
		writeFileSync(path.join(root, 'srv.CMD'), '');
		expect(resolveCommand('srv', b, root, {platform: 'win32'})).toBe(path.join(root, 'srv.CMD'));
	});

	it('does not need the execute bit, but does need an extension from PATHEXT', () => {
		expect(resolveCommand('tool', a, root, {platform: 'win32'})).toBeNull();
	});
});
