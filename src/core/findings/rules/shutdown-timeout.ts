import type {Rule} from '../engine.js';
import {detailString, row, UNKNOWN} from '../support/meta.js';
import {ShutdownMarks} from '../support/shutdown.js';

/**
 * `shutdown-timeout` (R14): the process needed SIGTERM or SIGKILL after stdin closed: at the exit, the last
 * `signal-sent` mark names the signal (SIGKILL: an error, SIGTERM: a warning).
 */
export const shutdownTimeout: Rule = {
	code: 'shutdown-timeout',
	meta: {
		severity: 'warning',
		title: 'slow shutdown',
		message: (d) =>
			detailString(d, 'signal') === 'SIGKILL'
				? 'the process ignored stdin EOF and SIGTERM and had to be killed with SIGKILL'
				: 'the process did not exit within 2 s of stdin closing and needed SIGTERM',
		hint: () => 'Exit when a read on stdin returns EOF (the primary shutdown signal), and handle SIGTERM.',
		rules: ['R14'],
		consequenceOf: 'a server that is stuck (blocked on a write, a busy loop) does not see stdin close either',
		doc: {
			what: 'The server did not exit when stdin closed: it needed SIGTERM (a warning) or even SIGKILL (an error). Clients wait a few seconds and then kill it ([R14](docs/protocol.md#r14)).',
			recognised: 'The shutdown sequence timed: stdin closed, then no exit within 2 s, then the signal that ended it.',
			example: {
				steps: [
					{event: 'stdin-closed', tMs: 100},
					{event: 'SIGTERM', tMs: 2100},
					{exit: null, signal: 'SIGTERM', tMs: 2101},
				],
				note: 'No exit in the 2 s after stdin closed.',
			},
		},
		impact: row({
			'ts-sdk-v1': ['ok', 'killed after 2 s + 2 s (≥1.24.0)'],
			'ts-sdk-v2': ['ok', 'killed after 2 s + 2 s'],
			'python-sdk': ['ok', 'process group killed after 2 s + 2 s'],
			vscode: ['ok', 'killed after 10 s + 10 s'],
			rmcp: [
				'ok',
				'Codex 0.171 ends it when it shuts down: a server that ignores EOF and SIGTERM is gone (run here, docs/clients.md#codex)',
			],
			cursor: UNKNOWN,
		}),
	},
	create: ({report, facts}) => {
		const shutdown = new ShutdownMarks();
		return {
			onMark: (mark) => shutdown.mark(mark),
			onExit(info) {
				const signal = shutdown.lastSignal;
				if (signal === undefined) return;
				report({
					code: 'shutdown-timeout',
					stream: 'stdout',
					offset: facts.streamLength('stdout'),
					byteLength: 0,
					tMs: info.tMs,
					severity: signal === 'SIGKILL' ? 'error' : 'warning',
					detail: {
						signal,
						afterStdinClosedMs: facts.stdinClosedAt === undefined ? null : info.tMs - facts.stdinClosedAt,
					},
				});
			},
		};
	},
};
