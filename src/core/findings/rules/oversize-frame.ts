import type {Rule} from '../engine.js';
import {frameDraft} from '../support/frame-draft.js';
import {row, UNKNOWN} from '../support/meta.js';

/**
 * `oversize-frame` (C1; docs/findings.md): a frame larger than a known client limit. The framer measures
 * every frame (`byteLength`); this rule compares it with the framer's limits (`framing/limits.ts`).
 *
 * - > 65,536 bytes: `info`. Only clients built on asyncio's `StreamReader.readline` with its default 64 KiB
 *   limit fail (some gateways and proxies). The mainstream readers have no such limit: the TS SDK reads up
 *   to 10 MiB, the Python SDK, VS Code and rmcp are unbounded (docs/protocol.md C1–C7; measured: a 2 MiB `tools/list`
 *   works in the TS SDK v1, the Python SDK and `claude mcp list`).
 * - > 10,485,760 bytes: `error`. The TS SDK (≥ 1.30.0) closes the connection (`ReadBuffer exceeded maximum
 *   size`), F26.
 *
 * `detail`: `{limit, bytes}` (both in bytes). The rule sets the severity on the draft.
 */
export const oversizeFrame: Rule = {
	code: 'oversize-frame',
	meta: {
		severity: 'info',
		title: 'frame larger than a client limit',
		message: (d) =>
			d.severity === 'error'
				? `a ${d.byteLength.toLocaleString('en-US')}-byte frame exceeds the TS SDK's 10 MiB read-buffer cap: the connection is closed`
				: `a ${d.byteLength.toLocaleString('en-US')}-byte frame is over 64 KiB: mainstream clients read it; clients built on asyncio's default 64 KiB readline limit (some gateways) fail`,
		hint: (d) =>
			d.severity === 'error'
				? 'Keep every message under 10 MiB: return large data in pages, as resources, or as links.'
				: "Nothing to fix for mainstream clients. If a gateway built on asyncio `readline` must read it, page large results or raise that gateway's `limit`.",
		rules: ['C1'],
		doc: {
			what: "One message larger than a client can read: over 64 KiB for clients built on asyncio's default `readline` limit (some gateways and proxies; the mainstream clients read it), over 10 MiB for the TS SDK, whose read buffer closes the connection.",
			recognised:
				"The frame's length in bytes: above 65,536 an info (a niche-client limit: a 2 MiB `tools/list` works in the TS and Python SDK clients), above 10,485,760 an error.",
			variants: [
				{label: 'over 64 KiB', severity: 'info'},
				{label: 'over 10 MiB', severity: 'error'},
			],
			example: {
				steps: [{stream: 'stdout', bytes: '{"jsonrpc":"2.0","id":1,"result":{"tools":[ ... 70,000 bytes ... ]}}\n'}],
				note: 'Shortened: the real line is longer than 65,536 bytes.',
				live: true,
			},
		},
		impact: (d) =>
			d.severity === 'error'
				? row({
						'ts-sdk-v1': ['fatal', '`ReadBuffer exceeded maximum size` closes the connection (≥1.30.0)'],
						'ts-sdk-v2': ['fatal', 'closes the connection'],
						'python-sdk': ['ok', 'unbounded'],
						vscode: ['ok', 'unbounded'],
						rmcp: [
							'ok',
							'no length limit: Codex 0.171 reads a 12 MiB line (docs/clients.md#codex); a host that sets max_length fails',
						],
						cursor: UNKNOWN,
					})()
				: row({
						'ts-sdk-v1': ['ok', 'below the 10 MiB cap'],
						'ts-sdk-v2': ['ok', 'below the 10 MiB cap'],
						'python-sdk': ['ok', 'the SDK reader is unbounded; asyncio-readline clients fail at 64 KiB'],
						vscode: ['ok', 'unbounded'],
						rmcp: ['ok', 'unless max_length is set'],
						cursor: UNKNOWN,
					})(),
	},
	errors: [
		{
			on: 'transport-closed',
			rank: 2,
			likelihood: 'likely',
			why: (p) =>
				/ReadBuffer/i.test(p.message)
					? 'The TS SDK closes the connection when one line exceeds its 10 MiB read buffer.'
					: undefined,
			severity: 'error',
		},
		{
			on: 'read-buffer-exceeded',
			rank: 0,
			likelihood: 'likely',
			why: "One message line was larger than the TS SDK's 10 MiB read buffer, so it closed the connection.",
			severity: 'error',
		},
	],
	create: ({report}) => ({
		onFrameFacts(frame, {limits}, frameIndex) {
			const bytes = frame.byteLength;
			if (bytes <= limits.oversizeWarnBytes) return;
			const isError = bytes > limits.oversizeErrorBytes;
			const limit = isError ? limits.oversizeErrorBytes : limits.oversizeWarnBytes;
			report(
				frameDraft(
					'oversize-frame',
					frame,
					frame.offset,
					bytes,
					frameIndex,
					{limit, bytes},
					isError ? 'error' : 'info',
				),
			);
		},
	}),
};
