// The probe must never leak a process (field case F41): a server that starts a worker which
// ignores SIGTERM and outlives the server gets `orphaned-process`, naming the worker, and the probe then
// ends the whole tree it started. One real probe, generous limits (a loaded 2-core machine).
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {execa} from 'execa';
import {describe, expect, it} from 'vitest';
import {BIN, runJson} from './helpers.js';

/** True while a process with this pid runs: it exists (signal 0 only checks) and is not a zombie waiting for init to reap it. */
function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
	try {
		return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
	} catch {
		return false;
	}
}

describe.skipIf(process.platform !== 'linux')('probe of a server that orphans a child (real processes)', () => {
	it(
		'names the surviving worker (orphaned-process) and leaves no process of the tree alive',
		{timeout: 120_000},
		async () => {
			const run = await runJson(['probe', '--json', '--', 'node', 'examples/servers/node/orphaner.mjs']);
			const orphaned = run.findings.filter((f) => f.code === 'orphaned-process');
			expect(orphaned).toHaveLength(1);
			const processes = orphaned[0]!.detail?.['processes'] as {pid: number; command: string; holds: string[]}[];
			expect(processes).toHaveLength(1);
			expect(processes[0]!.command).toContain('orphaner.mjs --worker');
			expect(processes[0]!.holds).toEqual(['stdout', 'stderr']);
			// Every pid the probe ever observed in the server's tree is gone once the probe has exited.
			const seen = new Set<number>();
			for (const event of run.events) {
				if (event.type === 'mark' && event.mark.type === 'evidence')
					for (const p of event.mark.evidence.processes) seen.add(p.pid);
			}
			expect(seen.has(processes[0]!.pid)).toBe(true);
			expect([...seen].filter(isAlive)).toEqual([]);
			// …and the probe said that it ended them.
			expect(run.events.some((e) => e.type === 'mark' && e.mark.type === 'reaped')).toBe(true);
		},
	);
});

