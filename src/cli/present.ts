import type {Writable} from 'node:stream';
import type {Session} from '../core/session/session.js';
import {
	USER_STOP_PHASE,
	type Finding,
	type FindingCode,
	type SessionEvent,
	type SessionSnapshot,
	type StreamName,
} from '../core/types.js';
import {createKeptBytes, type KeptBytes} from '../render/kept-bytes.js';
import {createNdjsonPieceWriter} from '../render/json/ndjson.js';
import {createEventRedactor} from '../render/redact/index.js';
import {createBatchedOutput} from './present-output.js';
import {localRedactOptions} from './redact-options.js';
import {PACKAGE_ROOT, VERSION} from './version.js';
import {createTimeOrder, type TimeOrder} from '../render/text/time-order.js';
import {
	formatFinding,
	formatFrameHex,
	formatFrameLine,
	formatHeader,
	formatMarkLine,
	formatSummary,
} from '../render/text/plain-log.js';

/** Which renderer presents a session on stdout. */
export type OutputMode = 'plain' | 'json' | 'report';

/** Options for {@link createPresenter}. */
export interface PresenterOptions {
	readonly mode: OutputMode;
	readonly isColor: boolean;
	/** Plain mode: an xxd dump under every frame line. */
	readonly hex: boolean;
	/** Report and `--json`: redact home paths, user names and secrets. */
	readonly redact: boolean;
	readonly redactPayloads: boolean;
	readonly maxLines?: number;
	/** The server's whole environment: values of secret-named variables are masked wherever they appear. */
	readonly serverEnv?: Readonly<Record<string, string>>;
	readonly out: Writable;
	/**
	 * Plain mode, a probe the user stopped (Ctrl-C): the summary lines to print instead of `lines` (which
	 * give a server verdict), from when the user stopped (ms since the session started). Unset: `lines`.
	 */
	readonly stoppedSummary?: (lines: string[], tMs: number, summary: SessionSnapshot['summary']) => string[];
}

/** Attaches to a session as it runs and prints what the mode asks for; `finish` prints the end. */
export interface Presenter {
	/** Subscribe before any event is fed: plain streams frame lines, json streams records. */
	attach(session: Session): void;
	/** Print what comes after the session: findings and summary (plain) or the report. */
	finish(session: Session, reprobe?: Session): Promise<void>;
	/**
	 * A promise that settles once the output has taken what was written (stdout a pipe whose reader is
	 * slower than the capture is read), or undefined when it can take more now. `view` waits on it
	 * between the blocks it reads, so the output queue does not grow with the capture (docs/performance.md#replay: 0.9 GB
	 * for `view --json` of a 280 MB capture piped into a reader). A live probe stops reading its server
	 * meanwhile (`ProbeOptions.outputBacklog`).
	 * @param backlogBytes how many bytes may wait in the output before it counts as behind (default: the
	 *   stream's own high-water mark, `writableNeedDrain`); the promise settles at `drain` (all written)
	 */
	whenWritable(backlogBytes?: number): Promise<void> | undefined;
}

/** How many findings of one code are printed in full; the rest get one line each, up to {@link MORE_LINES}. */
const FULL_PER_CODE = 1;
const MORE_LINES = 5;

/** The plain log's text options: colour, the hex dump's style, and the docs/ this install ships. */
interface TextOptions {
	readonly color: boolean;
	readonly hex: 'ansi' | 'plain';
	readonly docsRoot: string;
}

/** What a presenter attached to a running session keeps for {@link Presenter.finish}. */
interface Attached {
	/** Plain log: the lines held for time order. */
	order?: TimeOrder;
	/** Plain log: the bytes kept around the findings printed at the end. */
	keptBytes?: KeptBytes;
	/** `--json --redact`: writes the records the redactor still holds (a chunk that ended inside a token). */
	endRecords?: () => void;
}

/**
 * Build the presenter for a probe, `view` or `attach`. Writes only to `options.out` (stdout); a closed
 * pipe (`| head`) ends output quietly.
 */
