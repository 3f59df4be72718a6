import type {SdkSchemas} from '../jsonrpc/sdk-checks.js';
import type {FindingCode, SessionEvent, SessionMeta, Summary} from '../types.js';
import {Session} from './session.js';
import type {FrameStore} from './stores/frame-store.js';

/** Options for {@link replayEvents}. */
export interface ReplayOptions {
	readonly ignore?: readonly FindingCode[];
	/** The TS SDK's schema checks (`SessionOptions.schemas`); default: the installed ones. */
	readonly schemas?: SdkSchemas;
	/** Called with the session before any event is fed, so renderers can subscribe first. */
	readonly onSession?: (session: Session) => void;
	/** Told about records that had to be skipped (a damaged capture); the replay goes on. */
	readonly onProblem?: (message: string) => void;
	/**
	 * `SessionOptions.retain` (default true). False for presenters that stream (`view --json`, the plain
	 * log, `report`): the session keeps no chunks, frames or findings, and derives the same findings.
	 */
	readonly retain?: boolean;
	/** `SessionOptions.store`: where the session keeps what it derives (the TUI's compact index); overrides `retain`. */
	readonly store?: FrameStore;
}

/**
 * Rebuild a session from recorded events (a capture file or a `--json` dump), mitmproxy's live = replay:
 * chunks, marks and the exit are fed through the same framer and detectors as a live session, so the
 * frames and derived findings come out the same. Recorded `frame`, derived `finding` and `summary` records
 * are ignored (they are re-derived); findings with `origin: 'probe'` (spawn-failed, no-response, a
 * Content-Length re-probe) cannot be re-derived and are kept as recorded.
 *
 * @param meta the header record of the capture
 * @param events decoded records in file order (any iterable)
 * @returns the finished session; when the capture was cut short the session still finishes at the last time
 *   seen; chunks recorded after their stream's EOF (a damaged file) are skipped and reported through `onProblem`
 */
export function replayEvents(meta: SessionMeta, events: Iterable<SessionEvent>, options: ReplayOptions = {}): Session {
	const replay = createReplay(meta, options);
	for (const event of events) replay.feed(event);
	return replay.finish();
}

/** An incremental {@link replayEvents}: feed records as they are read, so no list of them is held. */
export interface Replay {
	/** The session being rebuilt (renderers may subscribe through `onSession` before the first event). */
	readonly session: Session;
	/** Feed the next decoded record, in file order. */
	feed(event: SessionEvent): void;
	/**
	 * Finish the session as {@link replayEvents} does and return it. Call once, after the last record.
	 * @param options `isCutShort`: the reader saw the input end inside a record or without its end record
	 *   (a capture cut after the server's exit record): the session is then incomplete even with an exit;
	 *   `stalls`: the capture's end record's `stalls` (binary-codec.ts), for the summary (a `--json` dump
	 *   carries them in its summary record, which is used when this is not given)
	 */
	finish(options?: {readonly isCutShort?: boolean; readonly stalls?: Summary['stalls'] | undefined}): Session;
}

/**
 * Start an incremental replay: the same rules as {@link replayEvents}, one record at a time (docs/performance.md#replay:
 * `view` streams a capture instead of holding every decoded record).
 */
export function createReplay(meta: SessionMeta, options: ReplayOptions = {}): Replay {
	const session = new Session(meta, {
		...(options.ignore ? {ignore: options.ignore} : {}),
		...(options.schemas ? {schemas: options.schemas} : {}),
		...(options.retain === undefined ? {} : {retain: options.retain}),
		...(options.store === undefined ? {} : {store: options.store}),
	});
	options.onSession?.(session);
	let lastTMs = 0;
	let skipped = 0;
	let hasEnd = false;
	let dumpStalls: Summary['stalls'];
	return {
		session,
		feed(event) {
			switch (event.type) {
				case 'chunk':
					// A chunk after its stream's EOF can only come from a damaged file: skip it, keep the rest.
					if (session.hasEnded(event.chunk.stream)) {
						skipped += 1;
						break;
					}
					session.pushChunk(event.chunk.stream, event.chunk.tMs, event.chunk.bytes);
					lastTMs = Math.max(lastTMs, event.chunk.tMs);
					break;
				case 'mark':
					session.mark(event.mark);
					lastTMs = Math.max(lastTMs, event.mark.tMs);
					break;
				case 'exit':
					hasEnd = true;
					session.exit(event.exit);
					lastTMs = Math.max(lastTMs, event.exit.tMs);
					break;
				case 'finding':
					if (event.finding.origin === 'probe') session.addFinding(event.finding);
					break;
				case 'summary':
					// A --json dump of a capture cut short says so in its summary: still cut short.
					if (event.summary.incomplete?.cutShort !== true) hasEnd = true;
					// …and the capture's stalls, which only its end record had.
					if (event.summary.stalls !== undefined) dumpStalls = event.summary.stalls;
					lastTMs = Math.max(lastTMs, event.summary.durationMs);
					break;
				case 'frame':
					break;
			}
		},
		finish(finishOptions = {}) {
			if (skipped > 0) options.onProblem?.(`${skipped} chunk record(s) after their stream's end were skipped`);
			// Without the process's exit the capture has no end (cut short, or taken from a tap still running).
			const stalls = finishOptions.stalls ?? dumpStalls;
			session.finish(lastTMs, {isComplete: hasEnd && finishOptions.isCutShort !== true, stalls});
			return session;
		},
	};
}
