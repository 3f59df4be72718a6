import type {ClientImpact, FindingDraft, Frame, Reaction} from '../../types.js';
import type {NonPortableToken} from '../../framing/facts.js';
import {rejectsNonFiniteAt} from '../../clients/profile.js';
import {TS_SDK_V2} from '../../clients/sdks/ts-sdk-v2.js';
import {detailNumber, detailString, FAMILIES, row, UNKNOWN} from '../support/meta.js';
import {atFrame} from '../support/catalogue.js';
import type {Rule} from '../engine.js';

type Reason = NonPortableToken['reason'] | 'number-overflow';

const reasonOf = (d: FindingDraft): Reason => (detailString(d, 'reason') ?? 'lone-surrogate') as Reason;

/** How many tokens or paths one finding lists in its `detail` (the first is the one a user reads). */
const LISTED = 8;

/** The methods whose results are walked for numbers beyond a double's range: the ones a client validates first. */
const OVERFLOW_METHODS: ReadonlySet<string> = new Set(['initialize', 'tools/list']);

/** `` `NaN` at byte 341 `` and how many more, for the message. */
function tokensText(d: FindingDraft): string {
	const more = (detailNumber(d, 'count') ?? 1) - 1;
	const first = `\`${detailString(d, 'token') ?? 'NaN'}\` at byte ${d.offset ?? 0}`;
	return more > 0 ? `${first} (and ${more} more)` : first;
}

/** What the frame is to the client: `the reply to tools/list` or `the line`. */
const carrier = (d: FindingDraft): string => {
	const method = detailString(d, 'method');
	return method === undefined ? 'the line' : `the reply to ${method}`;
};

function message(d: FindingDraft): string {
	switch (reasonOf(d)) {
		case 'lone-surrogate':
			return `the escape ${detailString(d, 'token') ?? ''} is a lone UTF-16 surrogate: JSON.parse accepts it, strict parsers (Python, Rust serde_json) reject the message`;
		case 'unsafe-integer':
			return `the integer ${detailString(d, 'token') ?? ''} is beyond ±(2^53−1): JavaScript clients round it and lose digits`;
		case 'non-finite':
			return `${tokensText(d)} is not JSON (RFC 8259 has no NaN or Infinity): JSON.parse and serde_json reject the whole line, so ${carrier(d)} never reaches TS SDK clients, VS Code or rmcp; only the Python SDK reads it`;
		case 'number-overflow': {
			const v2 = d.detail?.['v2Rejects'] === true;
			return `\`${detailString(d, 'path') ?? ''}\` in the ${detailString(d, 'method') ?? ''} result is a number beyond a double's range: JSON.parse reads it as ${detailString(d, 'value') ?? 'Infinity'}${
				v2 ? `, and the TS SDK 2.x client rejects the result (its schema wants a finite number there)` : ''
			}`;
		}
	}
}

function hint(d: FindingDraft): string {
	switch (reasonOf(d)) {
		case 'lone-surrogate':
			return 'Do not cut strings inside a surrogate pair (truncate on code points, not UTF-16 units), and escape whole characters.';
		case 'unsafe-integer':
			return 'Send integers beyond ±(2^53−1) as strings.';
		case 'non-finite':
			return "Write only finite numbers: serialize with `json.dumps(message, allow_nan=False)` (it raises instead of writing NaN or Infinity), and replace a non-finite value (a `float('inf')` bound or default in a schema) with a finite number, or leave the keyword out.";
		case 'number-overflow':
			return 'Write numbers a double can hold (|x| < 1.8e308): leave an unbounded `maximum`/`minimum` out instead of writing a huge one, or send the value as a string.';
	}
}

