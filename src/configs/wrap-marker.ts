/**
 * How a wrapped entry is recognised: its command line (`command` followed by `args`) contains an
 * mcp-wire launcher token (`mcp-wire`, `mcp-wire@1.2.3`, `/path/to/mcp-wire`, `.../bin/mcp-wire.js`,
 * `mcp-wire.cmd`, ...), directly followed by `tap`, and later a `--`; the original command and its
 * arguments follow that `--` unchanged (docs/cli.md#wrap-and-unwrap).
 */

const LAUNCHER = /^mcp-wire(?:@[^/\\]*)?(?:\.(?:js|mjs|cjs|cmd|exe|bat|ps1))?$/i;

/** True when `token`'s last path segment names the mcp-wire launcher. */
export function isLauncherToken(token: string): boolean {
	const segments = token.split(/[/\\]/);
	return LAUNCHER.test(segments[segments.length - 1] ?? '');
}

/**
 * Where the tap marker is in a command line `[command, ...args]`.
 * - `tapIndex`: index of `tap`; `separatorIndex`: index of the `--` after it.
 * - `originalIndex`: index of the original command (`separatorIndex + 1`).
 */
export interface WrapMarker {
	readonly tapIndex: number;
	readonly separatorIndex: number;
	readonly originalIndex: number;
}

/**
 * Finds the tap marker in `tokens` (`[command, ...args]`), or returns undefined when the command line
 * does not run through `mcp-wire tap`. A marker with nothing after `--` is not a wrap (undefined).
 */
export function detectWrap(tokens: readonly string[]): WrapMarker | undefined {
	for (let i = 1; i < tokens.length; i++) {
		if (tokens[i] === 'tap' && isLauncherToken(tokens[i - 1] ?? '')) {
			const separatorIndex = tokens.indexOf('--', i + 1);
			if (separatorIndex === -1 || separatorIndex + 1 >= tokens.length) {
				return undefined;
			}
			return {tapIndex: i, separatorIndex, originalIndex: separatorIndex + 1};
		}
	}
	return undefined;
}
