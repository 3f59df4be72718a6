import {readFileSync, renameSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import type {Verdict} from '../core/types.js';
import type {CaptureEntry} from './capture-store.js';

/**
 * Each capture's verdict for `mcp-wire sessions` (docs/cli.md#sessions). The tap derives no findings (it
 * forwards and records; `view`, `report` and `attach` derive them by replay), so a capture's verdict is
 * the summary verdict of replaying it ({@link replayVerdict}), found once per finished capture and kept
 * in a small index in the capture directory ({@link VERDICT_INDEX}), keyed by file name, size, mtime and
 * mcp-wire's version: a capture that changed, or an mcp-wire with other rules, is replayed again.
 *
 * What is never given a verdict: a capture still being written (its tap is alive), a capture over
 * {@link MAX_VERDICT_BYTES}, and one that cannot be read (`undefined`, shown `—`). A capture that ends
 * without its end record or the server's exit (the tap was killed, the file was cut) is `cut-short`,
 * never the verdict of the part it holds.
 */

/** What `sessions` says of a capture: the summary verdict of its replay, or that it was cut short. */
export type CaptureVerdict = Verdict | 'cut-short';

/** Captures bigger than this (bytes) are not replayed by `sessions`; `mcp-wire view FILE` gives their verdict. */
export const MAX_VERDICT_BYTES = 32 * 1024 * 1024;

/** The index file in the capture directory (not a capture name: never listed or pruned as one). */
export const VERDICT_INDEX = '.verdicts.json';

/** One capture in the index. */
interface IndexEntry {
	readonly bytes: number;
	readonly mtimeMs: number;
	readonly version: string;
	readonly verdict: CaptureVerdict;
}

const VERDICTS = new Set<string>(['ok', 'warn', 'fail', 'stopped', 'cut-short']);

/**
 * The index in `dir`, by capture file name; empty when it is missing or not ours (a damaged index is
 * rebuilt, never trusted in part).
 */
export function readVerdictIndex(dir: string): Map<string, IndexEntry> {
	const index = new Map<string, IndexEntry>();
	let parsed: unknown;
	try {
		parsed = JSON.parse(readFileSync(path.join(dir, VERDICT_INDEX), 'utf8'));
	} catch {
		return index;
	}
	if (typeof parsed !== 'object' || parsed === null) return index;
	for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
		const entry = value as Partial<IndexEntry> | null;
		if (
			typeof entry?.bytes === 'number' &&
			typeof entry.mtimeMs === 'number' &&
			typeof entry.version === 'string' &&
			typeof entry.verdict === 'string' &&
			VERDICTS.has(entry.verdict)
		)
			index.set(name, entry as IndexEntry);
	}
	return index;
}

/** Write the index into `dir` whole (a temporary file renamed over it, mode 0600); a failure is ignored (it is a cache). */
function writeVerdictIndex(dir: string, index: ReadonlyMap<string, IndexEntry>): void {
	const file = path.join(dir, VERDICT_INDEX);
	const temporary = `${file}.${process.pid}.tmp`;
	try {
		writeFileSync(temporary, `${JSON.stringify(Object.fromEntries(index))}\n`, {mode: 0o600});
		renameSync(temporary, file);
	} catch {
		// a read-only or full directory: verdicts are replayed again next time
	}
}

/**
 * Replay the capture `file` (either format) as `view` does and give its verdict.
 * @returns `cut-short` when it ends without its end record (a binary capture) or without the server's
 *   exit; else the summary verdict; undefined when it cannot be read or holds no session header
 */
export async function replayVerdict(file: string): Promise<CaptureVerdict | undefined> {
	const [{fileSource, openCapture}, {SDK_SCHEMAS}] = await Promise.all([
		import('./open-capture.js'),
		import('../core/jsonrpc/sdk-schemas.js'),
	]);
	const opened = await openCapture(fileSource(file), {replay: {schemas: SDK_SCHEMAS, retain: false}});
	if (opened.readError !== undefined || opened.replay === undefined || opened.reader === undefined) return undefined;
	if (opened.isBinary && opened.reader.captureEnd === undefined) return 'cut-short';
	const {summary} = opened.finish().getSnapshot();
	return summary.incomplete?.cutShort === true ? 'cut-short' : summary.verdict;
}

/** Options of {@link captureVerdicts}. */
export interface CaptureVerdictOptions {
	/** mcp-wire's version: verdicts of another version are found again (its rules may differ). */
	readonly version: string;
	/** Whether the capture is still being written (its tap is alive): no verdict, nothing kept. */
	readonly isLive: (entry: CaptureEntry) => boolean;
	/** Every capture in `dir` (the index keeps only theirs); default: `entries`. */
	readonly all?: readonly CaptureEntry[];
	/** Injectable for tests; default {@link replayVerdict}. */
	readonly replay?: (file: string) => Promise<CaptureVerdict | undefined>;
}

/**
 * The verdict of each of `entries` (captures listed in `dir`), from the index where it is current, else by
 * replay (one at a time; the index is updated once at the end). Never throws for one capture: a capture that
 * cannot be read has no verdict.
 * @returns by capture path: the verdict, or undefined (live, over {@link MAX_VERDICT_BYTES}, unreadable)
 */
export async function captureVerdicts(
	dir: string,
	entries: readonly CaptureEntry[],
	options: CaptureVerdictOptions,
): Promise<Map<string, CaptureVerdict | undefined>> {
	const replay = options.replay ?? replayVerdict;
	const index = readVerdictIndex(dir);
	const names = new Set((options.all ?? entries).map((entry) => entry.fileName));
	let isChanged = false;
	for (const name of index.keys()) {
		if (names.has(name)) continue;
		index.delete(name);
		isChanged = true;
	}

	const verdicts = new Map<string, CaptureVerdict | undefined>();
	for (const entry of entries) {
		if (options.isLive(entry)) {
			verdicts.set(entry.path, undefined);
			continue;
		}
		const kept = index.get(entry.fileName);
		if (
			kept !== undefined &&
			kept.bytes === entry.bytes &&
			kept.mtimeMs === entry.mtimeMs &&
			kept.version === options.version
		) {
			verdicts.set(entry.path, kept.verdict);
			continue;
		}
		if (entry.bytes > MAX_VERDICT_BYTES) {
			verdicts.set(entry.path, undefined);
			continue;
		}
		const verdict = await replay(entry.path).catch(() => undefined);
		verdicts.set(entry.path, verdict);
		if (verdict === undefined) continue;
		index.set(entry.fileName, {bytes: entry.bytes, mtimeMs: entry.mtimeMs, version: options.version, verdict});
		isChanged = true;
	}

	if (isChanged) writeVerdictIndex(dir, index);
	return verdicts;
}
