/**
 * Windsurf (Codeium). Source: Windsurf's documentation (Cascade → MCP: `~/.codeium/windsurf/mcp_config.json`,
 * Claude's `mcpServers` shape); docs/clients.md#windsurf. Its client is closed source and was not run here.
 */
import {hostFromDocs, MCP_SERVERS} from '../profile.js';

/** Windsurf: config known from its documentation; wire behaviour not established. */
export const WINDSURF = hostFromDocs(
	'windsurf',
	'Windsurf',
	[
		{
			scope: 'user',
			base: 'home',
			segments: ['.codeium', 'windsurf', 'mcp_config.json'],
			format: 'json',
			servers: MCP_SERVERS,
			editable: true,
			source: 'Windsurf documentation (Cascade, MCP); docs/clients.md#windsurf',
		},
	],
	'refresh the MCP servers in Cascade’s MCP panel, or restart Windsurf',
	['docs/clients.md#windsurf'],
);
