/**
 * Gemini CLI. Sources: docs/clients.md#gemini-cli (run here: 0.61.0, offline: bundled SDK 1.23.0 stops at
 * protocol 2025-06-18; `mcp list` waits 5 s; stderr piped and read only in debug mode; the environment less
 * secret-looking variables; servers start only in a trusted folder).
 */
import {NOT_ESTABLISHED, notEstablished, type ClientProfile, type ServersLayout} from '../profile.js';

/** Gemini's `mcpServers`: Claude's shape plus `cwd`, `timeout` (ms) and `trust`. */
const GEMINI_SERVERS: ServersLayout = {
	path: ['mcpServers'],
	shape: 'map',
	keys: {command: 'command', args: 'args', env: 'env', cwd: 'cwd', timeout: 'timeout', startupTimeout: 'timeout'},
	timeoutUnit: 'ms',
};

/** Gemini CLI (open source; bundles the TS SDK 1.23.0 client). */
export const GEMINI_CLI: ClientProfile = {
	id: 'gemini-cli',
	kind: 'host',
	displayName: 'Gemini CLI',
	family: {value: 'ts-sdk-v1', source: 'docs/clients.md#gemini-cli (reads the wire as TS SDK 1.x; run here)'},
	sdk: {value: '@modelcontextprotocol/sdk 1.23.0 (bundled in 0.61.0)', source: 'docs/clients.md#gemini-cli'},
	configs: [
		{
			scope: 'user',
			base: 'home',
			segments: ['.gemini', 'settings.json'],
			format: 'jsonc',
			servers: GEMINI_SERVERS,
			editable: true,
			source: 'docs/clients.md#gemini-cli',
		},
		{
			scope: 'project',
			base: 'cwd',
			segments: ['.gemini', 'settings.json'],
			format: 'jsonc',
			servers: GEMINI_SERVERS,
			editable: true,
			source: 'docs/clients.md#gemini-cli (workspace settings)',
		},
	],
	launch: {
		environment: {value: {mode: 'full-without-secrets'}, source: 'docs/clients.md#gemini-cli'},
		command: {
			value: 'looked up on the PATH of the shell that started `gemini`; `cwd` sets the folder',
			source: 'docs/clients.md#gemini-cli',
		},
	},
	opening: {
		protocolVersion: '2025-06-18',
		capabilities: NOT_ESTABLISHED,
		clientInfo: NOT_ESTABLISHED,
		ids: NOT_ESTABLISHED,
		order: ['initialize', 'notifications/initialized', 'ping'],
		supportedVersions: ['2025-06-18', '2025-03-26', '2024-11-05'],
		source: 'docs/clients.md#gemini-cli (`mcp list` runs initialize and ping; SDK 1.23.0 rejects 2025-11-25)',
	},
	limits: {
		startupMs: {value: 5_000, source: 'docs/clients.md#gemini-cli (`gemini mcp list`; a real session waits 10 min)'},
		requestMs: {value: 600_000, source: 'docs/clients.md#gemini-cli'},
		progressResets: notEstablished('not measured'),
		knob: 'timeout',
	},
	stderr: {
		value: 'piped-unread',
		source: 'docs/clients.md#gemini-cli (read only in debug mode; ~300 KiB blocks the server)',
	},
	errorTexts: [
		{
			id: 'gemini-cli/error-connecting',
			pattern: 'Error connecting to MCP server',
			example: "Error connecting to MCP server 'fs': Connection failed",
			means:
				'Gemini could not complete the handshake: the server exited, answered too late for its limit, answered a version it does not support, or blocked writing stderr',
			source: 'docs/clients.md#gemini-cli',
		},
		{
			id: 'gemini-cli/disconnected',
			pattern: '\\s-\\s*Disconnected\\b',
			example: '✗ fs: node server.js (stdio) - Disconnected',
			means: '`gemini mcp list`: the server did not connect within 5 s (or the `timeout` of its entry)',
			source: 'docs/clients.md#gemini-cli',
		},
	],
	restart: 'start a new `gemini` session; `gemini mcp list` checks the change at once',
	sources: ['docs/clients.md#gemini-cli'],
};
