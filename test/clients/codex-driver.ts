/**
 * Drives the real Codex CLI (docs/protocol.md §10): `codex app-server` in a fresh temporary HOME and
 * CODEX_HOME whose `config.toml` lists the example servers; `mcpServerStatus/list` starts every one of
 * them through rmcp (Codex's own opening and limits: 30 s handshake, 30 s `tools/list`) and returns each
 * one's tools or its error. One app-server runs a batch of servers at once: they start in parallel.
 */
import {spawn} from 'node:child_process';
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import type {Example, RealOutcome} from './ground-truth.js';
import {ROOT} from './ground-truth.js';
import {directCommand, freshHome, installedPackage} from './real-clients.js';

/** One entry of `mcpServerStatus/list`'s `data` (the fields the test reads). */
interface ServerStatus {
	readonly name: string;
	readonly tools?: Record<string, unknown> | null;
	readonly toolsError?: unknown;
	readonly runtimeStatus?: unknown;
	readonly serverInfo?: unknown;
}

/** A TOML basic string: JSON's escapes are TOML's for the characters example commands use. */
const tomlString = (value: string): string => JSON.stringify(value);

/** The `config.toml` for `examples`: one `[mcp_servers.<name>]` table each, run from the repository root. */
export function codexConfig(examples: readonly Example[], limitSec: number): string {
	return examples
		.map((e) => {
			const [command, ...args] = directCommand(e.command);
			return [
				`[mcp_servers.${tomlString(e.name)}]`,
				`command = ${tomlString(command!)}`,
				`args = [${args.map(tomlString).join(', ')}]`,
				`cwd = ${tomlString(ROOT)}`,
				`startup_timeout_sec = ${limitSec}`,
				`tool_timeout_sec = ${limitSec}`,
				'',
			].join('\n');
		})
		.join('\n');
}

/**
 * What Codex's status entry says, as a {@link RealOutcome}. Codex's start-up includes `tools/list`, so an
 * entry without a server info still connected unless its error is about the handshake itself
 * (`handshaking with MCP server …`).
 */
function outcomeOf(status: ServerStatus | undefined, raw: string): RealOutcome {
	if (status === undefined)
		return {connected: false, error: `not in mcpServerStatus/list: ${raw.slice(0, 160)}`, logged: []};
	const error =
		status.toolsError === null || status.toolsError === undefined
			? undefined
			: (typeof status.toolsError === 'string' ? status.toolsError : JSON.stringify(status.toolsError)).slice(0, 200);
	const connected = status.serverInfo != null || (error !== undefined && !/handshaking with MCP server/.test(error));
	if (status.tools !== null && status.tools !== undefined && error === undefined)
		return {connected, tools: Object.keys(status.tools).length, logged: []};
	return {connected, error: error ?? 'no tools', logged: []};
}

/**
 * Runs `examples` under one `codex app-server`, with `limitSec` as each server's `startup_timeout_sec`
 * and `tool_timeout_sec` (Codex's default is 30 for both); resolves to each example's outcome by name.
 * Rejects when the app-server does not answer `mcpServerStatus/list` within both limits and a minute.
 */
export async function runCodex(examples: readonly Example[], limitSec: number): Promise<Map<string, RealOutcome>> {
	const home = freshHome('codex');
	try {
		mkdirSync(join(home.dir, 'codex'));
		writeFileSync(join(home.dir, 'codex', 'config.toml'), codexConfig(examples, limitSec));
		return await runCodexIn(
			home.dir,
			examples.map((e) => e.name),
			limitSec,
		);
	} finally {
		home.dispose();
	}
}

/**
 * Runs one `codex app-server` in `home` (HOME, with CODEX_HOME `home/codex` whose `config.toml` the caller
 * wrote) and resolves to the outcome of each server in `names`; `limitSec` bounds the wait as in
 * {@link runCodex}; `lingerMs` keeps the app-server open that long after the reply, as a user's Codex
 * stays open (a Codex that quits sends its servers SIGTERM, then SIGKILL). Rejects when the app-server does
 * not answer `mcpServerStatus/list` in time.
 */
export async function runCodexIn(
	home: string,
	names: readonly string[],
	limitSec: number,
	lingerMs = 0,
): Promise<Map<string, RealOutcome>> {
	const limitMs = (2 * limitSec + 60) * 1000;
	const bin = join(installedPackage('codex'), 'bin', 'codex.js');
	const child = spawn(process.execPath, [bin, 'app-server'], {
		cwd: home,
		env: {PATH: process.env['PATH'] ?? '', HOME: home, CODEX_HOME: join(home, 'codex'), LANG: 'C.UTF-8'},
		stdio: ['pipe', 'pipe', 'ignore'],
	});
	const send = (message: object): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
	try {
		const reply = await new Promise<{data: ServerStatus[]}>((resolve, reject) => {
			const timer = setTimeout(
				() => reject(new Error(`codex app-server: no mcpServerStatus/list reply in ${limitMs} ms`)),
				limitMs,
			);
			let buffer = '';
			child.stdout.setEncoding('utf8');
			child.stdout.on('data', (chunk: string) => {
				buffer += chunk;
				let index;
				while ((index = buffer.indexOf('\n')) >= 0) {
					const line = buffer.slice(0, index);
					buffer = buffer.slice(index + 1);
					let message: {id?: unknown; result?: {data: ServerStatus[]}; error?: unknown};
					try {
						message = JSON.parse(line) as typeof message;
					} catch {
						continue;
					}
					if (message.id !== 2) continue;
					clearTimeout(timer);
					if (message.result === undefined) reject(new Error(`codex app-server: ${JSON.stringify(message.error)}`));
					else resolve(message.result);
				}
			});
			child.on('exit', (code) => {
				clearTimeout(timer);
				reject(new Error(`codex app-server exited with ${code} before answering`));
			});
			send({
				jsonrpc: '2.0',
				id: 1,
				method: 'initialize',
				params: {clientInfo: {name: 'mcp-wire-ground-truth', version: '1'}},
			});
			send({jsonrpc: '2.0', method: 'initialized'});
			send({jsonrpc: '2.0', id: 2, method: 'mcpServerStatus/list', params: {detail: 'toolsAndAuthOnly'}});
		});
		if (lingerMs > 0) await new Promise((resolve) => setTimeout(resolve, lingerMs));
		const byName = new Map(reply.data.map((status) => [status.name, status]));
		return new Map(
			names.map((name) => [name, outcomeOf(byName.get(name), JSON.stringify(reply.data.map((s) => s.name)))]),
		);
	} finally {
		child.stdin.end();
		child.kill('SIGTERM');
		await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
	}
}
