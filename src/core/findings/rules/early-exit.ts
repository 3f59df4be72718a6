import type {Rule} from '../engine.js';
import {detailNumber, detailString, row, withEnvAdvice, envStrippedDetail} from '../support/meta.js';
import {ShutdownMarks} from '../support/shutdown.js';
import {cutWriteOf, drainFix, isCleanExit, type CutWrite} from '../support/exit-before-drain.js';
import type {FindingDraft} from '../../types.js';

/**
 * `early-exit` (R14): the process exited before the client closed stdin, unasked: no `signal-sent` mark and no
 * client signal the tap forwarded. Reported at the exit, on stdout at its byte count then, with the phase
 * (before the handshake or mid-session) and the last 10 stderr lines. A clean exit (code 0) after stdout ended
 * in a large cut JSON value is an exit before stdout drained (`support/exit-before-drain.ts`, O4):
 * `detail.cutWriteBytes`, and the fix says how to exit after the write. Otherwise a fix names a cause only
 * when stderr shows one; with an empty stderr it lists the likely causes. A stderr whose JSON parser found a second
 * value at position N, where a stdin message starts N bytes after an earlier one, is a server that parses each read
 * of stdin as one message: `detail.readTogether` (`{offset, position}`), and the fix is to read lines.
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
			const when =
				detailString(d, 'phase') === 'before-handshake'
					? 'before the handshake completed'
					: 'in the middle of the session';
			const cut = detailNumber(d, 'cutWriteBytes');
			if (cut !== undefined)
				return `the process exited (${how}) ${when}, with a message still being written: stdout ends in a JSON value cut after ${cut.toLocaleString('en-US')} bytes, so it exited before stdout drained`;
			const last = lastStderrLine(d);
			const said = last === undefined ? '; stderr is empty' : `; stderr ends: ${last.trim().slice(0, 160)}`;
			return `the process exited (${how}) ${when}${said}`;
		},
		hint: (d) => {
			if (detailNumber(d, 'cutWriteBytes') !== undefined) return drainFix(detailString(d, 'runtime'));
			const together = d.detail?.['readTogether'] as {offset: number; position: number} | undefined;
			if (together !== undefined) return readTogetherHint(together);
			// A stripped variable (C3) comes first only when stderr or the process points at the network.
			return withEnvAdvice(d, exitHint(d));
		},
		rules: ['R14'],
		doc: {
			what: 'The process exited before the session was over: it crashed, printed its usage, or found a setting missing.',
			recognised:
				'An exit (code or signal) before the client closed stdin; `detail.phase` says before the handshake or mid-session, and the message quotes the last stderr line. When stdout ends in a JSON value cut after at least 65,536 bytes and the exit is code 0 with no signal, the process exited before stdout drained ([O4](docs/protocol.md#o4)): `detail.cutWriteBytes` and a fix for that; with an empty stderr the fix lists the likely causes instead of pointing at it. When stderr shows a JSON parser that found a second value at position N, and a stdin message starts N bytes after an earlier one, the server parsed one read of stdin as one message ([R1](docs/protocol.md#r1): a pipe carries bytes): `detail.readTogether` and a fix to read lines.',
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
	clientTexts: [
		{text: 'claude-code/tools-fetch-failed', rank: 0},
		{text: 'codex/failed-to-start', rank: 0},
		{text: 'cursor/client-closed', rank: 0},
		{text: 'gemini-cli/error-connecting', rank: 3},
		{text: 'gemini-cli/disconnected', rank: 3},
		{text: 'vscode/process-exited', rank: 0},
	],
	create: ({report, facts}) => {
		const shutdown = new ShutdownMarks();
		/** stdout's last frame when the stream ended in a large cut JSON value (support/exit-before-drain.ts). */
		let cutWrite: CutWrite | undefined;
		/** Stream offsets where the last stdin frames start (a read that took several begins at one of them). */
		const stdinStarts: number[] = [];
		return {
			onMark: (mark) => shutdown.mark(mark),
			onFrameFacts(frame, frameFacts) {
				if (frame.stream === 'stdout') cutWrite = cutWriteOf(frame, frameFacts);
				else if (frame.stream === 'stdin') {
					stdinStarts.push(frame.offset);
					if (stdinStarts.length > STDIN_STARTS_KEPT) stdinStarts.shift();
				}
			},
			onExit(info) {
				const closedFirst = facts.stdinClosedAt !== undefined && facts.stdinClosedAt <= info.tMs;
				if (closedFirst || shutdown.lastSignal !== undefined || shutdown.clientSignalled) return;
				const stdoutBytes = facts.streamLength('stdout');
				const stderrTail = facts.stderrTail(10);
				const together = readTogether(stderrTail, stdinStarts);
				const cut =
					cutWrite && isCleanExit(info)
						? {cutWriteBytes: cutWrite.bytes, ...(facts.runtime === undefined ? {} : {runtime: facts.runtime})}
						: {};
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
						stderrTail,
						...((info.code === 0 && !info.signal) || together ? {} : envStrippedDetail(facts.meta)),
						...(together ? {readTogether: together} : {}),
						...cut,
					},
				});
			},
		};
	},
};

