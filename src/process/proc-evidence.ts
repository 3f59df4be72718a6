import {Buffer} from 'node:buffer';
import {closeSync, openSync, readdirSync, readlinkSync, readSync} from 'node:fs';
import type {PipeHolding, ProcessActivity, ProcessEvidence, ProcessObservation} from '../core/types.js';
import {parseNetTcp, SYSCALLS} from './proc-info.js';

/**
 * Process evidence for the timing rules (docs/json-records.md#mark), read from Linux `/proc`: for every process of a
 * spawned server's tree, what it waits on (all threads), when it started, and which of the session's
 * three pipes it holds (matched by pipe/socket inode across `/proc/<pid>/fd`). Elsewhere every
 * observation says `observed: false`.
 *
 * One {@link ProcessWatch} per spawned server: it learns the three pipes from the server's fds 0–2 the
 * moment it is created (before the server can change them), remembers every descendant it ever saw (a
 * daemonising grandchild leaves the tree but not our list), and after the exit finds the survivors and
 * ends them ({@link ProcessWatch.endAll}). Never throws: a process that vanished while being read is skipped.
 */

/** What {@link watchProcessTree} needs. */
export interface WatchOptions {
	/** The session clock's now (ms since session start), to place process start times on it. */
	readonly now: () => number;
	/** `process.platform` (anything but `linux`: nothing is observed). */
	readonly platform?: NodeJS.Platform;
	/** `process.arch`, for syscall numbers. */
	readonly arch?: string;
	/** `/proc` (tests point it elsewhere). */
	readonly procRoot?: string;
	/** Our own pid: never reported or ended (we hold the other end of the stdin pipe). */
	readonly selfPid?: number;
}

/** A spawned server's process tree, watched. */
export interface ProcessWatch {
	/** The pipe ids (`pipe:[123]`, `socket:[456]`) of the server's fds 0, 1, 2, when they could be read. */
	readonly pipes: {readonly stdin?: string; readonly stdout?: string; readonly stderr?: string};
	/**
	 * Observe the tree now.
	 * @param reason why (`stall`, `timeout`, `shutdown`, `exit`)
	 * @param options `rootAlive` false after the exit: then the processes are the survivors (any process
	 *   seen in the tree before, or holding one of the pipes, still alive); `openPipes` recorded as given
	 */
	observe(
		reason: ProcessEvidence['reason'],
		options?: {readonly rootAlive?: boolean; readonly openPipes?: readonly ('stdout' | 'stderr')[]},
	): ProcessEvidence;
	/**
	 * End every process of the tree still alive except the spawned one's own pid when it is still running
	 * (`includeRoot` true: it too): its process group (when it leads one), every descendant seen, every
	 * holder of the session's pipes. Sends `signal` to each.
	 * @param options `scan` false: leave out the /proc scan for pipe holders (the caller has just observed
	 *   after the exit and found no process left, so none can have started one since)
	 * @returns the pids signalled (empty when none was alive)
	 */
	endAll(
		signal: 'SIGTERM' | 'SIGKILL',
		options?: {readonly includeRoot?: boolean; readonly group?: boolean; readonly scan?: boolean},
	): number[];
	/** Pids of processes seen in the tree (and still the same process: start time checked) that are alive now. */
	alive(): number[];
}

/** The most processes described per observation. */
const MAX_PROCESSES = 32;
/** The most threads read per process. */
const MAX_THREADS = 64;
/** Clock ticks per second of `/proc/<pid>/stat` start times (`getconf CLK_TCK`: 100 on every Linux port Node runs on). */
const CLOCK_TICKS = 100;

