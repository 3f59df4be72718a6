import {mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {readWhole, watchProcessTree} from '../../src/process/proc-evidence.js';

// A fake /proc (procRoot) with the files the watch reads: stat, cmdline, fd/ links, task/ threads.
let dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs) rmSync(dir, {recursive: true, force: true});
	dirs = [];
});

/** `/proc/<pid>/stat` text: state field 3, ppid field 4, start time (ticks) field 22. */
const statLine = (pid: number, comm: string, ppid: number, start: number): string =>
	`${pid} (${comm}) S ${ppid} ${'0 '.repeat(17)}${start} 0 0\n`;

function fakeProc(): {
	root: string;
	add: (pid: number, opts: {ppid: number; start: number; fds: Record<number, string>; comm?: string}) => void;
} {
	const root = mkdtempSync(join(tmpdir(), 'mcp-wire-proc-'));
	dirs.push(root);
	writeFileSync(join(root, 'uptime'), '1000.00 500.00\n');
	const add = (pid: number, opts: {ppid: number; start: number; fds: Record<number, string>; comm?: string}): void => {
		const dir = join(root, String(pid));
		mkdirSync(join(dir, 'fd'), {recursive: true});
		mkdirSync(join(dir, 'task', String(pid)), {recursive: true});
		writeFileSync(join(dir, 'stat'), statLine(pid, opts.comm ?? 'node', opts.ppid, opts.start));
		writeFileSync(join(dir, 'cmdline'), `${opts.comm ?? 'node'}\0`);
		writeFileSync(join(dir, 'task', String(pid), 'children'), '');
		writeFileSync(join(dir, 'task', String(pid), 'syscall'), '232 0x3 0x0 0x400 0xffffffff 0x0 0x0 0x0 0x0\n');
		for (const [fd, target] of Object.entries(opts.fds)) symlinkSync(target, join(dir, 'fd', fd));
	};
	return {root, add};
}

const PIPES = {0: 'socket:[11]', 1: 'socket:[12]', 2: 'socket:[13]'};

describe('watchProcessTree after the exit', () => {
	it("finds a process that left the tree but holds the server's stdout (it started after the server)", () => {
		const proc = fakeProc();
		proc.add(100, {ppid: 1, start: 5000, fds: PIPES});
		const watch = watchProcessTree(100, {
			now: () => 50,
			platform: 'linux',
			arch: 'x64',
			procRoot: proc.root,
			selfPid: 99,
		});
		expect(watch.pipes).toEqual({stdin: 'socket:[11]', stdout: 'socket:[12]', stderr: 'socket:[13]'});
		// The server exits; a daemonised worker (never seen in the tree) still holds its stdout on fd 1.
		rmSync(join(proc.root, '100'), {recursive: true});
		proc.add(200, {ppid: 1, start: 5003, fds: {0: '/dev/null', 1: 'socket:[12]', 2: '/dev/null'}, comm: 'worker'});
		const evidence = watch.observe('exit', {rootAlive: false, openPipes: ['stdout']});
		expect(evidence.processes.map((p) => [p.pid, p.comm, p.holds])).toEqual([[200, 'worker', {stdout: [1]}]]);
		expect(evidence.openPipes).toEqual(['stdout']);
	});

	it('reads no fd table of a process that started before the server (fds are inherited: it cannot hold a session pipe)', () => {
		const proc = fakeProc();
		proc.add(100, {ppid: 1, start: 5000, fds: PIPES});
		const watch = watchProcessTree(100, {
			now: () => 50,
			platform: 'linux',
			arch: 'x64',
			procRoot: proc.root,
			selfPid: 99,
		});
		rmSync(join(proc.root, '100'), {recursive: true});
		// pid 40 started 1 tick before the server; pid 300 in the same tick as the server (10 ms resolution: kept).
		proc.add(40, {ppid: 1, start: 4999, fds: {7: 'socket:[13]'}, comm: 'old'});
		proc.add(300, {ppid: 1, start: 5000, fds: {2: 'socket:[13]'}, comm: 'same-tick'});
		const evidence = watch.observe('exit', {rootAlive: false});
		expect(evidence.processes.map((p) => [p.pid, p.holds])).toEqual([[300, {stderr: [2]}]]);
	});

	it('a clean exit leaves nothing to describe', () => {
		const proc = fakeProc();
		proc.add(100, {ppid: 1, start: 5000, fds: PIPES});
		proc.add(60, {ppid: 1, start: 100, fds: {0: 'socket:[77]'}, comm: 'shell'});
		const watch = watchProcessTree(100, {
			now: () => 50,
			platform: 'linux',
			arch: 'x64',
			procRoot: proc.root,
			selfPid: 99,
		});
		rmSync(join(proc.root, '100'), {recursive: true});
		const evidence = watch.observe('exit', {rootAlive: false});
		expect(evidence).toMatchObject({reason: 'exit', observed: true, rootPid: 100, rootAlive: false, processes: []});
	});
});