export function createPresenter(options: PresenterOptions): Presenter {
	const output = createBatchedOutput(options.out);
	const textOptions: TextOptions = {
		color: options.isColor,
		hex: options.isColor ? 'ansi' : 'plain',
		// The docs/ this install ships (package.json "files"), so the pointer works after a global install.
		docsRoot: PACKAGE_ROOT,
	};
	const shown = createShownFindings();
	let attached: Attached = {};

	return {
		whenWritable: (backlogBytes) => output.whenWritable(backlogBytes),
		attach(session) {
			if (options.mode === 'json') attached = {endRecords: attachJson(session, options, output.writeText)};
			else if (options.mode === 'plain')
				attached = attachPlainLog(session, options, textOptions, output.writeLine, shown);
		},
		async finish(session, reprobe) {
			try {
				attached.order?.release(Number.POSITIVE_INFINITY);
				attached.endRecords?.();
				attached.endRecords = undefined;
				if (options.mode === 'report') await writeReport(session, options, output.writeLine);
				else if (options.mode === 'plain')
					writeEnd(session, reprobe, {
						textOptions,
						shown,
						keptBytes: attached.keptBytes,
						writeLine: output.writeLine,
						stoppedSummary: options.stoppedSummary,
					});
			} finally {
				output.flush();
			}
		},
	};
}

/**
 * `--json`: the header and then each event of `session` as an NDJSON record, written in pieces (a 5 MB
 * frame's records are never whole strings, docs/performance.md#replay). With `redact`, secrets are masked
 * in the bytes too (same length, so offsets stay true).
 * @returns with `redact`, what writes the records the redactor still holds at the end; else undefined
 */
function attachJson(
	session: Session,
	options: PresenterOptions,
	writeText: (text: string | Uint8Array) => void,
): (() => void) | undefined {
	const writer = createNdjsonPieceWriter(writeText);
	if (!options.redact) {
		writer.header(session.meta);
		session.on((event: SessionEvent) => writer.event(event));
		return undefined;
	}

	const redactor = createEventRedactor(localRedactOptions(options.serverEnv, options.redactPayloads, session.meta));
	writer.header(redactor.meta(session.meta));
	session.on((event: SessionEvent) => {
		for (const ready of redactor.push(event)) writer.event(ready);
	});
	return () => {
		for (const ready of redactor.end()) writer.event(ready);
	};
}

/**
 * The plain log as the session runs: the header, then a line per frame, mark and exit (with its hex dump
 * under `--hex`), in time order. Only the findings printed at the end are kept (with the bytes around
 * them), so the log runs in flat memory on a session that keeps nothing.
 */
function attachPlainLog(
	session: Session,
	options: PresenterOptions,
	textOptions: TextOptions,
	writeLine: (line: string) => void,
	shown: ShownFindings,
): Attached {
	for (const line of formatHeader(session.meta, session.meta.pid)) writeLine(line);
	writeLine('');
	const kept = createKeptBytes();
	const hexView = bytesView(session, kept);
	// Lines in time order: what happened after the first byte the stdout framer still holds (a
	// Content-Length reply waits for the byte after its body) waits for that frame.
	const order = createTimeOrder(writeLine);
	const stdout = createStdoutHorizon(session);
	let isReleaseScheduled = false;
	const releaseLater = (): void => {
		if (isReleaseScheduled || order.held === 0) return;
		isReleaseScheduled = true;
		setImmediate(() => {
			isReleaseScheduled = false;
			order.release(stdout.horizon());
		});
	};
	session.on((event) => {
		if (event.type === 'chunk') {
			kept.chunk(event.chunk);
			if (event.chunk.stream === 'stdout') stdout.chunk(event.chunk);
			return;
		}
		if (event.type === 'finding') {
			shown.add(event.finding, kept);
			return;
		}
		if (event.type === 'mark' || event.type === 'exit') {
			const line = formatMarkLine(event.type === 'mark' ? event.mark : {type: 'exit', ...event.exit}, {
				color: options.isColor,
			});
			if (line !== undefined) order.add(event.type === 'mark' ? event.mark.tMs : event.exit.tMs, [line]);
		} else if (event.type === 'frame') {
			kept.frame(event.frame);
			const lines = [formatFrameLine(event.frame, {color: options.isColor, bytes: hexView.bytes})];
			if (options.hex) lines.push(...formatFrameHex(event.frame, hexView, textOptions));
			order.add(event.frame.tMs, lines);
		} else return;
		// Mid-chunk the framer may still hold bytes it frames next: those lines go out on the next
		// event or right after this turn of the event loop.
		order.release(stdout.horizon());
		releaseLater();
	});
	return {order, keptBytes: kept};
}

