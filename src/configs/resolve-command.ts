/**
 * `which`-style lookup of a server's command on the PATH the client would give it (docs/cli.md#doctor: "a command
 * not on the PATH the client would use"). Small on purpose: the `which` package is only a transitive
 * dependency here, and this one takes PATH, PATHEXT and the platform as inputs so tests can use them.
 */
import {accessSync, constants, statSync} from 'node:fs';
import path from 'node:path';

/** Options of {@link resolveCommand}: the platform's rules to apply, and PATHEXT on Windows. */
export interface ResolveOptions {
	/** Default: `process.platform`. Decides the PATH delimiter (`;` on Windows), PATHEXT and the X-bit check. */
	readonly platform?: NodeJS.Platform;
	/** Windows only; default `.COM;.EXE;.BAT;.CMD`. */
	readonly pathExt?: string;
}

function isExecutableFile(file: string, isWindows: boolean): boolean {
	try {
		if (!statSync(file).isFile()) {
			return false;
		}
		if (!isWindows) {
			accessSync(file, constants.X_OK);
		}
		return true;
	} catch {
		return false;
	}
}

/**
 * Finds the file `command` would run, or null.
 * - A command with a path separator (`/`, or also `\` on Windows) is taken relative to `cwd` and not
 *   searched on the PATH.
 * - Otherwise each entry of `pathValue` is tried in order (`:`-separated, `;` on Windows; an empty entry
 *   means `cwd`, as execvp does; surrounding double quotes are removed on Windows).
 * - POSIX: the file must be a regular file with execute permission for us.
 * - Windows: `cwd` is searched first (as cross-spawn/which do), and a command without an extension
 *   listed in PATHEXT is tried with each PATHEXT extension (`.COM;.EXE;.BAT;.CMD` by default); a
 *   command that already has one is tried as is first.
 * Returns the absolute path found (the host's separators, since it is checked on this file system).
 */
export function resolveCommand(
	command: string,
	pathValue: string,
	cwd: string,
	options: ResolveOptions = {},
): string | null {
	const platform = options.platform ?? process.platform;
	const isWindows = platform === 'win32';
	if (command === '') {
		return null;
	}
	const extensions = isWindows ? (options.pathExt ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((ext) => ext !== '') : [];
	const names = (base: string): string[] => {
		if (!isWindows) {
			return [base];
		}
		const ext = path.extname(base).toLowerCase();
		const hasKnownExt = ext !== '' && extensions.some((known) => known.toLowerCase() === ext);
		return hasKnownExt
			? [base, ...extensions.map((suffix) => base + suffix)]
			: extensions.map((suffix) => base + suffix);
	};
	const hasSeparator = isWindows ? /[/\\]/.test(command) : command.includes('/');
	if (hasSeparator) {
		const base = path.resolve(cwd, command);
		return names(base).find((candidate) => isExecutableFile(candidate, isWindows)) ?? null;
	}
	const dirs = pathValue.split(isWindows ? ';' : ':').map((dir) => (isWindows ? dir.replace(/^"(.*)"$/, '$1') : dir));
	if (isWindows) {
		dirs.unshift(cwd);
	}
	for (const dir of dirs) {
		const base = path.resolve(cwd, dir === '' ? '.' : dir, command);
		const found = names(base).find((candidate) => isExecutableFile(candidate, isWindows));
		if (found !== undefined) {
			return found;
		}
	}
	return null;
}
