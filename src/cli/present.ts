import type {Writable} from 'node:stream';
import type {Session} from '../core/session/session.js';
import type {Finding, SessionEvent} from '../core/types.js';
import {createNdjsonWriter} from '../render/json/ndjson.js';
import {createEventRedactor} from '../render/report/redact.js';
import {localRedactOptions} from './redact-options.js';
import {VERSION} from './version.js';
import {formatFinding, formatFrameHex, formatFrameLine, formatHeader, formatMarkLine, formatSummary} from '../render/text/plain-log.js';

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
}

/** Attaches to a session as it runs and prints what the mode asks for; `finish` prints the end. */
export interface Presenter {
	/** Subscribe before any event is fed: plain streams frame lines, json streams records. */
	attach(session: Session): void;
	/** Print what comes after the session: findings and summary (plain) or the report. */
	finish(session: Session, reprobe?: Session): Promise<void>;
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
	// CPU on a big capture (issue 12). A batch goes out once full, at the next turn of the event loop (so
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
	const writeLine = (line: string): void => {
		if (isClosed) return;
		batch.push(line, '\n');
		batchBytes += line.length + 1;
		if (batchBytes >= OUTPUT_BATCH_BYTES) flush();
		else if (!isScheduled) {
			isScheduled = true;
			setImmediate(flush);
		}
	};
	const textOptions = {color: options.isColor, hex: options.isColor ? ('ansi' as const) : ('plain' as const)};

	return {
		attach(session) {
			if (options.mode === 'json') {
				const writer = createNdjsonWriter(writeLine);
				if (options.redact) {
					// --json --redact: secrets masked in bytes too (same length, so offsets stay true).
					const redactor = createEventRedactor(localRedactOptions(options.serverEnv, options.redactPayloads));
					writer.header(redactor.meta(session.meta));
					session.on((event: SessionEvent) => writer.event(redactor.event(event)));
				} else {
					writer.header(session.meta);
					session.on((event: SessionEvent) => writer.event(event));
				}
				return;
			}
			if (options.mode !== 'plain') return;
			for (const line of formatHeader(session.meta, session.meta.pid)) writeLine(line);
			writeLine('');
			session.on((event) => {
				if (event.type === 'mark' || event.type === 'exit') {
					const line = formatMarkLine(event.type === 'mark' ? event.mark : {type: 'exit', ...event.exit}, {color: options.isColor});
					if (line !== undefined) writeLine(line);
					return;
				}
				if (event.type !== 'frame') return;
				writeLine(formatFrameLine(event.frame, {color: options.isColor}));
				if (options.hex) for (const line of formatFrameHex(event.frame, session.getSnapshot(), textOptions)) writeLine(line);
			});
		},
		async finish(session, reprobe) {
			try {
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
				redact: options.redact ? localRedactOptions(options.serverEnv, options.redactPayloads) : false,
				toolVersion: VERSION,
				...(options.maxLines === undefined ? {} : {maxLines: options.maxLines}),
			});
			writeLine(text.endsWith('\n') ? text.slice(0, -1) : text);
			return;
		}
		if (reprobe) {
			writeLine('');
			writeLine('Content-Length re-probe (a fresh process, LSP-framed initialize):');
			const frames = [...reprobe.getSnapshot().frames].sort((a, b) => a.firstTMs - b.firstTMs);
			for (const frame of frames) writeLine(formatFrameLine(frame, {color: options.isColor}));
		}
		writeLine('');
		const byCode = new Map<string, Finding[]>();
		for (const finding of snapshot.findings) {
			const list = byCode.get(finding.code) ?? [];
			list.push(finding);
			byCode.set(finding.code, list);
		}
		// Errors first, then warnings, then infos; codes in the order first found within a severity.
		const rankOf = (list: Finding[]): number => list.reduce((rank, f) => Math.max(rank, f.severity === 'error' ? 2 : f.severity === 'warning' ? 1 : 0), 0);
		for (const findings of [...byCode.values()].sort((a, b) => rankOf(b) - rankOf(a))) {
			findings.slice(0, FULL_PER_CODE).forEach((finding) => {
				for (const line of formatFinding(finding, snapshot, textOptions)) writeLine(line);
			});
			const rest = findings.slice(FULL_PER_CODE);
			for (const finding of rest.slice(0, MORE_LINES)) {
				writeLine(`  also ${finding.code} at ${finding.stream} offset ${finding.offset}${finding.frameIndex === undefined ? '' : ` (frame ${finding.frameIndex})`}`);
			}
			if (rest.length > MORE_LINES) writeLine(`  … and ${rest.length - MORE_LINES} more ${findings[0]!.code}`);
			writeLine('');
		}
		for (const line of formatSummary(snapshot.summary, {color: options.isColor})) writeLine(line);
	}
}
