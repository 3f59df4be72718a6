/**
 * Variable references in server entries, expanded the way each client expands them before it
 * launches the server, so `doctor` probes the command that really runs.
 */
import type {ServerEntry} from './types.js';

/**
 * Inputs of {@link expandEntry}: the client's environment (`env`), the user's home and the project
 * folder (`cwd`, VS Code's `${workspaceFolder}`), and the platform (for `${pathSeparator}`).
 */
export interface ExpandOptions {
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly home: string;
	readonly cwd: string;
	readonly platform: NodeJS.Platform;
}

/** The expanded entry, and every reference left as written because it has no value (sorted, unique). */
export interface ExpandResult {
	readonly entry: ServerEntry;
	readonly unresolved: string[];
}

/**
 * Expands variable references in `command`, `args`, `env` values, `cwd` and `url`.
 * - Claude Code: `${VAR}` and `${VAR:-default}` from `options.env`; an unset variable without a
 *   default stays as written and is listed in `unresolved` as `VAR`.
 * - VS Code and Cursor: `${env:VAR}` (unset → empty string, as VS Code does), `${userHome}`,
 *   `${workspaceFolder}`, `${workspaceFolderBasename}`, `${pathSeparator}` and `${/}`; `${input:id}`
 *   (asked from the user at launch) and unknown names stay and are listed, e.g. `input:id`.
 * - Claude Desktop: nothing is expanded (it passes the strings as written); the other hosts likewise, since
 *   what they expand is not established.
 */
export function expandEntry(entry: ServerEntry, options: ExpandOptions): ExpandResult {
	const unresolved = new Set<string>();
	const separator = options.platform === 'win32' ? '\\' : '/';
	const basename =
		options.cwd
			.split(/[/\\]/)
			.filter((part) => part !== '')
			.pop() ?? '';
	let expand: (value: string) => string;
	switch (entry.client) {
		case 'claude-desktop':
			return {entry, unresolved: []};
		case 'claude-code':
			expand = (value) =>
				value.replace(
					/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
					(match, name: string, fallback: string | undefined) => {
						const found = options.env[name];
						if (found !== undefined) {
							return found;
						}
						if (fallback !== undefined) {
							return fallback;
						}
						unresolved.add(name);
						return match;
					},
				);
			break;
		case 'vscode':
		case 'cursor':
			expand = (value) =>
				value.replace(/\$\{([^}]+)\}/g, (match, name: string) => {
					if (name.startsWith('env:')) {
						return options.env[name.slice(4)] ?? '';
					}
					switch (name) {
						case 'userHome':
							return options.home;
						case 'workspaceFolder':
							return options.cwd;
						case 'workspaceFolderBasename':
							return basename;
						case 'pathSeparator':
						case '/':
							return separator;
						default:
							unresolved.add(name);
							return match;
					}
				});
			break;
		default:
			// What the other hosts expand is not established (docs/clients.md#the-clients): strings as written.
			return {entry, unresolved: []};
	}
	const env: Record<string, string | null> = {};
	for (const [key, value] of Object.entries(entry.env)) {
		env[key] = value === null ? null : expand(value);
	}
	const expanded: ServerEntry = {
		...entry,
		...(entry.command === undefined ? {} : {command: expand(entry.command)}),
		args: entry.args.map(expand),
		env,
		...(entry.cwd === undefined ? {} : {cwd: expand(entry.cwd)}),
		...(entry.url === undefined ? {} : {url: expand(entry.url)}),
	};
	return {entry: expanded, unresolved: [...unresolved].sort()};
}
