import {ACTIVITY_WORDS, describeProcess, explainStall} from '../support/evidence.js';
import {detailNumber, detailString, row, UNKNOWN} from '../support/meta.js';
import type {Rule} from '../engine.js';

/**
 * `stdin-inherited`: a child process of the server holds and reads the server's stdin, the protocol
 * pipe (O1; field case F40): requests vanish into it and the server waits for the child, so the request
 * hangs until stdin closes.
 *
 * Recognised on process evidence only (docs/findings.md): while a client request is outstanding, a process
 * started after that request (and after the server's first message, so not the real server behind a
 * wrapper) has the session's stdin pipe as its fd 0 and is blocked reading it, or the process above it
 * waits for it in `wait4`. One finding per helper pid, on stdin at the outstanding request's frame;
 * `detail`: `{pid, command, parentPid?, parentCommand?, activity, parentActivity?, method, id}`.
 */
export const stdinInherited: Rule = {
	code: 'stdin-inherited',
	meta: {
		severity: 'error',
		title: "a child process reads the server's stdin",
		message: (d) => {
			const helper = detailString(d, 'helper') ?? `pid ${detailNumber(d, 'pid') ?? '?'}`;
			const parent = detailString(d, 'parent');
			return `${helper} holds the server's stdin (the protocol pipe) as its fd 0 and ${detailString(d, 'activityWords') ?? 'reads it'}${parent ? ` while ${parent} waits for it` : ''}: ${detailString(d, 'method') ?? 'the request'} (id ${JSON.stringify(d.detail?.['id'] ?? null)}) and the messages after it go to the helper, not the server`;
		},
		hint: () =>
			"Start helper processes with stdin from /dev/null: Python `subprocess.run(..., stdin=subprocess.DEVNULL)`, Node `spawn(cmd, args, {stdio: ['ignore', 'pipe', 'pipe']})`, shell `cmd </dev/null`.",
		rules: ['O1'],
		doc: {
			what: "A child process of the server (a helper a tool runs: `cat`, `soffice`, a shell) inherited the server's stdin, which is the protocol pipe, and reads it: the client's next messages go to the helper, and the server waits for the helper, so the call hangs until stdin closes.",
			recognised:
				"Process evidence (Linux `/proc`): while a request is outstanding, a process started after that request (and after the server's first message, so not the real server behind a wrapper) has the session's stdin pipe as its fd 0 and is blocked reading it, or its parent waits for it in `wait4`. Not `unflushed-output`: the reply was written and flushed the moment the helper ended.",
			example: {
				steps: [
					{
						stream: 'stdin',
						bytes: '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"convert","arguments":{}}}\n',
						tMs: 0,
					},
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":3,"method":"ping"}\n', tMs: 5000},
					{event: 'stdin-closed', tMs: 10000},
					{stream: 'stdout', bytes: '{"jsonrpc":"2.0","id":2,"result":{"content":[]}}\n', tMs: 10003},
				],
				note: 'A helper holds fd 0 on the same pipe and sits in `read(0)`; the ping never reaches the server.',
				live: true,
			},
		},
		impact: row({
			'ts-sdk-v1': ['hang', 'the call never returns; `Request timed out` after 60 s'],
			'ts-sdk-v2': ['hang', 'times out'],
			'python-sdk': ['hang', 'waits forever (no default timeout)'],
			vscode: ['hang', 'waits'],
			rmcp: ['hang', 'waits'],
			cursor: UNKNOWN,
		}),
	},
	create({report, facts}) {
		const reported = new Set<number>();
		return {
			onEvidence(evidence, tMs) {
				if (evidence.reason === 'exit') return;
				const request = facts.outstanding('stdin').find((r) => r.frame.tMs < tMs);
				if (!request) return;
				const explained = explainStall(evidence, {requestTMs: request.frame.tMs, firstReplyTMs: facts.firstReplyTMs});
				if (explained.state !== 'stdin-inherited' || !explained.process || reported.has(explained.process.pid)) return;
				reported.add(explained.process.pid);
				const helper = explained.process;
				const parent = explained.parent;
				report({
					code: 'stdin-inherited',
					stream: 'stdin',
					offset: request.frame.offset,
					byteLength: request.frame.byteLength,
					frameIndex: request.frame.index,
					tMs,
					detail: {
						pid: helper.pid,
						helper: describeProcess(helper),
						...(helper.command ? {command: [...helper.command]} : {}),
						activity: helper.activity,
						activityWords:
							helper.activity === 'reading-stdin' ? 'is blocked reading it' : `is ${ACTIVITY_WORDS[helper.activity]}`,
						...(parent
							? {parentPid: parent.pid, parent: describeProcess(parent), parentActivity: parent.activity}
							: {}),
						method: request.method,
						id: request.id,
					},
				});
			},
		};
	},
};
