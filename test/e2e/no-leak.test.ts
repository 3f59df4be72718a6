// The probe must never leak a process (issue 10, field case F41): a server that starts a worker which
// ignores SIGTERM and outlives the server gets `orphaned-process`, naming the worker, and the probe then
// ends the whole tree it started. One real probe, generous limits (a loaded 2-core machine).
import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {runJson} from './helpers.js';

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
	it('names the surviving worker (orphaned-process) and leaves no process of the tree alive', {timeout: 120_000}, async () => {
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
			if (event.type === 'mark' && event.mark.type === 'evidence') for (const p of event.mark.evidence.processes) seen.add(p.pid);
		}
		expect(seen.has(processes[0]!.pid)).toBe(true);
		expect([...seen].filter(isAlive)).toEqual([]);
		// …and the probe said that it ended them.
		expect(run.events.some((e) => e.type === 'mark' && e.mark.type === 'reaped')).toBe(true);
	});
});
