/**
 * Claude Code. Sources: docs/protocol.md C8 (TS SDK error strings, 30 s start-up, `MCP_TIMEOUT`), docs/protocol.md
 * "Measured: Claude Code's `claude mcp list`" (whole environment passed on), docs/cli.md#doctor (config files),
 * docs/clients.md#claude-code.
 */
import {MCP_SERVERS, notEstablished, unknownOpening, type ClientProfile} from '../profile.js';

/** Claude Code (closed source; TS SDK 1.x error strings). */
export const CLAUDE_CODE: ClientProfile = {
	id: 'claude-code',
	kind: 'host',
	displayName: 'Claude Code',
	family: {
		value: 'ts-sdk-v1',
		source:
			'docs/protocol.md C8 (its errors are the TS SDK’s; agrees with every example, docs/clients.md#the-agreement-table)',
	},
	sdk: {value: '@modelcontextprotocol/sdk 1.x (inferred; 2.1.197 run here)', source: 'docs/protocol.md C8'},
	configs: [
		{
			scope: 'user',
			base: 'home',
			segments: ['.claude.json'],
			envOverride: 'CLAUDE_CONFIG_DIR',
			format: 'json',
			servers: MCP_SERVERS,
			editable: true,
			source: 'docs/cli.md#doctor',
		},
		{
			scope: 'local',
			base: 'home',
			segments: ['.claude.json'],
			envOverride: 'CLAUDE_CONFIG_DIR',
			format: 'json',
			servers: {...MCP_SERVERS, path: ['projects', '<cwd>', 'mcpServers']},
			editable: true,
			source: 'docs/cli.md#doctor',
		},
		{
			scope: 'project',
			base: 'cwd',
			segments: ['.mcp.json'],
			format: 'json',
			servers: MCP_SERVERS,
			editable: true,
			source: 'docs/cli.md#doctor',
		},
	],
	launch: {
		environment: {
			value: {mode: 'full'},
			source: 'docs/protocol.md "Measured: Claude Code\'s `claude mcp list`" (PYTHONUNBUFFERED reaches the server)',
		},
		command: {value: 'looked up on the PATH of the shell that started `claude`', source: 'docs/clients.md#claude-code'},
	},
	opening: unknownOpening('not recorded here; its errors are the TS SDK 1.x client’s (docs/protocol.md C8)'),
	limits: {
		startupMs: {value: 30_000, source: 'docs/protocol.md C8, R15 (`MCP_TIMEOUT` in ms; the SDK’s 60 s still caps it)'},
		requestMs: {value: 60_000, source: 'docs/protocol.md R15 (the TS SDK default)'},
		listCheckToolsMs: {
			value: 5_000,
			command: 'claude mcp list',
			source:
				'docs/clients.md#claude-code (2.1.197 run here: `tools/list` answered in 4.9 s ✔, in 5.1 s `tools fetch failed`; `MCP_TIMEOUT` and `MCP_TOOL_TIMEOUT` do not change it)',
		},
		progressResets: notEstablished('not measured'),
		knob: 'MCP_TIMEOUT',
		knobEnv: {
			variable: 'MCP_TIMEOUT',
			maxMs: 60_000,
			source:
				'Claude Code docs, code.claude.com/docs/en/mcp (`MCP_TIMEOUT=10000 claude` sets a 10 s start-up timeout); anthropics/claude-code#16837 (a value over 60 s still ends at 60 s: the SDK request timeout)',
		},
	},
	stderr: notEstablished('what Claude Code does with a server’s stderr was not measured'),
	errorTexts: [
		{
			id: 'claude-code/failed-to-connect',
			pattern: 'Failed to connect',
			explainedBy: 'claude-code-failed-to-connect',
			example: 'fs: node server.js - ✘ Failed to connect',
			means: '`claude mcp list`: spawn and initialize did not succeed within 30 s',
			source: 'docs/protocol.md "Measured: Claude Code\'s `claude mcp list`"; docs/clients.md#the-agreement-table',
		},
		{
			id: 'claude-code/tools-fetch-failed',
			pattern: 'tools fetch failed',
			example: 'fs: node server.js - ! Connected · tools fetch failed',
			means: 'the handshake worked but `tools/list` got no answer Claude Code could read',
			source: 'docs/clients.md#the-agreement-table (exit-before-drain, wrong-id)',
		},
	],
	restart: 'start a new `claude` session; `claude mcp list` checks the change at once',
	sources: ['docs/protocol.md C8', 'docs/protocol.md R15', 'docs/cli.md#doctor', 'docs/clients.md#claude-code'],
};
