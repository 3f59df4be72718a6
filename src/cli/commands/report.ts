import {statSync} from 'node:fs';
import {writeFile} from 'node:fs/promises';
import {createReadProgress, framesOf} from '../read-progress.js';
import {Command} from 'commander';
import {SDK_SCHEMAS} from '../../core/jsonrpc/sdk-schemas.js';
import {describeIncomplete} from '../../captures/attach.js';
import {
	bytesSource,
	fileSource,
	openCapture,
	type OpenCaptureOptions,
	type RecordSource,
} from '../../captures/open-capture.js';
import {buildReport, DEFAULT_MAX_LINES} from '../../render/report/markdown.js';
import {keepForReport, type ReportKeeper} from '../../render/report/keep.js';
import {UsageError} from '../exit-codes.js';
import {parseMaxLines} from '../options.js';
import {fileErrorReason, problemLines} from '../file-errors.js';
import {localRedactOptions} from '../redact-options.js';
import {VERSION} from '../version.js';

/** Where a command reads and writes (injected in tests). */
export interface CommandIo {
	readonly writeOut: (text: string) => void;
	readonly writeErr: (text: string) => void;
	/** Reads all of stdin as UTF-8; rejects when stdin is a terminal (nothing piped). */
	readonly readStdin: () => Promise<string>;
	/**
	 * Reads all of stdin as bytes (a format-2 capture is binary: decoding it as UTF-8 would corrupt it);
	 * rejects as {@link CommandIo.readStdin} does. Absent in tests that give text: then `readStdin`'s UTF-8.
	 */
	readonly readStdinBytes?: () => Promise<Buffer>;
}

/** All of the process's stdin, as bytes; a UsageError when stdin is a terminal (nothing piped). */
async function processStdinBytes(): Promise<Buffer> {
	if (process.stdin.isTTY) {
		throw new UsageError('no input: pass a FILE, or pipe one into stdin');
	}

	const parts: Buffer[] = [];
	for await (const part of process.stdin) {
		parts.push(typeof part === 'string' ? Buffer.from(part) : (part as Buffer));
	}

	return Buffer.concat(parts);
}

/** The process's own stdout, stderr and stdin. */
export const PROCESS_IO: CommandIo = {
	writeOut: (text) => process.stdout.write(text),
	writeErr: (text) => process.stderr.write(text),
	async readStdin() {
		return (await processStdinBytes()).toString('utf8');
	},
	readStdinBytes: processStdinBytes,
};

// Here, not in this module: `probe --json` needs it without loading the report (docs/performance.md#replay).
export {localRedactOptions} from '../redact-options.js';

interface ReportFlags {
	readonly out?: string;
	readonly maxLines: number;
	readonly redact: boolean;
	readonly redactPayloads?: boolean;
}

/**
 * `mcp-wire report [FILE]`: renders a saved capture or `--json` dump as the Markdown support report
 * (render/report/markdown.ts): decode the records (core/capture/record-codec.ts), replay them through a
 * fresh Session (core/session/replay.ts), render. FILE `-` or absent reads stdin. A capture cut short
 * still renders (the report says so, and a note goes to stderr). Exit code 0; 2 for a usage error
 * (unreadable file, not a capture).
 * @param io where to read and write (default: the process's stdio).
 */