const READS = new Set(['read', 'pread64', 'readv', 'recvfrom', 'recvmsg']);
const WRITES = new Set(['write', 'writev']);
const SLEEPS = new Set(['nanosleep', 'clock_nanosleep']);
const WAITS = new Set(['wait4', 'waitid']);
/** Waits that end on an event: the timeout argument (index) and whether it is a value in ms or a pointer. */
const EVENT_WAITS: Readonly<Record<string, readonly [number, 'ms' | 'pointer']>> = {
	epoll_wait: [3, 'ms'],
	epoll_pwait: [3, 'ms'],
	epoll_pwait2: [3, 'pointer'],
	poll: [2, 'ms'],
	ppoll: [2, 'pointer'],
	select: [4, 'pointer'],
	pselect6: [4, 'pointer'],
	futex: [3, 'pointer'],
	futex_waitv: [3, 'pointer'],
	rt_sigtimedwait: [2, 'pointer'],
	pause: [-1, 'pointer'],
	rt_sigsuspend: [-1, 'pointer'],
};

/** One thread's blocking call, from `/proc/<pid>/task/<tid>/syscall`. */
interface ThreadCall {
	readonly state?: string;
	readonly running: boolean;
	readonly name?: string;
	readonly fd?: number;
	/** null: waits without a timeout; -1: with a timeout of unknown length; else ms. */
	readonly timeoutMs?: number | null;
}

/**
 * Parse a `/proc/<pid>/syscall` line with the timeout argument of event waits (see {@link EVENT_WAITS}).
 * @returns undefined when the text says nothing (empty); `running: true` for `running`
 */
export function parseSyscallLine(text: string, arch: string = process.arch): Omit<ThreadCall, 'state'> | undefined {
	const words = text.trim().split(/\s+/);
	if (words[0] === 'running') return {running: true};
	const number = Number(words[0]);
	if (!Number.isInteger(number) || number < 0) return undefined;
	const name = SYSCALLS[arch]?.[number];
	const arg = (i: number): bigint | undefined => {
		const word = words[i + 1];
		if (word === undefined || !/^0x[0-9a-f]+$/i.test(word)) return undefined;
		return BigInt(word);
	};
	const call: {running: false; name?: string; fd?: number; timeoutMs?: number | null} = {running: false};
	if (name !== undefined) call.name = name;
	if (name !== undefined && (READS.has(name) || WRITES.has(name) || name === 'connect')) {
		const fd = arg(0);
		if (fd !== undefined && fd < 1_000_000n) call.fd = Number(fd);
	}
	const wait = name === undefined ? undefined : EVENT_WAITS[name];
	if (wait) {
		const [index, kind] = wait;
		if (index === -1) call.timeoutMs = null;
		else {
			const value = arg(index);
			if (value !== undefined) {
				if (kind === 'pointer') call.timeoutMs = value === 0n ? null : -1;
				else {
					const signed = Number(BigInt.asIntN(32, value));
					call.timeoutMs = signed < 0 ? null : signed;
				}
			}
		}
	}
	return call;
}

/**
 * What a process does, from its threads (main thread first) and the pipes it holds (see
 * {@link ProcessActivity}). Exported for tests.
 */
export function activityOf(
	threads: readonly ThreadCall[],
	holds: PipeHolding | undefined,
	connecting: number,
): ProcessActivity {
	const main = threads[0];
	if (!main) return 'unknown';
	if (main.state === 'Z' || main.state === 'X') return 'zombie';
	if (main.state === 'T' || main.state === 't') return 'stopped';
	if (threads.some((t) => t.running || t.state === 'R' || t.state === 'D')) return 'busy';
	if (connecting > 0 || threads.some((t) => t.name === 'connect')) return 'network';
	if (main.name !== undefined && WAITS.has(main.name)) return 'waiting-child';
	if (threads.some((t) => t.name !== undefined && SLEEPS.has(t.name))) return 'timer';
	const stdinFds = holds?.stdin ?? [];
	const isStdinRead = (t: ThreadCall): boolean =>
		t.name !== undefined && READS.has(t.name) && t.fd === 0 && stdinFds.includes(0);
	// A thread blocked reading something else (a socket, a child's pipe): a reply may still come from there.
	if (threads.some((t) => t.name !== undefined && READS.has(t.name) && !isStdinRead(t))) return 'reading';
	if (threads.some(isStdinRead)) return 'reading-stdin';
	// A timer pending in any thread's event wait: something will happen without input.
	if (
		threads.some(
			(t) =>
				typeof t.timeoutMs === 'number' &&
				t.timeoutMs !== 0 &&
				t.name !== undefined &&
				EVENT_WAITS[t.name] !== undefined,
		)
	)
		return 'timer';
	if (main.name !== undefined && WRITES.has(main.name) && (main.fd === 1 || main.fd === 2)) return 'writing';
	if (main.name !== undefined && EVENT_WAITS[main.name] !== undefined)
		return main.timeoutMs === null ? 'idle' : main.timeoutMs === 0 ? 'busy' : 'timer';
	return 'unknown';
}

