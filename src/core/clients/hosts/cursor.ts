/**
 * Cursor. Sources: docs/protocol.md C8 (log texts of 2025 and 2026 builds), docs/cli.md#doctor (config files,
 * GUI environment), docs/clients.md#cursor.
 */
import {MCP_SERVERS, notEstablished, unknownOpening, type ClientProfile} from '../profile.js';

/** Cursor (closed source). */
export const CURSOR: ClientProfile = {
	id: 'cursor',
	kind: 'host',
	displayName: 'Cursor',
	family: {value: 'cursor', source: 'docs/protocol.md C8, "Client reactions"'},
	sdk: notEstablished('closed source; 2025 builds log V8 JSON.parse errors per line (docs/protocol.md C8)'),
	configs: [
		{
			scope: 'user',
			base: 'home',
			segments: ['.cursor', 'mcp.json'],
			format: 'json',
			servers: MCP_SERVERS,
			editable: true,
			source: 'docs/cli.md#doctor',
		},
		{
			scope: 'project',
			base: 'cwd',
			segments: ['.cursor', 'mcp.json'],
			format: 'json',
			servers: MCP_SERVERS,
			editable: true,
			source: 'docs/cli.md#doctor',
		},
	],
	launch: {
		environment: {value: {mode: 'gui-minimal'}, source: 'docs/cli.md#doctor'},
		command: {value: 'looked up on the minimal PATH of a desktop app', source: 'docs/cli.md#doctor'},
	},
	opening: unknownOpening('not recorded (closed source, not run here)'),
	limits: {
		startupMs: notEstablished('not measured'),
		requestMs: notEstablished('not measured'),
		progressResets: notEstablished('not measured'),
	},
	stderr: notEstablished('not measured'),
	errorTexts: [
		{
			id: 'cursor/client-closed',
			pattern: '\\bClient closed\\b',
			example: 'Client closed for command',
			means: 'Cursor lost the server process: it exited, closed stdout, or could not be started',
			source: 'docs/protocol.md C8 (2026 builds close after a line they cannot parse)',
		},
		{
			id: 'cursor/client-error',
			pattern: 'Client error for command',
			explainedBy: 'v8-unexpected-token',
			example: `Client error for command Unexpected token 'S', "Starting MCP server" is not valid JSON`,
			means: 'a line on stdout was not JSON (2025 builds log it and go on; 2026 builds may fail the connection)',
			source: 'docs/protocol.md C8 (php-mcp/laravel#33, laravel/boost#495)',
		},
	],
	restart: 'in Cursor Settings → MCP, turn the server off and on again (or reload the window)',
	sources: ['docs/protocol.md C8', 'docs/cli.md#doctor', 'docs/clients.md#cursor'],
};
