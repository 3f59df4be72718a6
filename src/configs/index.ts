/**
 * MCP client configs: discovery, reading, launch environment, wrap/unwrap (docs/cli.md#wrap-and-unwrap, docs/cli.md#doctor).
 * I/O code (node:fs); used by `mcp-wire doctor`, `wrap` and `unwrap`.
 */
export {CLIENT_NAMES, ConfigError} from './types.js';
export type {
	ClientName,
	ConfigErrorCode,
	ConfigFile,
	ConfigProblem,
	ConfigProblemKind,
	ConfigScope,
	Position,
	ServerEntry,
	ServerTransport,
} from './types.js';
export {clientFromPath, discoverConfigs, type DiscoverOptions} from './discover.js';
export {formatProblem, locateServer, parseServers, readServers, type ReadResult} from './read.js';
export {
	guiMinimalPath,
	launchCwd,
	launchEnv,
	SDK_ENV_ALLOWLIST_POSIX,
	SDK_ENV_ALLOWLIST_WIN32,
	type LaunchClient,
	type LaunchEnv,
	type LaunchMode,
} from './launch-env.js';
export {resolveCommand, type ResolveOptions} from './resolve-command.js';
export {applyPlan, backupPathOf, planUnwrap, planWrap, type ApplyResult, type EditPlan} from './wrap.js';
export {detectWrap, isLauncherToken, type WrapMarker} from './wrap-marker.js';
export {unifiedDiff} from './diff.js';
export {expandEntry, type ExpandOptions, type ExpandResult} from './expand.js';
