import {checkInitializeError, checkNegotiatedVersion} from '../../jsonrpc/lifecycle.js';
import {detailString, row, UNKNOWN} from '../support/meta.js';
import type {Rule} from '../engine.js';

/**
 * `protocol-version`: the `initialize` exchange did not negotiate a version a client accepts (R11).
 * Reported at the server's `initialize` response on stdout:
 * - a result whose `protocolVersion` {@link checkNegotiatedVersion} rejects (`detail: {reason, message,
 *   offered, answered}`; severity error or warning from the verdict);
 * - an error that rejects the offered version instead of counter-offering one ({@link checkInitializeError},
 *   `detail: {reason: 'rejected-version', message, supported?}`), unless it names 2026-07-28: a modern-only
 *   server is probed with `server/discover` (R19), not blamed.
 * A missing `protocolVersion` is `invalid-initialize`'s (R8).
 */
export const protocolVersion: Rule = {
	code: 'protocol-version',
	pairsAcrossStreams: true,
	meta: {
		severity: 'error',
		title: 'protocol version not negotiated',
		message: (d) => detailString(d, 'message') ?? 'the protocol version was not negotiated',
		hint: (d) =>
			detailString(d, 'reason') === 'rejected-version'
				? 'Answer an unsupported requested version with a result naming a version you support (counter-offer, R11), not with an error.'
				: 'Echo the requested version when you support it; otherwise answer with the latest version you support.',
		rules: ['R11'],
		doc: {
			what: 'The protocol version was not negotiated: the `initialize` result names a version the client did not offer and that is no known revision, or the server rejected the offered version with an error instead of counter-offering one it supports ([R11](docs/protocol.md#r11)).',
			recognised:
				'The `initialize` exchange: the requested version, the answered one, and whether the answer was an error.',
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
						bytes: '{"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"Unsupported protocol version"}}\n',
						tMs: 2,
					},
				],
			},
		},
		impact: (d) =>
			row({
				'ts-sdk-v1': ['fatal', "`Server's protocol version is not supported`"],
				'ts-sdk-v2': ['fatal', 'disconnects'],
				'python-sdk': ['fatal', '`Unsupported protocol version from the server`'],
				vscode: ['ok', 'not checked'],
				rmcp:
					detailString(d, 'reason') === 'rejected-version'
						? ['fatal', 'the initialize error ends the handshake (Codex 0.171, docs/clients.md#codex)']
						: ['ok', 'accepts any answered version (Codex 0.171, docs/clients.md#codex)'],
				cursor: UNKNOWN,
			})(),
	},
	errors: [
		{
			on: 'claude-code-failed-to-connect',
			rank: 6,
			likelihood: 'possible',
			why: 'The server rejects or does not negotiate the protocol version.',
		},
		{
			on: 'unsupported-protocol-version',
			rank: 0,
			likelihood: 'likely',
			why: 'The client does not accept the version the server answered with: the server did not negotiate (echo the requested version or counter-offer one the client knows).',
		},
	],
	clientTexts: [
		{text: 'gemini-cli/error-connecting', rank: 0},
		{text: 'gemini-cli/disconnected', rank: 0},
	],
	create({report, facts}) {
		return {
			onFrame(frame) {
				if (frame.stream !== 'stdout' || frame.answers?.method !== 'initialize') return;
				const base = {
					code: 'protocol-version',
					stream: 'stdout',
					offset: frame.offset,
					byteLength: frame.byteLength,
					frameIndex: frame.index,
					tMs: frame.tMs,
				} as const;
				const message = frame.message as {result?: {protocolVersion?: unknown}; error?: unknown};
				if (frame.kind === 'error') {
					const rejected = checkInitializeError(message.error);
					if (rejected && !rejected.modernEra) {
						report({
							...base,
							detail: {
								reason: rejected.reason,
								message: rejected.message,
								...(rejected.supported ? {supported: rejected.supported} : {}),
							},
						});
					}
					return;
				}
				const answered = message.result?.protocolVersion;
				if (frame.kind !== 'response' || answered === undefined) return;
				const verdict = checkNegotiatedVersion(facts.offeredVersion ?? '', answered);
				if (verdict) {
					report({
						...base,
						severity: verdict.severity,
						detail: {reason: verdict.reason, message: verdict.message, offered: facts.offeredVersion ?? null, answered},
					});
				}
			},
		};
	},
};
