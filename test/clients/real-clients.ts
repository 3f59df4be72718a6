/**
 * The heavy real clients of the ground-truth tests (docs/clients.md "Checked against the real clients"):
 * where `scripts/install-clients.mjs` put them, and a fresh temporary HOME per run so that no run reads or
 * writes the user's own configuration.
 */
import {execFileSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {ROOT} from './ground-truth.js';

/** The clients the install script knows, with their pinned npm package and version. */
export const REAL_CLIENTS = JSON.parse(readFileSync(join(ROOT, 'test', 'clients', 'real-clients.json'), 'utf8')) as {
	readonly [name in 'ts-sdk-v2' | 'codex' | 'gemini']: {readonly pkg: string; readonly version: string};
};

/** The cache directory: $MCP_WIRE_CLIENTS_DIR, else `.cache/clients` in the repository (as the install script). */
export function clientsDir(): string {
	const fromEnv = process.env['MCP_WIRE_CLIENTS_DIR'];
	return fromEnv !== undefined && fromEnv !== '' ? resolve(fromEnv) : join(ROOT, '.cache', 'clients');
}

/**
 * The installed package directory of `name`. Throws, naming the install command, when it is missing or at
 * another version: `npm run test:clients` installs first, so a missing client is a broken set-up.
 */
export function installedPackage(name: keyof typeof REAL_CLIENTS): string {
	const {pkg, version} = REAL_CLIENTS[name];
	const dir = join(clientsDir(), name, 'node_modules', ...pkg.split('/'));
	const manifest = join(dir, 'package.json');
	const found = existsSync(manifest)
		? (JSON.parse(readFileSync(manifest, 'utf8')) as {version?: string}).version
		: undefined;
	if (found !== version)
		throw new Error(`${pkg}@${version} is not installed in ${clientsDir()}: run node scripts/install-clients.mjs`);
	return dir;
}

/** A fresh temporary directory for HOME (and the client's own config dir); `dispose` removes it. */
export function freshHome(prefix: string): {readonly dir: string; dispose(): void} {
	const dir = mkdtempSync(join(tmpdir(), `mcp-wire-${prefix}-`));
	return {dir, dispose: () => rmSync(dir, {recursive: true, force: true})};
}

let python: string | undefined;
/**
 * The example's command for a heavy client: `python3` resolved to the interpreter itself (a version
 * manager's shim, e.g. pyenv's, runs a dozen shell processes per start, which on a loaded machine costs
 * more than a client's startup limit; the bytes on the wire are the same).
 */
export function directCommand(command: readonly string[]): string[] {
	python ??= execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {encoding: 'utf8'}).trim();
	const resolved = python;
	return command.map((part) =>
		part === 'python3' ? resolved : part.startsWith('exec python3 ') ? `exec ${resolved} ${part.slice(13)}` : part,
	);
}
