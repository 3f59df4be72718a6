import {statSync} from 'node:fs';
import {Command, Option} from 'commander';
import type {DecodeProblem} from '../../core/capture/record-codec.js';
import {SDK_SCHEMAS} from '../../core/jsonrpc/sdk-schemas.js';
import type {Session} from '../../core/session/session.js';
import type {TableStore} from '../../core/session/stores/frame-table.js';
import {CompactIndexStore} from '../../core/session/stores/compact-index-store.js';
import {IndexedSession} from '../../core/session/stores/indexed-session.js';
import type {FindingCode} from '../../core/types.js';
import type {CaptureStalls} from '../../core/capture/binary-codec.js';
import {describeIncomplete, type CaptureCompleteness} from '../../captures/attach.js';
import {fileSource, openCapture} from '../../captures/open-capture.js';
import {CaptureBytesReader, CaptureIndex} from '../../captures/capture-read-back.js';
import type {FirstScreenInfo} from '../../render/tui/first-screen.js';
import {UsageError} from '../exit-codes.js';
import {fileErrorReason, problemLines} from '../file-errors.js';
import {
	collect,
	exitCodeFor,
	FAIL_ON_HELP,
	FAIL_ON_LEVELS,
	parseFailOn,
	parseIgnore,
	resolveColor,
	type FailOn,
} from '../options.js';
import {createPresenter, type Presenter} from '../present.js';
import {createReadProgress, framesOf} from '../read-progress.js';

/**
 * The TUI entry the lead wires in (style.md §1.5: `render/tui` only through a dynamic `import()` in
 * cli/). It takes over the terminal for a session that is replayed (`view`) or followed live
 * (`attach`), and resolves with the exit code once the user quits.
 */
export type StartTui = (
	store: TableStore,
	options: {
		readonly title: string;
		readonly isLive: boolean;
		readonly session: Session;
		readonly loading?: CaptureLoadStore;
	},
) => Promise<number>;

/**
 * How far `view` has read a capture file, for the TUI's progress line (the same shape as render/tui's
 * `LoadProgress`): frames derived so far, bytes of the file read and its size, and whether the whole
 * file is read and the session finished.
 */
export interface CaptureLoadProgress {
	readonly frames: number;
	readonly bytesRead: number;
	readonly totalBytes: number;
	readonly isDone: boolean;
	/** What the capture is missing, in the plain path's words (see {@link incompleteSentence}); absent when complete. */
	readonly incomplete?: string;
	/** A binary tap capture's `stalls` (its end record, read before the records): the status bar shows them while it loads. */
	readonly stalls?: CaptureStalls;
}

/** {@link CaptureLoadProgress} as an external store: `getSnapshot` returns the same object until `update` changes it. */
export interface CaptureLoadStore {
	getSnapshot(): CaptureLoadProgress;
	subscribe(listener: () => void): () => void;
}

