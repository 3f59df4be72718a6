import {checkInitializeResult} from '../../jsonrpc/lifecycle.js';
import {detailString, row, UNKNOWN} from '../support/meta.js';
import type {Rule} from '../engine.js';
import type {FindingDraft} from '../../types.js';

/** The problems Codex 0.171 (rmcp) was run on and fails the handshake for (docs/clients.md#codex); others are not established. */
const RMCP_FAILS: readonly string[] = ['missing-server-info', 'capability-not-object'];

/** `detail.problems` of a draft (the reasons of {@link checkInitializeResult}). */
const problemsOf = (d: FindingDraft): readonly unknown[] =>
	Array.isArray(d.detail?.['problems']) ? (d.detail['problems'] as unknown[]) : [];

/**
 * `invalid-initialize`: the server's `initialize` result lacks `protocolVersion`, `capabilities` or
 * `serverInfo`, or has one of the wrong type (R8); once those hold, the TS SDK's own `InitializeResultSchema`
 * runs too (injected, `RuleContext.schemas`) and what it rejects is reported the same way (C1). Reported at
 * the `initialize` response on stdout, `detail: {missing, problems, messages}` ({@link checkInitializeResult}), and `metaNull: true` when the one
 * problem is a `"_meta": null` only the TS schema rejects (the Python SDK and rmcp connect: measured).
 */
export const invalidInitialize: Rule = {
	code: 'invalid-initialize',
	meta: {
		severity: 'error',
		title: 'invalid initialize result',
		message: (d) => {
			// Say what is there: "lacks" only when every problem is a missing member.
			const reasons = Array.isArray(d.detail?.['problems']) ? (d.detail['problems'] as unknown[]) : [];
			const texts = Array.isArray(d.detail?.['messages']) ? (d.detail['messages'] as string[]) : [];
			if (texts.length > 0 && !reasons.every((r) => typeof r === 'string' && r.startsWith('missing-')))
				return `the initialize result is invalid: ${texts.join('; ')}`;
			return `the initialize result lacks ${detailString(d, 'missing') ?? 'required fields'}`;
		},
		hint: (d) =>
			Array.isArray(d.detail?.['problems']) && d.detail['problems'].includes('capability-not-object')
				? 'Declare each capability as an object: `"tools": {}` (or `{"listChanged": true}`), never an array, `true` or a list of names.'
				: 'The initialize result must carry `protocolVersion`, `capabilities` and `serverInfo` ({name, version}).',
		rules: ['R8'],
		doc: {
			what: 'The `initialize` result lacks a required member: `protocolVersion`, `capabilities` or `serverInfo` ([R8](docs/protocol.md#r8)).',
			recognised: 'The `initialize` result checked against the fields every revision requires.',
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
						bytes: '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}\n',
						tMs: 2,
					},
				],
			},
		},
		impact: (d) =>
			row({
				'ts-sdk-v1': ['fatal', 'zod rejects the result; connect fails'],
				'ts-sdk-v2': ['fatal', 'connect fails'],
				'python-sdk':
					d.detail?.['metaNull'] === true
						? ['ok', 'reads `"_meta": null` as no _meta and connects (mcp 2.3, measured)']
						: ['fatal', 'validation error'],
				vscode: UNKNOWN,
				rmcp: RMCP_FAILS.some((p) => problemsOf(d).includes(p))
					? ['fatal', 'the result does not deserialize; the handshake fails (Codex 0.171, docs/clients.md#codex)']
					: d.detail?.['metaNull'] === true
						? ['ok', 'reads `"_meta": null` as no _meta and connects (Codex 0.171, docs/clients.md#codex)']
						: UNKNOWN,
				cursor: UNKNOWN,
			})(),
	},
	clientTexts: [{text: 'codex/failed-to-start', rank: 6}],
	create({report, facts, schemas}) {
		return {
			onFrame(frame) {
				if (frame.stream !== 'stdout' || frame.kind !== 'response' || frame.answers?.method !== 'initialize') return;
				const problems = checkInitializeResult(
					(frame.message as {result?: unknown}).result,
					facts.offeredVersion ?? '',
					schemas,
				);
				if (problems.length === 0) return;
				// Only the TS schema's `_meta` check fails on `"_meta": null`: the Python SDK and rmcp read it as absent.
				const metaNull =
					problems.every((p) => p.reason === 'initialize-result-schema' && p.key === 'result._meta') &&
					(frame.message as {result?: {_meta?: unknown}}).result?._meta === null;
				report({
					code: 'invalid-initialize',
					stream: 'stdout',
					offset: frame.offset,
					byteLength: frame.byteLength,
					frameIndex: frame.index,
					tMs: frame.tMs,
					detail: {
						missing: problems.map((p) => p.key ?? p.reason).join(', '),
						problems: problems.map((p) => p.reason),
						messages: problems.map((p) => p.message),
						...(metaNull ? {metaNull: true} : {}),
					},
				});
			},
		};
	},
};
