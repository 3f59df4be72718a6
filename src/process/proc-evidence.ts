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

/**
 * Start watching the tree of `rootPid`: reads its fds 0–2 now (call it right after the spawn).
 * On platforms other than Linux the watch observes nothing and ends nothing but the process group.
 */
export function watchProcessTree(rootPid: number, options: WatchOptions): ProcessWatch {
	const platform = options.platform ?? process.platform;
	const arch = options.arch ?? process.arch;
	const proc = options.procRoot ?? '/proc';
	const self = options.selfPid ?? process.pid;
	const isLinux = platform === 'linux';
	const read = (file: string): string | undefined => readWhole(file);
	const link = (file: string): string | undefined => {
		try {
			return readlinkSync(file);
		} catch {
			return undefined;
		}
	};
	const list = (dir: string): string[] => {
		try {
			return readdirSync(dir);
		} catch {
			return [];
		}
	};

	const pipes: {stdin?: string; stdout?: string; stderr?: string} = {};
	// Read at once, and again for any still missing at the first observation (right after the spawn the
	// child may still be setting up its fds).
	const learnPipes = (): void => {
		if (!isLinux) return;
		const names = ['stdin', 'stdout', 'stderr'] as const;
		for (const [fd, name] of names.entries()) {
			if (pipes[name] !== undefined) continue;
			const target = link(`${proc}/${rootPid}/fd/${fd}`);
			if (target !== undefined && /^(pipe|socket):\[\d+\]$/.test(target) && !Object.values(pipes).includes(target))
				pipes[name] = target;
		}
	};
	learnPipes();
	/** pid → start time in ticks (identity: a reused pid has another start time). */
	const seen = new Map<number, number>();

	const statOf = (pid: number): {comm?: string; state?: string; ppid?: number; start?: number} | undefined => {
		const text = read(`${proc}/${pid}/stat`);
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
	};
	const isSame = (pid: number, start: number | undefined): boolean => {
		const now = statOf(pid);
		return now !== undefined && now.state !== 'Z' && now.state !== 'X' && (start === undefined || now.start === start);
	};
	const children = (pid: number): number[] => {
		const out: number[] = [];
		for (const tid of list(`${proc}/${pid}/task`)) {
			for (const word of (read(`${proc}/${pid}/task/${tid}/children`) ?? '').trim().split(/\s+/)) {
				const child = Number(word);
				if (Number.isInteger(child) && child > 0 && !out.includes(child)) out.push(child);
			}
		}
		return out;
	};
	const holdingsOf = (pid: number): {holds?: PipeHolding; sockets: Set<number>} => {
		const holds: {stdin?: number[]; stdout?: number[]; stderr?: number[]} = {};
		const sockets = new Set<number>();
		for (const name of list(`${proc}/${pid}/fd`)) {
			const target = link(`${proc}/${pid}/fd/${name}`);
			if (target === undefined) continue;
			const fd = Number(name);
			let isSessionPipe = false;
			for (const stream of ['stdin', 'stdout', 'stderr'] as const) {
				if (pipes[stream] !== undefined && target === pipes[stream]) {
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
	};
	const uptimeMs = (): number | undefined => {
		const text = read(`${proc}/uptime`);
		const seconds = text === undefined ? Number.NaN : Number(text.trim().split(/\s+/)[0]);
		return Number.isFinite(seconds) ? seconds * 1000 : undefined;
	};

	const describe = (pid: number, nowTMs: number, upMs: number | undefined): ProcessObservation | undefined => {
		const stat = statOf(pid);
		if (stat === undefined) return undefined;
		if (stat.start !== undefined && !seen.has(pid)) seen.set(pid, stat.start);
		const cmdline = read(`${proc}/${pid}/cmdline`);
		const command =
			cmdline === undefined || cmdline === ''
				? undefined
				: cmdline
						.replace(/\0$/, '')
						.split('\0')
						.slice(0, 8)
						.map((word) => (word.length > 200 ? `${word.slice(0, 199)}…` : word));
		const {holds, sockets} = holdingsOf(pid);
		let connecting: string[] = [];
		if (sockets.size > 0) {
			const table = [
				...parseNetTcp(read(`${proc}/${pid}/net/tcp`) ?? ''),
				...parseNetTcp(read(`${proc}/${pid}/net/tcp6`) ?? ''),
			];
			connecting = table.filter((c) => c.state === 'SYN_SENT' && sockets.has(c.inode)).map((c) => c.remote);
		}
		const tids = list(`${proc}/${pid}/task`)
			.map(Number)
			.filter((tid) => Number.isInteger(tid))
			.sort((a, b) => (a === pid ? -1 : b === pid ? 1 : a - b))
			.slice(0, MAX_THREADS);
		const threads: ThreadCall[] = [];
		for (const tid of tids.length > 0 ? tids : [pid]) {
			const base = tid === pid && tids.length === 0 ? `${proc}/${pid}` : `${proc}/${pid}/task/${tid}`;
			const state = tid === pid ? stat.state : statOf(tid)?.state;
			const call = parseSyscallLine(read(`${base}/syscall`) ?? '', arch);
			threads.push({...(state === undefined ? {} : {state}), running: call?.running ?? false, ...(call ?? {})});
		}
		const main = threads[0];
		const wchanRaw = read(`${proc}/${pid}/wchan`)?.trim();
		const wchan = wchanRaw && wchanRaw !== '0' ? wchanRaw : undefined;
		const startTMs =
			stat.start === undefined || upMs === undefined
				? undefined
				: Math.round(nowTMs - (upMs - (stat.start * 1000) / CLOCK_TICKS));
		const syscall =
			main?.name === undefined
				? undefined
				: {
						name: main.name,
						...(main.fd === undefined ? {} : {fd: main.fd}),
						...(main.timeoutMs === undefined ? {} : {timeoutMs: main.timeoutMs}),
					};
		return {
			pid,
			...(stat.ppid === undefined ? {} : {ppid: stat.ppid}),
			...(command ? {command} : {}),
			...(stat.comm === undefined ? {} : {comm: stat.comm}),
			...(stat.state === undefined ? {} : {state: stat.state}),
			...(wchan === undefined ? {} : {wchan}),
			...(syscall ? {syscall} : {}),
			activity: activityOf(threads, holds, connecting.length),
			threads: list(`${proc}/${pid}/task`).length || 1,
			...(startTMs === undefined ? {} : {startTMs}),
			...(holds ? {holds} : {}),
			...(connecting.length > 0 ? {connecting} : {}),
		};
	};

	/**
	 * Every pid of our uid that holds one of the session's pipes (a /proc scan: only after the exit). A
	 * holder got the pipe from the server's tree (fds are inherited), so it started no earlier than the
	 * server: one read of each process's `stat` skips the rest of the system, whose fd tables (hundreds
	 * of links on a desktop) are never listed.
	 */
	const pipeHolders = (): number[] => {
		const wanted = new Set(Object.values(pipes));
		if (wanted.size === 0) return [];
		const rootStart = seen.get(rootPid);
		const out: number[] = [];
		for (const name of list(proc)) {
			const pid = Number(name);
			if (!Number.isInteger(pid) || pid <= 0 || pid === self) continue;
			if (rootStart !== undefined) {
				const start = statOf(pid)?.start;
				if (start === undefined || start < rootStart) continue;
			}
			for (const fd of list(`${proc}/${pid}/fd`)) {
				const target = link(`${proc}/${pid}/fd/${fd}`);
				if (target !== undefined && wanted.has(target)) {
					out.push(pid);
					break;
				}
			}
		}
		return out;
	};

	const tree = (): number[] => {
		const out: number[] = [];
		const queue = [rootPid];
		while (queue.length > 0 && out.length < MAX_PROCESSES) {
			const pid = queue.shift()!;
			if (out.includes(pid) || pid === self) continue;
			out.push(pid);
			queue.unshift(...children(pid));
		}
		return out;
	};

	const alive = (): number[] =>
		[...seen].filter(([pid, start]) => pid !== self && isSame(pid, start)).map(([pid]) => pid);

	const watch: ProcessWatch = {
		pipes,
		observe(reason, observeOptions = {}) {
			const base = {
				reason,
				...(observeOptions.openPipes && observeOptions.openPipes.length > 0
					? {openPipes: [...observeOptions.openPipes]}
					: {}),
			};
			if (!isLinux)
				return {
					...base,
					observed: false,
					note: `process evidence is read from Linux /proc; not on ${platform}`,
					rootPid,
					processes: [],
				};
			const nowTMs = options.now();
			const upMs = uptimeMs();
			const rootAlive = observeOptions.rootAlive ?? isSame(rootPid, seen.get(rootPid));
			if (rootAlive) learnPipes();
			let pids: number[];
			if (rootAlive) pids = tree();
			else {
				// After the exit: every process seen before (still the same one) and every holder of a pipe.
				pids = [...new Set([...alive(), ...pipeHolders()])].filter((pid) => pid !== rootPid).sort((a, b) => a - b);
				for (const pid of [...pids]) for (const child of children(pid)) if (!pids.includes(child)) pids.push(child);
			}
			const processes: ProcessObservation[] = [];
			for (const pid of pids.slice(0, MAX_PROCESSES)) {
				const observation = describe(pid, nowTMs, upMs);
				if (observation) processes.push(observation);
			}
			const same = processes.some((p) => (p.holds?.stdout ?? []).includes(1) && (p.holds?.stdout ?? []).includes(2));
			return {
				...base,
				observed: true,
				...(pipes.stdout === undefined ? {note: "the server's pipes could not be read from /proc"} : {}),
				rootPid,
				rootAlive,
				processes,
				...(same ? {sameStdoutStderr: true} : {}),
			};
		},
		endAll(signal, endOptions = {}) {
			const signalled: number[] = [];
			const send = (pid: number): void => {
				if (pid === self || pid <= 1) return;
				if (pid === rootPid && !endOptions.includeRoot) return;
				try {
					process.kill(pid, signal);
					if (!signalled.includes(pid)) signalled.push(pid);
				} catch {
					// gone already, or not ours
				}
			};
			if (endOptions.group) {
				try {
					process.kill(-rootPid, signal);
				} catch {
					// no such group (it never led one, or everyone in it is gone)
				}
			}
			if (isLinux) {
				const targets = new Set([
					...alive(),
					...(isSame(rootPid, seen.get(rootPid)) ? tree() : []),
					...(endOptions.scan === false ? [] : pipeHolders()),
				]);
				for (const pid of targets) send(pid);
			}
			return signalled;
		},
		alive,
	};
	if (isLinux) {
		const stat = statOf(rootPid);
		if (stat?.start !== undefined) seen.set(rootPid, stat.start);
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
