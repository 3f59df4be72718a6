/**
 * The heavy real clients of the ground-truth tests (docs/clients.md "Checked against the real clients"):
 * where `scripts/install-clients.mjs` put them, and a fresh temporary HOME per run so that no run reads or
 * writes the user's own configuration.
 */
import {execFile, execFileSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {promisify} from 'node:util';
import type {ClientFamily, ClientOutcome} from '../../src/core/types.js';
import {mapLimit, ROOT, type Example} from './ground-truth.js';

const run = promisify(execFile);

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

/** One `client-run` record of `probe --as --json` (docs/json-records.md#probe---as---json). */
export interface ClientRunRecord {
	readonly client: string;
	readonly outcome: ClientOutcome['outcome'];
	readonly connects: boolean | null;
	readonly toolsListed: boolean | null;
	readonly note: string;
	readonly firstFailure?: {readonly code: string; readonly note: string};
	readonly startMs?: number;
}

/** A `client-run` record as a {@link ClientOutcome} of `family`, for {@link disagreements}. */
export function asOutcome(run: ClientRunRecord, family: ClientFamily): ClientOutcome {
	return {
		client: family,
		outcome: run.outcome,
		decidedBy: [],
		note: run.note,
		connects: run.connects,
		toolsListed: run.toolsListed,
	};
}

/**
 * mcp-wire's own prediction, live: `probe --as <client> --json` on every example (the built CLI,
 * `npm run build` first), `parallel` at a time, with `--timeout` where `timeoutMs(name)` gives one (the
 * client's start-up limit raised by its knob, as the real run's config raises it).
 */
export async function probeAs(
	client: string,
	examples: readonly Example[],
	timeoutMs: (name: string) => number | undefined,
	parallel: number,
): Promise<Map<string, ClientRunRecord>> {
	const bin = join(ROOT, 'bin', 'mcp-wire.js');
	const runs = await mapLimit(examples, parallel, async (example) => {
		const timeout = timeoutMs(example.name);
		const args = [bin, 'probe', '--as', client, '--json'];
		if (timeout !== undefined) args.push('--timeout', String(timeout));
		const stdout = await run(process.execPath, [...args, '--', ...directCommand(example.command)], {
			cwd: ROOT,
			timeout: 300_000,
			maxBuffer: 16 * 1024 * 1024,
		}).then(
			(result) => result.stdout,
			(error: {stdout?: string; message: string}) => {
				if (error.stdout === undefined || error.stdout === '') throw new Error(`${example.name}: ${error.message}`);
				return error.stdout;
			},
		);
		return JSON.parse(stdout.trim().split('\n')[0]!) as ClientRunRecord;
	});
	return new Map(examples.map((example, index) => [example.name, runs[index]!]));
}