/** A {@link CaptureLoadStore} that the loader updates; every update notifies the listeners. */
export function createCaptureLoadStore(
	totalBytes: number,
): CaptureLoadStore & {update(change: Partial<CaptureLoadProgress>): void} {
	let progress: CaptureLoadProgress = {frames: 0, bytesRead: 0, totalBytes, isDone: false};
	const listeners = new Set<() => void>();
	return {
		getSnapshot: () => progress,
		subscribe(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		update(change) {
			progress = {...progress, ...change};
			for (const listener of listeners) listener();
		},
	};
}

/** Hooks of the watch commands (`view`, `attach`). */
export interface WatchHooks {
	/**
	 * Load the TUI, e.g. `async () => (await import('../render/tui/start-tui.js')).startTui`. Used when
	 * stdout is a terminal and `--no-tui` is not given; without it the plain frame log is used. `first`
	 * (`view`): what a plain first screen painted while the TUI loads says (render/tui/first-screen.ts).
	 */
	readonly loadTui?: (first?: FirstScreenInfo) => Promise<StartTui>;
}

/** Options shared by `view` and `attach`. */
export interface WatchCliOptions {
	readonly json?: boolean;
	readonly hex?: boolean;
	readonly tui?: boolean;
	readonly ignore: string[];
	readonly failOn: FailOn;
	readonly color: 'auto' | 'always' | 'never';
}

/** Add the options shared by `view` and `attach` (same names and meanings as `probe`). */
export function addWatchOptions(command: Command): Command {
	return command
		.option('--json', 'write NDJSON records to stdout (the capture format, with derived frames and findings)')
		.option('--hex', 'add an xxd-layout hex dump of every frame')
		.option('--no-tui', 'keep the plain frame log even when stdout is a terminal')
		.option('--ignore <code>', 'drop findings with this code (repeatable)', collect, [])
		.addOption(new Option('--fail-on <level>', FAIL_ON_HELP).choices(FAIL_ON_LEVELS).default('error'))
		.addOption(new Option('--color <when>', 'colour output').choices(['auto', 'always', 'never']).default('auto'));
}

/** What a watch command presents through: the TUI (when wired and wanted) or the plain/json presenter. */
export interface WatchOutput {
	readonly ignore: FindingCode[];
	readonly failOn: FailOn;
	/** The TUI to start, when it takes over. */
	readonly tui?: StartTui;
	readonly presenter: Presenter;
}

/**
 * Resolve the shared options: `--json` → NDJSON; a terminal without `--no-tui` → the TUI when the hook
 * is wired; otherwise the plain frame log (the same presenter a live probe uses, cli/present.ts).
 */
export async function watchOutput(
	options: WatchCliOptions,
	hooks: WatchHooks,
	first?: FirstScreenInfo,
): Promise<WatchOutput> {
	const ignore = parseIgnore(options.ignore);
	const failOn = parseFailOn(options.failOn);
	const isTuiWanted =
		options.json !== true && options.tui !== false && process.stdout.isTTY === true && hooks.loadTui !== undefined;
	const tui = isTuiWanted ? await hooks.loadTui!(first) : undefined;
	const presenter = createPresenter({
		mode: options.json === true ? 'json' : 'plain',
		isColor: resolveColor(options.color, process.stdout),
		hex: options.hex === true,
		redact: false,
		redactPayloads: false,
		out: process.stdout,
	});
	return {ignore, failOn, ...(tui === undefined ? {} : {tui}), presenter};
}

/** Print record problems on stderr (at most `max`, then a count: {@link problemLines}). */
export function reportProblems(source: string, problems: readonly DecodeProblem[], max = 20): void {
	for (const line of problemLines(source, problems, max)) process.stderr.write(line);
}

/**
 * `mcp-wire view FILE`: open a saved capture (from `mcp-wire tap`) or a `--json` dump (docs/cli.md#view).
 * The records are replayed through the Session (live = replay) and presented like a live probe: the
 * frame log (`--hex` adds hex), `--json`, or the TUI on a terminal. A capture cut short (a tap killed
 * with SIGKILL) opens: the cut last line is reported on stderr and skipped. Exit code 0, or 1 with
 * findings at or above `--fail-on`, 2 when the file cannot be read or is not a capture.
 */
export function viewCommand(hooks: WatchHooks = {}): Command {
	const command = new Command('view')
		.description('open a saved capture (mcp-wire tap) or a --json dump, and show it like a live probe')
		.argument('<file>', 'capture file (.mcpcap, or .ndjson: either format)');
	return addWatchOptions(command).action(async (file: string, options: WatchCliOptions) => {
		process.exitCode = await viewAction(file, options, hooks);
	});
}

async function viewAction(file: string, options: WatchCliOptions, hooks: WatchHooks): Promise<number> {
	if (file === '-')
		throw new UsageError(
			'view: reads a capture FILE, not stdin; save the capture to a file (or use `mcp-wire report -`)',
		);
	try {
		if (!statSync(file).isFile()) throw new UsageError(`view: ${file} is not a file`);
	} catch (error) {
		if (error instanceof UsageError) throw error;
		throw new UsageError(`view: cannot open ${file}: ${fileErrorReason(error)}`);
	}

	const output = await watchOutput(options, hooks, {title: file, totalBytes: statSync(file).size});
	if (output.tui !== undefined) return viewInTui(file, output.tui, output.ignore);
	// Records are fed to the session as they are read (no list of every decoded record, docs/performance.md#replay).
	// A line on a terminal stderr while a big capture is read (never on stdout), erased before anything else goes there.
	// Not when stdout is that terminal too: the frame log is printed as it is read.
	const progress = createReadProgress({
		stderr: process.stdout.isTTY === true ? {} : process.stderr,
		totalBytes: statSync(file).size,
	});
	let incompleteLine: string | undefined;
	const opened = await openCapture(fileSource(file), {
		replay: {
			schemas: SDK_SCHEMAS,
			ignore: output.ignore,
			onProblem: (message) => {
				progress.done();
				process.stderr.write(`mcp-wire: ${file}: ${message}\n`);
			},
			// The plain log and --json print as records come: the session keeps nothing (flat memory, docs/performance.md#replay).
			onSession: (session) => output.presenter.attach(session),
			retain: false,
		},
		onProgress: (bytesRead, replay) => {
			progress.update(bytesRead, () => framesOf(replay));
			// Read on once stdout has taken what was written (a slow pipe reader): flat memory (docs/performance.md#replay).
			return output.presenter.whenWritable();
		},
		onCompleteness: (completeness) => {
			progress.done();
			// Said first, before any output (at the header, so a file cut inside its header gets one line): what
			// the capture is missing (docs/capture-format.md#gaps-and-incomplete-captures).
			incompleteLine = describeIncomplete(completeness);
		},
		onReplay: () => {
			if (incompleteLine !== undefined) process.stderr.write(`mcp-wire: ${file}: ${incompleteLine}\n`);
		},
	});
	progress.done();
	const {reader, replay, replayError, isBinary: isCompletenessTold} = opened;
	if (reader === undefined) throw new UsageError(`view: cannot read ${file}: ${fileErrorReason(opened.readError)}`);
	// A binary capture (its completeness was read from its end) without a whole header was cut inside it.
	if (replay === undefined) throw noHeaderError(file, isCompletenessTold);
	reportProblems(file, reader.problems);
	if (reader.isTruncated && !isCompletenessTold)
		process.stderr.write(
			`mcp-wire: ${file}: the capture was cut short (its last record is incomplete); showing everything before it\n`,
		);
	if (replayError !== undefined) throw new UsageError(`view: ${file} cannot be replayed: ${replayError.message}`);
	// Cut after the exit record (before the end record): the summary still says cut short (`incomplete`).
	// The tap's waits for its capture (the end record's `stalls`) go into the summary (`--json`, the plain log's end).
	const session = opened.finish();
	await output.presenter.finish(session);
	return exitCodeFor(session.getSnapshot().summary, output.failOn);
}

/**
 * The error for a file read without a session header: a binary capture (it told its completeness from
 * its end, `isBinary`) was cut inside its header; anything else is not a capture. The same for every
 * output of `view`.
 */
function noHeaderError(file: string, isBinary: boolean): UsageError {
	return new UsageError(
		isBinary
			? `view: ${file} is an mcp-wire capture cut short inside its session header: there is nothing to show`
			: `view: ${file} is not an mcp-wire capture (no session header)`,
	);
}

/**
 * What an NDJSON capture (format 1) read to its end is missing, in the words the plain path uses: its
 * gaps as `describeIncomplete` says them, and a cut last record as the line `view` writes for it.
 * Undefined when nothing is missing.
 */
function incompleteSentence(completeness: CaptureCompleteness, isTruncated: boolean): string | undefined {
	const parts = [
		describeIncomplete({...completeness, cutShort: false}),
		isTruncated ? 'the capture was cut short (its last record is incomplete); showing everything before it' : undefined,
	];
	const said = parts.filter((part) => part !== undefined);
	return said.length === 0 ? undefined : said.join('; ');
}

/** The TUI's progress line is updated at most this often while a capture loads (ms). */
const PROGRESS_INTERVAL_MS = 250;

/** Thrown from the record handlers to stop reading once the user has quit the TUI. */
class QuitWhileLoading extends Error {}

/**
 * `view` in the TUI (docs/performance.md#tui-on-big-captures): the TUI starts on the capture's session header and shows the
 * session as it is rebuilt, the file being read in blocks of up to 1 MiB (each block decoded and fed to
 * the replay, then the event loop turns: ink draws and keys work between blocks). A progress line shows
 * frames, bytes and percent read (updated at most every 250 ms) until the whole file is read. Quitting while it loads stops the reading;
 * The session keeps a streaming window (as `retain: false`, the same findings); the TUI's frames come from a compact
 * index (core/session/stores/compact-frame-index.ts) whose bytes are read back from the file when shown (captures/capture-read-back.ts),
 * so memory does not grow with the frames' bytes (docs/performance.md#tui-on-big-captures).
 * the summary then covers what was read, and a line on stderr says so. Record problems, a cut last record
 * and replay errors are written on stderr after the TUI has left the screen.
 * @returns the TUI's exit code (from the summary), or throws UsageError (exit 2) when the file is not a
 *   capture, cannot be read, or cannot be replayed.
 */
async function viewInTui(file: string, tui: StartTui, ignore: readonly FindingCode[]): Promise<number> {
	const totalBytes = statSync(file).size;
	const progress = createCaptureLoadStore(totalBytes);
	const replayProblems: string[] = [];
	const fileIndex = new CaptureIndex();
	let captureFile: CaptureBytesReader | undefined;
	let tuiDone: Promise<number> | undefined;
	let hasQuit = false;
	let frames = 0;
	let publishedAt = Number.NEGATIVE_INFINITY;
	// The frames on screen are read back from the file (opened once it is known to be a capture, in onReplay).
	const store = new CompactIndexStore((stream, offset, length) => captureFile!.read(stream, offset, length));
	const opened = await openCapture(fileSource(file), {
		replay: {schemas: SDK_SCHEMAS, ignore, store, onProblem: (message) => replayProblems.push(message)},
		// A binary capture tells its completeness from its end, before its header is read: the TUI says it from the start.
		onCompleteness: (completeness) => {
			const incomplete = describeIncomplete(completeness);
			if (incomplete !== undefined || completeness.stalls !== undefined)
				progress.update({
					...(incomplete === undefined ? {} : {incomplete}),
					...(completeness.stalls === undefined ? {} : {stalls: completeness.stalls}),
				});
		},
		onReplay: (replay) => {
			replay.session.on((event) => {
				if (event.type === 'frame') frames++;
			});
			captureFile = new CaptureBytesReader(file, fileIndex);
			const indexed = new IndexedSession(replay.session, store);
			const done = tui(indexed, {title: file, isLive: false, session: replay.session, loading: progress});
			const quit = (): void => {
				hasQuit = true;
			};
			void done.then(quit, quit);
			tuiDone = done;
		},
		onEvent: (event, recordOffset) => {
			if (hasQuit) throw new QuitWhileLoading();
			fileIndex.note(event, recordOffset);
		},
		onProgress: (bytesRead) => {
			if (hasQuit) throw new QuitWhileLoading();
			// Each update re-renders the TUI: at most one per PROGRESS_INTERVAL_MS (the first block always).
			const now = performance.now();
			if (now - publishedAt < PROGRESS_INTERVAL_MS) return;
			publishedAt = now;
			progress.update({frames, bytesRead});
		},
	});
	const {reader, replay, replayError} = opened;
	const isBinaryCapture = opened.isBinary;
	let readError: Error | undefined;
	if (opened.readError !== undefined && !(opened.readError instanceof QuitWhileLoading)) {
		if (tuiDone === undefined) throw new UsageError(`view: cannot read ${file}: ${fileErrorReason(opened.readError)}`);
		readError = opened.readError as Error;
	}

	if (replay === undefined || tuiDone === undefined) throw noHeaderError(file, isBinaryCapture);
	const isRead = reader !== undefined;
	if (isRead) {
		// Cut after the exit record (before the end record): the summary still says cut short, as on the plain path.
		opened.finish();
		const incomplete = isBinaryCapture
			? progress.getSnapshot().incomplete
			: incompleteSentence(reader!.completeness, reader!.isTruncated);
		progress.update({frames, bytesRead: totalBytes, isDone: true, ...(incomplete === undefined ? {} : {incomplete})});
	}

	let code: number;
	try {
		code = await tuiDone;
	} finally {
		captureFile?.close();
	}

	if (!isRead && readError === undefined) {
		const {bytesRead} = progress.getSnapshot();
		process.stderr.write(
			`mcp-wire: ${file}: quit while loading, after ${bytesRead} of ${totalBytes} bytes (${Math.floor((bytesRead * 100) / Math.max(1, totalBytes))}%); the summary covers what was read\n`,
		);
	}

	for (const message of replayProblems) process.stderr.write(`mcp-wire: ${file}: ${message}\n`);
	if (reader !== undefined) {
		reportProblems(file, reader.problems);
		if (reader.isTruncated)
			process.stderr.write(
				`mcp-wire: ${file}: the capture was cut short (its last record is incomplete); showing everything before it\n`,
			);
	}

	if (readError !== undefined) throw new UsageError(`view: cannot read ${file}: ${fileErrorReason(readError)}`);
	if (replayError !== undefined) throw new UsageError(`view: ${file} cannot be replayed: ${replayError.message}`);
	return code;
}
