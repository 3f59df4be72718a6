/**
 * What mcp-wire knows about one MCP client (a host such as Cursor, or an SDK family such as rmcp), in one
 * typed record per client (docs/clients.md#the-clients). Pure data: the config files it reads, how it starts
 * a server, how it reads the wire, its opening, its limits, what it does with stderr, the error texts it
 * shows, and where each fact comes from. A fact no source or run established is {@link NOT_ESTABLISHED},
 * never a guess.
 */
import type {ClientMessageId} from '../findings/support/pasted.js';
import type {ClientFamily} from '../types.js';

/** The word for a fact that no source read and no run here established (docs/clients.md#not-established). */
export const NOT_ESTABLISHED = 'not established';
/** The type of {@link NOT_ESTABLISHED}. */
export type NotEstablished = typeof NOT_ESTABLISHED;

/** A value with the source that establishes it (a docs/ anchor, a public repository path, a vendor doc). */
export interface Sourced<T> {
	readonly value: T | NotEstablished;
	/** Where the value comes from; for a value that is not established, why (what was not read or run). */
	readonly source: string;
}

/** The hosts mcp-wire knows, one module each under `src/core/clients/hosts/`. */
export const HOST_IDS = [
	'claude-desktop',
	'claude-code',
	'cursor',
	'vscode',
	'gemini-cli',
	'codex',
	'windsurf',
	'cline',
	'zed',
	'continue',
	'goose',
	'lm-studio',
] as const;
/** A host id (the name `--client` takes). */
export type HostId = (typeof HOST_IDS)[number];

/** The SDK client families, one module each under `src/core/clients/sdks/`; each is also a {@link ClientFamily}. */
export const SDK_IDS = ['ts-sdk-v1', 'ts-sdk-v2', 'python-sdk', 'rmcp'] as const;
/** An SDK family id. */
export type SdkId = (typeof SDK_IDS)[number];

/** Any client the registry holds. */
export type ClientId = HostId | SdkId;

/** Operating systems a config location applies to (Node's `process.platform` names). */
export type Os = 'darwin' | 'linux' | 'win32';

/**
 * The format a client reads its config in. `json`: strict (`JSON.parse`: no comments, no trailing comma);
 * `jsonc`: comments and trailing commas allowed; `toml`; `yaml`.
 */
export type ConfigFormat = 'json' | 'jsonc' | 'toml' | 'yaml';

/**
 * Where a path starts.
 * - `home`: the user's home directory.
 * - `appdata`: `~/Library/Application Support` (macOS), `%APPDATA%` (Windows), `$XDG_CONFIG_HOME` or
 *   `~/.config` (Linux): where Electron apps keep user data.
 * - `xdg-config`: `$XDG_CONFIG_HOME` or `~/.config` on every OS (tools that follow XDG on macOS too).
 * - `cwd`: the project folder the client is opened in.
 */
export type PathBase = 'home' | 'appdata' | 'xdg-config' | 'cwd';

/**
 * How the servers are laid out in a config file.
 * - `path`: the keys from the file's root to the servers (`['mcpServers']`, `['mcp_servers']` in TOML,
 *   `['mcp', 'servers']` in VS Code's settings.json).
 * - `shape`: `map` (name → entry) or `list` (entries with a `name` key, Continue's YAML).
 * - `keys`: the entry's key for each field (`cmd`/`envs` in Goose's YAML); `cwd`, `timeout` when it has them.
 * - `timeoutUnit`: the unit of `keys.timeout` (`ms`, `s`).
 */
export interface ServersLayout {
	readonly path: readonly string[];
	readonly shape: 'map' | 'list';
	readonly keys: {
		readonly command: string;
		readonly args: string;
		readonly env: string;
		readonly cwd?: string;
		readonly timeout?: string;
		readonly startupTimeout?: string;
	};
	readonly timeoutUnit?: 'ms' | 's';
}

/**
 * One config file a client reads.
 * - `scope`: `user` (every project), `project` (a file in the project folder), `local` (Claude Code's private
 *   per-project servers inside `~/.claude.json`).
 * - `os`: the systems where the file is at this place (absent: all).
 * - `base` + `segments`: the path; `envOverride` names a variable that, when set, replaces `base` (Codex's
 *   `CODEX_HOME`, Claude Code's `CLAUDE_CONFIG_DIR`).
 * - `editable`: whether `wrap`/`unwrap` edit it (a format mcp-wire cannot edit by span is read-only and
 *   says so, "YAML is not supported yet").
 */
export interface ConfigLocation {
	readonly scope: 'user' | 'project' | 'local';
	readonly os?: readonly Os[];
	readonly base: PathBase;
	readonly segments: readonly string[];
	readonly envOverride?: string;
	readonly format: ConfigFormat;
	readonly servers: ServersLayout;
	readonly editable: boolean;
	readonly source: string;
}