/** The time before which every line can be printed: see {@link createStdoutHorizon}. */
export interface StdoutHorizon {
	/** Note a stdout chunk as it is fed to the session. */
	chunk(chunk: {readonly offset: number; readonly bytes: Uint8Array; readonly tMs: number}): void;
	/**
	 * The time (ms) of the stdout chunk holding the first byte the session's stdout framer has not framed
	 * yet; `Infinity` when it holds none. Chunks wholly before that byte are forgotten.
	 */
	horizon(): number;
}

/**
 * Track stdout chunks until they are framed, so lines of events after the first unframed stdout byte
 * wait for the frame it starts (the plain log prints in time order).
 * @param session its `pendingBytes('stdout')` and `streamLength('stdout')` say what is unframed
 */
export function createStdoutHorizon(session: Pick<Session, 'pendingBytes' | 'streamLength'>): StdoutHorizon {
	const chunks: {end: number; tMs: number}[] = [];
	return {
		chunk(chunk) {
			chunks.push({end: chunk.offset + chunk.bytes.byteLength, tMs: chunk.tMs});
		},
		horizon() {
			const pending = session.pendingBytes('stdout');
			if (pending === 0) {
				chunks.length = 0;
				return Number.POSITIVE_INFINITY;
			}
			const start = session.streamLength('stdout') - pending;
			let drop = 0;
			while (drop < chunks.length && chunks[drop]!.end <= start) drop++;
			chunks.splice(0, drop);
			return chunks[0]?.tMs ?? Number.POSITIVE_INFINITY;
		},
	};
}

/** `--report`: the Markdown support report of the finished session (redacted as `options` say). */
async function writeReport(
	session: Session,
	options: PresenterOptions,
	writeLine: (line: string) => void,
): Promise<void> {
	const snapshot = session.getSnapshot();
	const {renderReport} = await import('../render/report/markdown.js');
	const text = renderReport(snapshot, {
		redact: options.redact ? localRedactOptions(options.serverEnv, options.redactPayloads, snapshot.meta) : false,
		toolVersion: VERSION,
		command: 'mcp-wire probe --report',
		...(options.maxLines === undefined ? {} : {maxLines: options.maxLines}),
	});
	writeLine(text.endsWith('\n') ? text.slice(0, -1) : text);
}

/**
 * The end of the plain log: the Content-Length re-probe's lines (when there was one), each finding code's
 * findings ({@link findingLines}) and the summary (`stoppedSummary`'s lines for a probe the user stopped).
 */
function writeEnd(
	session: Session,
	reprobe: Session | undefined,
	context: {
		readonly textOptions: TextOptions;
		readonly shown: ShownFindings;
		readonly keptBytes: KeptBytes | undefined;
		readonly writeLine: (line: string) => void;
		readonly stoppedSummary: PresenterOptions['stoppedSummary'];
	},
): void {
	const {textOptions, shown, keptBytes, writeLine} = context;
	const snapshot = session.getSnapshot();
	if (reprobe) {
		writeLine('');
		writeLine('Content-Length re-probe (a fresh process, LSP-framed initialize):');
		for (const line of reprobeLines(reprobe.getSnapshot(), textOptions.color)) writeLine(line);
	}
	writeLine('');
	// A session that keeps its bytes reads them from itself; a streaming one from what was kept.
	const view = session.retains || keptBytes === undefined ? snapshot : bytesView(session, keptBytes);
	// Not attached while the session ran (a finished session handed over): take its kept findings.
	if (keptBytes === undefined) for (const finding of snapshot.findings) shown.add(finding);
	for (const group of shown.groups()) for (const line of findingLines(group, view, textOptions)) writeLine(line);
	const lines = formatSummary(snapshot.summary, {color: textOptions.color, hint: snapshot.meta.mode === 'probe'});
	const stop = snapshot.marks.find((mark) => mark.type === 'phase' && mark.name === USER_STOP_PHASE);
	const summaryLines =
		stop === undefined ? lines : (context.stoppedSummary?.(lines, stop.tMs, snapshot.summary) ?? lines);
	for (const line of summaryLines) writeLine(line);
}

/**
 * The Content-Length re-probe's frames, marks and exit (the wait that ended without a reply, the
 * shutdown) as plain-log lines in time order. When it answered, the wait's `timeout` and `phase` marks are
 * left out: a Content-Length reply ends the wait as "no response" to an NDJSON client, which is no news.
 */
