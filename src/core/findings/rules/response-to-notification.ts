import type {Rule} from '../engine.js';
import {row, UNKNOWN} from '../support/meta.js';

/**
 * `response-to-notification` (J4): an id-less response right after a notification of the peer that nothing
 * answered yet (the correlator's `answers-notification`).
 */
export const responseToNotification: Rule = {
	code: 'response-to-notification',
	pairsAcrossStreams: true,
	meta: {
		severity: 'error',
		title: 'a notification was answered',
		message: (d) =>
			`a response${d.detail?.['method'] ? ` right after the notification ${String(d.detail['method'])}` : ''} answers no request: notifications must not be answered`,
		hint: () => 'Do not reply to messages without an `id` (notifications such as notifications/initialized).',
		rules: ['J4'],
		doc: {
			what: 'The server answered a notification (a message without `id`), typically with a "method not found" error right after `notifications/initialized`. Notifications must never be answered ([J4](docs/protocol.md#j4)).',
			recognised: 'A response without a matching request that follows a notification from the client.',
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","method":"notifications/initialized"}\n', tMs: 0},
					{
						stream: 'stdout',
						bytes: '{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found"}}\n',
						tMs: 2,
					},
				],
			},
		},
		impact: row({
			'ts-sdk-v1': ['skip-log', 'dropped; some hosts (Claude Code) drop the connection'],
			'ts-sdk-v2': ['skip-log', 'dropped and logged'],
			'python-sdk': ['drop-log', 'rejected (1.29)'],
			vscode: ['skip', 'ignored'],
			rmcp: ['skip', 'ignores the reply: Codex 0.171 connects and lists tools (run here, docs/clients.md#codex)'],
			cursor: UNKNOWN,
		}),
	},
	create: ({report}) => ({
		onMessage({frame, correlation}) {
			if (correlation?.type !== 'answers-notification') return;
			const {notification} = correlation;
			report({
				code: 'response-to-notification',
				stream: frame.stream,
				offset: frame.offset,
				byteLength: frame.byteLength,
				frameIndex: frame.index,
				tMs: frame.tMs,
				detail: {method: notification.method ?? null, notificationIndex: notification.index},
			});
		},
	}),
};