/** One buffer for every /proc read: the files read are small (a longer one takes more rounds). */
const readBuffer = Buffer.allocUnsafe(16 * 1024);

/**
 * A whole file as latin1 text, or undefined when it cannot be opened or read (the process is gone, no
 * permission). `readFileSync` does the same with an fstat and a new buffer per file; on /proc, whose
 * files all report size 0, this open/read/close into one buffer takes about a third of the time, and
 * an observation reads a few dozen files on the probe's way to closing the server's stdin (docs/performance.md#probe-start-up).
 */
export function readWhole(file: string): string | undefined {
	let fd: number;
	try {
		fd = openSync(file, 'r');
	} catch {
		return undefined;
	}
	try {
		const parts: string[] = [];
		for (;;) {
			let length = 0;
			let got: number;
			while (
				length < readBuffer.length &&
				(got = readSync(fd, readBuffer, length, readBuffer.length - length, null)) > 0
			)
				length += got;
			parts.push(readBuffer.toString('latin1', 0, length));
			if (length < readBuffer.length) return parts.length === 1 ? parts[0]! : parts.join('');
		}
	} catch {
		return undefined;
	} finally {
		closeSync(fd);
	}
}

/** A process's `/proc/<pid>/stat` fields the watch uses (each absent when unreadable). */
interface ProcStat {
	readonly comm?: string;
	readonly state?: string;
	readonly ppid?: number;
	/** Start time in clock ticks since boot (field 22). */
	readonly start?: number;
}

/** The session pipes' ids by stream (`pipe:[123]`, `socket:[456]`), learnt from the spawned process's fds 0–2. */
type SessionPipes = {stdin?: string; stdout?: string; stderr?: string};

/**
 * One spawned server's tree as `/proc` shows it: the session's pipes, every process seen in it (pid and
 * start time, so a reused pid is not taken for it), and the reads that observing and ending need. Every
 * read of a vanished process gives undefined or empty; nothing throws. Exported for tests.
 */
export class ProcTree {
	/** The session pipes, filled in by {@link learnPipes}. */
	readonly pipes: SessionPipes = {};
	/** pid → start time in ticks (identity: a reused pid has another start time). */
	readonly seen = new Map<number, number>();

	/**
	 * @param proc the `/proc` root
	 * @param rootPid the spawned process
	 * @param self our own pid: never listed, described or ended
	 */
	constructor(
		readonly proc: string,
		readonly rootPid: number,
		readonly self: number,
	) {}

	/** A whole /proc file (latin1), or undefined. */
	read(file: string): string | undefined {
		return readWhole(file);
	}

	/** A symlink's target (an fd's `pipe:[…]`), or undefined. */
	link(file: string): string | undefined {
		try {
			return readlinkSync(file);
		} catch {
			return undefined;
		}
	}

	/** A directory's entries, or none. */
	list(dir: string): string[] {
		try {
			return readdirSync(dir);
		} catch {
			return [];
		}
	}

	/**
	 * Learn the session pipes from the spawned process's fds 0–2, those not known yet (right after the
	 * spawn the child may still be setting up its fds: called again at each observation while it runs).
	 */
	learnPipes(): void {
		const names = ['stdin', 'stdout', 'stderr'] as const;
		for (const [fd, name] of names.entries()) {
			if (this.pipes[name] !== undefined) continue;
			const target = this.link(`${this.proc}/${this.rootPid}/fd/${fd}`);
			if (target !== undefined && /^(pipe|socket):\[\d+\]$/.test(target) && !Object.values(this.pipes).includes(target))
				this.pipes[name] = target;
		}
	}

