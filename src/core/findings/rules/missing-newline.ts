import type {Rule} from '../engine.js';
import {frameDraft} from '../support/frame-draft.js';
import {detailNumber, row, UNKNOWN} from '../support/meta.js';

/**
 * `missing-newline` (R1, O4): bytes without a terminating LF when the stream ends: a newline frame whose
 * terminator is `none` (the framer frames pending bytes so only at the end of the stream, so the frame
 * ends where the stream does). `detail.bytes`; `detail.cutAt64KiB` when the stream's length is a multiple
 * of the pipe block (the `process.exit()`-before-drain fingerprint); `detail.isTruncatedJson` for the
 * start of a JSON value cut there (F25). A Content-Length body cut short is that rule's `missingBytes`.
 */
export const missingNewline: Rule = {
	code: 'missing-newline',
	meta: {
		severity: 'error',
		title: 'message without a terminating newline',
		message: (d) =>
			d.detail?.['cutAt64KiB'] === true
				? `the last message is cut at a multiple of 65,536 bytes with no newline: the process exited before the pipe drained`
				: detailNumber(d, 'bytes') === undefined
					? `the last bytes on ${d.stream} have no terminating newline`
					: `the last ${detailNumber(d, 'bytes')!.toLocaleString('en-US')} bytes on ${d.stream} have no terminating newline`,
		hint: (d) =>
			d.detail?.['cutAt64KiB'] === true
				? 'Do not call `process.exit()` right after writing: let stdout drain (exit from the write callback, or set `process.exitCode`).'
				: 'End every message with "\\n" and flush it.',
		rules: ['R1', 'O4'],
		doc: {
			what: 'A message whose terminating LF never comes: the last bytes were still in a buffer when the process ended, or the output was cut short.',
			recognised:
				"Bytes without an LF pending when the stream ends (or idle past the probe's timeout). A cut at a multiple of 65,536 bytes is the fingerprint of `process.exit()` before the pipe drained ([O4](docs/protocol.md#o4)).",
			example: {
				steps: [
					{stream: 'stdout', bytes: '{"jsonrpc":"2.0","method":"notifications/initialized"}'},
					{exit: 0, tMs: 5},
				],
				note: 'The message has no `0A`; clients wait for it and drop the bytes at EOF.',
			},
		},
		impact: row({
			'ts-sdk-v1': ['hang', 'waits for the newline; discards the bytes at EOF'],
			'ts-sdk-v2': ['hang', 'waits for the newline'],
			'python-sdk': ['hang', 'keeps the tail buffered'],
			vscode: ['hang', 'waits for the newline'],
			rmcp: ['hang', 'discards a partial last line'],
			cursor: UNKNOWN,
		}),
	},
	errors: [
		{
			on: 'request-timed-out',
			rank: 4,
			likelihood: 'possible',
			why: 'Or it was written without the final "\\n", so the client never sees the line end.',
		},
	],
	create: ({report}) => ({
		onFrameFacts(frame, facts, frameIndex) {
			if (frame.framing !== 'newline' || frame.terminator !== 'none') return;
			const streamBytes = frame.offset + frame.byteLength;
			report(
				frameDraft('missing-newline', frame, frame.offset, frame.byteLength, frameIndex, {
					bytes: frame.byteLength,
					cutAt64KiB: streamBytes > 0 && streamBytes % facts.limits.pipeBlockBytes === 0,
					...(facts.content?.kind === 'cut-json' ? {isTruncatedJson: true} : {}),
				}),
			);
		},
	}),
};
