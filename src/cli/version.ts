import {statSync} from 'node:fs';
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';

// This module sits two levels below the package root in every build: src/cli/version.ts (tests),
// dist/cli/version.js (tsc) and dist/bundle/<chunk>.js (the bundled CLI, scripts/bundle.mjs).
const require = createRequire(import.meta.url);

/** mcp-wire's version, read from package.json. */
export const VERSION: string = (require('../../package.json') as {version: string}).version;

/** The package root (where package.json and bin/ are), as a `file:` URL ending in `/`. */
export const PACKAGE_ROOT_URL: URL = new URL('../../', import.meta.url);

/** The package root as an absolute path, without a trailing separator (its docs/ ships with the package). */
export const PACKAGE_ROOT: string = fileURLToPath(PACKAGE_ROOT_URL).replace(/[\\/]$/, '');

/**
 * This build of mcp-wire: its version and the time (ms since the epoch) this module's file was written. A
 * rebuild or reinstall changes it though the version stays: what `sessions` keys cached verdicts by
 * (docs/cli.md#sessions), so rules changed between releases are replayed again. The version alone when the
 * file cannot be read.
 */
export function buildId(): string {
	try {
		return `${VERSION} ${statSync(fileURLToPath(import.meta.url)).mtimeMs}`;
	} catch {
		return VERSION;
	}
}
