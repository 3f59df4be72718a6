// The FIX column's text: the informative stderr line, and the variable a server's stderr
// names as missing, with the config entry and client that would need it.
import {mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import type {ClientName, ConfigFile} from '../../src/configs/index.js';
import {dressFinding} from '../../src/core/findings/support/catalog.js';
import {explainFinding, explainMissingVariables, notOnPathFinding} from '../../src/doctor/explain.js';
import {planTargets, type ProbeTarget} from '../../src/doctor/plan.js';

let dir: string;
beforeEach(() => {
	dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-explain-')));
});
afterEach(() => rmSync(dir, {recursive: true, force: true}));

/** The probe target of a one-entry config of `client` (user scope), planned with `env` as the shell's. */
function target(
	client: ClientName,
	entry: Record<string, unknown>,
	env: Record<string, string>,
	tryEnv: string[] = [],
): ProbeTarget {
	const file = path.join(dir, `${client}.json`);
	writeFileSync(file, JSON.stringify({mcpServers: {weather: entry}}));
	const config: ConfigFile = {
		client,
		scope: 'user',
		path: file,
		exists: true,
		serversPath: ['mcpServers'],
		format: 'json',
	};
	const plan = planTargets([config], {env, home: dir, cwd: dir, platform: 'linux', tryEnv});
	return plan.targets[0] as ProbeTarget;
}

const earlyExit = (stderrTail: string[]) =>
	dressFinding({
		code: 'early-exit',
		stream: 'stdout',
		offset: 0,
		byteLength: 0,
		tMs: 900,
		detail: {exitCode: 1, stderrTail},
	});

describe('explainFinding', () => {
	it("shows npm's 404 line, not the pointer to its log file", () => {
		const finding = earlyExit([
			'npm error code E404',
			'npm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fweather-mcp - Not found',
			'npm error 404',
			'npm error A complete log of this run can be found in: /home/u/.npm/_logs/2026-11-30T17_01_02_003Z-debug-0.log',
		]);
		expect(explainFinding(finding)).toBe(
			`stderr: npm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fweather-mcp - Not found; ${finding.hint}`,
		);
	});

	it('shows the error of a Node crash, not the stack frames or the Node.js version footer', () => {
		const finding = earlyExit([
			"Error: Cannot find module '/build/index.js'",
			'    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)',
			'}',
			'',
			'Node.js v20.20.0',
		]);
		expect(explainFinding(finding)).toBe(`stderr: Error: Cannot find module '/build/index.js'; ${finding.hint}`);
	});

	it('gives the hint alone when stderr holds nothing but noise', () => {
		const finding = earlyExit(['', '    at x (/y.js:1:1)']);
		expect(explainFinding(finding)).toBe(finding.hint);
	});

	it('names the likely cause of an unanswered request: the first other error', () => {
		const unanswered = dressFinding({
			code: 'unanswered-request',
			stream: 'stdin',
			offset: 0,
			byteLength: 40,
			tMs: 1,
			detail: {method: 'tools/list', id: 1},
		});
		const cause = earlyExit([]);
		expect(explainFinding(unanswered, [unanswered, cause])).toBe(
			`tools/list (id 1) got no response before the session ended; likely cause early-exit: ${cause.hint}`,
		);
		expect(explainFinding(unanswered, [unanswered, {...unanswered}])).toBe(unanswered.hint);
	});
});

describe('notOnPathFinding', () => {
	it('is the spawn-failed finding of a command the client cannot find, made without spawning', () => {
		const planned = target('claude-desktop', {command: 'weather-mcp-nowhere'}, {PATH: dir, HOME: dir});
		const finding = notOnPathFinding(planned);
		expect(finding).toMatchObject({
			code: 'spawn-failed',
			severity: 'error',
			stream: 'stdout',
			offset: 0,
			byteLength: 0,
			tMs: 0,
			origin: 'probe',
			detail: {
				file: 'weather-mcp-nowhere',
				errno: 'ENOENT',
				command: ['weather-mcp-nowhere'],
				cwd: planned.cwd,
				path: planned.clientPath,
			},
		});
		expect(finding.message).toBe(
			'cannot start `weather-mcp-nowhere`: not found on the PATH Claude Desktop gives it (ENOENT)',
		);
		expect(finding.detail?.['reason']).toBe('not found on the PATH Claude Desktop gives it (ENOENT)');
	});
});

describe('explainMissingVariables', () => {
	const shell = {PATH: '/usr/bin:/bin', HOME: '/home/u', WEATHER_API_KEY: 'secret-value'};

	it('names the variable, the client and the config entry; says the shell sets it and how to let doctor try it', () => {
		const t = target('claude-desktop', {command: 'python3', args: ['server.py']}, shell);
		expect(explainMissingVariables(['WEATHER_API_KEY'], t, shell, 'linux', "KeyError: 'WEATHER_API_KEY'")).toBe(
			`stderr: KeyError: 'WEATHER_API_KEY'; the server's stderr names WEATHER_API_KEY as missing and Claude Desktop does not give it: add it to "env" of "weather" in ${t.file.path} (your shell sets WEATHER_API_KEY; doctor passes a variable to a server only with --try-env WEATHER_API_KEY)`,
		);
	});

	it('says when the shell does not set it either, and never shows a value', () => {
		const t = target('cursor', {command: 'node', args: ['s.js']}, {PATH: '/usr/bin'});
		const text = explainMissingVariables(['GITHUB_TOKEN', 'SLACK_TOKEN'], t, {PATH: '/usr/bin'}, 'linux');
		expect(text).toBe(
			`the server's stderr names GITHUB_TOKEN, SLACK_TOKEN as missing and Cursor does not give them: add them to "env" of "weather" in ${t.file.path} (your shell does not set them either)`,
		);
		const withKey = explainMissingVariables(
			['WEATHER_API_KEY'],
			target('cursor', {command: 'node', args: ['/srv/s.js']}, shell, ['WEATHER_API_KEY']),
			shell,
			'linux',
		);
		expect(withKey).toContain('(your shell sets it)');
		expect(withKey).not.toContain('secret-value');
	});

	it('for a client that passes its whole environment, only where to add it', () => {
		const t = target('claude-code', {command: 'node', args: ['s.js']}, {PATH: '/usr/bin'});
		expect(explainMissingVariables(['WEATHER_API_KEY'], t, {PATH: '/usr/bin'}, 'linux')).toBe(
			`the server's stderr names WEATHER_API_KEY as missing and Claude Code does not give it: add it to "env" of "weather" in ${t.file.path}`,
		);
	});
});