/**
 * How a client builds the environment of a server it starts (docs/protocol.md C3, C6).
 * - `sdk-allowlist`: the TS/Python SDK's default list (`HOME LOGNAME PATH SHELL TERM USER` on POSIX) plus `env`.
 * - `allowlist`: another fixed list (`variables`) plus `env`.
 * - `gui-minimal`: the SDK list with the minimal PATH of an app started from the desktop, plus `env`.
 * - `full`: the client's whole environment plus `env`.
 * - `full-without-secrets`: the whole environment less the variables that look secret, plus `env`.
 */
export type EnvironmentMode = 'sdk-allowlist' | 'allowlist' | 'gui-minimal' | 'full' | 'full-without-secrets';

/** A client's environment rule; `variables` for `allowlist`. */
export interface EnvironmentRule {
	readonly mode: EnvironmentMode;
	readonly variables?: readonly string[];
}

/** How a client starts a server: shell or not, how the command is found, the environment, the folder. */
export interface Launch {
	readonly environment: Sourced<EnvironmentRule>;
	/** How `command` is found (PATH lookup, shell, Windows `.cmd` handling), in one line. */
	readonly command: Sourced<string>;
}

/**
 * How a request id is chosen: integers counting from `first`, or strings. `first` is the id of `initialize`.
 */
export type IdStyle = {readonly kind: 'integer'; readonly first: number} | {readonly kind: 'string'};

/**
 * The first messages a client sends, as a typed record that the probe can play (`probe --as`).
 * - `protocolVersion`: what `initialize` offers.
 * - `capabilities`, `clientInfo`: the `initialize` params.
 * - `ids`: how request ids are chosen.
 * - `order`: the methods it sends, in order, up to its first `tools/list` (a notification by its method too).
 */
export interface Opening {
	readonly protocolVersion: string | NotEstablished;
	readonly capabilities: Readonly<Record<string, unknown>> | NotEstablished;
	readonly clientInfo: {readonly name: string; readonly version?: string} | NotEstablished;
	readonly ids: IdStyle | NotEstablished;
	readonly order: readonly string[] | NotEstablished;
	/** Protocol versions it accepts in the `initialize` result. */
	readonly supportedVersions: readonly string[] | NotEstablished;
	readonly source: string;
}

/**
 * A client's time limits, in ms (`null`: it waits for ever).
 * - `startupMs`: from spawn to the `initialize` result.
 * - `requestMs`: each later request (`tools/list`, `tools/call`).
 * - `progressResets`: whether a progress notification restarts the request's clock.
 * - `knob`: what the user changes to raise them (`MCP_TIMEOUT`, `startup_timeout_sec`).
 * - `knobEnv`: when the knob is an environment variable of the client (Claude Code's `MCP_TIMEOUT`), how it is read.
 * - `listCheckToolsMs`: how long the client's own server check (`claude mcp list`) waits for the `tools/list`
 *   reply, measured for that command only; absent where no such check was measured.
 */
export interface Limits {
	readonly startupMs: Sourced<number | null>;
	readonly requestMs: Sourced<number | null>;
	readonly listCheckToolsMs?: Sourced<number> & {readonly command: string};
	readonly progressResets: Sourced<boolean>;
	readonly knob?: string;
	readonly knobEnv?: EnvKnob;
}

/**
 * A start-up limit the client reads from its own environment: `variable` holds ms; a value above `maxMs` still
 * ends at `maxMs` (the SDK's request timeout under it); `source` says where this is documented.
 */
export interface EnvKnob {
	readonly variable: string;
	readonly maxMs?: number;
	readonly source: string;
}

/**
 * A client's start-up limit (ms) as the user set it: the server entry's own value (`entryMs`: Gemini CLI
 * `timeout`, Codex `startup_timeout_sec`) first; else the variable of `limits.knobEnv` in `env` when it holds a
 * positive integer (Claude Code's `MCP_TIMEOUT`), capped at its `maxMs`; else the module's default.
 * @returns ms, `null` (it waits for ever) or {@link NOT_ESTABLISHED}
 */
export function startupLimitFor(
	profile: ClientProfile,
	set: {readonly entryMs?: number; readonly env?: Readonly<Record<string, string | undefined>>} = {},
): number | null | NotEstablished {
	if (set.entryMs !== undefined) return set.entryMs;
	const knob = profile.limits.knobEnv;
	const raw = knob === undefined ? undefined : set.env?.[knob.variable]?.trim();
	if (knob !== undefined && raw !== undefined && /^\d+$/.test(raw) && Number(raw) > 0)
		return Math.min(Number(raw), knob.maxMs ?? Number.POSITIVE_INFINITY);
	return profile.limits.startupMs.value;
}

/**
 * What a client does with the server's stderr.
 * - `inherited`: passed to the client's own stderr; `logged`: read and written to a log or panel;
 *   `drained`: read (a flood never blocks the server); `piped-unread`: piped and not read, so a server that
 *   writes more than a pipe holds blocks (docs/protocol.md O6).
 */
export type StderrHandling = 'inherited' | 'logged' | 'drained' | 'piped-unread';

/**
 * The name of one client error text: `<client id>/<slug>` (`cursor/client-closed`), unique over every client.
 * A rule names the texts that point at its code by it (`clientTexts` of `findings/engine.ts` Rule).
 */
