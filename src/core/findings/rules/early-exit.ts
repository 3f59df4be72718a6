import type {Rule} from '../engine.js';
import {detailNumber, detailString, row} from '../support/meta.js';
import {ShutdownMarks} from '../support/shutdown.js';

/**
 * `early-exit` (R14): the process exited before the client closed stdin, unasked: no `signal-sent` mark and no
 * client signal the tap forwarded. Reported at the exit, on stdout at its byte count then, with the phase
 * (before the handshake or mid-session) and the last 10 stderr lines.
 */
export const earlyExit: Rule = {
	code: 'early-exit',
	meta: {
		severity: 'error',
		title: 'process exited early',
		message: (d) => {
			const how = detailString(d, 'signal')
				? `signal ${detailString(d, 'signal')}`
				: `code ${detailNumber(d, 'exitCode') ?? '?'}`;
			const tail = d.detail?.['stderrTail'];
			const last = Array.isArray(tail)
				? [...tail].reverse().find((line) => typeof line === 'string' && line.trim() !== '')
				: undefined;
			const said = typeof last === 'string' ? `; stderr ends: ${last.trim().slice(0, 160)}` : '';
			return `the process exited (${how}) ${detailString(d, 'phase') === 'before-handshake' ? 'before the handshake completed' : 'in the middle of the session'}${said}`;
		},
		hint: () =>
			'Read the stderr tail: the server crashed or printed usage. Check the command, its arguments and the environment the client passes.',
		rules: ['R14'],
		doc: {
			what: 'The process exited before the session was over: it crashed, printed its usage, or found a setting missing.',
			recognised:
				'An exit (code or signal) before the client closed stdin; `detail.phase` says before the handshake or mid-session, and the message quotes the last stderr line.',
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n', tMs: 0},
					{stream: 'stderr', bytes: "KeyError: 'API_KEY'\n", tMs: 40},
					{exit: 1, tMs: 41},
				],
			},
		},
		impact: row({
			'ts-sdk-v1': ['fatal', '`Server transport closed unexpectedly` / `Connection closed`'],
			'ts-sdk-v2': ['fatal', 'connection closed'],
			'python-sdk': ['fatal', 'the session ends'],
			vscode: ['fatal', 'server stopped'],
			rmcp: ['fatal', 'connection closed'],
			cursor: ['fatal', 'connection failed'],
		}),
	},
	errors: [
		{
			on: 'claude-code-failed-to-connect',
			rank: 0,
			likelihood: 'possible',
			why: 'It only says that spawning the server and answering `initialize` did not succeed; each of these faults causes it. Most often the process exits at once (a missing module, a wrong path, usage text).',
		},
		{
			on: 'cursor-client-closed',
			rank: 0,
			likelihood: 'likely',
			why: 'Cursor lost the server process: it exited (a crash, a missing module, usage text and exit) or closed stdout. Its stderr says why.',
		},
		{
			on: 'node-module-not-found',
			rank: 0,
			likelihood: 'likely',
			why: "Node could not load the server's entry file or one of its dependencies (a wrong path in the config's args, a missing `npm install` or build step), so the process exits before the handshake.",
		},
		{
			on: 'transport-closed',
			rank: 0,
			likelihood: 'likely',
			why: 'The server process exited (or closed stdout) while the client still needed it: read its stderr for the reason.',
		},
	],
	create: ({report, facts}) => {
		const shutdown = new ShutdownMarks();
		return {
			onMark: (mark) => shutdown.mark(mark),
			onExit(info) {
				const closedFirst = facts.stdinClosedAt !== undefined && facts.stdinClosedAt <= info.tMs;
				if (closedFirst || shutdown.lastSignal !== undefined || shutdown.clientSignalled) return;
				const stdoutBytes = facts.streamLength('stdout');
				report({
					code: 'early-exit',
					stream: 'stdout',
					offset: stdoutBytes,
					byteLength: 0,
					tMs: info.tMs,
					detail: {
						exitCode: info.code,
						signal: info.signal,
						phase: facts.handshakeDone ? 'mid-session' : 'before-handshake',
						stdoutBytes,
						stderrTail: facts.stderrTail(10),
					},
				});
			},
		};
	},
};
