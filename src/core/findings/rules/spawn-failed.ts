import type {FindingDraft} from '../../types.js';
import type {Rule} from '../engine.js';
import {detailString, row} from '../support/meta.js';

/**
 * `spawn-failed`: the command could not be started (ENOENT, EACCES, a bad cwd). Only a live probe or tap sees
 * it; this module owns the meta.
 */
export const spawnFailed: Rule = {
	code: 'spawn-failed',
	meta: {
		severity: 'error',
		title: 'the command could not be started',
		message: (d) =>
			`cannot start \`${detailString(d, 'file') ?? 'the command'}\`: ${detailString(d, 'reason') ?? detailString(d, 'errno') ?? 'unknown error'}`,
		hint: (d) =>
			detailString(d, 'cwd') !== undefined && /cwd|directory/i.test(detailString(d, 'reason') ?? '')
				? `Fix the working directory (\`cwd\`): ${detailString(d, 'cwd')} must exist and be a directory.`
				: detailString(d, 'errno') === 'EISDIR'
					? 'That path is a directory: put the program (or the interpreter) in "command" and the script in "args".'
					: detailString(d, 'errno') === 'ENOENT' && /^[^\\/\s]+\s+\S/.test(detailString(d, 'file') ?? '')
						? 'A command and its arguments in one word: it runs without a shell, so no program has that whole name. Put the program in "command" and each argument in "args" (on the command line: `mcp-wire probe -- python3 server.py`, not quoted as one word).'
						: detailString(d, 'errno') === 'ENOENT' && /[\\/]/.test(detailString(d, 'file') ?? '')
							? 'Nothing runnable at that path: check the path, and for a script the interpreter named in its #! line.'
							: detailString(d, 'errno') === 'ENOENT'
								? 'Use an absolute path, or make sure the command is on the PATH the client passes (GUI clients get a minimal PATH).'
								: detailString(d, 'errno') === 'EACCES'
									? 'Make the file executable (`chmod +x`) or run it through its interpreter.'
									: 'Check the command, its arguments and the working directory.',
		rules: [],
		doc: {
			what: 'The command could not be started at all: not found on the PATH the client passes, not executable, or the working directory does not exist.',
			recognised:
				'The spawn error itself (`ENOENT`, `EACCES`, a bad `cwd`), reported in one line. No bytes cross the wire.',
			example: {steps: [], note: '`spawn uvx ENOENT`: GUI clients start servers with a minimal PATH.', live: true},
		},
		impact: row({
			'ts-sdk-v1': ['fatal', 'spawn error'],
			'ts-sdk-v2': ['fatal', 'spawn error'],
			'python-sdk': ['fatal', 'spawn error'],
			vscode: ['fatal', 'spawn error'],
			rmcp: ['fatal', 'spawn error'],
			cursor: ['fatal', 'spawn error'],
		}),
	},
	errors: [
		{
			on: 'claude-code-failed-to-connect',
			rank: 1,
			likelihood: 'possible',
			why: 'The command is not found on the PATH the client passes (GUI clients get a minimal PATH).',
			detail: {errno: 'ENOENT'},
		},
		{
			on: 'cursor-client-closed',
			rank: 1,
			likelihood: 'possible',
			why: 'Or the command could not be started at all (not on the PATH Cursor passes).',
			detail: {errno: 'ENOENT'},
		},
		{
			on: 'spawn-enoent',
			rank: 0,
			likelihood: 'likely',
			why: 'The client could not find the program: use an absolute path or fix the PATH it passes.',
			detail: {errno: 'ENOENT'},
		},
		{
			on: 'spawn-eacces',
			rank: 0,
			likelihood: 'likely',
			why: 'The program is not executable.',
			detail: {errno: 'EACCES'},
		},
	],
	clientTexts: [
		{text: 'codex/failed-to-start', rank: 7},
		{text: 'cursor/client-closed', rank: 1},
		{text: 'gemini-cli/error-connecting', rank: 4},
		{text: 'vscode/process-exited', rank: 1},
	],
	create: ({report}) => ({
		onMark(mark) {
			if (mark.type !== 'observed' || mark.what !== 'spawn-failed') return;
			report(spawnFailedDraft(mark.detail, mark));
		},
	}),
};

/**
 * The `spawn-failed` draft (origin `probe`: only whoever spawns sees it) for a command that could not be
 * started: from the `observed` mark of a probe or tap, or made without spawning (doctor, for a command not on
 * the PATH a client gives it, docs/cli.md#doctor).
 * @param detail `{file, errno, reason, command, cwd}`, plus anything the caller knows (doctor: `path`, the PATH searched)
 * @param at where the spawn failed: stdout's byte count (0 before any output) and ms since the session began
 */
export function spawnFailedDraft(
	detail: Readonly<Record<string, unknown>>,
	at: {readonly offset: number; readonly tMs: number} = {offset: 0, tMs: 0},
): FindingDraft {
	return {
		code: 'spawn-failed',
		stream: 'stdout',
		offset: at.offset,
		byteLength: 0,
		tMs: at.tMs,
		origin: 'probe',
		detail,
	};
}
