import type {Mark, ProcessActivity, ProcessEvidence, ProcessObservation} from '../../src/core/types.js';

/** A process of a server's tree as the probe would observe it; holds all three pipes on fds 0–2 by default. */
export function proc(
	pid: number,
	activity: ProcessActivity,
	more: Partial<ProcessObservation> = {},
): ProcessObservation {
	return {
		pid,
		ppid: 1,
		command: ['python3', 'server.py'],
		comm: 'python3',
		activity,
		startTMs: 0,
		holds: {stdin: [0], stdout: [1], stderr: [2]},
		...more,
	};
}

/** An observed evidence record of `processes` (the first is the root). */
export function evidence(
	reason: ProcessEvidence['reason'],
	processes: ProcessObservation[],
	more: Partial<ProcessEvidence> = {},
): ProcessEvidence {
	return {reason, observed: true, rootPid: processes[0]?.pid ?? 100, rootAlive: reason !== 'exit', processes, ...more};
}

/** An `evidence` mark at `tMs`. */
export function evidenceMark(tMs: number, observed: ProcessEvidence): Mark {
	return {type: 'evidence', evidence: observed, tMs};
}

/** A single-process server blocked reading its stdin (what a block-buffered Python server shows). */
export function readingStdin(tMs: number, reason: ProcessEvidence['reason'] = 'stall'): Mark {
	return evidenceMark(tMs, evidence(reason, [proc(100, 'reading-stdin', {syscall: {name: 'read', fd: 0}})]));
}
