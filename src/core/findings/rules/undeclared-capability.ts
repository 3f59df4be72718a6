import type {ClientImpact, FindingDraft, Frame} from '../../types.js';
import {detailString, FAMILIES, UNKNOWN, type ImpactRow} from '../support/meta.js';
import type {Rule} from '../engine.js';

/** Server notifications that need a server capability (R12): method → the feature whose `listChanged` must be true. */
const LIST_CHANGED: Readonly<Record<string, string>> = {
	'notifications/tools/list_changed': 'tools',
	'notifications/prompts/list_changed': 'prompts',
	'notifications/resources/list_changed': 'resources',
};

/** Server → client requests that need a client capability (R12): method → the capability the client must have sent. */
const CLIENT_CAPABILITY: Readonly<Record<string, string>> = {
	'roots/list': 'roots',
	'sampling/createMessage': 'sampling',
	'elicitation/create': 'elicitation',
};

const isObject = (value: unknown): value is Record<string, unknown> =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

const NOTIFICATION_IMPACT: ImpactRow = {
	'ts-sdk-v1': [
		'skip',
		'ignored: the `listChanged` handler is set up only when the server advertises `<feature>.listChanged`, so the host never refreshes the list',
	],
	'ts-sdk-v2': [
		'skip',
		'ignored as in 1.x (the same `Client` code); the 2.4.0 client connects and lists tools (run here, docs/clients.md#typescript-sdk-2x)',
	],
	'python-sdk': ['ok', 'handed to the message handler; mcp 2.3.0 does not check the capability'],
	vscode: UNKNOWN,
	rmcp: [
		'ok',
		'accepted: Codex 0.171 connects and lists tools (run here, docs/clients.md#codex); whether it refreshes its list is not recorded',
	],
	cursor: UNKNOWN,
};

const REQUEST_IMPACT: ImpactRow = {
	'ts-sdk-v1': [
		'ok',
		"answers -32601 `Method not found`: a client that did not declare the capability cannot register a handler; the server's request fails",
	],
	'ts-sdk-v2': [
		'ok',
		"the server's request fails as in 1.x (no handler without the capability); the 2.4.0 client connects and lists tools (run here, docs/clients.md#typescript-sdk-2x)",
	],
	'python-sdk': [
		'ok',
		"answers error -32600 from its default callbacks (`List roots not supported`, `Sampling not supported`, `Elicitation not supported`); the server's request fails",
	],
	vscode: UNKNOWN,
	rmcp: [
		'ok',
		"the server's request is not served (what rmcp answers was not recorded); Codex 0.171 connects and lists tools (run here, docs/clients.md#codex)",
	],
	cursor: UNKNOWN,
};

const impactOf = (r: ImpactRow): readonly ClientImpact[] =>
	FAMILIES.map((client) => ({client, reaction: r[client][0], note: r[client][1]}));
const NOTIFICATION_ROW = impactOf(NOTIFICATION_IMPACT);
const REQUEST_ROW = impactOf(REQUEST_IMPACT);

const isRequest = (d: FindingDraft): boolean => detailString(d, 'kind') === 'request';

/**
 * `undeclared-capability`: the server uses a capability that was not negotiated (R12).
 *
 * - A `notifications/{tools,prompts,resources}/list_changed` while the server's `initialize` result did
 *   not set `<feature>.listChanged: true`: `detail: {kind: 'notification', method, capability:
 *   'tools.listChanged', declared: 'absent' | 'no-list-changed'}`. One sent before the `initialize` result
 *   is judged when the result arrives (it is also `message-before-initialize`).
 * - A request to the client (`roots/list`, `sampling/createMessage`, `elicitation/create`) whose capability
 *   the client did not send in its `initialize` request: `detail: {kind: 'request', method, id, capability}`.
 *
 * Reported at the frame on stdout. Nothing is judged without the capabilities it needs (no handshake seen).
 */
