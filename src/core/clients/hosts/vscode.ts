/**
 * VS Code's built-in MCP client. Sources: docs/protocol.md C6 (source read: environment, stderr, reader, ids,
 * opening, shutdown), R15 (no default timeout), field case F47 (`logging/setLevel` before `initialized`),
 * docs/cli.md#doctor (config files), docs/clients.md#vs-code.
 */
import {NOT_ESTABLISHED, type ClientProfile} from '../profile.js';

/** VS Code (open source; its own client, no SDK). */
export const VSCODE: ClientProfile = {
	id: 'vscode',
	kind: 'host',
	displayName: 'VS Code',
	family: {value: 'vscode', source: 'docs/protocol.md C6'},
	sdk: {value: 'its own client (no MCP SDK)', source: 'docs/protocol.md C6'},
	configs: [
		{
			scope: 'user',
			base: 'appdata',
			segments: ['Code', 'User', 'mcp.json'],
			format: 'jsonc',
			servers: {path: ['servers'], shape: 'map', keys: {command: 'command', args: 'args', env: 'env'}},
			editable: true,
			source: 'docs/cli.md#doctor',
		},
		{
			scope: 'user',
			base: 'appdata',
			segments: ['Code', 'User', 'settings.json'],
			format: 'jsonc',
			servers: {path: ['mcp', 'servers'], shape: 'map', keys: {command: 'command', args: 'args', env: 'env'}},
			editable: true,
			source: 'docs/cli.md#doctor',
		},
		{
			scope: 'project',
			base: 'cwd',
			segments: ['.vscode', 'mcp.json'],
			format: 'jsonc',
			servers: {path: ['servers'], shape: 'map', keys: {command: 'command', args: 'args', env: 'env'}},
			editable: true,
			source: 'docs/cli.md#doctor',
		},
	],
	launch: {
		environment: {
			value: {mode: 'full'},
			source: 'docs/protocol.md C6 (the whole environment, envFile and env; a PATH entry is appended)',
		},
		command: {value: 'no shell, except for .bat/.cmd on Windows', source: 'docs/protocol.md C6'},
	},
	opening: {
		protocolVersion: NOT_ESTABLISHED,
		capabilities: NOT_ESTABLISHED,
		clientInfo: NOT_ESTABLISHED,
		ids: {kind: 'integer', first: 1},
		order: ['initialize', 'logging/setLevel', 'notifications/initialized', 'tools/list'],
		supportedVersions: NOT_ESTABLISHED,
		source:
			'docs/protocol.md C6 (ids from 1, initialize offers the latest version it knows, then initialized); F47 (logging/setLevel between the initialize result and initialized, when the server advertises logging)',
	},
	limits: {
		startupMs: {value: null, source: 'docs/protocol.md R15 (no default timeout in the source read)'},
		requestMs: {value: null, source: 'docs/protocol.md R15'},
		progressResets: {value: false, source: 'nothing to reset: no timeout (R15)'},
	},
	stderr: {value: 'logged', source: 'docs/protocol.md C6 (each line logged at Warning as [server stderr])'},
	errorTexts: [
		{
			id: 'vscode/process-exited',
			pattern: 'Connection state: Error Process exited with code (\\d+)',
			example: 'Connection state: Error Process exited with code 1',
			means: 'the server process exited (with that code) while VS Code was connecting or connected',
			source: 'docs/clients.md#vs-code; F47 (an rmcp server exits 1 on VS Code’s logging/setLevel)',
		},
		{
			id: 'vscode/parse-failed',
			pattern: 'Failed to parse message',
			explainedBy: 'vscode-parse-failed',
			example: 'Failed to parse message: "Server started"',
			means: 'a line on stdout was not JSON (a blank line too); VS Code logged it and went on',
			source: 'docs/protocol.md C6 (laravel/boost#391)',
		},
	],
	restart: 'run `MCP: List Servers`, pick the server and Restart (or use the Restart action above it in mcp.json)',
	sources: [
		'docs/protocol.md C6',
		'docs/protocol.md R15',
		'docs/field-cases.md F47',
		'docs/cli.md#doctor',
		'docs/clients.md#vs-code',
	],
};
