import {readFileSync, readdirSync, readlinkSync} from 'node:fs';

/**
 * What a silent server process is doing, read from Linux `/proc` (docs/findings.md `no-response`: tell
 * "blocked before its read loop" from buffering). Everything is best effort: a field is absent when
 * `/proc` does not say (another OS, a process that already exited, a hidden `wchan`).
 */
export interface ProcessState {
	readonly pid: number;
	/** Executable name from `/proc/<pid>/stat` (`comm`, at most 15 bytes), e.g. `node`, `python3`. */
	readonly comm?: string;
	/** State letter from `/proc/<pid>/stat` field 3: R running, S sleeping, D disk sleep, Z zombie, T stopped… */
	readonly state?: string;
	/** The state letter spelled out (`sleeping`, `uninterruptible (disk) sleep`, …). */
	readonly stateName?: string;
	/** Kernel function the process sleeps in (`/proc/<pid>/wchan`), e.g. `do_epoll_wait`, `pipe_read`; absent when hidden (`0`). */
	readonly wchan?: string;
	/**
	 * The blocking system call from `/proc/<pid>/syscall` (needs ptrace access to the process): its
	 * number, its name when known for this CPU (`read`, `connect`, `epoll_wait`…), and the fd when the
	 * call takes one first (`fd: 0` while reading stdin).
	 */
	readonly syscall?: {readonly number: number; readonly name?: string; readonly fd?: number};
	/** What the wait means for an MCP server, when the wait channel or syscall is a well-known one. */
	readonly waitingOn?: string;
	/** Number of sockets the process holds (from `/proc/<pid>/fd` links). */
	readonly sockets: number;
	/** TCP connections of this process still in SYN_SENT: the server is waiting for a network peer that does not answer. */
	readonly connecting: readonly TcpConnection[];
}

/** One TCP socket from `/proc/<pid>/net/tcp[6]`. */
export interface TcpConnection {
	/** Kernel socket inode (matches `socket:[inode]` in `/proc/<pid>/fd`). */
	readonly inode: number;
	/** `a.b.c.d:port` or `[v6]:port`. */
	readonly local: string;
	readonly remote: string;
	/** State name (`ESTABLISHED`, `SYN_SENT`, `LISTEN`, …). */
	readonly state: string;
}

/** What a silent server and its child processes (an `npx`, `uvx` or shell wrapper's real server) wait on. */
export interface ProcInfo {
	/** The server process first, then its descendants (depth first, at most 16). */
	readonly processes: readonly ProcessState[];
	/** One line for humans, e.g. `pid 4242 (node) sleeping in do_epoll_wait; 1 TCP connection still connecting to 10.0.0.1:5432`. */
	readonly summary: string;
}

export const STATE_NAMES: Readonly<Record<string, string>> = {
	R: 'running',
	S: 'sleeping',
	D: 'uninterruptible (disk) sleep',
	Z: 'zombie',
	T: 'stopped',
	t: 'stopped by a tracer',
	X: 'dead',
	I: 'idle',
	P: 'parked',
};

const TCP_STATES: Readonly<Record<string, string>> = {
	'01': 'ESTABLISHED',
	'02': 'SYN_SENT',
	'03': 'SYN_RECV',
	'04': 'FIN_WAIT1',
	'05': 'FIN_WAIT2',
	'06': 'TIME_WAIT',
	'07': 'CLOSE',
	'08': 'CLOSE_WAIT',
	'09': 'LAST_ACK',
	'0A': 'LISTEN',
	'0B': 'CLOSING',
	'0C': 'NEW_SYN_RECV',
};