	/** `/proc/<pid>/stat` (undefined: no such process; `{}`: unreadable text). */
	statOf(pid: number): ProcStat | undefined {
		const text = this.read(`${this.proc}/${pid}/stat`);
		if (text === undefined) return undefined;
		const open = text.indexOf('(');
		const close = text.lastIndexOf(')');
		if (open === -1 || close < open) return {};
		const rest = text
			.slice(close + 1)
			.trim()
			.split(/\s+/);
		// rest[0] = state (field 3), rest[1] = ppid (4), rest[19] = starttime (22)
		const ppid = Number(rest[1]);
		const start = Number(rest[19]);
		return {
			comm: text.slice(open + 1, close),
			...(rest[0] ? {state: rest[0]} : {}),
			...(Number.isInteger(ppid) ? {ppid} : {}),
			...(Number.isFinite(start) ? {start} : {}),
		};
	}

	/** `pid` is alive (not a zombie) and, when `start` is given, still the process that started then. */
	isSame(pid: number, start: number | undefined): boolean {
		const now = this.statOf(pid);
		return now !== undefined && now.state !== 'Z' && now.state !== 'X' && (start === undefined || now.start === start);
	}

	/** The children of every thread of `pid`. */
	children(pid: number): number[] {
		const out: number[] = [];
		for (const tid of this.list(`${this.proc}/${pid}/task`)) {
			for (const word of (this.read(`${this.proc}/${pid}/task/${tid}/children`) ?? '').trim().split(/\s+/)) {
				const child = Number(word);
				if (Number.isInteger(child) && child > 0 && !out.includes(child)) out.push(child);
			}
		}
		return out;
	}

	/** Which session pipes `pid` holds on which fds, and the inodes of the other sockets it holds. */
	holdingsOf(pid: number): {holds?: PipeHolding; sockets: Set<number>} {
		const holds: {stdin?: number[]; stdout?: number[]; stderr?: number[]} = {};
		const sockets = new Set<number>();
		for (const name of this.list(`${this.proc}/${pid}/fd`)) {
			const target = this.link(`${this.proc}/${pid}/fd/${name}`);
			if (target === undefined) continue;
			const fd = Number(name);
			let isSessionPipe = false;
			for (const stream of ['stdin', 'stdout', 'stderr'] as const) {
				if (this.pipes[stream] !== undefined && target === this.pipes[stream]) {
					(holds[stream] ??= []).push(fd);
					isSessionPipe = true;
				}
			}
			// The session's own pipes are the socket pairs (or pipes) the spawn made, never a TCP connection:
			// a process holding no other socket needs no look at the TCP tables (each read of
			// /proc/<pid>/net/tcp and tcp6 costs ~0.5 ms of kernel time, and a Node server's stdio are sockets).
			if (isSessionPipe) continue;
			const socket = /^socket:\[(\d+)\]$/.exec(target);
			if (socket) sockets.add(Number(socket[1]));
		}
		for (const fds of Object.values(holds)) fds.sort((a, b) => a - b);
		return {...(Object.keys(holds).length > 0 ? {holds} : {}), sockets};
	}

	/** The system's uptime (ms), or undefined. */
	uptimeMs(): number | undefined {
		const text = this.read(`${this.proc}/uptime`);
		const seconds = text === undefined ? Number.NaN : Number(text.trim().split(/\s+/)[0]);
		return Number.isFinite(seconds) ? seconds * 1000 : undefined;
	}

