/**
 * Where the real clients of the ground-truth tests live (scripts/install-clients.mjs installs them) and
 * which versions (test/clients/real-clients.json: the versions docs/protocol.md §10 measured).
 */
import {readFileSync} from 'node:fs';
import {join, resolve} from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** Client name → `{pkg, version}`: the npm package and its pinned version. */
export const CLIENT_PACKAGES = JSON.parse(readFileSync(join(ROOT, 'test', 'clients', 'real-clients.json'), 'utf8'));

/** The cache directory: $MCP_WIRE_CLIENTS_DIR, else `.cache/clients` in the repository. */
export function clientsDir() {
	const fromEnv = process.env.MCP_WIRE_CLIENTS_DIR;
	if (fromEnv !== undefined && fromEnv !== '') return resolve(fromEnv);
	return join(ROOT, '.cache', 'clients');
}
