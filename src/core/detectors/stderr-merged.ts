import type {Finding} from '../types.js';
import {row} from './meta.js';
import type {Rule} from './rule.js';

/**
 * `stderr-merged`: stderr folded into stdout upstream (`2>&1`, a TTY from `docker run -t`), so log lines
 * reach the protocol stream (R5, R7).
 */
export const stderrMerged: Rule = {
	code: 'stderr-merged',
	meta: {
		severity: 'error',
		title: 'stderr merged into stdout',
		message: () => 'log lines arrive on stdout while stderr stays silent: stderr is redirected into stdout upstream',
		hint: () => 'Remove `2>&1` from wrapper scripts and do not allocate a TTY (`docker run -i`, not `-it`).',
		rules: ['R5', 'R7'],
		doc: {
			what: 'The server\'s stderr is folded into its stdout upstream (`2>&1` in a wrapper, a TTY allocated by `docker run -t`), so its log lines land on the protocol stream.',
			recognised: 'Log-shaped stray lines on stdout while stderr stays silent for the whole session (checked when the session ends).',
			example: {steps: [{stream: 'stdout', bytes: '2026-01-01 12:00:00 INFO starting\n'}, {stream: 'stdout', bytes: '{"jsonrpc":"2.0","method":"notifications/initialized"}\n'}, {exit: 0, tMs: 5}]},
		},
		impact: row({
			'ts-sdk-v1': ['skip-log', 'every log line becomes a parse error'],
			'ts-sdk-v2': ['skip', 'log lines skipped silently'],
			'python-sdk': ['skip-log', 'parse error per line'],
			vscode: ['skip-log', 'parse error per line'],
			rmcp: ['skip', 'skips the lines'],
			cursor: ['unknown', '2025 builds log and skip; 2026 builds were seen failing the connection right after a parse error, in logs of servers that were also crashing'],
		}),
	},
	create({report, facts}) {
		let first: Finding | undefined;
		let logLines = 0;
		return {
			onFinding(finding) {
				if (finding.code !== 'stray-output' || finding.stream !== 'stdout' || finding.detail?.['kind'] !== 'log') return;
				logLines += 1;
				first ??= finding;
			},
			onEnd({tMs}) {
				if (!first || facts.streamLength('stderr') !== 0) return;
				report({
					code: 'stderr-merged',
					stream: 'stdout',
					offset: first.offset,
					byteLength: first.byteLength,
					...(first.frameIndex === undefined ? {} : {frameIndex: first.frameIndex}),
					tMs,
					detail: {logLines},
				});
			},
		};
	},
};