	/**
	 * Every pid of our uid that holds one of the session's pipes (a /proc scan: only after the exit). A
	 * holder got the pipe from the server's tree (fds are inherited), so it started no earlier than the
	 * server: one read of each process's `stat` skips the rest of the system, whose fd tables (hundreds
	 * of links on a desktop) are never listed.
	 */
	pipeHolders(): number[] {
		const wanted = new Set(Object.values(this.pipes));
		if (wanted.size === 0) return [];
		const rootStart = this.seen.get(this.rootPid);
		const out: number[] = [];
		for (const name of this.list(this.proc)) {
			const pid = Number(name);
			if (!Number.isInteger(pid) || pid <= 0 || pid === this.self) continue;
			if (rootStart !== undefined) {
				const start = this.statOf(pid)?.start;
				if (start === undefined || start < rootStart) continue;
			}
			for (const fd of this.list(`${this.proc}/${pid}/fd`)) {
				const target = this.link(`${this.proc}/${pid}/fd/${fd}`);
				if (target !== undefined && wanted.has(target)) {
					out.push(pid);
					break;
				}
			}
		}
		return out;
	}

	/** The spawned process and its descendants now, parents first (at most {@link MAX_PROCESSES}). */
	tree(): number[] {
		const out: number[] = [];
		const queue = [this.rootPid];
		while (queue.length > 0 && out.length < MAX_PROCESSES) {
			const pid = queue.shift()!;
			if (out.includes(pid) || pid === this.self) continue;
			out.push(pid);
			queue.unshift(...this.children(pid));
		}
		return out;
	}

	/** Pids seen in the tree (still the same process) that are alive now. */
	alive(): number[] {
		return [...this.seen].filter(([pid, start]) => pid !== this.self && this.isSame(pid, start)).map(([pid]) => pid);
	}

	/** Whether the spawned process itself still runs. */
	isRootAlive(): boolean {
		return this.isSame(this.rootPid, this.seen.get(this.rootPid));
	}
}

/**
 * Describe one process of the tree for an observation (and remember it as seen): command, state, what
 * its threads are blocked in, the session pipes it holds, TCP connects in progress.
 * @param nowTMs the session clock now (ms); `upMs` the system uptime then (ms), to place its start
 * @returns undefined when the process is gone
 */
export function describeProcess(
	tree: ProcTree,
	pid: number,
	at: {readonly nowTMs: number; readonly upMs: number | undefined; readonly arch: string},
): ProcessObservation | undefined {
	const {proc} = tree;
	const stat = tree.statOf(pid);
	if (stat === undefined) return undefined;
	if (stat.start !== undefined && !tree.seen.has(pid)) tree.seen.set(pid, stat.start);
	const {holds, sockets} = tree.holdingsOf(pid);
	const connecting = connectsOf(tree, pid, sockets);
	const threads = threadCalls(tree, pid, stat, at.arch);
	const main = threads[0];
	const wchanRaw = tree.read(`${proc}/${pid}/wchan`)?.trim();
	const wchan = wchanRaw && wchanRaw !== '0' ? wchanRaw : undefined;
	const startTMs =
		stat.start === undefined || at.upMs === undefined
			? undefined
			: Math.round(at.nowTMs - (at.upMs - (stat.start * 1000) / CLOCK_TICKS));
	const syscall =
		main?.name === undefined
			? undefined
			: {
					name: main.name,
					...(main.fd === undefined ? {} : {fd: main.fd}),
					...(main.timeoutMs === undefined ? {} : {timeoutMs: main.timeoutMs}),
				};
	const command = commandOf(tree.read(`${proc}/${pid}/cmdline`));
	return {
		pid,
		...(stat.ppid === undefined ? {} : {ppid: stat.ppid}),
		...(command ? {command} : {}),
		...(stat.comm === undefined ? {} : {comm: stat.comm}),
		...(stat.state === undefined ? {} : {state: stat.state}),
		...(wchan === undefined ? {} : {wchan}),
		...(syscall ? {syscall} : {}),
		activity: activityOf(threads, holds, connecting.length),
		threads: tree.list(`${proc}/${pid}/task`).length || 1,
		...(startTMs === undefined ? {} : {startTMs}),
		...(holds ? {holds} : {}),
		...(connecting.length > 0 ? {connecting} : {}),
	};
}

