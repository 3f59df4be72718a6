/**
 * Zed. Source: Zed's documentation (`context_servers` in `settings.json`, JSON with comments; user file in
 * `~/.config/zed/` on macOS and Linux, project file `.zed/settings.json`); docs/clients.md#zed. Not run here.
 * Zed has written a server's command two ways (a `command` string with `args`, or a `command` object with
 * `path`), so mcp-wire reads the file but does not edit it yet.
 */
import {hostFromDocs, type ServersLayout} from '../profile.js';

const ZED_SERVERS: ServersLayout = {
	path: ['context_servers'],
	shape: 'map',
	keys: {command: 'command', args: 'args', env: 'env'},
};

/** Zed: config known from its documentation; wire behaviour not established. */
export const ZED = hostFromDocs(
	'zed',
	'Zed',
	[
		{
			scope: 'user',
			os: ['darwin', 'linux'],
			base: 'home',
			segments: ['.config', 'zed', 'settings.json'],
			format: 'jsonc',
			servers: ZED_SERVERS,
			editable: false,
			source: 'Zed documentation (configuring Zed, context servers); docs/clients.md#zed',
		},
		{
			scope: 'project',
			base: 'cwd',
			segments: ['.zed', 'settings.json'],
			format: 'jsonc',
			servers: ZED_SERVERS,
			editable: false,
			source: 'Zed documentation (project settings); docs/clients.md#zed',
		},
	],
	'restart Zed (whether it restarts a context server when settings.json is saved is not established)',
	['docs/clients.md#zed'],
);
