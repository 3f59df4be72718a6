import type {Rule} from '../engine.js';
import {frameDraft} from '../support/frame-draft.js';
import {detailString, row} from '../support/meta.js';

/**
 * `ansi-escape` (R5): terminal escape sequences on the protocol stream, at the frame's first ESC (the
 * framer's `escape` fact; `detail.sequence`, `detail.isPrivate`, `detail.count`).
 */
export const ansiEscape: Rule = {
	code: 'ansi-escape',
	meta: {
		severity: 'error',
		title: 'terminal escape sequences',
		message: (d) =>
			`terminal control sequence (ESC${detailString(d, 'sequence') ? ' ' + detailString(d, 'sequence') : ''}) on ${d.stream}`,
		hint: () =>
			'Disable colours when stdout is not a terminal, and send logs to stderr (`NO_COLOR=1`, `FORCE_COLOR=0`, logger colour off).',
		rules: ['R5'],
		doc: {
			what: 'Terminal control sequences (colours `ESC [ … m`, cursor moves, screen clears, OSC titles) on the protocol stream, from a coloured logger or a TUI library that believes it writes to a terminal.',
			recognised: 'An ESC byte (`0x1B`) on the protocol stream; `detail.sequence` names the sequence.',
			example: {
				steps: [{stream: 'stdout', bytes: '\x1B[33mwarning\x1B[0m\n'}],
				note: 'The line is also `stray-output`: it is not JSON.',
			},
		},
		impact: row({
			'ts-sdk-v1': ['skip-log', "logs `Unexpected token ''…` and skips the line"],
			'ts-sdk-v2': ['skip', 'skips the line silently'],
			'python-sdk': ['skip-log', 'logs a parse error'],
			vscode: ['skip-log', 'logs `Failed to parse message`'],
			rmcp: ['skip', 'skips the line'],
			cursor: [
				'unknown',
				'2025 builds log and skip; 2026 builds were seen failing the connection right after a parse error, in logs of servers that were also crashing',
			],
		}),
	},
	errors: [
		{
			on: ['v8-unexpected-token', 'v8-unexpected-token-old'],
			rank: 0,
			likelihood: 'likely',
			why: (p) =>
				p.line?.kind === 'ansi'
					? "The client read a line on the server's stdout that starts with an ESC byte (0x1B): a terminal colour or cursor sequence, so something prints coloured output to stdout."
					: undefined,
		},
	],
	create: ({report}) => ({
		onFrameFacts(frame, {escape}, frameIndex) {
			if (escape === undefined) return;
			report(
				frameDraft('ansi-escape', frame, escape.at, escape.length, frameIndex, {
					sequence: escape.kind,
					isPrivate: escape.isPrivate,
					count: escape.count,
				}),
			);
		},
	}),
};