/** A `/proc/<pid>/cmdline` as at most 8 words of at most 200 characters, or undefined when empty. */
function commandOf(cmdline: string | undefined): string[] | undefined {
	if (cmdline === undefined || cmdline === '') return undefined;
	return cmdline
		.replace(/\0$/, '')
		.split('\0')
		.slice(0, 8)
		.map((word) => (word.length > 200 ? `${word.slice(0, 199)}…` : word));
}

/** The remote ends of `pid`'s TCP connects in progress (SYN_SENT) among `sockets`. */
function connectsOf(tree: ProcTree, pid: number, sockets: ReadonlySet<number>): string[] {
	if (sockets.size === 0) return [];
	const table = [
		...parseNetTcp(tree.read(`${tree.proc}/${pid}/net/tcp`) ?? ''),
		...parseNetTcp(tree.read(`${tree.proc}/${pid}/net/tcp6`) ?? ''),
	];
	return table.filter((c) => c.state === 'SYN_SENT' && sockets.has(c.inode)).map((c) => c.remote);
}

/** What each thread of `pid` (main thread first, at most {@link MAX_THREADS}) is blocked in. */
function threadCalls(tree: ProcTree, pid: number, stat: ProcStat, arch: string): ThreadCall[] {
	const tids = tree
		.list(`${tree.proc}/${pid}/task`)
		.map(Number)
		.filter((tid) => Number.isInteger(tid))
		.sort((a, b) => (a === pid ? -1 : b === pid ? 1 : a - b))
		.slice(0, MAX_THREADS);
	const threads: ThreadCall[] = [];
	for (const tid of tids.length > 0 ? tids : [pid]) {
		const base = tid === pid && tids.length === 0 ? `${tree.proc}/${pid}` : `${tree.proc}/${pid}/task/${tid}`;
		const state = tid === pid ? stat.state : tree.statOf(tid)?.state;
		const call = parseSyscallLine(tree.read(`${base}/syscall`) ?? '', arch);
		threads.push({...(state === undefined ? {} : {state}), running: call?.running ?? false, ...(call ?? {})});
	}
	return threads;
}

/**
 * Observe `tree` now ({@link ProcessWatch.observe}): while the spawned process runs, it and its
 * descendants; after its exit, the survivors (every process seen before, still the same one, and every
 * holder of a session pipe, with their children).
 */
export function observeTree(
	tree: ProcTree,
	reason: ProcessEvidence['reason'],
	options: {readonly rootAlive?: boolean; readonly openPipes?: readonly ('stdout' | 'stderr')[]},
	at: {readonly nowTMs: number; readonly arch: string},
): ProcessEvidence {
	const upMs = tree.uptimeMs();
	const rootAlive = options.rootAlive ?? tree.isRootAlive();
	if (rootAlive) tree.learnPipes();
	let pids: number[];
	if (rootAlive) pids = tree.tree();
	else {
		pids = [...new Set([...tree.alive(), ...tree.pipeHolders()])]
			.filter((pid) => pid !== tree.rootPid)
			.sort((a, b) => a - b);
		for (const pid of [...pids]) for (const child of tree.children(pid)) if (!pids.includes(child)) pids.push(child);
	}
	const processes: ProcessObservation[] = [];
	for (const pid of pids.slice(0, MAX_PROCESSES)) {
		const observation = describeProcess(tree, pid, {nowTMs: at.nowTMs, upMs, arch: at.arch});
		if (observation) processes.push(observation);
	}
	const same = processes.some((p) => (p.holds?.stdout ?? []).includes(1) && (p.holds?.stdout ?? []).includes(2));
	return {
		reason,
		...(options.openPipes && options.openPipes.length > 0 ? {openPipes: [...options.openPipes]} : {}),
		observed: true,
		...(tree.pipes.stdout === undefined ? {note: "the server's pipes could not be read from /proc"} : {}),
		rootPid: tree.rootPid,
		rootAlive,
		processes,
		...(same ? {sameStdoutStderr: true} : {}),
	};
}

