import type {FindingDraft} from '../../types.js';
import {detailString, row} from '../support/meta.js';
import type {Rule} from '../engine.js';

/** The `phase` mark a process-evidence source records when the server's fd 1 and fd 2 are the same pipe. */
export const SAME_PIPE_PHASE = 'stderr-is-stdout';

/**
 * Where the command itself merges stderr into stdout, or undefined: `2>&1` / `&>` / `|&` in a shell string
 * (`sh -c '… 2>&1'`), a TTY allocated by `docker run -t` / `podman run -t` (`-it`, `--tty`), or `script`
 * (a pseudo-terminal carries both streams).
 */
export function mergeInCommand(command: readonly string[]): string | undefined {
	const shell = command.find((word) => /2>&1|&>|\|&/.test(word));
	if (shell !== undefined) return '`2>&1` in the command';
	const base = (word: string | undefined): string => (word ?? '').split(/[\\/]/).pop() ?? '';
	const runAt = command.findIndex(
		(word, i) => word === 'run' && /^(?:docker|podman)(?:\.exe)?$/.test(base(command[i - 1])),
	);
	if (runAt !== -1) {
		for (const word of command.slice(runAt + 1)) {
			if (!word.startsWith('-')) break;
			if (word === '--tty' || word === '--tty=true' || /^-[a-zA-Z]*t[a-zA-Z]*$/.test(word))
				return '`docker run -t`: a TTY carries stderr on stdout';
		}
	}
	if (base(command[0]) === 'script') return '`script`: a pseudo-terminal carries stderr on stdout';
	return undefined;
}

/** What the evidence of the merge says, in the words of the evidence (`detail.evidence`, `detail.what`). */
function mergeMessage(d: FindingDraft): string {
	const what = detailString(d, 'what') ?? 'a merge';
	switch (detailString(d, 'evidence')) {
		case 'stderr-content':
			return `${what} arrives on stdout: a line only stderr carries, so stderr is merged into stdout upstream`;
		case 'same-pipe':
			return "the server's stdout and stderr are the same pipe: stderr is merged into stdout upstream";
		default:
			return `the command merges stderr into stdout (${what}): the server's stderr output lands on the protocol stream`;
	}
}

/** The stray-output lines reported before the evidence (`detail.earlier`), said after the merge; '' for none. */
function earlierWords(earlier: unknown): string {
	if (typeof earlier !== 'number' || earlier <= 0) return '';
	const lines = earlier === 1 ? '1 stray-output line' : `${earlier} stray-output lines`;
	return `; the ${lines} reported before this evidence came may be that stderr output too (${earlier === 1 ? 'its' : 'their'} fix is the generic one): remove the merge first, then fix what is left`;
}

const CONTENT: Readonly<Record<string, string>> = {
	'python-traceback': 'a Python traceback',
	'jvm-options-notice': "the JVM's `Picked up …_OPTIONS` notice",
	'node-warning': "Node's `(node:<pid>) Warning`",
};

/**
 * `stderr-merged` (R5, R7): stderr folded into stdout upstream, so what the server writes to stderr (where
 * it belongs) reaches the protocol stream. Reported only on evidence, once, at the first stray stdout line
 * it explains (before that line's own finding, so the merge's fix comes first):
 * - `command`: the command merges (`sh -c '… 2>&1'`, `docker run -t`, `script`), see {@link mergeInCommand};
 * - `stderr-content`: a stray stdout line that only stderr carries (a Python traceback, `Picked up
 *   JAVA_TOOL_OPTIONS`, `(node:<pid>) Warning`): the framer's `stray-output` `detail.stderrOnly`;
 * - `same-pipe`: the server's fd 1 and fd 2 are the same pipe (a `phase` mark {@link SAME_PIPE_PHASE} from
 *   the process evidence).
 * Log lines on stdout with a silent stderr are NOT evidence (F35): most logging frameworks write to stdout
 * by default, so those stay `stray-output` kind `log` with the logger fix. Every stray stdout line from the
 * evidence on gets `detail.merged`, so its hint names the merge instead of the logger. Lines reported
 * before the evidence came (the /proc evidence comes at a stall or at the end) keep their generic fix (a
 * finding once out does not change): `detail.earlier` counts them, and the message says they may be the
 * merged stderr too, so every list of findings (plain log, report, TUI) names the likely cause.
 *
 * `detail`: `{evidence, what, earlier?}`.
 */