/** The reactions to a number beyond a double's range; `v2` whether the TS SDK 2.x client's schema rejects it there. */
function overflowImpact(d: FindingDraft): readonly ClientImpact[] {
	const method = detailString(d, 'method') ?? 'tools/list';
	const readsInfinity: readonly [Reaction, string] = [
		'corrupt',
		'JSON.parse reads the number as ±Infinity, which JSON.stringify writes back as `null`; the request succeeds (1.32.2 run here)',
	];
	const cells: Record<string, readonly [Reaction, string]> = {
		'ts-sdk-v1': readsInfinity,
		'ts-sdk-v2':
			d.detail?.['v2Rejects'] === true
				? [
						'drop-log',
						`rejects \`Invalid result for ${method}: … expected number, received Infinity\` (its JSON-value schema, zod 4's \`z.number()\`; 2.4.0 run here, docs/clients.md#non-finite-numbers)${method === 'initialize' ? ': connect fails' : ': no tools listed'}`,
					]
				: ['corrupt', 'JSON.parse reads the number as ±Infinity; the request succeeds (2.4.0 run here)'],
		'python-sdk': [
			'corrupt',
			'pydantic reads the number as the float `inf`; the request succeeds (mcp 2.3.0, measured)',
		],
		rmcp: [
			'ok',
			'Codex 0.171 connects and lists the tools (measured with 1e400 in a property, in `_meta` and in `capabilities.experimental`)',
		],
	};
	return FAMILIES.map((client) => {
		const [reaction, note] = cells[client] ?? UNKNOWN;
		return {client, reaction, note};
	});
}

const NON_FINITE_IMPACT = row({
	'ts-sdk-v1': [
		'skip-log',
		"JSON.parse throws on the token (`Unexpected token 'I'`, `Unexpected token 'N'`, `No number after minus sign`): logs the parse error and drops the line; a reply in it never arrives and its request times out (1.32.2 run here)",
	],
	'ts-sdk-v2': [
		'skip',
		'JSON.parse throws: skips the line silently; a reply in it never arrives and its request times out (2.4.0 run here)',
	],
	'python-sdk': [
		'ok',
		'pydantic reads `NaN`, `Infinity` and `-Infinity` as floats: the message is accepted (mcp 2.3.0 lists the tools, measured)',
	],
	vscode: ['skip-log', 'its JSON.parse throws: logs `Failed to parse message` and drops the line'],
	rmcp: [
		'skip',
		'serde_json rejects the line: Codex 0.171 drops it and times out (`timed out awaiting tools/list`, `timed out handshaking`, measured)',
	],
	cursor: UNKNOWN,
});

const SURROGATE_IMPACT = row({
	'ts-sdk-v1': ['ok', 'JSON.parse keeps the lone unit; the message is accepted'],
	'ts-sdk-v2': ['ok', 'JSON.parse keeps the lone unit; the message is accepted'],
	'python-sdk': [
		'drop-log',
		'logs a parse error and drops the line; a reply in it never arrives and its request times out (measured, mcp 2.3)',
	],
	vscode: UNKNOWN,
	rmcp: [
		'skip',
		'rejects the whole line (serde_json refuses a lone surrogate); a reply in it never arrives: Codex 0.171 times out (docs/clients.md#codex)',
	],
	cursor: UNKNOWN,
});

const UNSAFE_INTEGER_IMPACT = row({
	'ts-sdk-v1': ['corrupt', 'JSON.parse rounds the integer to the nearest double'],
	'ts-sdk-v2': ['corrupt', 'JSON.parse rounds the integer to the nearest double'],
	'python-sdk': UNKNOWN,
	vscode: ['corrupt', 'JSON.parse rounds the integer to the nearest double'],
	rmcp: UNKNOWN,
	cursor: UNKNOWN,
});

/** The non-finite numbers inside `value`, depth first in key order: each one's dotted path and value. */
function nonFiniteNumbers(value: unknown, path: string, out: {path: string; value: number}[]): number {
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) out.push({path, value});
		return out.length;
	}
	if (value === null || typeof value !== 'object') return out.length;
	if (Array.isArray(value)) {
		value.forEach((item, index) => nonFiniteNumbers(item, path === '' ? String(index) : `${path}.${index}`, out));
		return out.length;
	}
	for (const key in value)
		nonFiniteNumbers((value as Record<string, unknown>)[key], path === '' ? key : `${path}.${key}`, out);
	return out.length;
}

/**
 * The `number-overflow` draft of a response to `initialize` or `tools/list` whose result holds a number
 * `JSON.parse` read as ±Infinity, or undefined. `error` when the TS SDK 2.x client rejects the result there.
 */