/**
 * Send `signal` to what is left of the tree ({@link ProcessWatch.endAll}): its process group (`group`),
 * then on Linux every process seen (still the same), the live tree, and (unless `scan` is false) every
 * holder of a session pipe. Never our own pid, pid 1, or the spawned process unless `includeRoot`.
 * @param tree undefined off Linux (only the group is signalled)
 * @returns the pids signalled
 */
export function endTree(
	rootPid: number,
	tree: ProcTree | undefined,
	signal: 'SIGTERM' | 'SIGKILL',
	options: {readonly includeRoot?: boolean; readonly group?: boolean; readonly scan?: boolean; readonly self: number},
): number[] {
	const signalled: number[] = [];
	const send = (pid: number): void => {
		if (pid === options.self || pid <= 1) return;
		if (pid === rootPid && !options.includeRoot) return;
		try {
			process.kill(pid, signal);
			if (!signalled.includes(pid)) signalled.push(pid);
		} catch {
			// gone already, or not ours
		}
	};
	if (options.group) {
		try {
			process.kill(-rootPid, signal);
		} catch {
			// no such group (it never led one, or everyone in it is gone)
		}
	}
	if (tree) {
		const targets = new Set([
			...tree.alive(),
			...(tree.isRootAlive() ? tree.tree() : []),
			...(options.scan === false ? [] : tree.pipeHolders()),
		]);
		for (const pid of targets) send(pid);
	}
	return signalled;
}

/**
 * Start watching the tree of `rootPid`: reads its fds 0–2 now (call it right after the spawn).
 * On platforms other than Linux the watch observes nothing and ends nothing but the process group.
 */
export function watchProcessTree(rootPid: number, options: WatchOptions): ProcessWatch {
	const platform = options.platform ?? process.platform;
	const arch = options.arch ?? process.arch;
	const self = options.selfPid ?? process.pid;
	const tree = platform === 'linux' ? new ProcTree(options.procRoot ?? '/proc', rootPid, self) : undefined;
	tree?.learnPipes();
	const watch: ProcessWatch = {
		pipes: tree?.pipes ?? {},
		observe(reason, observeOptions = {}) {
			if (!tree)
				return {
					reason,
					...(observeOptions.openPipes && observeOptions.openPipes.length > 0
						? {openPipes: [...observeOptions.openPipes]}
						: {}),
					observed: false,
					note: `process evidence is read from Linux /proc; not on ${platform}`,
					rootPid,
					processes: [],
				};
			return observeTree(tree, reason, observeOptions, {nowTMs: options.now(), arch});
		},
		endAll: (signal, endOptions = {}) => endTree(rootPid, tree, signal, {...endOptions, self}),
		alive: () => tree?.alive() ?? [],
	};
	if (tree) {
		const stat = tree.statOf(rootPid);
		if (stat?.start !== undefined) tree.seen.set(rootPid, stat.start);
	}
	if (options.procRoot === undefined) watched.add(watch);
	return watch;
}

/** Every tree watched on the real /proc in this process, for {@link endWatchedTrees}. */
const watched = new Set<ProcessWatch>();

/**
 * Ends every process tree this process has watched, as a normal end does ({@link ProcessWatch.endAll}
 * with the spawned process itself): each one's process group, every descendant seen (still the same
 * process) and every holder of its pipes (a daemon that double-forked and called setsid). For an ending
 * signal (SIGINT, SIGTERM, SIGHUP): the server runs in a group of its own, so the signal does not reach
 * it. What a SIGKILL of mcp-wire leaves is in docs/cli.md#processes.
 * @returns the pids signalled.
 */
export function endWatchedTrees(signal: 'SIGTERM' | 'SIGKILL'): number[] {
	const signalled: number[] = [];
	for (const watch of watched) {
		for (const pid of watch.endAll(signal, {includeRoot: true, group: true})) signalled.push(pid);
	}

	return signalled;
}