export const undeclaredCapability: Rule = {
	code: 'undeclared-capability',
	pairsAcrossStreams: true,
	meta: {
		severity: 'warning',
		title: 'capability used without being negotiated',
		message: (d) =>
			isRequest(d)
				? `the server sent ${detailString(d, 'method') ?? 'a request'} although the client did not declare the \`${detailString(d, 'capability') ?? '?'}\` capability`
				: `the server sent ${detailString(d, 'method') ?? 'a notification'} without advertising \`${detailString(d, 'capability') ?? '?'}\` in its capabilities`,
		hint: (d) =>
			isRequest(d)
				? `Check the client's capabilities from \`initialize\` before sending ${detailString(d, 'method') ?? 'the request'} (R12).`
				: `Advertise \`${detailString(d, 'capability') ?? 'listChanged'}: true\` in the initialize result, or do not send ${detailString(d, 'method') ?? 'the notification'} (R12).`,
		rules: ['R12'],
		doc: {
			what: 'The server uses a capability that was not negotiated ([R12](docs/protocol.md#r12)): a `notifications/<feature>/list_changed` without `<feature>.listChanged: true` in its own capabilities, or a request (`roots/list`, `sampling/createMessage`, `elicitation/create`) the client did not declare.',
			recognised:
				"The server's capabilities from its `initialize` result and the client's from its `initialize` request, against each list_changed notification and each request the server sends.",
			variants: [
				{label: 'list_changed without listChanged', detail: {kind: 'notification'}},
				{label: 'request the client did not declare', detail: {kind: 'request'}},
			],
			example: {
				steps: [
					{
						stream: 'stdin',
						bytes:
							'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n',
						tMs: 0,
					},
					{
						stream: 'stdout',
						bytes:
							'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}\n',
						tMs: 1,
					},
					{stream: 'stdout', bytes: '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n', tMs: 2},
				],
				note: 'The result advertises `tools: {}`, without `listChanged: true`.',
			},
		},
		impact: (d) => (isRequest(d) ? REQUEST_ROW : NOTIFICATION_ROW),
	},
	create({report, facts}) {
		let clientCapabilities: Record<string, unknown> | undefined;
		/** list_changed notifications seen before the server's capabilities were known. */
		let early: Frame[] = [];

		const judgeNotification = (frame: Frame, capabilities: Readonly<Record<string, unknown>>): void => {
			const feature = LIST_CHANGED[frame.method!]!;
			const declared = capabilities[feature];
			if (isObject(declared) && declared['listChanged'] === true) return;
			report({
				code: 'undeclared-capability',
				stream: 'stdout',
				offset: frame.offset,
				byteLength: frame.byteLength,
				frameIndex: frame.index,
				tMs: frame.tMs,
				detail: {
					kind: 'notification',
					method: frame.method,
					capability: `${feature}.listChanged`,
					declared: declared === undefined || declared === null ? 'absent' : 'no-list-changed',
				},
			});
		};

		return {
			onFrame(frame) {
				if (frame.stream === 'stdin') {
					if (frame.kind === 'request' && frame.method === 'initialize') {
						const capabilities = (frame.message as {params?: {capabilities?: unknown}}).params?.capabilities;
						clientCapabilities = isObject(capabilities) ? capabilities : {};
					}
					return;
				}
				if (frame.stream !== 'stdout') return;
				// The session has read the initialize result's capabilities before rules see its frame.
				if (early.length > 0 && facts.serverCapabilities) {
					for (const notification of early) judgeNotification(notification, facts.serverCapabilities);
					early = [];
				}
				if (frame.method === undefined) return;
				if (frame.kind === 'notification' && LIST_CHANGED[frame.method] !== undefined) {
					const capabilities = facts.serverCapabilities;
					if (capabilities) judgeNotification(frame, capabilities);
					else if (early.length < 64) early.push(frame);
					return;
				}
				if (frame.kind === 'request' && clientCapabilities) {
					const capability = CLIENT_CAPABILITY[frame.method];
					if (capability === undefined || clientCapabilities[capability] !== undefined) return;
					report({
						code: 'undeclared-capability',
						stream: 'stdout',
						offset: frame.offset,
						byteLength: frame.byteLength,
						frameIndex: frame.index,
						tMs: frame.tMs,
						detail: {kind: 'request', method: frame.method, id: frame.id ?? null, capability},
					});
				}
			},
		};
	},
};
