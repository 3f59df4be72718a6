/**
 * Cline (VS Code extension `saoudrizwan.claude-dev`). Source: Cline's documentation (MCP servers are kept in
 * `cline_mcp_settings.json` in the extension's global storage, Claude's `mcpServers` shape); docs/clients.md#cline.
 * Not run here; its client code was not read.
 */
import {hostFromDocs, MCP_SERVERS} from '../profile.js';

/** Cline: config known from its documentation; wire behaviour not established. */
export const CLINE = hostFromDocs(
	'cline',
	'Cline',
	[
		{
			scope: 'user',
			base: 'appdata',
			segments: ['Code', 'User', 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'],
			format: 'json',
			servers: MCP_SERVERS,
			editable: true,
			source: 'Cline documentation (MCP servers, cline_mcp_settings.json); docs/clients.md#cline',
		},
	],
	'in Cline’s MCP Servers view, restart the server',
	['docs/clients.md#cline'],
);
