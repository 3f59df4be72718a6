import {checkInitializeResult} from '../../jsonrpc/lifecycle.js';
import {detailString, row, UNKNOWN} from '../support/meta.js';
import type {Rule} from '../engine.js';
import type {FindingDraft} from '../../types.js';

/** The problems Codex 0.171 (rmcp) was run on and fails the handshake for (docs/clients.md#codex); others are not established. */
const RMCP_FAILS: readonly string[] = ['missing-server-info', 'capability-not-object'];

/**
 * Members of the `initialize` result that the Python SDK (mcp 2.3) and rmcp (Codex 0.171) read as absent when
 * they are `null`, and connect: each measured with both clients (`_meta`, `instructions`, and these
 * capabilities). The TS SDK's schema rejects each of them.
 */
const NULL_READ_AS_ABSENT =
	/^(?:_meta|instructions|capabilities\.(?:prompts|logging|resources|completions|experimental))$/;

/** True when the result has a `null` at every problem's member and each one is in {@link NULL_READ_AS_ABSENT}. */
function onlyNullOptional(result: unknown, keys: readonly (string | undefined)[]): boolean {
	return keys.every((key) => {
		const path = key?.replace(/^result\./, '');
		if (path === undefined || !NULL_READ_AS_ABSENT.test(path)) return false;
		let at: unknown = result;
		for (const part of path.split('.'))
			at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined;
		return at === null;
	});
}

/** `detail.problems` of a draft (the reasons of {@link checkInitializeResult}). */
const problemsOf = (d: FindingDraft): readonly unknown[] =>
	Array.isArray(d.detail?.['problems']) ? (d.detail['problems'] as unknown[]) : [];

/**
 * `invalid-initialize`: the server's `initialize` result lacks `protocolVersion`, `capabilities` or
 * `serverInfo`, or has one of the wrong type (R8); once those hold, the TS SDK's own `InitializeResultSchema`
 * runs too (injected, `RuleContext.schemas`) and what it rejects is reported the same way (C1). Reported at
 * the `initialize` response on stdout, `detail: {missing, problems, messages}` ({@link checkInitializeResult}), and `metaNull: true` when the one
 * problem is a `"_meta": null` only the TS schema rejects (the Python SDK and rmcp connect: measured), or
 * `nullOptional: true` when every problem is a `null` at a member the Python SDK and rmcp read as absent
 * ({@link NULL_READ_AS_ABSENT}: `"instructions": null`, `"prompts": null`; measured, both connect).
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
			d.detail?.['nullOptional'] === true || d.detail?.['metaNull'] === true
				? "Leave an optional member out instead of writing `null`: the TS SDK's schema rejects `null` there (pydantic: `model_dump(exclude_none=True)`)."
				: Array.isArray(d.detail?.['problems']) && d.detail['problems'].includes('capability-not-object')
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
						: d.detail?.['nullOptional'] === true
							? ['ok', 'reads each `null` optional member as absent and connects (mcp 2.3, measured)']
							: ['fatal', 'validation error'],
				vscode: UNKNOWN,
				rmcp:
					d.detail?.['metaNull'] === true
						? ['ok', 'reads `"_meta": null` as no _meta and connects (Codex 0.171, docs/clients.md#codex)']
						: d.detail?.['nullOptional'] === true
							? ['ok', 'reads each `null` optional member as absent and connects (Codex 0.171, measured)']
							: RMCP_FAILS.some((p) => problemsOf(d).includes(p))
								? ['fatal', 'the result does not deserialize; the handshake fails (Codex 0.171, docs/clients.md#codex)']
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
				const result = (frame.message as {result?: unknown}).result;
				// `instructions`, a capability: the Python SDK and rmcp read `null` there as absent (measured).
				const nullOptional =
					!metaNull &&
					onlyNullOptional(
						result,
						problems.map((p) => p.key),
					);
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
						...(nullOptional ? {nullOptional: true} : {}),
					},
				});
			},
		};
	},
};
