/**
 * Goose (Block). Source: Goose's documentation (`extensions` in `config.yaml`: `type: stdio`, `cmd`, `args`,
 * `envs`, `timeout` in seconds; `~/.config/goose/` on macOS and Linux, `%APPDATA%\Block\goose\config\` on
 * Windows); docs/clients.md#goose. Not run here. YAML is read-only for mcp-wire.
 */
import {hostFromDocs, type ServersLayout} from '../profile.js';

const GOOSE_EXTENSIONS: ServersLayout = {
	path: ['extensions'],
	shape: 'map',
	keys: {command: 'cmd', args: 'args', env: 'envs', timeout: 'timeout'},
	timeoutUnit: 's',
};

/** Goose: config known from its documentation; wire behaviour not established. */
export const GOOSE = hostFromDocs(
	'goose',
	'Goose',
	[
		{
			scope: 'user',
			os: ['darwin', 'linux'],
			base: 'home',
			segments: ['.config', 'goose', 'config.yaml'],
			format: 'yaml',
			servers: GOOSE_EXTENSIONS,
			editable: false,
			source: 'Goose documentation (configuration file); docs/clients.md#goose',
		},
		{
			scope: 'user',
			os: ['win32'],
			base: 'appdata',
			segments: ['Block', 'goose', 'config', 'config.yaml'],
			format: 'yaml',
			servers: GOOSE_EXTENSIONS,
			editable: false,
			source: 'Goose documentation (configuration file); docs/clients.md#goose',
		},
	],
	'start a new `goose session` (extensions start with the session)',
	['docs/clients.md#goose'],
);
