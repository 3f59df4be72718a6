/**
 * Types shared by the client-config reader and editor (docs/cli.md#wrap-and-unwrap, docs/cli.md#doctor).
 *
 * Positions are 1-based: `line` counts lines (LF, CR LF or a lone CR end a line) and `column` counts
 * UTF-16 code units from the start of the line, the way editors number them.
 */

import {HOST_IDS, type HostId} from '../core/clients/profile.js';

/** The MCP clients whose config files mcp-wire reads (and, where the format allows, edits): the registry's hosts. */
export type ClientName = HostId;

/** Every client, in discovery order (docs/clients.md#the-clients). */
export const CLIENT_NAMES: readonly ClientName[] = HOST_IDS;

/**
 * Which layer of a client's configuration a file (or part of a file) is.
 * - `user`: applies to every project (Claude Desktop's only file, Claude Code `~/.claude.json`
 *   top-level `mcpServers`, Cursor's "global" `~/.cursor/mcp.json`, VS Code user `mcp.json`/`settings.json`).
 * - `project`: a file in the project folder (Claude Code `.mcp.json`, Cursor `.cursor/mcp.json`,
 *   VS Code `.vscode/mcp.json`).
 * - `local`: Claude Code's private per-project servers, `~/.claude.json` → `projects[<abs path>].mcpServers`.
 */
export type ConfigScope = 'user' | 'project' | 'local';

/**
 * One place where a client keeps MCP servers.
 * - `path`: absolute file path (the platform's separators).
 * - `exists`: whether a regular file was at `path` when discovered.
 * - `serversPath`: JSON path of the object that maps server names to entries, e.g. `['mcpServers']`,
 *   `['servers']` (VS Code), `['mcp', 'servers']` (VS Code settings.json) or
 *   `['projects', '/abs/project', 'mcpServers']` (Claude Code local scope).
 * - `format`: `json` files are read by their client with a strict parser, so comments and trailing
 *   commas are reported as broken JSON; `jsonc` (VS Code, Gemini CLI, Zed) allows both; `toml` (Codex);
 *   `yaml` (Continue, Goose).
 * - `unsupported`: set when mcp-wire does not read or edit this file yet, saying so in one line
 *   (`YAML is not supported yet`); such a file is never called broken.
 */
export interface ConfigFile {
	readonly client: ClientName;
	readonly scope: ConfigScope;
	readonly path: string;
	readonly exists: boolean;
	readonly serversPath: readonly string[];
	readonly format: 'json' | 'jsonc' | 'toml' | 'yaml';
	readonly unsupported?: string;
}

/** How a server entry is reached: a child process on stdio, or a remote URL (HTTP or SSE). */
export type ServerTransport = 'stdio' | 'http' | 'sse';

/** A 1-based line and column (see the module comment). */
export interface Position {
	readonly line: number;
	readonly column: number;
}

/**
 * One well-formed server entry of a config file, as written (no variable expansion; see `expandEntry`).
 * - `file`: the config file path; `jsonPath`: path to the entry, e.g. `['mcpServers', 'fs']`.
 * - `command`/`args`: present for stdio entries (`args` is `[]` when absent); `url` for http/sse.
 * - `env`: the entry's own `env` object (`null` values, which VS Code allows to unset a variable, are kept).
 * - `cwd`: the entry's `cwd` when it has one.
 * - `startupTimeoutMs`: the entry's own start-up limit, in ms, when its client has one (Gemini CLI `timeout` in
 *   ms, Codex `startup_timeout_sec` in s; docs/clients.md#the-clients).
 * - `position`: where the entry's name (its key) starts.
 * - `isWrapped`: the entry already runs through `mcp-wire tap` (see `detectWrap`).
 */
export interface ServerEntry {
	readonly client: ClientName;
	readonly scope: ConfigScope;
	readonly file: string;
	readonly name: string;
	readonly transport: ServerTransport;
	readonly command?: string;
	readonly args: readonly string[];
	readonly env: Readonly<Record<string, string | null>>;
	readonly cwd?: string;
	readonly startupTimeoutMs?: number;
	readonly url?: string;
	readonly jsonPath: readonly string[];
	readonly position: Position;
	readonly isWrapped: boolean;
}

/**
 * What is wrong in a config file.
 * - `broken-json`: the file does not parse as its client parses it (also: empty file, BOM in a strict
 *   JSON file, invalid UTF-8).
 * - `not-object`: the file, the servers map or one entry is not a JSON object.
 * - `no-command`: an entry with neither `command` nor `url` (or a stdio entry without `command`,
 *   an http/sse entry without `url`).
 * - `bad-field`: a field of the wrong type (`args` not an array of strings, `env` not an object of
 *   strings, unknown `type`, ...).
 * - `duplicate-name`: the same server name twice in one map (clients keep the last one).
 * - `no-program`: an interpreter with no program in `args` (`"command": "node"` alone reads its
 *   program from stdin); found by `mcp-wire doctor`, not by the reader.
 * - `unsupported`: mcp-wire does not read this file's format yet (`YAML is not supported yet`); the file is
 *   not said to be broken. (`broken-json` also covers a broken TOML file; its message says `broken TOML`.)
 */
export type ConfigProblemKind =
	'broken-json' | 'not-object' | 'no-command' | 'bad-field' | 'duplicate-name' | 'no-program' | 'unsupported';

/**
 * One problem found while reading a config file. `message` is one line without the file or position
 * (see `formatProblem` for `file:line:column: message`). `server` names the entry when the problem
 * belongs to one, so a caller can show it in that server's row.
 */
export interface ConfigProblem {
	readonly kind: ConfigProblemKind;
	readonly file: string;
	readonly line: number;
	readonly column: number;
	readonly message: string;
	readonly server?: string;
}

/**
 * Why an edit (or an explicit read) failed. The config file is never changed when one is thrown.
 * - `not-found`: the file does not exist.
 * - `broken-json`: the file does not parse (the message has `file:line:column`).
 * - `unknown-server`: no entry with that name (the message lists the names there are).
 * - `not-stdio`: the entry is an HTTP/SSE server, which cannot run through the tap.
 * - `invalid-entry`: the entry is not an object, or its `command`/`args` have the wrong type.
 * - `unknown-client`: `--config` names a file whose client cannot be told from its name; pass `--client`.
 * - `changed-on-disk`: the file changed between planning and applying; plan again.
 * - `write-failed`: the backup or the new file could not be written (the message has the OS error).
 * - `unsupported`: mcp-wire does not edit this file's format yet (`YAML is not supported yet`).
 *
 * Wrapping an already wrapped entry and unwrapping an entry that is not wrapped are not errors: the
 * plan comes back with `changed: false` and `status` `already-wrapped` / `not-wrapped` (idempotency).
 */
export type ConfigErrorCode =
	| 'not-found'
	| 'broken-json'
	| 'unknown-server'
	| 'not-stdio'
	| 'invalid-entry'
	| 'unknown-client'
	| 'changed-on-disk'
	| 'read-only'
	| 'write-failed'
	| 'unsupported';

/** A typed error from the config module; `file` is the config path it is about. */
export class ConfigError extends Error {
	override readonly name = 'ConfigError';
	readonly code: ConfigErrorCode;
	readonly file: string;
	readonly position?: Position;

	constructor(code: ConfigErrorCode, file: string, message: string, position?: Position) {
		super(message);
		this.code = code;
		this.file = file;
		if (position) {
			this.position = position;
		}
	}
}