/** How many stdin frame starts early-exit keeps to match a parser's position against. */
const STDIN_STARTS_KEPT = 16;

/**
 * A JSON parser's error for data after a complete value, with the position where that data starts: Python
 * `json` (`Extra data: line 2 column 1 (char 55)`), V8 (`Unexpected non-whitespace character after JSON at
 * position 55`; before Node 20 `Unexpected token { in JSON at position 55`).
 */
const AFTER_VALUE = [
	/Extra data: line \d+ column \d+ \(char (\d+)\)/,
	/Unexpected non-whitespace character after JSON at position (\d+)/,
	/Unexpected token \{ in JSON at position (\d+)/,
];

/**
 * Evidence that the server parsed one read of stdin as one message (R1: a pipe carries bytes): its stderr
 * names a parser that found more data after a complete value at position N, and a stdin message starts
 * exactly N bytes after an earlier one (where the read began). Returns that message's offset and N.
 */
function readTogether(
	stderrTail: readonly string[],
	stdinStarts: readonly number[],
): {offset: number; position: number} | undefined {
	for (const line of [...stderrTail].reverse()) {
		const match = AFTER_VALUE.map((re) => re.exec(line)).find((m) => m !== null);
		if (!match) continue;
		const position = Number(match[1]);
		for (let second = stdinStarts.length - 1; second > 0; second--)
			for (let first = second - 1; first >= 0; first--)
				if (stdinStarts[second]! - stdinStarts[first]! === position) return {offset: stdinStarts[second]!, position};
		return undefined;
	}
	return undefined;
}

/** The fix when the server parsed one read of stdin as one message ({@link readTogether}). */
function readTogetherHint({offset, position}: {offset: number; position: number}): string {
	return `The server parses each read of stdin as one message, but a pipe carries bytes, not messages: two messages written back to back came in one read, and its JSON parser stopped at the second (position ${position}, stdin offset ${offset}). Any client can write that way. Read stdin line by line and parse each line: Python \`for line in sys.stdin\`, Node \`readline\`, Rust \`BufRead::lines\`, Go \`bufio.Scanner\`.`;
}

/**
 * The fix for an exit with no drain evidence: from stderr when it says something, else the likely causes.
 * Without a stderr tail at all (`explain` of a client's error text, the docs) nothing is known of stderr,
 * so the fix points at it rather than say it was empty.
 */
function exitHint(d: FindingDraft): string {
	if (!Array.isArray(d.detail?.['stderrTail']))
		return "Read the server's stderr for the reason (the client logs it; `mcp-wire probe -- <command>` shows it too): a crash, usage text or a missing setting. Check the command, its arguments and the environment the client passes.";
	if (lastStderrLine(d) !== undefined)
		return 'Read the stderr tail: the server crashed or printed usage. Check the command, its arguments and the environment the client passes.';
	if (detailNumber(d, 'exitCode') === 0)
		return 'It exited on purpose (code 0) and said nothing on stderr. Likely causes: it printed its usage or a message on stdout and stopped (check its arguments), a `process.exit()` / `sys.exit()` on the path of the request it was answering, a launcher (`npx`, a shell script) that exits while its child keeps running, or a server that stops at the end of its first message. Run the command by hand and send it the same lines.';
	return 'It said nothing on stderr. Check the command, its arguments and the environment the client passes; run the command by hand to see its output.';
}

/** The last stderr line with something on it, from `detail.stderrTail`; undefined when stderr was empty. */
function lastStderrLine(d: FindingDraft): string | undefined {
	const tail = d.detail?.['stderrTail'];
	const last = Array.isArray(tail)
		? [...tail].reverse().find((line) => typeof line === 'string' && line.trim() !== '')
		: undefined;
	return typeof last === 'string' ? last : undefined;
}