function overflowDraft(frame: Frame): FindingDraft | undefined {
	const method = frame.answers?.method;
	if (frame.stream !== 'stdout' || frame.kind !== 'response' || method === undefined) return undefined;
	if (!OVERFLOW_METHODS.has(method)) return undefined;
	const found: {path: string; value: number}[] = [];
	if (nonFiniteNumbers((frame.message as {result?: unknown}).result, '', found) === 0) return undefined;
	const rejected = found.find((f) => rejectsNonFiniteAt(TS_SDK_V2, method, f.path));
	const first = rejected ?? found[0]!;
	return {
		code: 'non-portable-json',
		...atFrame(frame),
		detail: {
			reason: 'number-overflow',
			method,
			path: first.path,
			value: String(first.value),
			v2Rejects: rejected !== undefined,
			paths: found.slice(0, LISTED).map((f) => f.path),
			count: found.length,
		},
		severity: rejected === undefined ? 'warning' : 'error',
	};
}

/**
 * `non-portable-json` (R3, J1, R26): a message that one client's JSON parser reads and another rejects or reads
 * differently. From the framer's `nonPortable` facts (`framing/portability.ts`), looked for only in a body
 * that holds a `\u` escape or a run of 16+ digits, or in a line `JSON.parse` already rejected, so the hot
 * path stays one `JSON.parse`:
 * - `lone-surrogate` (error): a `\uD800–\uDBFF` escape not followed by a `\uDC00–\uDFFF` escape, or a
 *   lone low one. The MCP Python SDK (mcp 2.3, measured) logs a parse error and drops the line; a reply
 *   in it never arrives. JavaScript keeps the lone unit. One finding per token, at its byte.
 * - `unsafe-integer` (warning): an integer token beyond ±(2^53−1); JavaScript rounds it (digits lost).
 * - `non-finite` (error): `NaN`, `Infinity`, `-Infinity` tokens (Python's `json.dumps` default). JSON.parse
 *   and serde_json reject the line; the Python SDK reads it, so the framer frames the message it reads.
 *   One finding per frame, at the first token's byte; `detail.tokens` lists each token and its byte.
 * And from the parsed results of `initialize` and `tools/list` (what clients validate first), walked only
 * there: `number-overflow` (a number beyond a double's range, which JSON.parse reads as ±Infinity), one per
 * frame at the response, `detail: {method, path, value, v2Rejects, paths, count}`; `error` where the TS SDK
 * 2.x client's schema rejects a non-finite number (`finiteNumbersAt` of its module), else `warning`.
 *
 * `offset` is the stream byte of the escape, number or token (the response for `number-overflow`),
 * `byteLength` its length. `detail`: `reason`, `token` (as written), and per reason as above.
 */
