import type {Rule} from '../engine.js';
import {frameDraft} from '../support/frame-draft.js';
import {detailNumber, detailString, row, UNKNOWN} from '../support/meta.js';
import {CUT_JSON_CAUSES, cutWriteOf, drainFix, isCleanExit} from '../support/exit-before-drain.js';
import type {ExitInfo, FindingDraft} from '../../types.js';

/**
 * `missing-newline` (R1, O4): bytes without a terminating LF when the stream ends: a newline frame whose
 * terminator is `none` (the framer frames pending bytes so only at the end of the stream, so the frame
 * ends where the stream does). `detail.bytes`; `detail.cutAt64KiB` when the stream's length is a multiple
 * of the pipe block; `detail.isTruncatedJson` for the start of a JSON value cut there (F25); `detail.loneCr`
 * when the bytes end in a CR (lines ended by a lone CR, which no client splits on).
 *
 * A large cut JSON value is held until the exit: a clean exit (code 0, no signal) completes the evidence
 * of an exit before stdout drained (`support/exit-before-drain.ts`) and sets `detail.exitBeforeDrain`, so
 * the fix names it; without that exit the finding says what was seen and the likely causes. A
 * Content-Length body cut short is that rule's `missingBytes`.
 */
export const missingNewline: Rule = {
	code: 'missing-newline',
	meta: {
		severity: 'error',
		title: 'message without a terminating newline',
		message: (d) => {
			const bytes = detailNumber(d, 'bytes');
			const size = bytes === undefined ? 'the last message' : `the last ${bytes.toLocaleString('en-US')} bytes`;
			if (d.detail?.['exitBeforeDrain'] === true)
				return `${size} on ${d.stream} are a JSON value cut short, and the process then exited with code 0: it exited before stdout drained`;
			if (d.detail?.['isTruncatedJson'] === true)
				return `${size} on ${d.stream} are a JSON value cut short, with no newline${d.detail['cutAt64KiB'] === true ? ' (the stream ends at a multiple of 65,536 bytes)' : ''}`;
			if (d.detail?.['loneCr'] === true)
				return `${size} on ${d.stream} end in a lone CR ("\\r"), with no LF: clients split lines on LF only and never see this one end`;
			return `${size} on ${d.stream} have no terminating newline`;
		},
		hint: (d) => {
			if (d.detail?.['exitBeforeDrain'] === true) return drainFix(detailString(d, 'runtime'));
			if (d.detail?.['isTruncatedJson'] === true) return CUT_JSON_CAUSES;
			if (d.detail?.['loneCr'] === true)
				return 'End every message with "\\n" (LF, 0x0A), not a lone "\\r" (CR, 0x0D), and flush it.';
			return 'End every message with "\\n" and flush it.';
		},
		rules: ['R1', 'O4'],
		doc: {
			what: 'A message whose terminating LF never comes: the last bytes were still in a buffer when the process ended, or the output was cut short.',
			recognised:
				"Bytes without an LF pending when the stream ends (or idle past the probe's timeout). When they are the start of a JSON value cut after at least 65,536 bytes (or where the stream ends at a multiple of 65,536) and the process then exits with code 0 and no signal, the process exited before stdout drained ([O4](docs/protocol.md#o4), F25): the message says so. On a pipe the cut lands on 65,536 bytes; on the socket pair a Node-spawned child gets, anywhere from about 200 to 440 KB. A cut JSON value without that exit is reported as what was seen, with the likely causes. Bytes that end in a lone CR (`detail.loneCr`) are a writer ending lines with CR instead of LF: the message says so.",
			fix: 'A message that is whole but lacks its LF: end every message with `\\n` and flush it. A cut JSON value followed by exit code 0: in Node, set `process.exitCode` and return, or call `process.exit()` in the callback of the last write (`stdout.write(line, () => process.exit(0))`); in Python, `sys.stdout.flush()` before `os._exit()`.',
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
	create: ({report, facts}) => {
		/** A large cut JSON value, held until the exit says whether it was an exit before drain. */
		let held: FindingDraft | undefined;
		const release = (exit: ExitInfo | undefined): void => {
			if (!held) return;
			const draft = held;
			held = undefined;
			if (!exit || !isCleanExit(exit)) return report(draft);
			const runtime = facts.runtime === undefined ? {} : {runtime: facts.runtime};
			report({...draft, detail: {...draft.detail, exitBeforeDrain: true, ...runtime}});
		};
		return {
			onFrameFacts(frame, frameFacts, frameIndex) {
				if (frame.framing !== 'newline' || frame.terminator !== 'none') return;
				const streamBytes = frame.offset + frame.byteLength;
				const draft = frameDraft('missing-newline', frame, frame.offset, frame.byteLength, frameIndex, {
					bytes: frame.byteLength,
					cutAt64KiB: streamBytes > 0 && streamBytes % frameFacts.limits.pipeBlockBytes === 0,
					...(frameFacts.content?.kind === 'cut-json' ? {isTruncatedJson: true} : {}),
					...(frameFacts.loneCrEnd === true ? {loneCr: true} : {}),
				});
				if (!cutWriteOf(frame, frameFacts)) return report(draft);
				held = draft;
				if (facts.exit) release(facts.exit);
			},
			// Released before early-exit's finding for the same exit, so the cut reads first (engine `onDraft`).
			onDraft(draft) {
				if (draft.code === 'early-exit' && facts.exit) release(facts.exit);
				return undefined;
			},
			onExit: (exit) => release(exit),
			// Without an exit (a capture cut short, the TUI holding the session) the cut is all there is.
			onSettle: () => release(facts.exit),
			onEnd: () => release(facts.exit),
		};
	},
};
