/**
 * Claude Desktop. Sources: docs/protocol.md C8 (TS SDK v1 reader from stack traces; log and toast texts),
 * docs/cli.md#doctor (config location, GUI environment), docs/clients.md#claude-desktop.
 */
import {MCP_SERVERS, notEstablished, unknownOpening, type ClientProfile} from '../profile.js';

/** Claude Desktop (closed source; it runs the TS SDK 1.x client). */
export const CLAUDE_DESKTOP: ClientProfile = {
	id: 'claude-desktop',
	kind: 'host',
	displayName: 'Claude Desktop',
	family: {value: 'ts-sdk-v1', source: 'docs/protocol.md C8 (stack traces through the TS SDK ReadBuffer)'},
	sdk: {value: '@modelcontextprotocol/sdk 1.x (version not established)', source: 'docs/protocol.md C8'},
	configs: [
		{
			scope: 'user',
			base: 'appdata',
			segments: ['Claude', 'claude_desktop_config.json'],
			format: 'json',
			servers: MCP_SERVERS,
			editable: true,
			source: 'docs/cli.md#doctor',
		},
	],
	launch: {
		environment: {
			value: {mode: 'gui-minimal'},
			source:
				'docs/cli.md#doctor: an app started from the desktop gets a minimal PATH; the SDK allow-list (docs/protocol.md C3)',
		},
		command: {
			value: 'looked up on the minimal PATH of a desktop app (no shell, no version-manager folders)',
			source: 'docs/cli.md#doctor',
		},
	},
	opening: unknownOpening('not recorded; the TS SDK 1.x client’s (ts-sdk-v1) is the likely one (docs/protocol.md C8)'),
	limits: {
		startupMs: notEstablished('Claude Desktop’s own start-up limit was not measured'),
		requestMs: {value: 60_000, source: 'docs/protocol.md R15 (the TS SDK default)'},
		progressResets: notEstablished('not measured'),
	},
	stderr: {value: 'logged', source: 'docs/protocol.md C8 (mcp-server-<name>.log)'},
	errorTexts: [
		{
			id: 'claude-desktop/transport-closed',
			pattern: 'Server transport closed unexpectedly',
			explainedBy: 'transport-closed',
			example: 'Server transport closed unexpectedly, this is likely due to the process exiting early.',
			means: 'the server process exited (or closed stdout) while Claude Desktop still needed it',
			source: 'docs/protocol.md C8 (modelcontextprotocol/mcpb#200)',
		},
		{
			id: 'claude-desktop/unexpected-token',
			pattern: 'MCP [^:]+: Unexpected token',
			explainedBy: 'v8-unexpected-token',
			example: `MCP fs: Unexpected token 'S', "Server sta"... is not valid JSON`,
			means: 'a toast: a line on stdout was not JSON; it was logged and skipped, the server keeps working',
			source: 'docs/protocol.md C8 (sbroenne/mcp-server-excel#636)',
		},
	],
	restart: 'quit Claude Desktop completely (from the menu bar or tray, not only the window) and open it again',
	sources: ['docs/protocol.md C8', 'docs/cli.md#doctor', 'docs/clients.md#claude-desktop'],
};