export function reprobeLines(re: SessionSnapshot, isColor: boolean): string[] {
	const rows: {readonly tMs: number; readonly line: string}[] = re.frames.map((frame) => ({
		tMs: frame.firstTMs,
		line: formatFrameLine(frame, {color: isColor}),
	}));
	const answered = re.frames.some(
		(frame) => frame.stream === 'stdout' && frame.kind !== 'text' && frame.kind !== 'blank',
	);
	const marks = answered ? re.marks.filter((mark) => mark.type !== 'timeout' && mark.type !== 'phase') : re.marks;
	const exit = re.summary.exit;
	for (const mark of [...marks, ...(exit === undefined ? [] : [{type: 'exit' as const, ...exit}])]) {
		const line = formatMarkLine(mark, {color: isColor});
		if (line !== undefined) rows.push({tMs: mark.tMs, line});
	}
	return rows.sort((a, b) => a.tMs - b.tMs).map((row) => row.line);
}

/**
 * One finding code's lines at the end of the plain log: its first {@link FULL_PER_CODE} findings in full,
 * the next {@link MORE_LINES} as one `also …` line each, the rest as one `… and N more` line, then a blank line.
 */
export function findingLines(group: FindingGroup, view: SessionSnapshot, textOptions: TextOptions): string[] {
	const lines: string[] = [];
	for (const finding of group.full) lines.push(...formatFinding(finding, view, textOptions));
	for (const finding of group.more) {
		lines.push(
			`  also ${finding.code} at ${finding.stream} offset ${finding.offset}${finding.frameIndex === undefined ? '' : ` (frame ${finding.frameIndex})`}`,
		);
	}
	if (group.count > FULL_PER_CODE + MORE_LINES)
		lines.push(`  … and ${group.count - FULL_PER_CODE - MORE_LINES} more ${group.code}`);
	lines.push('');
	return lines;
}

/** The findings the plain log prints at the end, per code: the first in full, the next few as one line, the rest counted. */
interface ShownFindings {
	/** Take a finding as it is reported (its bytes are kept when it is printed in full). */
	add(finding: Finding, kept?: KeptBytes): void;
	/** Codes in print order (errors, then warnings, then infos; first found first within a severity). */
	groups(): FindingGroup[];
}

/** The findings of one code the plain log prints: `full` in full, `more` as one line each, `count` in all. */
export interface FindingGroup {
	readonly code: FindingCode;
	readonly full: readonly Finding[];
	readonly more: readonly Finding[];
	readonly count: number;
}

function createShownFindings(): ShownFindings {
	const byCode = new Map<
		FindingCode,
		{code: FindingCode; full: Finding[]; more: Finding[]; count: number; rank: number}
	>();
	const rankOf = (finding: Finding): number =>
		finding.severity === 'error' ? 2 : finding.severity === 'warning' ? 1 : 0;
	return {
		add(finding, kept) {
			let group = byCode.get(finding.code);
			if (!group) {
				group = {code: finding.code, full: [], more: [], count: 0, rank: 0};
				byCode.set(finding.code, group);
			}
			group.count += 1;
			group.rank = Math.max(group.rank, rankOf(finding));
			if (group.full.length < FULL_PER_CODE) {
				group.full.push(finding);
				kept?.keep(finding);
			} else if (group.more.length < MORE_LINES) {
				group.more.push(finding);
			}
		},
		groups() {
			return [...byCode.values()].sort((a, b) => b.rank - a.rank);
		},
	};
}

/** A snapshot whose bytes come from {@link KeptBytes} (a session that keeps nothing): for the hex and finding renderers. */
function bytesView(session: Session, kept: KeptBytes): SessionSnapshot {
	return {
		meta: session.meta,
		frames: [],
		findings: [],
		marks: [],
		get summary() {
			return session.getSnapshot().summary;
		},
		get isEnded() {
			return session.getSnapshot().isEnded;
		},
		bytes: (stream: StreamName, offset: number, length: number) => kept.bytes(stream, offset, length),
		streamLength: (stream: StreamName) => session.streamLength(stream),
		chunksOf: () => [],
		stderrTail: (maxLines: number) => session.stderrTail(maxLines),
	};
}