export function reportCommand(io: CommandIo = PROCESS_IO): Command {
	return new Command('report')
		.description('render a capture file or --json dump as a Markdown report to paste into an issue (redacted)')
		.argument('[file]', 'capture file or --json dump (- or absent: stdin)')
		.option('--out <file>', 'write the report to FILE instead of stdout')
		.option(
			'--max-lines <n>',
			'line budget; longer parts shrink and the report says what it left out',
			parseMaxLines,
			DEFAULT_MAX_LINES,
		)
		.option('--no-redact', 'show home directory, user name and secret-looking values as captured')
		.option('--redact-payloads', 'also mask every JSON string value in frames (lengths kept)')
		.addHelpText(
			'after',
			'\nRedaction is on by default: the home directory becomes ~, the user name <user>, secret-looking\nvalues <redacted>; masked bytes show as * so offsets and byte counts stay true.',
		)
		.action(async (file: string | undefined, flags: ReportFlags) => {
			const isStdin = file === undefined || file === '-';
			const name = isStdin ? 'stdin' : file;
			// The session keeps nothing; the keeper keeps what the report prints (flat memory, docs/performance.md#replay).
			let keeper: ReportKeeper | undefined;
			let incompleteLine: string | undefined;
			// A line on a terminal stderr while a big capture file is read (never on stdout), erased before anything else goes there.
			const progress = createReadProgress({stderr: isStdin ? {} : process.stderr, totalBytes: sizeOf(file)});
			const options: OpenCaptureOptions = {
				replay: {
					schemas: SDK_SCHEMAS,
					retain: false,
					onSession: (session) => {
						keeper = keepForReport(session, {maxLines: flags.maxLines});
					},
					onProblem: (message) => {
						progress.done();
						io.writeErr(`mcp-wire: ${name}: ${message}\n`);
					},
				},
				// Said at the header (first, before any output), so a file cut inside its header gets one line.
				onCompleteness: (completeness) => {
					incompleteLine = describeIncomplete(completeness);
				},
				onReplay: () => {
					if (incompleteLine !== undefined) io.writeErr(`mcp-wire: ${name}: ${incompleteLine}\n`);
				},
				...(isStdin ? {} : {onProgress: (bytesRead, replay) => progress.update(bytesRead, () => framesOf(replay))}),
			};
			const readStdin = async (): Promise<Buffer> =>
				io.readStdinBytes ? io.readStdinBytes() : Buffer.from(await io.readStdin(), 'utf8');
			const source: RecordSource = isStdin
				? async (handlers) => bytesSource(await readStdin())(handlers)
				: fileSource(file);
			const opened = await openCapture(source, options);
			progress.done();
			const {reader, replay, replayError, isBinary: isBinaryCapture} = opened;
			if (reader === undefined) {
				if (opened.readError instanceof UsageError) throw opened.readError;
				throw new UsageError(`cannot read ${name}: ${fileErrorReason(opened.readError)}`);
			}

			if (replay === undefined) {
				// A binary capture (its completeness was read from its end) without a whole header was cut inside it.
				if (isBinaryCapture)
					throw new UsageError(
						`${name} is an mcp-wire capture cut short inside its session header: there is nothing to report`,
					);
				throw new UsageError(`${name} is not an mcp-wire capture or --json dump (no session header)`);
			}

			// A record skipped as bad is said as `view` says it: the report covers the rest, and nothing is dropped
			// unsaid. A cut last record (the last problem) is said below as the capture being cut short.
			const problems = reader.isTruncated ? reader.problems.slice(0, -1) : reader.problems;
			for (const line of problemLines(name, problems)) io.writeErr(line);

			// A --json dump tells what its capture lacked only in its records (gap marks, the summary's
			// `incomplete`): said here, after reading, as a capture's end record is said at its header (a
			// dump that is itself cut gets the next line instead).
			const completeness = reader.completeness;
			if (!isBinaryCapture) {
				const line = describeIncomplete({...completeness, cutShort: completeness.cutShort && !reader.isTruncated});
				if (line !== undefined) io.writeErr(`mcp-wire: ${name}: ${line}\n`);
			}

			// A binary capture cut short was already said so at its header (its end record is missing): once is enough.
			if (reader.isTruncated && !(isBinaryCapture && completeness.cutShort)) {
				io.writeErr(`mcp-wire: ${name} is cut short; the report covers the records before the cut\n`);
			}

			if (replayError !== undefined) {
				throw new UsageError(`${name} cannot be replayed: ${replayError.message}`);
			}

			// The tap's waits for its capture (the end record's `stalls`): a line of the report's environment.
			const session = opened.finish();
			const report = buildReport(keeper!.snapshot(), {
				kept: keeper!.facts,
				maxLines: flags.maxLines,
				redact: flags.redact ? localRedactOptions(undefined, flags.redactPayloads === true, session.meta) : false,
				toolVersion: VERSION,
				source: {isTruncated: completeness.cutShort, problems: reader.problems.length},
			});
			if (flags.out === undefined) {
				io.writeOut(report.markdown);
			} else {
				try {
					await writeFile(flags.out, report.markdown);
				} catch (error) {
					throw new UsageError(`cannot write ${flags.out}: ${fileErrorReason(error)}`);
				}

				io.writeErr(`mcp-wire: report written to ${flags.out} (${report.lineCount} lines)\n`);
			}
		});
}

/** The size of a capture file in bytes (0 when it cannot be read: reading it reports why). */
function sizeOf(file: string | undefined): number {
	try {
		return file === undefined || file === '-' ? 0 : statSync(file).size;
	} catch {
		return 0;
	}
}
