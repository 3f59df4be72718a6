import {isPlainObject} from '../../jsonrpc/classify.js';
import type {Rule} from '../engine.js';
import {detailString, row, UNKNOWN} from '../support/meta.js';

/** A progress token as a map key: strings and numbers never collide (`"1"` is not `1`). */
const keyOf = (token: unknown): string | undefined =>
	typeof token === 'string' ? `s:${token}` : typeof token === 'number' ? `n:${token}` : undefined;

/** `params._meta.progressToken` of a request, if it carries one. */
function tokenOf(message: unknown): unknown {
	const params = isPlainObject(message) ? message['params'] : undefined;
	const meta = isPlainObject(params) ? params['_meta'] : undefined;
	return isPlainObject(meta) ? meta['progressToken'] : undefined;
}

/**
 * `unknown-progress-token` (R18, MCP basic/utilities/progress): a `notifications/progress` from the server
 * whose `progressToken` no active client request carried. "Progress notifications MUST only reference
 * tokens that: Were provided in an active request; Are associated with an in-progress operation" and "MUST
 * stop after completion". The client's requests (stdin) give tokens in `params._meta.progressToken`; a
 * token stays active until its request is answered. Reported at the notification,
 * `detail: {token, reason}`: `unknown` (no request gave it) or `completed` (its request was answered).
 */
export const unknownProgressToken: Rule = {
	code: 'unknown-progress-token',
	meta: {
		severity: 'error',
		title: 'progress for a token no active request gave',
		message: (d) =>
			`notifications/progress for token ${JSON.stringify(d.detail?.['token'] ?? null)}, which ${
				detailString(d, 'reason') === 'completed' ? 'belonged to a request already answered' : 'no request carried'
			}`,
		hint: () =>
			"Send progress only with the `progressToken` the client put in the request's `params._meta`, and only until you answer that request; when it sent none, send no progress.",
		rules: ['R18'],
		doc: {
			what: 'A `notifications/progress` whose `progressToken` no active request carried: the server made a token up, or kept reporting after it answered ([R18](docs/protocol.md#r18): progress MUST reference a token of an active request). The TS and Python SDK clients log it; Cursor drops the transport (lennix1337/Genexus18MCP#44).',
			recognised:
				"Each client request's `params._meta.progressToken` is active until the request is answered; a progress notification on stdout with any other token (`reason: unknown`), or with the token of an answered request (`reason: completed`).",
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n', tMs: 0},
					{
						stream: 'stdout',
						bytes:
							'{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"7724e0","progress":10}}\n',
						tMs: 1,
					},
				],
				note: 'F46: the request carried no token; the server reports progress under one of its own.',
			},
		},
		impact: row({
			'ts-sdk-v1': [
				'skip-log',
				'`onerror`: `Received a progress notification for an unknown token`; Claude Code has been seen to respawn the server (anthropics/claude-code#47765)',
			],
			'ts-sdk-v2': [
				'skip',
				'the call returns; no `onerror` was seen for the late token (2.4.0 run on progress-after-reply: docs/clients.md "Tool calls")',
			],
			'python-sdk': [
				'skip',
				'ignores a token no pending request has, without a log (mcp 2.3.0, run on progress-after-reply: docs/clients.md)',
			],
			vscode: UNKNOWN,
			rmcp: UNKNOWN,
			cursor: ['fatal', 'marks the transport `transport_error` (lennix1337/Genexus18MCP#44)'],
		}),
	},
	create({report}) {
		const active = new Map<string, string>(); // token key → the request's id key
		const byRequest = new Map<string, string>(); // request id key → token key
		const completed = new Set<string>();
		return {
			onFrame(frame) {
				if (frame.stream === 'stdin' && frame.kind === 'request' && frame.id !== undefined) {
					const token = keyOf(tokenOf(frame.message));
					if (token === undefined) return;
					const id = JSON.stringify(frame.id);
					active.set(token, id);
					byRequest.set(id, token);
					completed.delete(token);
					return;
				}
				if (frame.stream !== 'stdout') return;
				if ((frame.kind === 'response' || frame.kind === 'error') && frame.id !== undefined) {
					// No request carried a token yet: no id key to make (the common case, on every reply).
					if (byRequest.size === 0) return;
					const token = byRequest.get(JSON.stringify(frame.id));
					if (token !== undefined && frame.answers !== undefined) {
						active.delete(token);
						completed.add(token);
					}
					return;
				}
				if (frame.kind !== 'notification' || frame.method !== 'notifications/progress') return;
				const params = (frame.message as {params?: unknown}).params;
				const token = isPlainObject(params) ? params['progressToken'] : undefined;
				const key = keyOf(token);
				if (key !== undefined && active.has(key)) return;
				report({
					code: 'unknown-progress-token',
					stream: 'stdout',
					offset: frame.offset,
					byteLength: frame.byteLength,
					frameIndex: frame.index,
					tMs: frame.tMs,
					detail: {token: token ?? null, reason: key !== undefined && completed.has(key) ? 'completed' : 'unknown'},
				});
			},
		};
	},
};
