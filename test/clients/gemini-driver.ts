/**
 * Drives the real Gemini CLI (docs/protocol.md §10): `gemini mcp list` in a fresh temporary HOME whose
 * `.gemini/settings.json` lists the example servers. It runs `initialize` (and a `ping` whose failure it
 * ignores) against each and prints `✓ <name>: … - Connected` or `✗ <name>: … - Disconnected`.
 */
import {spawn} from 'node:child_process';
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import type {Example, RealOutcome} from './ground-truth.js';
import {ROOT} from './ground-truth.js';
import {directCommand, freshHome, installedPackage} from './real-clients.js';

/** What one `gemini mcp list` printed. */
interface Printed {
	readonly stdout: string;
	readonly stderr: string;
}

/**
 * Runs `gemini mcp list` as the leader of a process group of its own, and when it has ended (or after
 * `timeoutMs`) kills that whole group with SIGKILL. The servers Gemini starts stay in its group (its SDK
 * spawns them without `detached`), and Gemini does not end one that ignores EOF and SIGTERM
 * (`ignores-shutdown`): without this that server outlives the test. Rejects when the command fails.
 */
function mcpList(bin: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Printed> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [bin, 'mcp', 'list'], {
			cwd,
			env,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
		child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
		const reap = (): void => {
			try {
				process.kill(-child.pid!, 'SIGKILL');
			} catch {
				// ESRCH: nothing of the group is left.
			}
		};
		const timer = setTimeout(reap, timeoutMs);
		child.on('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			reap();
			const printed = {stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8')};
			if (code === 0) resolve(printed);
			else reject(new Error(`gemini mcp list ended with ${signal ?? code}:\n${printed.stderr.slice(0, 2000)}`));
		});
	});
}

/** Gemini's settings for `examples`; `timeoutMs(name)`: the entry's `timeout`, or undefined for Gemini's default (5 s for `mcp list`). */
export function geminiSettings(examples: readonly Example[], timeoutMs: (name: string) => number | undefined): string {
	const mcpServers: Record<string, object> = {};
	for (const e of examples) {
		const [command, ...args] = directCommand(e.command);
		const timeout = timeoutMs(e.name);
		mcpServers[e.name] = {command, args, cwd: ROOT, ...(timeout === undefined ? {} : {timeout})};
	}
	return JSON.stringify({mcpServers}, null, 2);
}

/**
 * Runs `gemini mcp list` over `examples` in `groups` lists, all at once (one `mcp list` checks its servers
 * one after another, each up to its timeout twice: `initialize`, then a `ping`); resolves to every
 * example's outcome by name. Examples are dealt round-robin, so neighbours in the manifest (often the same
 * fault, hanging alike) land in different lists and no list holds all the waits.
 */
export async function runGeminiGroups(
	examples: readonly Example[],
	timeoutMs: (name: string) => number | undefined,
	groups: number,
): Promise<Map<string, RealOutcome>> {
	const dealt: Example[][] = Array.from({length: groups}, () => []);
	examples.forEach((example, index) => dealt[index % groups]!.push(example));
	const results = await Promise.all(dealt.filter((g) => g.length > 0).map((group) => runGemini(group, timeoutMs)));
	return new Map(results.flatMap((result) => [...result]));
}

/**
 * Runs one `gemini mcp list` over `examples`; resolves to each example's outcome by name (`connected` only:
 * `mcp list` never lists tools, so `tools` is left out and the outcome compares `connects` alone).
 * Rejects when the command fails or an example is missing from its output.
 */
export async function runGemini(
	examples: readonly Example[],
	timeoutMs: (name: string) => number | undefined,
): Promise<Map<string, RealOutcome>> {
	const bin = join(installedPackage('gemini'), 'bundle', 'gemini.js');
	const home = freshHome('gemini');
	try {
		mkdirSync(join(home.dir, '.gemini'));
		writeFileSync(join(home.dir, '.gemini', 'settings.json'), geminiSettings(examples, timeoutMs));
		const {stdout, stderr} = await mcpList(
			bin,
			home.dir,
			{PATH: process.env['PATH'] ?? '', HOME: home.dir, GEMINI_CLI_TRUST_WORKSPACE: 'true', LANG: 'C.UTF-8'},
			600_000,
		);
		const text = `${stdout}\n${stderr}`;
		const out = new Map<string, RealOutcome>();
		for (const e of examples) {
			const line = text.split('\n').find((l) => l.includes(` ${e.name}: `));
			if (line === undefined) throw new Error(`gemini mcp list said nothing of ${e.name}:\n${text.slice(0, 2000)}`);
			const connected = line.trimStart().startsWith('✓') && line.trimEnd().endsWith('Connected');
			out.set(e.name, connected ? {connected, logged: []} : {connected, error: 'Disconnected', logged: []});
		}
		return out;
	} finally {
		home.dispose();
	}
}