export type ClientTextId = `${ClientId}/${string}`;

/**
 * A message the client shows a user, which `explain` matches.
 * - `id`: the text's {@link ClientTextId}.
 * - `pattern`: a regular expression source, matched case-insensitively against the pasted text.
 * - `means`: what the client is saying, in one line.
 * - `explainedBy`: the client message of `findings/support/pasted.ts` that already explains this text through the
 *   rules (their `errors`; then `explain` does not add this entry again); absent for a text only this module
 *   knows, which the rules whose code can cause it claim by `id` (their `clientTexts`, docs/architecture.md#where-a-finding-lives).
 */
export interface ErrorText {
	readonly id: ClientTextId;
	readonly pattern: string;
	readonly explainedBy?: ClientMessageId;
	readonly example: string;
	readonly means: string;
	readonly source: string;
}

/**
 * Everything mcp-wire knows about one client (docs/clients.md#the-clients).
 * - `family`: the column of the reaction table (docs/protocol.md "Client reactions") that says how it reads
 *   the wire; a host on an SDK reads as that SDK.
 * - `sdk`: the SDK and version it runs, when known.
 * - `configs`: the files it reads (empty for an SDK: its host decides).
 * - `restart`: how to make it start the server again after `wrap` or `unwrap`, in one line.
 * - `sources`: the sources of the whole module, for docs/clients.md.
 */
export interface ClientProfile {
	readonly id: ClientId;
	readonly kind: 'host' | 'sdk';
	readonly displayName: string;
	readonly family: Sourced<ClientFamily>;
	readonly sdk: Sourced<string>;
	readonly configs: readonly ConfigLocation[];
	readonly launch: Launch;
	readonly opening: Opening;
	readonly limits: Limits;
	readonly stderr: Sourced<StderrHandling>;
	readonly errorTexts: readonly ErrorText[];
	/**
	 * Where the client's validation of a result requires every number to be finite (R26): zod 4's `z.number()`
	 * rejects ±Infinity, which `JSON.parse` makes of a number beyond a double's range (`1e400`), so the request
	 * fails. Per method, a regular expression source over the dotted path inside the result
	 * (`tools.0.inputSchema.properties.n.maximum`). Absent: no such place was found in the client's code.
	 */
	readonly finiteNumbersAt?: Sourced<Readonly<Record<string, string>>>;
	readonly restart: string;
	readonly sources: readonly string[];
}

/**
 * True when `profile`'s validation of the `method` result rejects a non-finite number at the dotted `path`
 * inside it ({@link ClientProfile.finiteNumbersAt}); false when it does not, or nothing is known.
 */
export function rejectsNonFiniteAt(profile: ClientProfile, method: string, path: string): boolean {
	const at = profile.finiteNumbersAt?.value;
	if (at === undefined || at === NOT_ESTABLISHED) return false;
	const pattern = at[method];
	return pattern !== undefined && new RegExp(pattern).test(path);
}

/** True when `value` is established (not {@link NOT_ESTABLISHED}). */
export function isEstablished<T>(value: T | NotEstablished): value is T {
	return value !== NOT_ESTABLISHED;
}

/** An opening nobody recorded: every field {@link NOT_ESTABLISHED}, with `source` saying why. */
export function unknownOpening(source: string): Opening {
	return {
		protocolVersion: NOT_ESTABLISHED,
		capabilities: NOT_ESTABLISHED,
		clientInfo: NOT_ESTABLISHED,
		ids: NOT_ESTABLISHED,
		order: NOT_ESTABLISHED,
		supportedVersions: NOT_ESTABLISHED,
		source,
	};
}

/** A fact not established, with why. */
export function notEstablished<T>(source: string): Sourced<T> {
	return {value: NOT_ESTABLISHED, source};
}

/** The `mcpServers` map with `command`/`args`/`env` keys (Claude's shape, which most hosts copy). */
export const MCP_SERVERS: ServersLayout = {
	path: ['mcpServers'],
	shape: 'map',
	keys: {command: 'command', args: 'args', env: 'env'},
};

/**
 * A host whose wire behaviour nobody recorded for mcp-wire: only its config files (from its vendor's
 * documentation) and its restart are known; its reader, opening, limits and stderr are {@link NOT_ESTABLISHED}.
 */
export function hostFromDocs(
	id: HostId,
	displayName: string,
	configs: readonly ConfigLocation[],
	restart: string,
	sources: readonly string[],
): ClientProfile {
	const why = `${displayName} was not run and its client code was not read for mcp-wire`;
	return {
		id,
		kind: 'host',
		displayName,
		family: notEstablished(why),
		sdk: notEstablished(why),
		configs,
		launch: {environment: notEstablished(why), command: notEstablished(why)},
		opening: unknownOpening(why),
		limits: {startupMs: notEstablished(why), requestMs: notEstablished(why), progressResets: notEstablished(why)},
		stderr: notEstablished(why),
		errorTexts: [],
		restart,
		sources,
	};
}
