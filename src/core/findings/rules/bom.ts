import type {Rule} from '../engine.js';
import {frameDraft} from '../support/frame-draft.js';
import {row, UNKNOWN} from '../support/meta.js';

/**
 * `bom` (R4): a UTF-8 byte order mark before a message: the framer's `bom` fact, at the frame's first
 * byte (`detail.clientError`: what `JSON.parse` says of the line with it, when it is JSON text).
 */
export const bom: Rule = {
	code: 'bom',
	meta: {
		severity: 'error',
		title: 'UTF-8 byte order mark',
		message: (d) => `a byte order mark (EF BB BF) before a message on ${d.stream}`,
		hint: () =>
			'Write UTF-8 without BOM: Python `encoding="utf-8"` (not "utf-8-sig"); .NET `new UTF8Encoding(false)`; PowerShell `[Console]::OutputEncoding = [Text.UTF8Encoding]::new($false)`.',
		rules: ['R4'],
		doc: {
			what: 'A UTF-8 byte order mark (`EF BB BF`) in front of a message. JSON parsers reject it, so the first message (usually the `initialize` reply) is lost.',
			recognised: 'The bytes `EF BB BF` at the start of the stream or of a line.',
			example: {
				steps: [{stream: 'stdout', bytes: '\xEF\xBB\xBF{"jsonrpc":"2.0","method":"notifications/initialized"}\n'}],
			},
		},
		impact: row({
			'ts-sdk-v1': ['hang', 'JSON.parse rejects U+FEFF: the first message (the initialize reply) is lost'],
			'ts-sdk-v2': ['hang', 'skips the line silently; connect times out'],
			'python-sdk': ['hang', 'pydantic rejects the line; the first message is lost'],
			vscode: ['hang', 'the first message is lost'],
			rmcp: ['ok', 'strips a leading BOM (since 1.7.0)'],
			cursor: UNKNOWN,
		}),
	},
	errors: [
		{
			on: ['v8-unexpected-token', 'v8-unexpected-token-old'],
			rank: 0,
			likelihood: 'likely',
			why: (p) =>
				p.line?.kind === 'bom'
					? 'The offending character is U+FEFF, a UTF-8 byte order mark (EF BB BF) before the first message.'
					: undefined,
		},
		{
			on: 'claude-code-failed-to-connect',
			rank: 5,
			likelihood: 'possible',
			why: 'A byte order mark spoils the `initialize` result.',
		},
		{
			on: 'request-timed-out',
			rank: 6,
			likelihood: 'possible',
			why: 'Or a byte order mark (EF BB BF) came before it, and the client could not parse the line.',
		},
	],
	create: ({report}) => ({
		onFrameFacts(frame, {bom}, frameIndex) {
			if (bom === undefined) return;
			const detail = bom.clientError === undefined ? undefined : {clientError: bom.clientError};
			report(frameDraft('bom', frame, frame.offset, 3, frameIndex, detail));
		},
	}),
};
