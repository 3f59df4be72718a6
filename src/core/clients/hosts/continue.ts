/**
 * Continue. Source: Continue's documentation (`~/.continue/config.yaml`, `mcpServers` as a list of entries with
 * `name`, `command`, `args`, `env`); docs/clients.md#continue. Not run here. YAML is read-only for mcp-wire.
 */
import {hostFromDocs} from '../profile.js';

/** Continue: config known from its documentation; wire behaviour not established. */
export const CONTINUE = hostFromDocs(
	'continue',
	'Continue',
	[
		{
			scope: 'user',
			base: 'home',
			segments: ['.continue', 'config.yaml'],
			format: 'yaml',
			servers: {path: ['mcpServers'], shape: 'list', keys: {command: 'command', args: 'args', env: 'env'}},
			editable: false,
			source: 'Continue documentation (config.yaml reference, mcpServers); docs/clients.md#continue',
		},
	],
	'reload the editor window so Continue reads config.yaml again',
	['docs/clients.md#continue'],
);
