// Temp home directories holding one config for each client (docs/cli.md#doctor).
import {chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TempHome {
	readonly home: string;
	readonly project: string;
	readonly bin: string;
	/** Absolute path of every config written, by a short name. */
	readonly files: Readonly<Record<FixtureName, string>>;
	/** The exact text written, by the same name. */
	readonly texts: Readonly<Record<FixtureName, string>>;
	cleanup(): void;
}

export type FixtureName =
	'claudeDesktop' | 'claudeJson' | 'mcpJson' | 'cursorUser' | 'cursorProject' | 'vscodeProject' | 'vscodeSettings';

export function makeTempDir(prefix = 'mcp-wire-configs-'): string {
	// realpath: on macOS os.tmpdir() is behind a symlink, and paths are compared exactly.
	return realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function writeFile(file: string, text: string): void {
	mkdirSync(path.dirname(file), {recursive: true});
	writeFileSync(file, text);
}

/** Builds a Linux-layout home: `<home>/.config/...`, project at `<home>/work/project`. */
export function makeTempHome(): TempHome {
	const home = makeTempDir();
	const project = path.join(home, 'work', 'project');
	const bin = path.join(home, 'bin');
	mkdirSync(project, {recursive: true});
	mkdirSync(bin, {recursive: true});
	const server = path.join(bin, 'echo-server');
	writeFileSync(server, '#!/bin/sh\nexec cat\n');
	chmodSync(server, 0o755);

	const texts: Record<FixtureName, string> = {
		claudeDesktop: [
			'{',
			'  "mcpServers": {',
			'    "fs": {',
			'      "command": "node",',
			'      "args": ["/srv/fs-server.js", "--root", "/tmp"],',
			'      "env": {"LOG_LEVEL": "debug"}',
			'    },',
			'    "missing": {',
			'      "command": "definitely-missing-mcp-server"',
			'    }',
			'  },',
			'  "globalShortcut": ""',
			'}',
			'',
		].join('\n'),
		claudeJson: [
			'{',
			'  "numStartups": 3,',
			'  "mcpServers": {',
			`    "user-tool": {"type": "stdio", "command": ${JSON.stringify(server)}, "args": [], "env": {}}`,
			'  },',
			'  "projects": {',
			`    ${JSON.stringify(project)}: {`,
			'      "allowedTools": [],',
			'      "mcpServers": {',
			'        "local-tool": {',
			'          "command": "echo-server",',
			'          "args": [',
			'            "--local",',
			'            "--verbose"',
			'          ]',
			'        }',
			'      }',
			'    }',
			'  }',
			'}',
			'',
		].join('\n'),
		mcpJson: [
			'{',
			'  "mcpServers": {',
			'    "remote": {"type": "http", "url": "https://example.com/mcp"},',
			'    "no-cmd": {"env": {"A": "1"}},',
			'    "bad": "node server.js",',
			'    "num-args": {"command": "node", "args": ["a", 2]}',
			'  }',
			'}',
			'',
		].join('\n'),
		cursorUser: [
			'{',
			'  "mcpServers": {',
			'    "sse-one": {"type": "sse", "url": "http://localhost:8000/sse"},',
			'    "py": {"command": "uvx", "args": ["mcp-server-time"]}',
			'  }',
			'}',
			'',
		].join('\n'),
		cursorProject: ['{', '  "mcpServers": {', '    "x": {"command": "node" "args": []}', '  }', '}', ''].join('\n'),
		vscodeProject: [
			'{',
			'\t// Servers for this workspace',
			'\t"inputs": [],',
			'\t"servers": {',
			'\t\t"everything": {',
			'\t\t\t"type": "stdio",',
			'\t\t\t"command": "npx",',
			'\t\t\t"args": ["-y", "@modelcontextprotocol/server-everything"], // pinned later',
			'\t\t},',
			'\t\t/* remote one */',
			'\t\t"web": {',
			'\t\t\t"type": "http",',
			'\t\t\t"url": "https://api.example.com/mcp",',
			'\t\t},',
			'\t},',
			'}',
			'',
		].join('\n'),
		vscodeSettings: [
			'{',
			'    "editor.fontSize": 14,',
			'    "mcp": {',
			'        "servers": {',
			'            "settings-srv": {"command": "node", "args": ["s.js"], "env": {"N": 1, "GONE": null}},',
			'        }',
			'    }',
			'}',
			'',
		].join('\n'),
	};
	const files: Record<FixtureName, string> = {
		claudeDesktop: path.join(home, '.config', 'Claude', 'claude_desktop_config.json'),
		claudeJson: path.join(home, '.claude.json'),
		mcpJson: path.join(project, '.mcp.json'),
		cursorUser: path.join(home, '.cursor', 'mcp.json'),
		cursorProject: path.join(project, '.cursor', 'mcp.json'),
		vscodeProject: path.join(project, '.vscode', 'mcp.json'),
		vscodeSettings: path.join(home, '.config', 'Code', 'User', 'settings.json'),
	};
	for (const name of Object.keys(files) as FixtureName[]) {
		writeFile(files[name], texts[name]);
	}
	return {
		home,
		project,
		bin,
		files,
		texts,
		cleanup: () => rmSync(home, {recursive: true, force: true}),
	};
}