export const nonPortableJson: Rule = {
	code: 'non-portable-json',
	meta: {
		severity: 'error',
		title: 'JSON that strict parsers reject or read differently',
		message,
		hint,
		rules: ['R3', 'J1', 'R26'],
		doc: {
			what: "A message that one client's JSON parser reads and another rejects or reads differently: a lone UTF-16 surrogate escape (`\\ud83d` without its low half, usually a string cut in the middle of an emoji), an integer beyond ±(2^53−1) that JavaScript rounds, a `NaN` / `Infinity` / `-Infinity` token (not JSON; Python's `json.dumps` writes them by default, and only the Python SDK reads them), or a number beyond a double's range (`1e400`) that JSON.parse reads as `Infinity`, which the TS SDK 2.x client's schema rejects inside a tool's `inputSchema.properties`.",
			recognised:
				'For a frame that holds a `\\u` escape or a run of 16 or more digits, one string-aware pass over the text; for a line `JSON.parse` rejected with a non-finite token, the tokens and the message read as Python reads it; for the result of `initialize` and `tools/list`, a walk for numbers JSON.parse read as ±Infinity. Reported at the byte of the escape, number or first token (at the response for a number beyond a double), with `detail.reason` `lone-surrogate` (error: the Python SDK drops the line), `unsafe-integer` (warning), `non-finite` (error: every client but the Python SDK drops the line) or `number-overflow` (error where the TS SDK 2.x client rejects it, else warning).',
			variants: [
				{label: 'a lone surrogate escape', detail: {reason: 'lone-surrogate'}},
				{label: 'an integer beyond ±(2^53−1)', severity: 'warning', detail: {reason: 'unsafe-integer'}},
				{label: '`NaN` / `Infinity` tokens', detail: {reason: 'non-finite', method: 'tools/list'}},
				{
					label: "a number beyond a double's range in a tool's `inputSchema.properties`",
					detail: {reason: 'number-overflow', method: 'tools/list', v2Rejects: true},
				},
				{
					label: "a number beyond a double's range elsewhere",
					severity: 'warning',
					detail: {reason: 'number-overflow', method: 'tools/list', v2Rejects: false},
				},
			],
			example: {
				steps: [
					{
						stream: 'stdout',
						bytes: '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"cut \\ud83d"}]}}\n',
					},
				],
				note: '`\\ud83d` is a high surrogate with no low half after it.',
			},
		},
		impact: (d) => {
			switch (reasonOf(d)) {
				case 'lone-surrogate':
					return SURROGATE_IMPACT();
				case 'unsafe-integer':
					return UNSAFE_INTEGER_IMPACT();
				case 'non-finite':
					return NON_FINITE_IMPACT();
				case 'number-overflow':
					return overflowImpact(d);
			}
		},
	},
	errors: [
		{
			on: 'v8-non-finite',
			rank: 0,
			likelihood: 'likely',
			why: "The line holds `NaN` or `Infinity` as a number, which is not JSON (R26): Python's `json.dumps` writes them for non-finite floats unless `allow_nan=False`. JSON.parse drops the line (a reply in it never arrives); only the Python SDK reads it.",
			detail: {reason: 'non-finite'},
		},
		{
			on: 'v8-minus-sign',
			rank: 1,
			likelihood: 'possible',
			// A line that starts with `- ` stops at 1 (3 when indented); `{"a":-Infinity}` at 6.
			why: (p) =>
				Number(p.match[1]) >= 5
					? "Or a message holds `-Infinity` as a number, which is not JSON (R26): Python's `json.dumps` writes it for `float('-inf')` unless `allow_nan=False`."
					: undefined,
			detail: {reason: 'non-finite'},
		},
	],
	create: ({report}) => {
		// The non-finite tokens of the frame whose facts came last, reported at that frame once it is correlated.
		let pending: {readonly frameIndex: number | undefined; readonly tokens: NonPortableToken[]} | undefined;
		const reportNonFinite = (
			frame: Frame | undefined,
			tMs: number,
			tokens: NonPortableToken[],
			stream: Frame['stream'],
			frameIndex: number | undefined,
		): void => {
			const first = tokens[0]!;
			const method = frame?.answers?.method ?? frame?.method;
			const draft: FindingDraft = {
				code: 'non-portable-json',
				stream,
				offset: first.at,
				byteLength: first.length,
				tMs,
				detail: {
					reason: 'non-finite',
					token: first.token,
					...(method === undefined ? {} : {method}),
					tokens: tokens.slice(0, LISTED).map((t) => ({token: t.token, offset: t.at})),
					count: tokens.length,
				},
			};
			report(frameIndex === undefined ? draft : {...draft, frameIndex});
		};
		return {
			onFrameFacts(frame, {nonPortable}, frameIndex) {
				if (nonPortable === undefined) return;
				const nonFinite: NonPortableToken[] = [];
				for (const token of nonPortable) {
					if (token.reason === 'non-finite') {
						nonFinite.push(token);
						continue;
					}
					const draft: FindingDraft = {
						code: 'non-portable-json',
						stream: frame.stream,
						offset: token.at,
						byteLength: token.length,
						tMs: frame.tMs,
						detail: {reason: token.reason, token: token.token},
					};
					// `severity` after `detail`, `frameIndex` last: the key order the framer's drafts had.
					const judged: FindingDraft = token.reason === 'unsafe-integer' ? {...draft, severity: 'warning'} : draft;
					report(frameIndex === undefined ? judged : {...judged, frameIndex});
				}
				if (nonFinite.length === 0) return;
				if (frameIndex === undefined) reportNonFinite(undefined, frame.tMs, nonFinite, frame.stream, undefined);
				else pending = {frameIndex, tokens: nonFinite};
			},
			onFrame(frame) {
				if (pending !== undefined && pending.frameIndex === frame.index) {
					const {tokens} = pending;
					pending = undefined;
					reportNonFinite(frame, frame.tMs, tokens, frame.stream, frame.index);
					return;
				}
				const draft = overflowDraft(frame);
				if (draft !== undefined) report(draft);
			},
		};
	},
};