/** Well-known kernel wait functions and what they mean for a stdio server that does not answer. */
const WCHAN_MEANING: readonly (readonly [RegExp, string])[] = [
	[
		/^(do_epoll_wait|ep_poll|do_select|do_sys_poll|core_sys_select)$/,
		'event loop idle, waiting for an event (a pending connection, timer or child)',
	],
	[
		/^(pipe_read|pipe_wait|pipe_wait_readable|anon_pipe_read)$/,
		'blocked reading a pipe (its stdin, or a child it spawned)',
	],
	[
		/^(pipe_write|pipe_wait_writable|anon_pipe_write)$/,
		'blocked writing a pipe (a full stdout/stderr pipe that nobody reads)',
	],
	[
		/^(inet_wait_for_connect|__inet_stream_connect|inet_stream_connect)$/,
		'blocked in connect(): a network peer is not answering',
	],
	[
		/^(wait_woken|sk_wait_data|tcp_recvmsg|tcp_recvmsg_locked|unix_stream_read_generic|__skb_wait_for_more_packets)$/,
		'blocked reading a socket (Node gives children socket pairs as stdio pipes, so this may be its stdin)',
	],
	[
		/^(futex_wait_queue|futex_wait_queue_me|futex_wait|futex_do_wait|__futex_wait)$/,
		'waiting on a lock or another thread (futex)',
	],
	[/^(hrtimer_nanosleep|do_nanosleep|schedule_hrtimeout_range_clock|schedule_hrtimeout_range)$/, 'sleeping on a timer'],
	[/^(do_wait|kernel_wait4)$/, 'waiting for a child process to exit'],
	[/^(n_tty_read|wait_for_completion)$/, 'blocked reading a terminal'],
];

/** Linux syscall numbers by CPU (x86_64: arch/x86/entry/syscalls/syscall_64.tbl; arm64: the generic table). */
export const SYSCALLS: Readonly<Record<string, Readonly<Record<number, string>>>> = {
	x64: {
		0: 'read',
		1: 'write',
		7: 'poll',
		17: 'pread64',
		19: 'readv',
		20: 'writev',
		23: 'select',
		34: 'pause',
		35: 'nanosleep',
		42: 'connect',
		43: 'accept',
		45: 'recvfrom',
		47: 'recvmsg',
		61: 'wait4',
		128: 'rt_sigtimedwait',
		130: 'rt_sigsuspend',
		202: 'futex',
		230: 'clock_nanosleep',
		232: 'epoll_wait',
		247: 'waitid',
		270: 'pselect6',
		271: 'ppoll',
		281: 'epoll_pwait',
		288: 'accept4',
		441: 'epoll_pwait2',
		449: 'futex_waitv',
	},
	arm64: {
		22: 'epoll_pwait',
		63: 'read',
		64: 'write',
		65: 'readv',
		66: 'writev',
		67: 'pread64',
		72: 'pselect6',
		73: 'ppoll',
		95: 'waitid',
		98: 'futex',
		101: 'nanosleep',
		115: 'clock_nanosleep',
		133: 'rt_sigsuspend',
		137: 'rt_sigtimedwait',
		202: 'accept',
		203: 'connect',
		207: 'recvfrom',
		212: 'recvmsg',
		242: 'accept4',
		260: 'wait4',
		441: 'epoll_pwait2',
		449: 'futex_waitv',
	},
};
/** Syscalls whose first argument is a file descriptor. */
const FD_SYSCALLS = new Set([
	'read',
	'write',
	'pread64',
	'readv',
	'writev',
	'connect',
	'accept',
	'accept4',
	'recvfrom',
	'recvmsg',
	'epoll_wait',
	'epoll_pwait',
	'epoll_pwait2',
]);
const READ_SYSCALLS = new Set(['read', 'pread64', 'readv', 'recvfrom', 'recvmsg']);

/**
 * Parse `/proc/<pid>/syscall`: `nr arg0 … arg5 sp pc` (hex args), `running`, or `-1 sp pc` (not in a call).
 * @param arch `process.arch` (`x64`, `arm64`; names are left out for other CPUs)
 * @returns the call, or undefined when the process is running or not in a system call
 */
export function parseSyscall(text: string, arch: string = process.arch): ProcessState['syscall'] {
	const words = text.trim().split(/\s+/);
	const number = Number(words[0]);
	if (!Number.isInteger(number) || number < 0) return undefined;
	const name = SYSCALLS[arch]?.[number];
	const arg0 = words[1] === undefined ? Number.NaN : Number.parseInt(words[1], 16);
	const fd = name !== undefined && FD_SYSCALLS.has(name) && Number.isInteger(arg0) ? arg0 : undefined;
	return {number, ...(name === undefined ? {} : {name}), ...(fd === undefined ? {} : {fd})};
}

/** What a syscall says, when it says more than the wait channel (reading stdin, writing stdout/stderr, connecting). */
function syscallMeaning(call: NonNullable<ProcessState['syscall']>): string | undefined {
	if (call.name === undefined) return undefined;
	if (READ_SYSCALLS.has(call.name) && call.fd === 0) return 'blocked reading its stdin (fd 0): it waits for more input';
	if ((call.name === 'write' || call.name === 'writev') && (call.fd === 1 || call.fd === 2)) {
		return `blocked writing ${call.fd === 1 ? 'stdout' : 'stderr'} (fd ${call.fd}): the pipe is full`;
	}
	if (call.name === 'connect') return 'blocked in connect(): a network peer is not answering';
	return undefined;
}

