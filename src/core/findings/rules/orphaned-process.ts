import type {ProcessObservation} from '../../types.js';
import {describeProcess} from '../support/evidence.js';
import {row, UNKNOWN} from '../support/meta.js';
import type {Rule} from '../engine.js';

/** One survivor as `detail.processes` lists it. */
interface Survivor {
	readonly pid: number;
	readonly command: string;
	/** The session pipes it still holds: `stdout`, `stderr`, `stdin`. */
	readonly holds: readonly string[];
}

function survivor(p: ProcessObservation): Survivor {
	const holds = (['stdin', 'stdout', 'stderr'] as const).filter((name) => (p.holds?.[name] ?? []).length > 0);
	return {pid: p.pid, command: describeProcess(p), holds};
}

/**
 * `orphaned-process`: a process the session started outlives it (R14; field case F41): after the spawned
 * process exited (or was killed), a descendant is still alive, often still holding stdout/stderr. Each
 * session leaks one.
 *
 * Recognised on the evidence taken after the exit: every process still alive that was seen in the tree
 * or still holds one of the session's pipes; where `/proc` cannot be read, stdout/stderr still open
 * after the exit (`openPipes`). One finding, on stdout at the byte count of the exit; `detail`:
 * `{processes: [{pid, command, holds}], count}` or `{openPipes, observed: false}`.
 */
export const orphanedProcess: Rule = {
	code: 'orphaned-process',
	meta: {
		severity: 'error',
		title: 'a process outlives the session',
		message: (d) => {
			const list = d.detail?.['processes'];
			if (Array.isArray(list) && list.length > 0) {
				const named = (list as Survivor[])
					.slice(0, 3)
					.map((p) => `${p.command}${p.holds.length > 0 ? `, holding ${p.holds.join(' and ')},` : ''}`);
				const more = list.length > 3 ? ` and ${list.length - 3} more` : '';
				return `after the server process exited, ${named.join('; ')}${more} ${list.length === 1 ? 'is' : 'are'} still alive: every session leaves ${list.length === 1 ? 'it' : 'them'} behind`;
			}
			const open = d.detail?.['openPipes'];
			return `after the server process exited, ${Array.isArray(open) ? open.join(' and ') : 'its output'} stayed open: a child process still holds ${Array.isArray(open) && open.length > 1 ? 'them' : 'it'} (which one was not observed)`;
		},
		hint: () =>
			"Exit the whole tree when stdin reaches EOF: in wrappers use `exec` so the server itself gets the signals; end child processes on shutdown (Node `process.on('exit')`, Python `atexit`), and do not let a timer or an open handle keep a process alive after stdin closed.",
		rules: ['R14'],
		doc: {
			what: 'A process the session started outlives it: after the spawned process exited (or was killed), a descendant is still alive, usually still holding stdout/stderr. Wrappers (`npx` → `sh -c` → `node`) that pass SIGTERM to no one, and servers whose timers keep them alive after stdin EOF, leak one process per session.',
			recognised:
				"After the exit, every process still alive that was seen in the server's tree or still holds one of the session's pipes (Linux `/proc`): `detail.processes` names its pid, command and the pipes it holds. Elsewhere: stdout/stderr still open after the exit (`detail.openPipes`). The probe then ends what is left (SIGTERM, then SIGKILL: `reaped` marks); the tap reports and leaves the client's shutdown alone.",
			example: {
				steps: [
					{stream: 'stdout', bytes: '{"jsonrpc":"2.0","id":1,"result":{}}\n', tMs: 10},
					{event: 'stdin-closed', tMs: 100},
					{event: 'SIGTERM', tMs: 2100},
					{exit: null, signal: 'SIGTERM', tMs: 2101},
				],
				note: 'The wrapper died on SIGTERM; the node server under it still holds stdout.',
				live: true,
			},
		},
		impact: row({
			'ts-sdk-v1': [
				'ok',
				'the session works; the leftover process keeps running (SIGTERM goes to the spawned process only)',
			],
			'ts-sdk-v2': ['ok', 'works; the process is left behind'],
			'python-sdk': ['ok', 'works; the process is left behind'],
			vscode: UNKNOWN,
			rmcp: [
				'ok',
				'works; Codex 0.171 ends the whole process group, so a worker that ignores SIGTERM is gone too (run here, docs/clients.md#codex)',
			],
			cursor: UNKNOWN,
		}),
	},
	create({report, facts}) {
		let done = false;
		return {
			onEvidence(evidence, tMs) {
				if (done || evidence.reason !== 'exit' || evidence.rootAlive === true) return;
				const left = evidence.processes.filter((p) => p.activity !== 'zombie' && p.pid !== evidence.rootPid);
				const base = {
					code: 'orphaned-process' as const,
					stream: 'stdout' as const,
					offset: facts.streamLength('stdout'),
					byteLength: 0,
					tMs,
				};
				if (left.length > 0) {
					done = true;
					report({...base, detail: {processes: left.map(survivor), count: left.length}});
				} else if (!evidence.observed && (evidence.openPipes ?? []).length > 0) {
					done = true;
					report({...base, detail: {openPipes: [...evidence.openPipes!], observed: false}});
				}
			},
		};
	},
};
