// A temporary home holding one config for each MCP client, whose entries point at the example servers
// (docs/cli.md#doctor): healthy node/python servers, a stray print, a block-buffered python server that
// only works with PYTHONUNBUFFERED=1, a command that is only on the shell's PATH (~/.local/bin), a
// missing binary, HTTP/SSE entries, an entry without a command and a file of broken JSON.
import {execFileSync} from 'node:child_process';
import {chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.join(import.meta.dirname, '..', '..');
export const SERVERS = path.join(ROOT, 'examples', 'servers');
/** Absolute interpreters, so the entries do not depend on the PATH a GUI client gets. */
export const NODE = process.execPath;
export const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {encoding: 'utf8'}).trim();

export interface DoctorHome {
	readonly home: string;
	readonly project: string;
	/** `<home>/.local/bin`: holds `local-mcp-server`, a healthy server found only on the shell's PATH. */
	readonly localBin: string;
	/** `<home>/state`: XDG_STATE_HOME for the run, so captures land in the temp dir. */
	readonly state: string;
	readonly files: {
		readonly claudeDesktop: string;
		readonly claudeJson: string;
		readonly mcpJson: string;
		readonly cursorUser: string;
		readonly cursorProject: string;
		readonly vscodeProject: string;
	};
	/** The environment to run the CLI with: HOME, XDG dirs, PATH with ~/.local/bin, PYTHONUNBUFFERED=1. */
	env(extra?: Record<string, string | undefined>): Record<string, string>;
	cleanup(): void;
}

function write(file: string, text: string): void {
	mkdirSync(path.dirname(file), {recursive: true});
	writeFileSync(file, text);
}

const server = (runtime: 'node' | 'python', file: string) => ({
	command: runtime === 'node' ? NODE : PYTHON,
	args: [path.join(SERVERS, runtime, file)],
});

/** Builds the home. Pass `claudeCodeOnly` to write only `~/.claude.json` (for the `claude mcp list` comparison). */
export function makeDoctorHome(): DoctorHome {
	const home = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-doctor-')));
	const project = path.join(home, 'work', 'project');
	const localBin = path.join(home, '.local', 'bin');
	const state = path.join(home, 'state');
	mkdirSync(project, {recursive: true});
	mkdirSync(localBin, {recursive: true});
	const local = path.join(localBin, 'local-mcp-server');
	writeFileSync(
		local,
		`#!/bin/sh\nexec ${JSON.stringify(NODE)} ${JSON.stringify(path.join(SERVERS, 'node', 'healthy.mjs'))}\n`,
	);
	chmodSync(local, 0o755);

	const files = {
		claudeDesktop: path.join(home, '.config', 'Claude', 'claude_desktop_config.json'),
		claudeJson: path.join(home, '.claude.json'),
		mcpJson: path.join(project, '.mcp.json'),
		cursorUser: path.join(home, '.cursor', 'mcp.json'),
		cursorProject: path.join(project, '.cursor', 'mcp.json'),
		vscodeProject: path.join(project, '.vscode', 'mcp.json'),
	};
	write(
		files.claudeDesktop,
		`${JSON.stringify(
			{
				mcpServers: {
					'healthy-node': server('node', 'healthy.mjs'),
					unflushed: server('python', 'unflushed.py'),
					'local-bin': {command: 'local-mcp-server'},
					missing: {command: 'definitely-missing-mcp-server', args: ['--stdio']},
					'stray-print': server('python', 'stray-print.py'),
				},
			},
			null,
			2,
		)}\n`,
	);
	write(
		files.claudeJson,
		`${JSON.stringify(
			{
				numStartups: 1,
				mcpServers: {
					'healthy-py': {type: 'stdio', ...server('python', 'healthy.py'), env: {}},
					unflushed: {type: 'stdio', ...server('python', 'unflushed.py'), env: {}},
					remote: {type: 'http', url: 'https://example.com/mcp'},
				},
				projects: {[project]: {allowedTools: [], mcpServers: {pretty: server('python', 'pretty-json.py')}}},
			},
			null,
			2,
		)}\n`,
	);
	write(
		files.mcpJson,
		[
			'{',
			'  "mcpServers": {',
			`    "import-error": ${JSON.stringify(server('python', 'import-error.py'))},`,
			'    "no-command": {"args": ["--stdio"]}',
			'  }',
			'}',
			'',
		].join('\n'),
	);
	write(
		files.cursorUser,
		`${JSON.stringify({mcpServers: {'stray-print': server('node', 'stray-print.mjs')}}, null, 2)}\n`,
	);
	// Broken: a trailing comma after the last entry (Cursor parses strict JSON), at the end of line 3.
	write(
		files.cursorProject,
		['{', '  "mcpServers": {', `    "x": ${JSON.stringify(server('node', 'healthy.mjs'))},`, '  }', '}', ''].join('\n'),
	);
	write(
		files.vscodeProject,
		[
			'{',
			'\t// JSONC: comments are fine here',
			'\t"servers": {',
			`\t\t"crlf": ${JSON.stringify({type: 'stdio', ...server('python', 'crlf.py')})},`,
			'\t\t"events": {"type": "sse", "url": "http://localhost:8000/sse"},',
			'\t},',
			'}',
			'',
		].join('\n'),
	);
	return {
		home,
		project,
		localBin,
		state,
		files,
		env(extra = {}) {
			const env: Record<string, string> = {};
			for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
			delete env['XDG_CONFIG_HOME'];
			delete env['CLAUDE_CONFIG_DIR'];
			delete env['FORCE_COLOR'];
			Object.assign(env, {
				HOME: home,
				XDG_STATE_HOME: state,
				PATH: `${localBin}:${process.env['PATH'] ?? ''}`,
				PYTHONUNBUFFERED: '1',
				NO_COLOR: '1',
			});
			for (const [key, value] of Object.entries(extra)) {
				if (value === undefined) delete env[key];
				else env[key] = value;
			}
			return env;
		},
		cleanup: () => rmSync(home, {recursive: true, force: true}),
	};
}