/**
 * Read what a process and its descendants are blocked on (Linux only; docs/findings.md `no-response`).
 * Call it BEFORE closing the server's stdin: afterwards the server may be somewhere else.
 *
 * @param pid the server's process id
 * @param platform `process.platform` (anything but `linux` returns undefined)
 * @returns the states, or undefined when `/proc/<pid>` cannot be read. Never throws.
 */
export function readProcInfo(pid: number, platform: NodeJS.Platform = process.platform): ProcInfo | undefined {
	if (platform !== 'linux') return undefined;
	try {
		const root = readProcessState(pid);
		if (!root) return undefined;
		const processes: ProcessState[] = [root];
		const queue = childPids(pid);
		const seen = new Set<number>([pid]);
		while (queue.length > 0 && processes.length < 16) {
			const child = queue.shift()!;
			if (seen.has(child)) continue;
			seen.add(child);
			const state = readProcessState(child);
			if (!state) continue;
			processes.push(state);
			queue.unshift(...childPids(child));
		}
		return {processes, summary: summarizeProcInfo(processes)};
	} catch {
		return undefined;
	}
}

/** Read one process; undefined if it is gone. Never throws. */
function readProcessState(pid: number): ProcessState | undefined {
	const stat = readText(`/proc/${pid}/stat`);
	if (stat === undefined) return undefined;
	const parsed = parseStat(stat);
	const wchanRaw = readText(`/proc/${pid}/wchan`)?.trim();
	const wchan = wchanRaw && wchanRaw !== '0' ? wchanRaw : undefined;
	const inodes = socketInodes(pid);
	let connecting: TcpConnection[] = [];
	if (inodes.size > 0) {
		const table = [
			...parseNetTcp(readText(`/proc/${pid}/net/tcp`) ?? ''),
			...parseNetTcp(readText(`/proc/${pid}/net/tcp6`) ?? ''),
		];
		connecting = table.filter((c) => c.state === 'SYN_SENT' && inodes.has(c.inode));
	}
	const syscallText = readText(`/proc/${pid}/syscall`);
	const syscall = syscallText === undefined ? undefined : parseSyscall(syscallText);
	const waitingOn =
		(syscall === undefined ? undefined : syscallMeaning(syscall)) ??
		(wchan === undefined ? undefined : WCHAN_MEANING.find(([re]) => re.test(wchan))?.[1]);
	return {
		pid,
		...(parsed.comm === undefined ? {} : {comm: parsed.comm}),
		...(parsed.state === undefined ? {} : {state: parsed.state, stateName: STATE_NAMES[parsed.state] ?? parsed.state}),
		...(wchan === undefined ? {} : {wchan}),
		...(syscall === undefined ? {} : {syscall}),
		...(waitingOn === undefined ? {} : {waitingOn}),
		sockets: inodes.size,
		connecting,
	};
}

/**
 * Parse `/proc/<pid>/stat`: `pid (comm) state ppid …`. The comm may contain spaces and parentheses, so it
 * runs to the LAST `)`.
 * @returns `{comm, state}`, each absent when the text does not have that shape
 */
export function parseStat(text: string): {comm?: string; state?: string} {
	const open = text.indexOf('(');
	const close = text.lastIndexOf(')');
	if (open === -1 || close < open) return {};
	const comm = text.slice(open + 1, close);
	const state = text
		.slice(close + 1)
		.trim()
		.split(/\s+/)[0];
	return {comm, ...(state ? {state} : {})};
}

/**
 * Parse `/proc/net/tcp` or `/proc/net/tcp6` text (header line, then one socket per line:
 * `sl local rem st tx:rx tr:when retrnsmt uid timeout inode …`, addresses as little-endian 32-bit hex
 * words and a big-endian hex port).
 * @returns every socket line that parses; malformed lines are skipped. Never throws.
 */
export function parseNetTcp(text: string): TcpConnection[] {
	const out: TcpConnection[] = [];
	for (const line of text.split('\n').slice(1)) {
		const cols = line.trim().split(/\s+/);
		if (cols.length < 10) continue;
		const local = decodeAddress(cols[1]!);
		const remote = decodeAddress(cols[2]!);
		const inode = Number(cols[9]);
		if (local === undefined || remote === undefined || !Number.isInteger(inode)) continue;
		const st = cols[3]!.toUpperCase();
		out.push({inode, local, remote, state: TCP_STATES[st] ?? st});
	}
	return out;
}

