/**
 * LM Studio. Source: LM Studio's documentation (`~/.lmstudio/mcp.json`, Cursor's `mcpServers` notation);
 * docs/clients.md#lm-studio. Closed source, not run here.
 */
import {hostFromDocs, MCP_SERVERS} from '../profile.js';

/** LM Studio: config known from its documentation; wire behaviour not established. */
export const LM_STUDIO = hostFromDocs(
	'lm-studio',
	'LM Studio',
	[
		{
			scope: 'user',
			base: 'home',
			segments: ['.lmstudio', 'mcp.json'],
			format: 'json',
			servers: MCP_SERVERS,
			editable: true,
			source: 'LM Studio documentation (MCP, mcp.json); docs/clients.md#lm-studio',
		},
	],
	'restart LM Studio (whether it reloads mcp.json when it is saved is not established)',
	['docs/clients.md#lm-studio'],
);
