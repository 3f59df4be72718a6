#!/usr/bin/env node
/**
 * Installs the real clients that test/clients/ runs as ground truth (docs/clients.md "Checked against the
 * real clients") into a cache outside node_modules and the lockfile: they are hundreds of MB, so `npm ci`
 * must not fetch them. One `npm install --prefix <cache>/<name>` per client, skipped when the pinned version
 * is already there; the installs run together. Prints the time and the size of each install.
 *
 * Usage: node scripts/install-clients.mjs [--dir DIR] [NAME...]
 *   DIR: the cache (default $MCP_WIRE_CLIENTS_DIR, else .cache/clients in the repository).
 *   NAME: ts-sdk-v2, codex, gemini (default: all).
 * Exits 1 with a one-line error when an install fails.
 */
import {execFile} from 'node:child_process';
import {promisify} from 'node:util';
import {existsSync, readFileSync, readdirSync, lstatSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {CLIENT_PACKAGES, clientsDir} from './clients-cache.mjs';

function sizeOf(path) {
	let total = 0;
	const stack = [path];
	while (stack.length > 0) {
		const dir = stack.pop();
		for (const entry of readdirSync(dir, {withFileTypes: true})) {
			const full = join(dir, entry.name);
			if (entry.isDirectory()) stack.push(full);
			else total += lstatSync(full).size;
		}
	}
	return total;
}

function installedVersion(prefix, pkg) {
	const manifest = join(prefix, 'node_modules', ...pkg.split('/'), 'package.json');
	if (!existsSync(manifest)) return undefined;
	return JSON.parse(readFileSync(manifest, 'utf8')).version;
}

const args = process.argv.slice(2);
let dir = clientsDir();
const names = [];
for (let i = 0; i < args.length; i++) {
	if (args[i] === '--dir') dir = resolve(args[++i] ?? '');
	else names.push(args[i]);
}
for (const name of names) {
	if (CLIENT_PACKAGES[name] === undefined) {
		console.error(`install-clients: unknown client ${name} (known: ${Object.keys(CLIENT_PACKAGES).join(', ')})`);
		process.exit(1);
	}
}
const run = promisify(execFile);

/** Installs one client unless its pinned version is there; resolves to false when npm fails. */
async function install(name) {
	const {pkg, version} = CLIENT_PACKAGES[name];
	const prefix = join(dir, name);
	if (installedVersion(prefix, pkg) === version) {
		console.log(`${name}: ${pkg}@${version} already in ${prefix}`);
		return true;
	}
	const started = Date.now();
	try {
		await run(
			'npm',
			['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `${pkg}@${version}`],
			{
				maxBuffer: 64 * 1024 * 1024,
			},
		);
	} catch (error) {
		console.error(
			`install-clients: npm install ${pkg}@${version} failed: ${
				String(error.stderr ?? error.message)
					.trim()
					.split('\n')[0]
			}`,
		);
		return false;
	}
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	const mib = (sizeOf(prefix) / 1048576).toFixed(0);
	console.log(`${name}: ${pkg}@${version} installed in ${seconds} s, ${mib} MiB, at ${prefix}`);
	return true;
}

// The installs mostly wait on the network: they run together.
const results = await Promise.all((names.length > 0 ? names : Object.keys(CLIENT_PACKAGES)).map(install));
process.exit(results.every(Boolean) ? 0 : 1);
