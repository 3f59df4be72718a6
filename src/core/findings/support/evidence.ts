import type {ProcessEvidence, ProcessObservation} from '../../types.js';

/**
 * What a stalled server's process tree was doing, read from one {@link ProcessEvidence} (docs/json-records.md#mark): the
 * one fact every timing rule needs before it may name a cause.
 *
 * - `stdin-inherited`: a process started after the request holds the session's stdin pipe on its fd 0
 *   and reads it (or the process above it waits for it in `wait4`): the request went into the helper.
 * - `waiting-for-input`: every process that matters is blocked reading stdin or idle with no timer: only
 *   input can wake it, so a reply it already produced can only be sitting in a buffer.
 * - `busy` (a thread runs), `network` (connect / SYN_SENT), `timer` (sleeping, or an event loop with a
 *   timer pending), `waiting-child` (waits for a child started after the request), `writing` (blocked on
 *   a full stdout/stderr pipe): the server is still working on something; a late reply is just late.
 * - `exited`: nothing of the tree is alive. `not-observed`: no evidence could be read (another OS).
 * - `unknown`: processes were seen but what they wait on says none of the above.
 */
export type StallState =
	| 'stdin-inherited'
	| 'waiting-for-input'
	| 'busy'
	| 'network'
	| 'timer'
	| 'waiting-child'
	| 'writing'
	| 'exited'
	| 'not-observed'
	| 'unknown';

/** The verdict of {@link explainStall}, with the process that decided it. */
export interface StallExplanation {
	readonly state: StallState;
	/** The process that decided the state (the helper reading stdin, the busy one…), when one did. */
	readonly process?: ProcessObservation;
	/** For `stdin-inherited`: the helper's parent, when it is in the evidence. */
	readonly parent?: ProcessObservation;
}

/** The times {@link explainStall} judges against (ms since session start). */
export interface StallTimes {
	/** When the outstanding request was sent. */
	readonly requestTMs: number;
	/** When the server's first message arrived on stdout; undefined while it has said nothing. */
	readonly firstReplyTMs: number | undefined;
}

/** Grace for the 10 ms resolution of process start times (ms). */
const START_SLACK_MS = 20;

/** Order in which states that explain a delay win over each other (the first found decides). */
const WORKING: readonly (readonly [ProcessObservation['activity'], StallState])[] = [
	['busy', 'busy'],
	['network', 'network'],
	['writing', 'writing'],
	['timer', 'timer'],
];

/**
 * Read one observation of the server's tree for a request sent at `when.requestTMs`. Pure: the same
 * evidence gives the same answer, live or replayed.
 *
 * A process counts as "started for the request" only when it started after the request AND after the
 * server's first message (until the server has spoken, a late process is the real server behind a
 * wrapper). A wrapper (`sh -c`, `npx`, `uv run`) that waits in `wait4` for the real server, which it started before
 * the request, is not a cause: it is skipped and the server below it decides. A process that waits for a
 * child started after the request (a tool's helper) is `waiting-child`, or `stdin-inherited` when that
 * helper holds the stdin pipe on its fd 0.
 */
