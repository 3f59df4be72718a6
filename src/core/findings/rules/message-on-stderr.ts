import {RecentKeyLog} from '../../bounded-map.js';
import {idKey} from '../../jsonrpc/id-key.js';
import type {Frame, FindingDraft, JsonRpcId, StreamName} from '../../types.js';
import {detailString, row} from '../support/meta.js';
import type {Rule} from '../engine.js';
import {reportOnce} from '../support/report-once.js';

/** How many JSON-RPC messages on stderr are kept until the end of the session (the rest are counted). */
const MAX_KEPT = 256;
/** How many recent message keys per protocol stream are remembered to recognise a copy on stderr. */
const RECENT_KEPT = 512;

type Kind = 'request' | 'notification' | 'response';

interface StderrMessage {
	readonly frame: Frame;
	readonly kind: Kind;
	readonly id: JsonRpcId | undefined;
	readonly method: string | undefined;
	/** For a response: the method of the client request with its id that was open when it was written. */
	readonly answers: string | undefined;
	/** The protocol stream that also carried this message (a copy: a debug log of the wire). */
	echoOf: StreamName | undefined;
}

/** The JSON-RPC message a stderr line holds, or undefined (a log line, a JSON log record, anything else). */
function parseMessage(
	text: string | undefined,
): {kind: Kind; id: JsonRpcId | undefined; method: string | undefined} | undefined {
	if (text === undefined) return undefined;
	const trimmed = text.trim();
	if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined;
	let value: unknown;
	try {
		value = JSON.parse(trimmed);
	} catch {
		return undefined;
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const message = value as Record<string, unknown>;
	// A JSON log record ({"level":…,"id":…}) is allowed on stderr: only `"jsonrpc":"2.0"` makes it a message.
	if (message['jsonrpc'] !== '2.0') return undefined;
	const rawId = message['id'];
	const id = typeof rawId === 'string' || typeof rawId === 'number' || rawId === null ? rawId : undefined;
	if (typeof message['method'] === 'string')
		return {kind: id === undefined ? 'notification' : 'request', id, method: message['method']};
	if (id !== undefined && ('result' in message || 'error' in message)) return {kind: 'response', id, method: undefined};
	return undefined;
}

/** A key that a message and its copy share: replies by id, requests by method and id, notifications by method. */
const keyOf = (kind: Kind, id: JsonRpcId | undefined, method: string | undefined): string =>
	kind === 'response'
		? `reply ${idKey(id ?? null)}`
		: kind === 'request'
			? `request ${method ?? ''} ${idKey(id ?? null)}`
			: `notification ${method ?? ''}`;

/** A protocol message as {@link keyOf} needs it. */
interface Touched {
	readonly kind: Kind;
	readonly id: JsonRpcId | undefined;
	readonly method: string | undefined;
}

const keyOfTouched = (touched: Touched): string => keyOf(touched.kind, touched.id, touched.method);

const kindOf = (frame: Frame): Kind | undefined =>
	frame.kind === 'request'
		? 'request'
		: frame.kind === 'notification'
			? 'notification'
			: frame.kind === 'response' || frame.kind === 'error'
				? 'response'
				: undefined;

const what = (d: FindingDraft): string => {
	const kind = detailString(d, 'kind');
	const id = d.detail?.['id'];
	const method = detailString(d, 'method');
	if (kind === 'response') return `the reply${method ? ` to ${method}` : ''} (id ${JSON.stringify(id ?? null)})`;
	return `the ${kind ?? 'message'} ${method ?? '?'}${kind === 'request' ? ` (id ${JSON.stringify(id ?? null)})` : ''}`;
};

/** The reply to an open request on stderr: every client keeps waiting for it. */
const UNANSWERED_IMPACT = row({
	'ts-sdk-v1': [
		'hang',
		"stderr is not read as protocol (inherited into the host's log): the request times out after 60 s",
	],
	'ts-sdk-v2': ['hang', 'stderr is not read as protocol: the request times out'],
	'python-sdk': ['hang', 'stderr goes to `errlog`; no default timeout: the request waits forever'],
	vscode: ['hang', 'logs the line as `[server stderr]` and keeps waiting for the reply'],
	rmcp: ['hang', 'reads messages from stdout only: the request waits'],
	cursor: ['hang', 'reads messages from stdout only (stdio transport): the request waits'],
});

/** A copy of a message that crossed stdout/stdin, or one nothing waits for: no client reads stderr as protocol. */
const UNREAD_IMPACT = row({
	'ts-sdk-v1': ['ok', 'stderr is not read as protocol; nothing waits on this message'],
	'ts-sdk-v2': ['ok', 'stderr is not read as protocol; nothing waits on this message'],
	'python-sdk': ['ok', 'stderr goes to `errlog`; nothing waits on this message'],
	vscode: ['ok', 'logs the line as `[server stderr]`'],
	rmcp: ['ok', 'reads messages from stdout only'],
	cursor: ['ok', 'reads messages from stdout only (stdio transport)'],
});

/**
 * `message-on-stderr`: a JSON-RPC message (`"jsonrpc":"2.0"` and a method, or an id with a result or
 * error) written to stderr as one line (R5, R7: stdout carries the protocol, stderr only logs). Judged at
 * the end of the session, when it is known what the protocol streams carried, and reported at the line on
 * stderr, `detail: {kind: 'request' | 'notification' | 'response', id?, method?, unanswered, echoOf?}`
 * (`method`: a reply's is that of the client request with its id, when one was open):
 * - error, `unanswered: true`: a reply whose id is a client request still open at the end: the client
 *   never got it. That request's `unanswered-request` (or `ping-error`) follows and names this as its cause;
 * - info, `echoOf: 'stdin' | 'stdout'`: the same message also crossed a protocol stream (a debug log of the
 *   wire: nothing was lost);
 * - warning otherwise: a message nothing on the protocol streams matches; if it was meant for the client,
 *   the client never sees it (the cause is not known, so no stronger claim).
 */
export const messageOnStderr: Rule = {
	code: 'message-on-stderr',
	meta: {
		severity: 'error',
		title: 'JSON-RPC message on stderr',
		message: (d) => {
			if (d.detail?.['unanswered'] === true)
				return `${what(d)} was written to stderr, not stdout: the client never reads it, so the request hangs`;
			const echo = detailString(d, 'echoOf');
			if (echo)
				return `${what(d)} is also written to stderr, a copy of what crossed ${echo} (a debug log of the wire; nothing was lost)`;
			return `${what(d)} was written to stderr: if it was meant for the client, the client never sees it`;
		},
		hint: (d) =>
			detailString(d, 'echoOf')
				? "Nothing to fix for clients; a copy of each message on stderr can fill the host's log, so keep wire logging behind a debug switch."
				: 'Write JSON-RPC messages to stdout only. Look for a logger or `print` bound to stderr, or a duplicate of fd 1 taken before stdout was redirected; under concurrent tool calls, serialise the writes to stdout.',
		rules: ['R5', 'R7'],
		doc: {
			what: 'A JSON-RPC message written to stderr, typically the reply to an outstanding request: the client reads messages from stdout only, so the request hangs ([R5](docs/protocol.md#r5), [R7](docs/protocol.md#r7)). Seen with loggers bound to a duplicate of fd 1 and with racing writers under concurrent tool calls.',
			recognised:
				'A stderr line that parses as a JSON-RPC message (`"jsonrpc":"2.0"`), judged when the session ends: the reply to a request left unanswered on stdout is an error (and that `unanswered-request` names it as its cause); a copy of a message that also crossed stdin or stdout is info (a debug log of the wire); anything else is a warning.',
			variants: [
				{label: 'the reply to a request left unanswered on stdout', detail: {unanswered: true}},
				{
					label: 'a copy of a message that crossed stdin or stdout, or one nothing waits for',
					severity: 'info',
					detail: {unanswered: false, echoOf: 'stdout'},
				},
			],
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n', tMs: 0},
					{stream: 'stderr', bytes: '{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}\n', tMs: 1},
					{event: 'stdin-closed', tMs: 1000},
					{exit: 0, tMs: 1010},
				],
			},
		},
		// Only the reply to a request left unanswered makes anyone wait; a copy or a stray message does not.
		impact: (d) => (d.detail?.['unanswered'] === true ? UNANSWERED_IMPACT() : UNREAD_IMPACT()),
	},
	create({report: given, facts}) {
		// Judged at settle (what is known so far) and again at the end: each message once.
		const report = reportOnce(given);
		const kept: StderrMessage[] = [];
		// Each protocol message is kept as it is; its key is made only when a stderr message asks (RecentKeyLog).
		const recent = {
			stdin: new RecentKeyLog<Touched>(RECENT_KEPT, keyOfTouched),
			stdout: new RecentKeyLog<Touched>(RECENT_KEPT, keyOfTouched),
		};

		return {
			onFrame(frame) {
				if (frame.stream !== 'stderr') {
					const kind = kindOf(frame);
					if (kind === undefined) return;
					const touched: Touched = {kind, id: frame.id ?? undefined, method: frame.method};
					recent[frame.stream].touch(touched);
					if (kept.length === 0) return;
					const key = keyOfTouched(touched);
					// A copy logged to stderr before the message itself reached the protocol stream.
					for (const message of kept)
						if (message.echoOf === undefined && keyOf(message.kind, message.id, message.method) === key)
							message.echoOf = frame.stream;
					return;
				}
				if (kept.length >= MAX_KEPT) return;
				const parsed = parseMessage(frame.text);
				if (!parsed) return;
				const key = keyOf(parsed.kind, parsed.id, parsed.method);
				const echoOf = recent.stdout.has(key) ? 'stdout' : recent.stdin.has(key) ? 'stdin' : undefined;
				let answers: string | undefined;
				if (parsed.kind === 'response' && parsed.id !== undefined) {
					const open = facts
						.outstanding('stdin')
						.find((request) => request.id !== null && idKey(request.id) === idKey(parsed.id!));
					answers = open?.method;
				}
				kept.push({frame, ...parsed, answers, echoOf});
			},
			onSettle: () => judge(),
			onEnd: () => judge(),
		};

		function judge(): void {
			{
				const open = new Set(facts.outstanding('stdin').map((request) => idKey(request.id)));
				for (const message of kept) {
					const isUnanswered =
						message.kind === 'response' &&
						message.echoOf === undefined &&
						message.id !== undefined &&
						open.has(idKey(message.id));
					const severity = isUnanswered ? 'error' : message.echoOf ? 'info' : 'warning';
					report({
						code: 'message-on-stderr',
						stream: 'stderr',
						offset: message.frame.offset,
						byteLength: message.frame.byteLength,
						frameIndex: message.frame.index,
						tMs: message.frame.tMs,
						severity,
						detail: {
							kind: message.kind,
							...(message.id === undefined ? {} : {id: message.id}),
							// For a reply: the method of the request it answers (what the client waits for).
							...(message.kind === 'response'
								? message.answers === undefined
									? {}
									: {method: message.answers}
								: message.method === undefined
									? {}
									: {method: message.method}),
							unanswered: isUnanswered,
							...(message.echoOf === undefined ? {} : {echoOf: message.echoOf}),
						},
					});
				}
			}
		}
	},
};
