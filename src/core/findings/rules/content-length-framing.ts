import {startsWith} from '../support/pasted.js';
import {detailNumber, row, UNKNOWN} from '../support/meta.js';
import {SILENT_SERVER_IMPACT} from './no-response.js';
import type {Rule} from '../engine.js';
import {frameDraft} from '../support/frame-draft.js';

/** What a client does with Content-Length headers the server writes to it. */
const WRITES_HEADERS_IMPACT = row({
	'ts-sdk-v1': [
		'hang',
		'logs `Unexpected token \'C\', "Content-Le"...` and `Unexpected end of JSON input`; connect times out',
	],
	'ts-sdk-v2': ['hang', 'silent until the timeout'],
	'python-sdk': ['hang', 'logs parse errors; never initializes'],
	vscode: ['hang', 'logs `Failed to parse message`'],
	rmcp: ['hang', 'skips the lines'],
	cursor: UNKNOWN,
});

/**
 * `content-length-framing` (L1–L6, R1; docs/findings.md): LSP-style `Content-Length: N` headers, a blank
 * line, then a body. The framer recognises a header block at any frame boundary and reports it as a
 * `content-length` content fact, from which this rule reports the finding at the header names; the probe reports `reprobe: true` when the server answers only
 * Content-Length-framed input. This module owns the meta.
 *
 * `detail`: `declaredLength` (bytes, or null when the value is not a number), `bodyLength` (bytes framed as
 * the body), `lengthMatches`, `bodyEnd` (`json` | `declared` | `missing` | `eof`), `missingBytes` (only when
 * the stream ended before the declared body did: declared − received bytes; then there is no separate
 * `missing-newline`, the header lines did end in LF), `hasContentType`, `lineEndings` (`crlf` | `lf`),
 * `headers`, `clientError` (what a TS SDK client logs for the first header line).
 */
export const contentLengthFraming: Rule = {
	code: 'content-length-framing',
	meta: {
		severity: 'error',
		title: 'Content-Length (LSP) framing',
		message: (d) => {
			if (d.detail?.['reprobe'] === true)
				return 'the server answers only Content-Length-framed input; MCP stdio is newline-delimited JSON';
			const missing = detailNumber(d, 'missingBytes');
			const base = `a Content-Length header block on ${d.stream}; MCP stdio is newline-delimited JSON`;
			if (missing === undefined) return base;
			const declared = detailNumber(d, 'declaredLength') ?? 0;
			return `${base}. Its body never fully arrived: ${missing.toLocaleString('en-US')} of the ${declared.toLocaleString('en-US')} declared bytes are missing`;
		},
		hint: (d) =>
			d.stream === 'stdin'
				? 'The client sends LSP framing; configure it for MCP stdio (one JSON message per line).'
				: 'Drop the headers: write `JSON + "\\n"` per message and read input line by line (MCP stdio, not LSP base protocol).',
		rules: ['L1', 'L6', 'R1'],
		doc: {
			what: 'LSP base-protocol framing: `Content-Length: N` header lines, an empty CR LF line, then a body of N bytes with no newline after it. MCP stdio is newline-delimited JSON, so a stdio MCP client never finds a message in it.',
			recognised:
				'A header block with `Content-Length` at a message boundary, on either stream (`detail` notes a `Content-Type` header, a declared length that differs from the body, LF-only headers, and `missingBytes` when the stream ends before the declared body did: then there is no separate `missing-newline`). A server that stays silent on newline-delimited input but answers a re-probe framed with Content-Length gets it too (a live probe only).',
			variants: [
				{label: 'the server writes Content-Length headers', detail: {}},
				{
					label:
						'the server answers only Content-Length-framed input (re-probe): a client, which sends newline-delimited JSON, sees a silent server',
					detail: {reprobe: true},
				},
			],
			example: {
				steps: [
					{stream: 'stdout', bytes: 'Content-Length: 54\r\n\r\n{"jsonrpc":"2.0","method":"notifications/initialized"}'},
				],
			},
		},
		// A server that answers only Content-Length input writes nothing to a client (clients send NDJSON):
		// the client sees a silent server, not header lines it could log.
		impact: (d) => (d.detail?.['reprobe'] === true ? SILENT_SERVER_IMPACT() : WRITES_HEADERS_IMPACT()),
	},
	// Header blocks on the wire are a content fact; the probe's re-probe is an `observed` mark (live only).
	errors: [
		{
			on: ['v8-unexpected-token', 'v8-unexpected-token-old'],
			rank: 0,
			likelihood: 'likely',
			why: (p) =>
				p.line?.kind === 'content-length'
					? `${startsWith(p)}: an LSP \`Content-Length:\` header. The server frames messages like a language server; MCP stdio is one JSON message per line.`
					: undefined,
		},
		{
			on: 'v8-end-of-input',
			rank: 1,
			likelihood: 'possible',
			why: 'The blank line may be the one after LSP `Content-Length:` headers (`\\r\\n\\r\\n`); then the log also shows `Unexpected token \'C\', "Content-Le"…`.',
		},
		{
			on: 'python-parse-failed',
			rank: 0,
			likelihood: 'likely',
			why: (p) =>
				p.line?.kind === 'content-length'
					? "pydantic's input_value is a `Content-Length:` header: the server uses LSP framing."
					: undefined,
		},
		{
			on: 'claude-code-failed-to-connect',
			rank: 4,
			likelihood: 'possible',
			why: 'The server speaks LSP Content-Length framing.',
		},
		{
			on: ['request-timed-out', 'claude-code-connection-timeout'],
			rank: 5,
			likelihood: 'possible',
			why: 'Or it was framed with Content-Length headers, which an MCP stdio client does not read.',
		},
	],
	clientTexts: [{text: 'codex/failed-to-start', rank: 4}],
	create: ({report}) => ({
		onFrameFacts(frame, {content}, frameIndex) {
			if (content?.kind !== 'content-length') return;
			report(
				frameDraft('content-length-framing', frame, content.at, content.length, frameIndex, {
					declaredLength: content.declaredLength,
					bodyLength: content.bodyLength,
					lengthMatches: content.declaredLength === content.bodyLength,
					bodyEnd: content.bodyEnd,
					// The header lines ended; the body did not fully arrive: how many declared bytes never came.
					...(content.missingBytes === undefined ? {} : {missingBytes: content.missingBytes}),
					hasContentType: content.hasContentType,
					lineEndings: content.lineEndings,
					headers: content.headers,
					clientError: content.clientError,
				}),
			);
		},
		onMark(mark) {
			if (mark.type !== 'observed' || mark.what !== 'reprobe-answered') return;
			report({
				code: 'content-length-framing',
				stream: 'stdout',
				offset: mark.offset,
				byteLength: 0,
				tMs: mark.tMs,
				origin: 'probe',
				detail: mark.detail,
			});
		},
	}),
};