// A probe ended by a signal (Ctrl-C on a plain or --json probe, a CI job's timeout, a closed terminal): its
// server is in a process group of its own, so the signal does not reach it, and Node's 'exit' hook does not
// run. Before: the server was left running, its parent init. Now the probe ends its group, then dies of the
// signal (a shell sees 128 + n).
describe.skipIf(process.platform !== 'linux')('probe ended by a signal (real processes)', () => {
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		it(`${signal}: the server it started is ended, and the probe dies of ${signal}`, {timeout: 60_000}, async () => {
			const dir = mkdtempSync(join(tmpdir(), 'mcp-wire-signal-'));
			const pidFile = join(dir, 'server.pid');
			const daemonFile = join(dir, 'daemon.pid');
			// A server that never answers initialize (the probe would wait 30 s for it) and daemonises a
			// helper: double fork, setsid (detached), the session's pipes kept.
			const server = join(dir, 'silent.mjs');
			const inner = `require('fs').writeFileSync(${JSON.stringify(daemonFile)}, String(process.pid)); setInterval(() => {}, 1000);`;
			const middle = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(inner)}], {detached: true, stdio: 'inherit'}).unref();`;
			writeFileSync(
				server,
				`import {writeFileSync} from 'node:fs';\nimport {spawn} from 'node:child_process';\nspawn(process.execPath, ['-e', ${JSON.stringify(middle)}], {detached: true, stdio: 'inherit'}).unref();\nwriteFileSync(${JSON.stringify(pidFile)}, String(process.pid));\nsetInterval(() => {}, 1000);\n`,
			);
			const probe = execa('node', [BIN, 'probe', '--json', '--', 'node', server], {reject: false, stdin: 'ignore'});
			const started = Date.now();
			while (
				!existsSync(pidFile) ||
				readFileSync(pidFile, 'utf8') === '' ||
				!existsSync(daemonFile) ||
				readFileSync(daemonFile, 'utf8') === ''
			) {
				if (Date.now() - started > 40_000) throw new Error('the server did not start');
				await new Promise((resolve) => setTimeout(resolve, 50));
			}
			const serverPid = Number(readFileSync(pidFile, 'utf8'));
			const daemonPid = Number(readFileSync(daemonFile, 'utf8'));
			try {
				expect(isAlive(serverPid)).toBe(true);
				probe.kill(signal);
				const result = await probe;
				expect(result.signal).toBe(signal);
				if (signal !== 'SIGHUP') {
					// Ctrl-C (or a CI job's SIGTERM) stops the probe as the TUI's quit does: the stream still ends
					// with its summary record, whose verdict says the probe was stopped, as the plain log does
					// (was: "ok" over a server that never answered initialize; SIGTERM: no summary at all).
					const records = result.stdout
						.trim()
						.split('\n')
						.map((text) => JSON.parse(text) as {type: string; verdict?: string; mark?: {name?: string}});
					expect(records.at(-1)).toMatchObject({type: 'summary', verdict: 'stopped', errors: 0, warnings: 0});
					expect(records.some((r) => r.type === 'mark' && r.mark?.name === 'stopped-by-user')).toBe(true);
					const name = signal === 'SIGINT' ? 'SIGINT \\(Ctrl-C\\)' : signal;
					expect(result.stderr).toMatch(
						new RegExp(`^mcp-wire: stopped by ${name} at \\d+ ms; the server was shut down$`, 'm'),
					);
				}
				const ended = Date.now();
				while ((isAlive(serverPid) || isAlive(daemonPid)) && Date.now() - ended < 10_000)
					await new Promise((resolve) => setTimeout(resolve, 50));
				expect(isAlive(serverPid)).toBe(false);
				// The daemon left the server's group and session; it is ended as a normal end ends it.
				expect(isAlive(daemonPid)).toBe(false);
			} finally {
				if (isAlive(serverPid)) process.kill(serverPid, 'SIGKILL');
				if (isAlive(daemonPid)) process.kill(daemonPid, 'SIGKILL');
				rmSync(dir, {recursive: true, force: true});
			}
		});
	}
});

// Ctrl-C on a plain probe: the plain log ends with the summary, whose verdict says the user stopped it (the
// silence before the stop is no verdict on the server: it said `verdict OK`), then the probe dies of SIGINT.
describe.skipIf(process.platform !== 'linux')('plain probe stopped by Ctrl-C (real processes)', () => {
	it('prints verdict STOPPED with when and before what, then dies of SIGINT', {timeout: 60_000}, async () => {
		const dir = mkdtempSync(join(tmpdir(), 'mcp-wire-sigint-'));
		const pidFile = join(dir, 'server.pid');
		const server = join(dir, 'silent.mjs');
		writeFileSync(
			server,
			`import {writeFileSync} from 'node:fs';\nwriteFileSync(${JSON.stringify(pidFile)}, String(process.pid));\nsetInterval(() => {}, 1000);\n`,
		);
		const probe = execa('node', [BIN, 'probe', '--', 'node', server], {reject: false, stdin: 'ignore'});
		try {
			const started = Date.now();
			while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8') === '') {
				if (Date.now() - started > 40_000) throw new Error('the server did not start');
				await new Promise((resolve) => setTimeout(resolve, 50));
			}
			probe.kill('SIGINT');
			const result = await probe;
			expect(result.signal).toBe('SIGINT');
			const verdict = result.stdout.split('\n').filter((line) => line.startsWith('verdict '));
			expect(verdict).toHaveLength(1);
			expect(verdict[0]).toMatch(
				/^verdict STOPPED: stopped by the user after \d+\.\d s, before the server answered initialize \(the probe would wait 30 s\)$/,
			);
			expect(result.stdout).toMatch(/^clients {2}\? not established {2}every client {2}no handshake reply seen$/m);
			expect(result.stderr).toMatch(/^mcp-wire: stopped by SIGINT \(Ctrl-C\) at \d+ ms; the server was shut down$/m);
		} finally {
			probe.kill('SIGKILL');
			rmSync(dir, {recursive: true, force: true});
		}
	});
});
