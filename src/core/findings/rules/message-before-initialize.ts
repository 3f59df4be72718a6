import {detailString, row, UNKNOWN} from '../support/meta.js';
import type {Rule} from '../engine.js';

/** What a server may send before its `initialize` response (R10): pings and logging. */
const ALLOWED = new Set(['ping', 'notifications/message']);

/**
 * `message-before-initialize`: the server sent a request or notification other than `ping` or a logging
 * notification (`notifications/message`) before its `initialize` response (R10). Reported at that frame on
 * stdout, `detail: {kind: 'request' | 'notification', method, id?}`. Frames after the `initialize`
 * response (result or error) or after a `server/discover` result (the 2026-07-28 era has no handshake) are
 * not judged.
 */
export const messageBeforeInitialize: Rule = {
	code: 'message-before-initialize',
	pairsAcrossStreams: true,
	meta: {
		severity: 'warning',
		title: 'message before the initialize response',
		message: (d) =>
			`the server sent the ${detailString(d, 'kind') ?? 'message'} ${detailString(d, 'method') ?? '?'} before its initialize response`,
		hint: () =>
			'Send nothing but the `initialize` response first (pings and `notifications/message` excepted, R10); send list_changed notifications and requests after `notifications/initialized`.',
		rules: ['R10'],
		doc: {
			what: 'The server sent a request or a notification other than `ping` or logging before its `initialize` response ([R10](docs/protocol.md#r10)). The TS SDK (1.x and 2.x) and Python SDK clients and Codex (rmcp) accept it; rmcp releases before the one in Codex 0.171 took the next message as the `initialize` response and failed the handshake.',
			recognised:
				'A request or notification on stdout before the response to `initialize` (`ping` and `notifications/message` excepted).',
			example: {
				steps: [
					{
						stream: 'stdin',
						bytes:
							'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n',
						tMs: 0,
					},
					{stream: 'stdout', bytes: '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n', tMs: 1},
					{
						stream: 'stdout',
						bytes:
							'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}\n',
						tMs: 2,
					},
				],
			},
		},
		impact: row({
			'ts-sdk-v1': [
				'ok',
				'accepted: notifications are dispatched (or ignored) and requests answered before the initialize result arrives',
			],
			'ts-sdk-v2': [
				'ok',
				'accepted: the 2.4.0 client takes the early notification and connects (run here, docs/clients.md#typescript-sdk-2x)',
			],
			'python-sdk': [
				'ok',
				'accepted (mcp 2.3.0 routes messages that arrive before the handshake with the 2025-11-25 tables)',
			],
			vscode: UNKNOWN,
			rmcp: [
				'ok',
				'accepted: Codex 0.171 takes the early notification and connects (run here, docs/clients.md#codex); older rmcp failed the handshake (`expect initialized response, but received …`)',
			],
			cursor: UNKNOWN,
		}),
	},
	create({report, facts}) {
		let isAnswered = false;
		return {
			onFrame(frame) {
				if (frame.stream !== 'stdout' || isAnswered) return;
				if (frame.answers?.method === 'initialize' || facts.handshakeDone) {
					isAnswered = true;
					return;
				}
				if (
					(frame.kind !== 'request' && frame.kind !== 'notification') ||
					frame.method === undefined ||
					ALLOWED.has(frame.method)
				)
					return;
				report({
					code: 'message-before-initialize',
					stream: 'stdout',
					offset: frame.offset,
					byteLength: frame.byteLength,
					frameIndex: frame.index,
					tMs: frame.tMs,
					detail: {kind: frame.kind, method: frame.method, ...(frame.kind === 'request' ? {id: frame.id ?? null} : {})},
				});
			},
		};
	},
};
