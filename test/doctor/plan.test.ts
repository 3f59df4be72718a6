import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {discoverConfigs} from '../../src/configs/index.js';
import {projectApproval} from '../../src/doctor/claude-approval.js';
import {planTargets, type DoctorTarget, type ProbeTarget} from '../../src/doctor/plan.js';
import {makeDoctorHome, NODE, PYTHON, SERVERS, type DoctorHome} from './fixtures.js';

let home: DoctorHome;
beforeEach(() => {
	home = makeDoctorHome();
});
afterEach(() => home.cleanup());

const MINIMAL = '/usr/bin:/bin:/usr/sbin:/sbin';

function plan(env: Record<string, string>) {
	const files = discoverConfigs({home: home.home, cwd: home.project, platform: 'linux', env: {}});
	return planTargets(files, {env, home: home.home, cwd: home.project, platform: 'linux'});
}

const label = (t: DoctorTarget): string =>
	t.kind === 'problem'
		? `problem ${t.file.client} ${t.problem.kind} ${t.problem.server ?? '(file)'}`
		: `${t.kind} ${t.file.client} ${t.entry.name}`;

describe('planTargets', () => {
	const env = () => ({
		HOME: home.home,
		USER: 'u',
		SHELL: '/bin/bash',
		TERM: 'xterm',
		PATH: `${home.localBin}:/usr/local/bin:${MINIMAL}`,
		PYTHONUNBUFFERED: '1',
	});

	it('lists every entry of every client in discovery order, problems of a file first', () => {
		expect(plan(env()).targets.map(label)).toEqual([
			'probe claude-desktop healthy-node',
			'probe claude-desktop unflushed',
			'probe claude-desktop local-bin',
			'probe claude-desktop missing',
			'probe claude-desktop stray-print',
			'probe claude-code healthy-py',
			'probe claude-code unflushed',
			'skipped claude-code remote',
			'probe claude-code pretty',
			'problem claude-code no-command no-command',
			'probe claude-code import-error',
			'probe cursor stray-print',
			'problem cursor broken-json (file)',
			'probe vscode crlf',
			'skipped vscode events',
		]);
	});

	it("gives a GUI client's server the allow-list with the minimal PATH, in the home folder", () => {
		const target = plan(env()).targets.find(
			(t) => t.kind === 'probe' && t.file.client === 'claude-desktop' && t.entry.name === 'unflushed',
		) as ProbeTarget;
		expect(target.env).toEqual({HOME: home.home, PATH: MINIMAL, SHELL: '/bin/bash', TERM: 'xterm', USER: 'u'});
		expect(target.mode).toBe('gui-minimal');
		// The env-difference search may use only harmless variables of the shell (TERM is not one of them).
		const {TERM: _term, ...searchable} = env();
		expect(target.fullEnv).toEqual(searchable);
		expect(target.command).toEqual([PYTHON, path.join(SERVERS, 'python', 'unflushed.py')]);
		expect([target.cwd, target.cwdAssumed]).toEqual([home.home, true]);
		expect(target.resolved).toBe(PYTHON);
	});

	it("gives Claude Code's servers its whole environment in the project folder, VS Code's in the home folder", () => {
		const targets = plan(env()).targets.filter((t): t is ProbeTarget => t.kind === 'probe');
		const code = targets.find((t) => t.file.client === 'claude-code' && t.entry.name === 'healthy-py')!;
		expect([code.env, code.mode, code.cwd]).toEqual([env(), 'client-full', home.project]);
		const vscode = targets.find((t) => t.file.client === 'vscode')!;
		expect([vscode.env, vscode.mode, vscode.cwd]).toEqual([env(), 'client-full', home.home]);
	});

	it('resolves each command on the PATH its client gives: a ~/.local/bin command is not found by a GUI client', () => {
		const targets = plan(env()).targets.filter(
			(t): t is ProbeTarget => t.kind === 'probe' && t.file.client === 'claude-desktop',
		);
		expect(targets.map((t) => [t.entry.name, t.resolved, t.clientPath])).toEqual([
			['healthy-node', NODE, MINIMAL],
			['unflushed', PYTHON, MINIMAL],
			['local-bin', null, MINIMAL],
			['missing', null, MINIMAL],
			['stray-print', PYTHON, MINIMAL],
		]);
	});

	it('says why HTTP/SSE entries are skipped and names the file and position of config problems', () => {
		const targets = plan(env()).targets;
		const skipped = targets.filter((t) => t.kind === 'skipped').map((t) => (t.kind === 'skipped' ? t.reason : ''));
		expect(skipped).toEqual([
			'HTTP server at https://example.com/mcp: doctor checks stdio servers only',
			'SSE server at http://localhost:8000/sse: doctor checks stdio servers only',
		]);
		const problems = targets.flatMap((t) =>
			t.kind === 'problem' ? [[t.problem.file, t.problem.line, t.problem.column, t.problem.message]] : [],
		);
		expect(problems).toEqual([
			[home.files.mcpJson, 4, 5, 'server "no-command" has neither "command" nor "url"'],
			[
				home.files.cursorProject,
				3,
				readFileSync(home.files.cursorProject, 'utf8').split('\n')[2]!.length,
				'broken JSON: trailing comma (not allowed in JSON)',
			],
		]);
	});

	it('notes a Claude Code project server that is not approved, and a name defined twice', () => {
		writeFileSync(home.files.mcpJson, '{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}\n');
		const result = plan(env());
		const a = result.targets.find((t) => t.kind === 'probe' && t.entry.name === 'a') as ProbeTarget;
		expect(a.notes).toEqual([
			'not approved in Claude Code yet: it starts .mcp.json servers only once you approve them (and trust the folder) in `claude`; `claude mcp list` shows ⏸ Pending approval',
		]);
		expect(result.notes).toEqual([
			`${home.files.mcpJson}:1:17: server "a" is defined twice; the client uses the later one at line 1`,
		]);
	});
});

describe('projectApproval', () => {
	const options = () => ({home: home.home, cwd: home.project, env: {}});
	const writeJson = (file: string, value: unknown): void => {
		mkdirSync(path.dirname(file), {recursive: true});
		writeFileSync(file, JSON.stringify(value));
	};

	it('is pending until approved; local settings count only in a trusted folder; a rejection wins', () => {
		expect(projectApproval('import-error', options())).toBe('pending');
		writeJson(path.join(home.project, '.claude', 'settings.local.json'), {enabledMcpjsonServers: ['import-error']});
		expect(projectApproval('import-error', options())).toBe('pending');
		writeJson(home.files.claudeJson, {projects: {[home.project]: {hasTrustDialogAccepted: true}}});
		expect(projectApproval('import-error', options())).toBe('approved');
		expect(projectApproval('other', options())).toBe('pending');
		writeJson(path.join(home.home, '.claude', 'settings.json'), {disabledMcpjsonServers: ['import-error']});
		expect(projectApproval('import-error', options())).toBe('disabled');
	});

	it('honours enableAllProjectMcpServers and CLAUDE_CONFIG_DIR', () => {
		const dir = path.join(home.home, 'cfg');
		writeJson(path.join(dir, 'settings.json'), {enableAllProjectMcpServers: true});
		expect(projectApproval('x', options())).toBe('pending');
		expect(projectApproval('x', {...options(), env: {CLAUDE_CONFIG_DIR: dir}})).toBe('approved');
	});
});