/** `0100007F:B657` → `127.0.0.1:46679`; 32-hex-digit IPv6 → `[::1]:port`. */
function decodeAddress(field: string): string | undefined {
	const [hex, portHex] = field.split(':');
	if (hex === undefined || portHex === undefined || !/^[0-9A-Fa-f]+$/.test(hex + portHex)) return undefined;
	const port = Number.parseInt(portHex, 16);
	if (hex.length === 8) {
		const bytes = littleEndianWord(hex);
		return `${bytes.join('.')}:${port}`;
	}
	if (hex.length === 32) {
		const bytes: number[] = [];
		for (let i = 0; i < 32; i += 8) bytes.push(...littleEndianWord(hex.slice(i, i + 8)));
		if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
			return `${bytes.slice(12).join('.')}:${port}`;
		}
		const groups: string[] = [];
		for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
		return `[${compressV6(groups)}]:${port}`;
	}
	return undefined;
}

function littleEndianWord(hex8: string): number[] {
	const value = Number.parseInt(hex8, 16);
	return [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];
}

/** Shorten the longest run of zero groups to `::` (RFC 5952). */
function compressV6(groups: readonly string[]): string {
	let bestStart = -1;
	let bestLen = 0;
	for (let i = 0; i < groups.length;) {
		if (groups[i] !== '0') {
			i++;
			continue;
		}
		let j = i;
		while (j < groups.length && groups[j] === '0') j++;
		if (j - i > bestLen && j - i > 1) {
			bestStart = i;
			bestLen = j - i;
		}
		i = j;
	}
	if (bestStart === -1) return groups.join(':');
	return `${groups.slice(0, bestStart).join(':')}::${groups.slice(bestStart + bestLen).join(':')}`;
}

/** Socket inodes from `/proc/<pid>/fd/*` links of the form `socket:[12345]`. */
function socketInodes(pid: number): Set<number> {
	const inodes = new Set<number>();
	let fds: string[];
	try {
		fds = readdirSync(`/proc/${pid}/fd`);
	} catch {
		return inodes;
	}
	for (const fd of fds) {
		try {
			const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
			if (match) inodes.add(Number(match[1]));
		} catch {
			// fd closed meanwhile
		}
	}
	return inodes;
}

/** Children of every thread of `pid` (`/proc/<pid>/task/<tid>/children`, CONFIG_PROC_CHILDREN). */
function childPids(pid: number): number[] {
	const out: number[] = [];
	let tasks: string[];
	try {
		tasks = readdirSync(`/proc/${pid}/task`);
	} catch {
		return out;
	}
	for (const tid of tasks) {
		const text = readText(`/proc/${pid}/task/${tid}/children`);
		if (!text) continue;
		for (const word of text.trim().split(/\s+/)) {
			const child = Number(word);
			if (Number.isInteger(child) && child > 0 && !out.includes(child)) out.push(child);
		}
	}
	return out;
}

function readText(file: string): string | undefined {
	try {
		return readFileSync(file, 'latin1');
	} catch {
		return undefined;
	}
}

/**
 * One line describing the processes, for the `no-response` detail and logs.
 * @example `pid 4242 (node) sleeping in do_epoll_wait: event loop idle…; 3 TCP connections still connecting (SYN_SENT) to 127.0.0.1:5432`
 */
export function summarizeProcInfo(processes: readonly ProcessState[]): string {
	return processes
		.map((p) => {
			const parts = [`pid ${p.pid}${p.comm === undefined ? '' : ` (${p.comm})`}`];
			if (p.stateName !== undefined) parts.push(p.stateName);
			if (p.wchan !== undefined) parts.push(`in ${p.wchan}${p.waitingOn === undefined ? '' : `: ${p.waitingOn}`}`);
			let line = parts.join(' ');
			if (p.connecting.length > 0) {
				const remotes = [...new Set(p.connecting.map((c) => c.remote))];
				const n = p.connecting.length;
				line += `; ${n} TCP connection${n === 1 ? '' : 's'} still connecting (SYN_SENT) to ${remotes.join(', ')}`;
			}
			return line;
		})
		.join(' | ');
}