describe('watchProcessTree while the server runs', () => {
	/** A /proc/<pid>/net/tcp line for a socket of `inode` connecting (SYN_SENT) from 127.0.0.1:40000 to 10.0.0.1:5432. */
	const synSent = (inode: number): string =>
		`   0: 0100007F:9C40 0100000A:1538 02 00000000:00000000 01:00000064 00000000  1000        0 ${inode} 1 0000000000000000 100 0 0 10 0`;
	const header = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';

	it("a socket other than the session's pipes is looked up in the TCP tables: a connect in progress is reported", () => {
		const proc = fakeProc();
		proc.add(100, {ppid: 1, start: 5000, fds: {...PIPES, 5: 'socket:[55]'}});
		mkdirSync(join(proc.root, '100', 'net'));
		writeFileSync(join(proc.root, '100', 'net', 'tcp'), `${header}\n${synSent(55)}\n`);
		const watch = watchProcessTree(100, {
			now: () => 50,
			platform: 'linux',
			arch: 'x64',
			procRoot: proc.root,
			selfPid: 99,
		});
		const [observation] = watch.observe('shutdown', {rootAlive: true}).processes;
		expect(observation).toMatchObject({
			pid: 100,
			activity: 'network',
			connecting: ['10.0.0.1:5432'],
			holds: {stdin: [0], stdout: [1], stderr: [2]},
		});
	});

	it("the session's own pipes (socket pairs) are never TCP connections: a process holding no other socket is not looked up", () => {
		const proc = fakeProc();
		proc.add(100, {ppid: 1, start: 5000, fds: PIPES});
		// A table that would say the session's stdout socket is connecting: it must not be read.
		mkdirSync(join(proc.root, '100', 'net'));
		writeFileSync(join(proc.root, '100', 'net', 'tcp'), `${header}\n${synSent(12)}\n`);
		const watch = watchProcessTree(100, {
			now: () => 50,
			platform: 'linux',
			arch: 'x64',
			procRoot: proc.root,
			selfPid: 99,
		});
		const [observation] = watch.observe('shutdown', {rootAlive: true}).processes;
		expect(observation?.connecting).toBeUndefined();
		expect(observation).toMatchObject({pid: 100, activity: 'idle', holds: {stdin: [0], stdout: [1], stderr: [2]}});
	});
});

describe('readWhole (the /proc reader)', () => {
	it('reads a whole file as latin1 at every size around its 16 KiB buffer, and undefined for what cannot be read', () => {
		const dir = mkdtempSync(join(tmpdir(), 'mcp-wire-readwhole-'));
		try {
			for (const size of [0, 1, 16 * 1024 - 1, 16 * 1024, 16 * 1024 + 1, 40_000]) {
				const bytes = Buffer.alloc(size);
				for (let i = 0; i < size; i++) bytes[i] = (i * 7 + 200) % 256; // latin1 bytes above 127 included
				const file = join(dir, `f${size}`);
				writeFileSync(file, bytes);
				expect(readWhole(file), `size ${size}`).toBe(bytes.toString('latin1'));
			}
			expect(readWhole(join(dir, 'missing'))).toBeUndefined();
			expect(readWhole(dir)).toBeUndefined(); // a directory: EISDIR on read
			expect(readWhole(`/proc/${process.pid}/stat`)).toMatch(new RegExp(`^${process.pid} \\(`));
		} finally {
			rmSync(dir, {recursive: true, force: true});
		}
	});
});