export function explainStall(evidence: ProcessEvidence, when: StallTimes): StallExplanation {
	if (!evidence.observed) return {state: 'not-observed'};
	const live = evidence.processes.filter((p) => p.activity !== 'zombie');
	if (live.length === 0) return {state: evidence.rootAlive === false ? 'exited' : 'unknown'};
	const byPid = new Map(live.map((p) => [p.pid, p]));
	// Before the server has said anything, a process started late is the real server behind a wrapper
	// (`npx`, `sh -c`, `uv run` start it after the client already sent initialize), not a helper.
	const newSince =
		when.firstReplyTMs === undefined ? Number.POSITIVE_INFINITY : Math.max(when.requestTMs, when.firstReplyTMs);
	const startedAfter = (p: ProcessObservation): boolean =>
		p.startTMs !== undefined && p.startTMs > newSince - START_SLACK_MS;
	const isRoot = (p: ProcessObservation): boolean => p.pid === evidence.rootPid;

	// A helper started for this request that holds and reads the server's stdin (F40).
	for (const p of live) {
		if (isRoot(p) || !startedAfter(p) || !(p.holds?.stdin ?? []).includes(0)) continue;
		const parent = p.ppid === undefined ? undefined : byPid.get(p.ppid);
		if (p.activity === 'reading-stdin' || parent?.activity === 'waiting-child') {
			return {state: 'stdin-inherited', process: p, ...(parent ? {parent} : {})};
		}
	}

	const children = new Map<number, ProcessObservation[]>();
	for (const p of live) {
		if (p.ppid === undefined || !byPid.has(p.ppid)) continue;
		const list = children.get(p.ppid) ?? [];
		list.push(p);
		children.set(p.ppid, list);
	}

	// Processes that matter: all but wrappers (waiting for, or idle over, children that started before the request).
	const considered: ProcessObservation[] = [];
	let waitsForNewChild: ProcessObservation | undefined;
	for (const p of live) {
		const kids = children.get(p.pid) ?? [];
		if (kids.length > 0 && (p.activity === 'waiting-child' || p.activity === 'idle')) {
			if (p.activity === 'waiting-child' && kids.some(startedAfter)) waitsForNewChild ??= p;
			continue;
		}
		considered.push(p);
	}

	for (const [activity, state] of WORKING) {
		const found = considered.find((p) => p.activity === activity);
		if (found) return {state, process: found};
	}

	if (waitsForNewChild) return {state: 'waiting-child', process: waitsForNewChild};
	const waiting = considered.find((p) => p.activity === 'waiting-child');
	if (waiting) return {state: 'waiting-child', process: waiting};
	if (considered.length > 0 && considered.every((p) => p.activity === 'reading-stdin' || p.activity === 'idle')) {
		return {
			state: 'waiting-for-input',
			process: considered.find((p) => p.activity === 'reading-stdin') ?? considered[0]!,
		};
	}

	return {state: 'unknown', ...(considered[0] ? {process: considered[0]} : {})};
}

/**
 * True when waiting longer for a reply cannot help (the probe stops early, docs/json-records.md#mark): every process
 * that matters is blocked in `read` on the stdin pipe (the pipe is then empty: everything sent was read),
 * none is idle with a timer, busy, or on the network. An event loop idle without a timer is NOT final
 * (another thread may be at work, a socket may answer).
 */
export function isWaitingForInputOnly(evidence: ProcessEvidence, when: StallTimes): boolean {
	const explained = explainStall(evidence, when);
	if (explained.state !== 'waiting-for-input') return false;
	const live = evidence.processes.filter((p) => p.activity !== 'zombie');
	const parents = new Set(live.map((p) => p.ppid));
	return live.every((p) => p.activity === 'reading-stdin' || (parents.has(p.pid) && p.activity === 'waiting-child'));
}

/** `pid 4242 (python3 server.py)`: a process named for a finding's message. */
export function describeProcess(p: ProcessObservation): string {
	const command = p.command && p.command.length > 0 ? p.command.join(' ') : p.comm;
	return `pid ${p.pid}${command ? ` (${command.length > 80 ? `${command.slice(0, 79)}…` : command})` : ''}`;
}

/** Words for an activity in a message: `blocked reading stdin`, `sleeping on a timer`… */
export const ACTIVITY_WORDS: Readonly<Record<ProcessObservation['activity'], string>> = {
	'reading-stdin': 'blocked reading stdin',
	idle: 'idle, waiting for input (no timer pending)',
	timer: 'sleeping on a timer',
	'waiting-child': 'waiting for a child process',
	busy: 'busy (running)',
	network: 'waiting on the network (connect)',
	reading: 'blocked reading another file or pipe',
	writing: 'blocked writing a full stdout/stderr pipe',
	zombie: 'exited (zombie)',
	stopped: 'stopped',
	unknown: 'in an unrecognised wait',
};

/** One line for a whole observation: `pid 10 (python3 s.py) blocked reading stdin; pid 11 (cat) …`. */
export function summarizeEvidence(evidence: ProcessEvidence): string {
	if (!evidence.observed) return `not observed${evidence.note ? ` (${evidence.note})` : ''}`;
	if (evidence.processes.length === 0)
		return evidence.rootAlive === false ? 'no process of the server is left' : 'no process seen';
	return evidence.processes.map((p) => `${describeProcess(p)} ${ACTIVITY_WORDS[p.activity]}`).join('; ');
}
