import {spawn} from 'node:child_process';
import {mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {
	describeProcess,
	endTree,
	observeTree,
	ProcTree,
	readWhole,
	watchProcessTree,
} from '../../src/process/proc-evidence.js';

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

describe('ProcTree (the reads of one tree)', () => {
	it('learns the session pipes from fds 0-2 and walks the tree parents first, through every thread', () => {
		const proc = fakeProc();
		proc.add(100, {ppid: 1, start: 5000, fds: PIPES});
		proc.add(101, {ppid: 100, start: 5001, fds: {1: 'socket:[12]'}, comm: 'sh'});
		proc.add(102, {ppid: 101, start: 5002, fds: {}, comm: 'worker'});
		proc.add(103, {ppid: 100, start: 5003, fds: {}, comm: 'other'});
		writeFileSync(join(proc.root, '100', 'task', '100', 'children'), '101 ');
		mkdirSync(join(proc.root, '100', 'task', '107'));
		writeFileSync(join(proc.root, '100', 'task', '107', 'children'), '103\n');
		writeFileSync(join(proc.root, '101', 'task', '101', 'children'), '102');
		const tree = new ProcTree(proc.root, 100, 99);
		tree.learnPipes();
		expect(tree.pipes).toEqual({stdin: 'socket:[11]', stdout: 'socket:[12]', stderr: 'socket:[13]'});
		expect(tree.children(100)).toEqual([101, 103]);
		expect(tree.tree()).toEqual([100, 101, 102, 103]);
		expect(tree.statOf(101)).toEqual({comm: 'sh', state: 'S', ppid: 100, start: 5001});
		expect(tree.statOf(999)).toBeUndefined();
		expect(tree.holdingsOf(101)).toEqual({holds: {stdout: [1]}, sockets: new Set()});
		expect(tree.pipeHolders()).toEqual([100, 101]);
		expect(tree.uptimeMs()).toBe(1_000_000);
	});

	it('alive() keeps only processes seen that are still the same (a reused pid has another start time)', () => {
		const proc = fakeProc();
		proc.add(100, {ppid: 1, start: 5000, fds: PIPES});
		proc.add(200, {ppid: 100, start: 5005, fds: {}});
		const tree = new ProcTree(proc.root, 100, 99);
		tree.seen.set(100, 5000);
		tree.seen.set(200, 5005);
		expect(tree.alive()).toEqual([100, 200]);
		rmSync(join(proc.root, '200'), {recursive: true});
		proc.add(200, {ppid: 1, start: 9000, fds: {}});
		expect(tree.alive()).toEqual([100]);
		expect(tree.isRootAlive()).toBe(true);
	});
});

describe('describeProcess and observeTree', () => {
	it('describes one process: command, state, syscall, activity, start on the session clock, pipes held', () => {
		const proc = fakeProc();
		proc.add(100, {ppid: 1, start: 5000, fds: PIPES});
		writeFileSync(join(proc.root, '100', 'cmdline'), 'node\0server.js\0--port\0');
		writeFileSync(join(proc.root, '100', 'wchan'), 'ep_poll');
		const tree = new ProcTree(proc.root, 100, 99);
		tree.learnPipes();
		// uptime 1000 s, started at tick 5000 (50 s after boot): 950 s ago, on a clock now at 960,000 ms.
		expect(describeProcess(tree, 100, {nowTMs: 960_000, upMs: 1_000_000, arch: 'x64'})).toEqual({
			pid: 100,
			ppid: 1,
			command: ['node', 'server.js', '--port'],
			comm: 'node',
			state: 'S',
			wchan: 'ep_poll',
			syscall: {name: 'epoll_wait', timeoutMs: null},
			activity: 'idle',
			threads: 1,
			startTMs: 10_000,
			holds: {stdin: [0], stdout: [1], stderr: [2]},
		});
		expect(tree.seen.get(100)).toBe(5000);
		expect(describeProcess(tree, 555, {nowTMs: 0, upMs: undefined, arch: 'x64'})).toBeUndefined();
	});

	it('after the exit observes the survivors and their children, not the exited root', () => {
		const proc = fakeProc();
		proc.add(100, {ppid: 1, start: 5000, fds: PIPES});
		proc.add(200, {ppid: 1, start: 5001, fds: {2: 'socket:[13]'}, comm: 'daemon'});
		proc.add(201, {ppid: 200, start: 5002, fds: {}, comm: 'child'});
		writeFileSync(join(proc.root, '200', 'task', '200', 'children'), '201');
		const tree = new ProcTree(proc.root, 100, 99);
		tree.learnPipes();
		tree.seen.set(100, 5000);
		rmSync(join(proc.root, '100'), {recursive: true});
		const evidence = observeTree(tree, 'exit', {rootAlive: false, openPipes: ['stderr']}, {nowTMs: 5, arch: 'x64'});
		expect(evidence).toMatchObject({
			reason: 'exit',
			openPipes: ['stderr'],
			observed: true,
			rootPid: 100,
			rootAlive: false,
		});
		expect(evidence.processes.map((p) => [p.pid, p.comm, p.holds ?? null])).toEqual([
			[200, 'daemon', {stderr: [2]}],
			[201, 'child', null],
		]);
	});

	it('off Linux the watch observes nothing and says why', () => {
		const watch = watchProcessTree(100, {now: () => 1, platform: 'darwin'});
		expect(watch.observe('stall')).toEqual({
			reason: 'stall',
			observed: false,
			note: 'process evidence is read from Linux /proc; not on darwin',
			rootPid: 100,
			processes: [],
		});
		expect(watch.pipes).toEqual({});
		expect(watch.alive()).toEqual([]);
	});
});

describe.skipIf(process.platform !== 'linux')('endTree (real processes)', () => {
	it('signals the spawned process only with includeRoot, never our own pid, and returns who it signalled', async () => {
		const child = spawn('sleep', ['60'], {stdio: 'ignore'});
		const pid = child.pid!;
		const exited = new Promise<string | null>((resolve) => child.once('exit', (_, signal) => resolve(signal)));
		try {
			const tree = new ProcTree('/proc', pid, process.pid);
			tree.seen.set(pid, tree.statOf(pid)!.start!);
			expect(endTree(pid, tree, 'SIGTERM', {self: process.pid, scan: false})).toEqual([]);
			expect(tree.isRootAlive()).toBe(true);
			expect(endTree(pid, tree, 'SIGTERM', {self: process.pid, includeRoot: true, scan: false})).toEqual([pid]);
			expect(await exited).toBe('SIGTERM');
		} finally {
			child.kill('SIGKILL');
		}
	});
});