export const stderrMerged: Rule = {
	code: 'stderr-merged',
	meta: {
		severity: 'error',
		title: 'stderr merged into stdout',
		message: (d) => `${mergeMessage(d)}${earlierWords(d.detail?.['earlier'])}`,
		hint: () =>
			'Remove the merge: no `2>&1` (or `&>`) in the command or wrapper script, and no TTY (`docker run -i`, not `-it`). The server may log to stderr; that is where logs belong (R7).',
		rules: ['R5', 'R7'],
		doc: {
			what: "The server's stderr is folded into its stdout upstream (`2>&1` in the command or a wrapper, a TTY allocated by `docker run -t`), so its stderr output lands on the protocol stream.",
			recognised:
				"Only on evidence: the command merges (`sh -c '… 2>&1'`, `docker run -t`, `script`), a stray stdout line that only stderr carries (a Python traceback, `Picked up JAVA_TOOL_OPTIONS`, Node's `(node:<pid>) Warning`), or the server's fd 1 and fd 2 being the same pipe. Log lines on stdout with a silent stderr are not evidence: most logging frameworks write to stdout by default, so they are `stray-output` with the logger fix. Stray lines reported before the evidence came (the same-pipe evidence is read at a stall or at the end) keep their generic fix; this finding then counts them (`detail.earlier`) and says they may be the merged stderr too.",
			example: {
				steps: [
					{stream: 'stdout', bytes: 'Traceback (most recent call last):\n'},
					{stream: 'stdout', bytes: '{"jsonrpc":"2.0","method":"notifications/initialized"}\n'},
					{exit: 0, tMs: 5},
				],
			},
		},
		impact: row({
			'ts-sdk-v1': ['skip-log', 'every stderr line becomes a parse error'],
			'ts-sdk-v2': ['skip', 'the lines are skipped silently'],
			'python-sdk': ['skip-log', 'parse error per line'],
			vscode: ['skip-log', 'parse error per line'],
			rmcp: ['skip', 'skips the lines'],
			cursor: [
				'unknown',
				'2025 builds log and skip; 2026 builds were seen failing the connection right after a parse error, in logs of servers that were also crashing',
			],
		}),
	},
	errors: [
		{
			on: ['v8-unexpected-token', 'v8-unexpected-token-old'],
			rank: 2,
			likelihood: 'possible',
			why: (p) =>
				p.line?.kind === 'log'
					? 'If the server does log to stderr, something upstream (`2>&1`, `docker run -t`) folds stderr into stdout.'
					: undefined,
		},
	],
	create({report, facts}) {
		const command = mergeInCommand(facts.meta.command);
		let evidence: {readonly evidence: string; readonly what: string} | undefined =
			command === undefined ? undefined : {evidence: 'command', what: command};
		let isReported = false;
		let firstStray: FindingDraft | undefined;
		/** Stray stdout lines let through before any evidence: their findings keep the generic fix. */
		let earlier = 0;
		const reportAt = (at: FindingDraft): void => {
			if (isReported || evidence === undefined) return;
			isReported = true;
			report({
				code: 'stderr-merged',
				stream: 'stdout',
				offset: at.offset,
				byteLength: at.byteLength,
				tMs: at.tMs,
				...(at.frameIndex === undefined ? {} : {frameIndex: at.frameIndex}),
				detail: earlier > 0 ? {...evidence, earlier} : evidence,
			});
		};
		const samePipe = (): void => {
			if (evidence !== undefined) return;
			evidence = {evidence: 'same-pipe', what: 'fd 1 and fd 2 are the same pipe'};
			if (firstStray) reportAt(firstStray);
		};
		return {
			onDraft(draft) {
				if (draft.code !== 'stray-output' || draft.stream !== 'stdout') return undefined;
				firstStray ??= draft;
				const content = detailString(draft, 'stderrOnly');
				if (evidence === undefined && content !== undefined)
					evidence = {evidence: 'stderr-content', what: CONTENT[content] ?? content};
				if (evidence === undefined) {
					earlier += 1;
					return undefined;
				}
				reportAt(draft);
				return {...draft, detail: {...draft.detail, merged: true}};
			},
			onMark(mark) {
				if (mark.type !== 'phase' || mark.name !== SAME_PIPE_PHASE) return;
				samePipe();
			},
			onEvidence(observed) {
				// The /proc evidence (tap/proc-evidence.ts): a process of the server's tree holds the stdout pipe on fd 2 too.
				if (observed.sameStdoutStderr === true) samePipe();
			},
		};
	},
};
