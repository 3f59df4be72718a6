import {Command} from 'commander';
import {SDK_SCHEMAS} from '../../core/jsonrpc/sdk-schemas.js';
import {AttachTargetError, chooseTap, followTap, listLiveTaps, type RecordReader} from '../../captures/attach.js';
import {openCapture, type RecordSource} from '../../captures/open-capture.js';
import {isOwnEntry, UnsafeDirectoryError} from '../../captures/capture-store.js';
import {UsageError} from '../exit-codes.js';
import {exitCodeFor} from '../options.js';
import {addWatchOptions, reportProblems, watchOutput, type WatchCliOptions, type WatchHooks} from './view.js';

/**
 * `mcp-wire attach [NAME|PID]`: follow a running `mcp-wire tap` through its Unix socket (a named pipe on
 * Windows) in the 0700 runtime directory (docs/cli.md#attach). The tap sends its capture from the first
 * byte, then every record as it happens; they are fed live into a Session and presented like a live
 * probe (frame log, `--hex`, `--json`, or the TUI on a terminal). Without a target, the only live tap;
 * a target is a tap name, the tap's or the server's pid, or a socket path. Ends when the tap's session
 * ends (what the socket did not deliver is read from the capture file, see `followTap`) or on Ctrl+C
 * (detach; the tap goes on). Exit codes as `view`.
 */
export function attachCommand(hooks: WatchHooks = {}): Command {
	const command = new Command('attach')
		.description('follow a running `mcp-wire tap` live, from its first byte (see `mcp-wire sessions`)')
		.argument('[target]', 'tap name, tap or server pid, or socket path (default: the only live tap)');
	return addWatchOptions(command).action(async (target: string | undefined, options: WatchCliOptions) => {
		process.exitCode = await attachAction(target, options, hooks);
	});
}

async function attachAction(target: string | undefined, options: WatchCliOptions, hooks: WatchHooks): Promise<number> {
	let address: string;
	let label: string;
	if (target !== undefined && /[/\\]/.test(target)) {
		// A socket path: only one this user's tap bound (the owner of a socket file is the
		// process that bound it; SO_PEERCRED is not reachable from Node without native code).
		if (process.platform !== 'win32' && !isOwnEntry(target, 'socket'))
			throw new UsageError(`attach: ${target} is not a socket of yours; refusing to read it`);
		address = target;
		label = target;
	} else {
		let taps;
		try {
			taps = await listLiveTaps();
		} catch (error) {
			if (error instanceof UnsafeDirectoryError)
				throw new UsageError(`attach: refusing the runtime directory: ${error.message}`);
			throw error;
		}
		try {
			const tap = chooseTap(taps, target);
			address = tap.address;
			label = `${tap.name} (tap pid ${tap.pid}${tap.header?.pid === undefined ? '' : `, server pid ${tap.header.pid}`})`;
		} catch (error) {
			if (error instanceof AttachTargetError) throw new UsageError(`attach: ${error.message}`);
			throw error;
		}
	}

	const output = await watchOutput(options, hooks);
	let tuiDone: Promise<number> | undefined;
	let detach: () => void = () => undefined;
	// The tap's socket as a record source: it ends with the tap's session (or on detach).
	const source: RecordSource = (handlers) =>
		new Promise<RecordReader>((resolve, reject) => {
			const follower = followTap(address, {...handlers, onEnd: resolve});
			detach = () => follower.stop();
			follower.connected.then(
				() => process.stderr.write(`mcp-wire: attached to ${label}; Ctrl+C detaches\n`),
				(error: NodeJS.ErrnoException) =>
					reject(new UsageError(`attach: cannot connect to ${address} (${error.code ?? error.message})`)),
			);
		});
	const onSigint = (): void => detach();
	process.once('SIGINT', onSigint);
	let opened;
	try {
		opened = await openCapture(source, {
			// Without the TUI the records are printed as they come: the session keeps nothing (flat memory on a long tap).
			replay: {
				ignore: output.ignore,
				schemas: SDK_SCHEMAS,
				retain: output.tui !== undefined,
				onProblem: (message) => process.stderr.write(`mcp-wire: ${label}: ${message}\n`),
			},
			onReplay: ({session}) => {
				if (output.tui === undefined) output.presenter.attach(session);
				else tuiDone = output.tui(session, {title: label, isLive: true, session});
			},
			onEvent: (event) => {
				if (event.type === 'mark' && event.mark.type === 'gap' && output.tui === undefined) {
					const {mark} = event;
					process.stderr.write(
						`mcp-wire: ${label}: the capture is incomplete: ${mark.length} bytes of ${mark.stream} from offset ${mark.offset} were not captured (${mark.reason}); the log marks where\n`,
					);
				}
			},
			// The plain log and --json: read on once stdout has taken what was written (a slow pipe reader), so
			// the output queue does not grow with the session (docs/performance.md#replay: 676 MiB at 200k frames before).
			...(output.tui === undefined ? {onProgress: () => output.presenter.whenWritable()} : {}),
		});
	} finally {
		process.off('SIGINT', onSigint);
	}

	const {reader} = opened;
	if (reader === undefined) throw opened.readError;
	reportProblems(label, reader.problems);
	if (opened.rejectedRecords > 0)
		process.stderr.write(
			`mcp-wire: ${label}: ${opened.rejectedRecords} records contradicted the session and were skipped\n`,
		);
	if (opened.replay === undefined) throw new UsageError(`attach: ${label} sent no session header`);
	// A binary capture's end record (sent last, or read from the file) may have the tap's waits for its capture.
	// Detached before the server's exit (or the tap died): the session is cut short, as `view` of its capture says.
	const session = opened.finish();
	if (tuiDone) return tuiDone;
	await output.presenter.finish(session);
	return exitCodeFor(session.getSnapshot().summary, output.failOn);
}
