/**
 * Codex CLI. Sources: docs/clients.md#codex (run here: 0.171.0 `codex app-server` `mcpServerStatus/list`, its
 * opening recorded, limits and environment read from its behaviour), docs/protocol.md C7 (rmcp).
 */
import {NOT_ESTABLISHED, notEstablished, type ClientProfile} from '../profile.js';

/** Codex CLI (open source; its MCP client is rmcp). */
export const CODEX: ClientProfile = {
	id: 'codex',
	kind: 'host',
	displayName: 'Codex',
	family: {value: 'rmcp', source: 'docs/clients.md#codex'},
	sdk: {value: 'rmcp (the Rust SDK), in @openai/codex 0.171.0', source: 'docs/clients.md#codex'},
	configs: [
		{
			scope: 'user',
			base: 'home',
			segments: ['.codex', 'config.toml'],
			envOverride: 'CODEX_HOME',
			format: 'toml',
			servers: {
				path: ['mcp_servers'],
				shape: 'map',
				keys: {
					command: 'command',
					args: 'args',
					env: 'env',
					startupTimeout: 'startup_timeout_sec',
					timeout: 'tool_timeout_sec',
				},
				timeoutUnit: 's',
			},
			editable: true,
			source: 'docs/clients.md#codex',
		},
	],
	launch: {
		environment: {
			value: {
				mode: 'allowlist',
				variables: ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'USER', 'LANG', 'LC_ALL', 'TERM', 'TMPDIR', 'TZ'],
			},
			source: 'docs/clients.md#codex',
		},
		command: notEstablished('how Codex resolves `command` was not read'),
	},
	opening: {
		protocolVersion: '2025-06-18',
		capabilities: {elicitation: {form: {}, url: {}}},
		clientInfo: {name: 'codex-mcp-client'},
		ids: {kind: 'integer', first: 0},
		order: ['initialize', 'notifications/initialized', 'tools/list'],
		supportedVersions: NOT_ESTABLISHED,
		source:
			'docs/clients.md#codex (recorded; tools/list carries a _meta.progressToken; any answered version is accepted)',
	},
	limits: {
		startupMs: {value: 30_000, source: 'docs/clients.md#codex (`startup_timeout_sec`)'},
		requestMs: {value: 30_000, source: 'docs/clients.md#codex (`tool_timeout_sec`)'},
		progressResets: notEstablished('not measured'),
		knob: 'startup_timeout_sec',
	},
	stderr: {value: 'drained', source: 'docs/clients.md#codex (~300 KiB on stderr before the first reply works)'},
	errorTexts: [
		{
			id: 'codex/failed-to-start',
			pattern: 'MCP client for `?[^`]*`? failed to start',
			example: 'MCP client for `fs` failed to start: handshaking with MCP server failed',
			means:
				'Codex could not complete the handshake within `startup_timeout_sec` (30 s): the server exited, never answered a line rmcp reads, or answered too late',
			source: 'docs/clients.md#codex',
		},
		{
			id: 'codex/unexpected-response-type',
			pattern: 'Unexpected response type',
			example: 'Unexpected response type',
			means: 'rmcp could not read a result (a tool without inputSchema in tools/list)',
			source: 'docs/clients.md#codex',
		},
	],
	restart: 'start a new `codex` session (it starts the servers of config.toml at launch)',
	sources: ['docs/clients.md#codex', 'docs/protocol.md C7'],
};
