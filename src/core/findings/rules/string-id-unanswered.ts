import {idKey} from '../../jsonrpc/id-key.js';
import type {JsonRpcId} from '../../types.js';
import {row, UNKNOWN} from '../support/meta.js';
import type {Rule} from '../engine.js';
import {unansweredEvidence} from '../support/unanswered.js';

/**
 * `string-id-unanswered`: a request with a string id got no response, while requests with integer ids were
 * answered (J2: an id is a string or an integer; J5: the response carries the request's id unchanged). Java
 * SDK clients number their requests `"<prefix>-<n>"`; a server that dispatches on integer ids only hangs them.
 * The default probe sends one such request last (a `ping` with id `"mcp-wire-1"`), so nothing it saw before
 * depends on the answer.
 *
 * Reported at the end of a complete session, at the string-id request on stdin (its time: when the client gave
 * up waiting, a `timeout` mark, else the end), once per such request:
 * `detail: {id, method, answeredWith?}`, where `answeredWith` is the id of a response written after the
 * request that matched no request (the server answered, but with an id of its own, e.g. a number). Not
 * reported when no integer-id request was answered either (nothing tells ids apart then), nor when
 * `early-exit` or `no-response` already explains the silence. `unanswered-request` and `ping-error` leave
 * the request to this rule.
 */
export const stringIdUnanswered: Rule = {
	code: 'string-id-unanswered',
	pairsAcrossStreams: true,
	meta: {
		severity: 'error',
		title: 'request with a string id never answered',
		message: (d) => {
			const id = JSON.stringify(d.detail?.['id'] ?? null);
			const method = typeof d.detail?.['method'] === 'string' ? d.detail['method'] : 'a request';
			const answeredWith = d.detail?.['answeredWith'];
			return answeredWith === undefined
				? `${method} with the string id ${id} got no response, while requests with integer ids were answered`
				: `${method} with the string id ${id} was answered with id ${JSON.stringify(answeredWith)} instead, while requests with integer ids were answered`;
		},
		hint: () =>
			'Accept any JSON-RPC id, string or integer, and echo it unchanged in the response (J2, J5): do not parse it as a number, cast it, or drop a message whose id is not an integer. The SDK servers do this for you.',
		rules: ['J2', 'J5'],
		doc: {
			what: 'A server that answers requests with integer ids but not a request with a string id, or answers it with another id. JSON-RPC and MCP allow both ([J2](docs/protocol.md#j2)) and the response must carry the id unchanged ([J5](docs/protocol.md#j5)); clients that number their requests with strings (the Java SDK: `"<prefix>-<n>"`) wait for ever on such a server.',
			recognised:
				'At the end of a complete session, a request with a string id is still unanswered while at least one request with an integer id was answered (`detail.answeredWith`: the id of a response after it that matched no request). The probe sends `ping` with id `"mcp-wire-1"` as its last request. Skipped when `early-exit` or `no-response` explains the silence.',
			example: {
				steps: [
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":2,"method":"ping"}\n', tMs: 0},
					{stream: 'stdout', bytes: '{"jsonrpc":"2.0","id":2,"result":{}}\n', tMs: 1},
					{stream: 'stdin', bytes: '{"jsonrpc":"2.0","id":"mcp-wire-1","method":"ping"}\n', tMs: 2},
					{event: 'stdin-closed', tMs: 10_002},
					{exit: 0, tMs: 10_010},
				],
			},
		},
		// Every family below numbers its own requests with integers, so the fault never reaches it; the clients it
		// hangs (the Java SDK's string ids, java-sdk McpClientSession.generateRequestId) are not in the table.
		impact: row({
			'ts-sdk-v1': ['ok', 'numbers its requests with integers from 0: never sends a string id'],
			'ts-sdk-v2': ['ok', 'numbers its requests with integers from 0 (2.4.0 run here): never sends a string id'],
			'python-sdk': ['ok', 'numbers its requests with integers from 1: never sends a string id'],
			vscode: ['ok', 'numbers its requests with integers from 1 (C6): never sends a string id'],
			rmcp: ['ok', 'Codex (rmcp) numbers its requests with integers from 0: never sends a string id'],
			cursor: UNKNOWN,
		}),
	},
	create({report, facts}) {
		const evidence = unansweredEvidence();
		let isIntegerAnswered = false;
		/** Ids of responses that matched no request, with the stdin byte count when each came. */
		const unmatched: {readonly id: JsonRpcId; readonly stdinAt: number}[] = [];
		/** When the client gave up on each request (`timeout` marks), by id key: the time a replay knows too. */
		const gaveUp = new Map<string, number>();
		return {
			onFinding: evidence.onFinding,
			onMark(mark) {
				evidence.onMark(mark);
				if (mark.type === 'timeout') gaveUp.set(idKey(mark.id), mark.tMs);
			},
			onMessage({frame, correlation}) {
				if (frame.stream !== 'stdout' || correlation === undefined) return;
				if (correlation.type === 'answered' && typeof correlation.request.frame.id === 'number')
					isIntegerAnswered = true;
				if (correlation.type === 'unmatched' && !correlation.duplicate)
					unmatched.push({id: correlation.id, stdinAt: facts.streamLength('stdin')});
			},
			onEnd({tMs, isComplete}) {
				if (!isComplete || evidence.isExplained || !isIntegerAnswered) return;
				for (const {frame, method, id} of facts.outstanding('stdin')) {
					if (typeof id !== 'string') continue;
					const after = unmatched.find(
						(u) => u.stdinAt >= frame.offset + frame.byteLength && idKey(u.id) !== idKey(id),
					);
					report({
						code: 'string-id-unanswered',
						stream: 'stdin',
						offset: frame.offset,
						byteLength: frame.byteLength,
						frameIndex: frame.index,
						tMs: gaveUp.get(idKey(id)) ?? tMs,
						detail: {id, method, ...(after ? {answeredWith: after.id} : {})},
					});
				}
			},
		};
	},
};
