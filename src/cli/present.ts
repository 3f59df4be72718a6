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

/** Output is written in batches of about this many characters (see `writeLine`). */
const OUTPUT_BATCH_BYTES = 64 * 1024;

/** How many findings of one code are printed in full; the rest get one line each, up to {@link MORE_LINES}. */
const FULL_PER_CODE = 1;
const MORE_LINES = 5;

/**
 * Build the presenter for a probe, `view` or `attach`. Writes only to `options.out` (stdout); a closed
 * pipe (`| head`) ends output quietly.
 */
export function createPresenter(options: PresenterOptions): Presenter {
	let isClosed = false;
	options.out.on('error', (error: NodeJS.ErrnoException) => {
		if (error.code === 'EPIPE') isClosed = true;
		else throw error;
	});
	// Lines are written in batches of up to OUTPUT_BATCH_BYTES: one write per line was half of `view`'s
	// CPU on a big capture (docs/performance.md#replay). A batch goes out once full, at the next turn of the event loop (so
	// a live probe's lines show at once), and at `finish`.
	let batch: string[] = [];
	let batchBytes = 0;
	let isScheduled = false;
	const flush = (): void => {
		isScheduled = false;
		if (batch.length === 0) return;
		const text = batch.join('');
		batch = [];
		batchBytes = 0;
		if (!isClosed) options.out.write(text);
	};
	const writeText = (text: string | Uint8Array): void => {
		if (isClosed) return;
		if (typeof text !== 'string' || text.length >= OUTPUT_BATCH_BYTES) {
			// Bytes and a big piece go out as they are: joined into a batch they would be copied once more.
			flush();
			if (!isClosed) options.out.write(text);
			return;
		}

		batch.push(text);
		batchBytes += text.length;
		if (batchBytes >= OUTPUT_BATCH_BYTES) flush();
		else if (!isScheduled) {
			isScheduled = true;
			setImmediate(flush);
		}
	};
	const writeLine = (line: string): void => {
		writeText(line);
		writeText('\n');
	};
	const textOptions = {
		color: options.isColor,
		hex: options.isColor ? ('ansi' as const) : ('plain' as const),
		// The docs/ this install ships (package.json "files"), so the pointer works after a global install.
		docsRoot: PACKAGE_ROOT,
	};
	const shown = createShownFindings();
	let order: TimeOrder | undefined;
	let keptBytes: KeptBytes | undefined;
	/** `--json --redact`: writes the records the redactor still holds (a chunk that ended inside a token). */
	let endRecords: (() => void) | undefined;

	return {
		whenWritable(backlogBytes) {
			if (isClosed || !options.out.writableNeedDrain) return undefined;
			if (backlogBytes !== undefined && options.out.writableLength < backlogBytes) return undefined;
			return new Promise<void>((resolve) => {
				const done = (): void => {
					options.out.off('drain', done);
					options.out.off('close', done);
					options.out.off('error', done);
					resolve();
				};
				options.out.on('drain', done);
				options.out.on('close', done);
				options.out.on('error', done);
			});
		},
		attach(session) {
			if (options.mode === 'json') {
				// Records in pieces: a 5 MB frame's records are never whole strings (docs/performance.md#replay).
				const writer = createNdjsonPieceWriter(writeText);
				if (options.redact) {
					// --json --redact: secrets masked in bytes too (same length, so offsets stay true).
					const redactor = createEventRedactor(
						localRedactOptions(options.serverEnv, options.redactPayloads, session.meta),
					);
					writer.header(redactor.meta(session.meta));
					session.on((event: SessionEvent) => {
						for (const ready of redactor.push(event)) writer.event(ready);
					});
					endRecords = () => {
						for (const ready of redactor.end()) writer.event(ready);
					};
				} else {
					writer.header(session.meta);
					session.on((event: SessionEvent) => writer.event(event));
				}
				return;
			}
			if (options.mode !== 'plain') return;
			for (const line of formatHeader(session.meta, session.meta.pid)) writeLine(line);
			writeLine('');
			// Lines are printed as frames come; only the findings printed at the end are kept (with the
			// bytes around them), so the frame log runs in flat memory on a session that keeps nothing.
			const kept = createKeptBytes();
			keptBytes = kept;
			const hexView = bytesView(session, kept);
			// Lines in time order: what happened after the first byte the stdout framer still holds (a
			// Content-Length reply waits for the byte after its body) waits for that frame.
			const ordered = createTimeOrder(writeLine);
			order = ordered;
			const stdoutChunks: {end: number; tMs: number}[] = [];
			const horizon = (): number => {
				const pending = session.pendingBytes('stdout');
				if (pending === 0) {
					stdoutChunks.length = 0;
					return Number.POSITIVE_INFINITY;
				}
				const start = session.streamLength('stdout') - pending;
				let drop = 0;
				while (drop < stdoutChunks.length && stdoutChunks[drop]!.end <= start) drop++;
				stdoutChunks.splice(0, drop);
				return stdoutChunks[0]?.tMs ?? Number.POSITIVE_INFINITY;
			};
			let isReleaseScheduled = false;
			const releaseLater = (): void => {
				if (isReleaseScheduled || ordered.held === 0) return;
				isReleaseScheduled = true;
				setImmediate(() => {
					isReleaseScheduled = false;
					ordered.release(horizon());
				});
			};
			session.on((event) => {
				if (event.type === 'chunk') {
					kept.chunk(event.chunk);
					if (event.chunk.stream === 'stdout')
						stdoutChunks.push({end: event.chunk.offset + event.chunk.bytes.byteLength, tMs: event.chunk.tMs});
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
					if (line !== undefined) ordered.add(event.type === 'mark' ? event.mark.tMs : event.exit.tMs, [line]);
				} else if (event.type === 'frame') {
					kept.frame(event.frame);
					const lines = [formatFrameLine(event.frame, {color: options.isColor, bytes: hexView.bytes})];
					if (options.hex) lines.push(...formatFrameHex(event.frame, hexView, textOptions));
					ordered.add(event.frame.tMs, lines);
				} else return;
				// Mid-chunk the framer may still hold bytes it frames next: those lines go out on the next
				// event or right after this turn of the event loop.
				ordered.release(horizon());
				releaseLater();
			});
		},
		async finish(session, reprobe) {
			try {
				order?.release(Number.POSITIVE_INFINITY);
				endRecords?.();
				endRecords = undefined;
				await finishLines(session, reprobe);
			} finally {
				flush();
			}
		},
	};

	async function finishLines(session: Session, reprobe: Session | undefined): Promise<void> {
		const snapshot = session.getSnapshot();
		if (options.mode === 'json') return;
		if (options.mode === 'report') {
			const {renderReport} = await import('../render/report/markdown.js');
			const text = renderReport(snapshot, {
				redact: options.redact ? localRedactOptions(options.serverEnv, options.redactPayloads, snapshot.meta) : false,
				toolVersion: VERSION,
				command: 'mcp-wire probe --report',
				...(options.maxLines === undefined ? {} : {maxLines: options.maxLines}),
			});
			writeLine(text.endsWith('\n') ? text.slice(0, -1) : text);
			return;
		}
		if (reprobe) {
			writeLine('');
			writeLine('Content-Length re-probe (a fresh process, LSP-framed initialize):');
			// Its frames, and its marks and exit (the wait that ended without a reply, the shutdown), in time order.
			// When it answered, the wait's end is no news (a Content-Length reply ends it as "no response" to an NDJSON client).
			const re = reprobe.getSnapshot();
			const rows: {readonly tMs: number; readonly line: string}[] = re.frames.map((frame) => ({
				tMs: frame.firstTMs,
				line: formatFrameLine(frame, {color: options.isColor}),
			}));
			const answered = re.frames.some(
				(frame) => frame.stream === 'stdout' && frame.kind !== 'text' && frame.kind !== 'blank',
			);
			const marks = answered ? re.marks.filter((mark) => mark.type !== 'timeout' && mark.type !== 'phase') : re.marks;
			const exit = re.summary.exit;
			for (const mark of [...marks, ...(exit === undefined ? [] : [{type: 'exit' as const, ...exit}])]) {
				const line = formatMarkLine(mark, {color: options.isColor});
				if (line !== undefined) rows.push({tMs: mark.tMs, line});
			}
			for (const row of rows.sort((a, b) => a.tMs - b.tMs)) writeLine(row.line);
		}
		writeLine('');
		// A session that keeps its bytes reads them from itself; a streaming one from what was kept.
		const view = session.retains || keptBytes === undefined ? snapshot : bytesView(session, keptBytes);
		// Not attached while the session ran (a finished session handed over): take its kept findings.
		if (keptBytes === undefined) for (const finding of snapshot.findings) shown.add(finding);
		for (const group of shown.groups()) {
			for (const finding of group.full) for (const line of formatFinding(finding, view, textOptions)) writeLine(line);
			for (const finding of group.more) {
				writeLine(
					`  also ${finding.code} at ${finding.stream} offset ${finding.offset}${finding.frameIndex === undefined ? '' : ` (frame ${finding.frameIndex})`}`,
				);
			}
			if (group.count > FULL_PER_CODE + MORE_LINES)
				writeLine(`  … and ${group.count - FULL_PER_CODE - MORE_LINES} more ${group.code}`);
			writeLine('');
		}
		const lines = formatSummary(snapshot.summary, {color: options.isColor, hint: snapshot.meta.mode === 'probe'});
		const stop = snapshot.marks.find((mark) => mark.type === 'phase' && mark.name === USER_STOP_PHASE);
		const summaryLines =
			stop === undefined ? lines : (options.stoppedSummary?.(lines, stop.tMs, snapshot.summary) ?? lines);
		for (const line of summaryLines) writeLine(line);
	}
}

/** The findings the plain log prints at the end, per code: the first in full, the next few as one line, the rest counted. */
interface ShownFindings {
	/** Take a finding as it is reported (its bytes are kept when it is printed in full). */
	add(finding: Finding, kept?: KeptBytes): void;
	/** Codes in print order (errors, then warnings, then infos; first found first within a severity). */
	groups(): Array<{code: FindingCode; full: Finding[]; more: Finding[]; count: number}>;
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
