import {Conversation} from './conversation.js';
import {EventBus} from './event-bus.js';
import type {FramerOutput} from '../framing/framer.js';
import {FindingSink} from './finding-sink.js';
import {GapTracker} from './gaps.js';
import {StreamDecoders} from './stream-decoders.js';
import {buildSummary} from './summary.js';
import {Timeline} from './timeline.js';
import {ruleFacts} from './rule-facts.js';
import type {FrameStore} from './stores/frame-store.js';
import {RetainAllStore} from './stores/retain-all.js';
import {StreamingWindowStore} from './stores/streaming-window.js';
import {installedSdkSchemas, type SdkSchemas} from '../jsonrpc/sdk-checks.js';
import {ClientOutcomeTracker} from '../clients/outcome.js';
import {createPassiveListeners} from '../findings/support/passive.js';
import {FindingEngine} from '../findings/engine.js';
import {runtimeOfCommand} from '../findings/support/runtime.js';
import {RULES} from '../findings/registry.js';
import type {
	Chunk,
	ExitInfo,
	Finding,
	FindingCode,
	FindingDraft,
	Mark,
	SessionEvent,
	SessionMeta,
	SessionSnapshot,
	SessionStore,
	StreamName,
	Summary,
} from '../types.js';

/** Options for {@link Session}. */
export interface SessionOptions {
	/** Finding codes to drop (`--ignore`). */
	readonly ignore?: readonly FindingCode[];
	/**
	 * Keep chunks, frames and findings in memory (default true). Streaming presenters (`view --json`,
	 * the plain log, `report`), benchmarks and long-running taps set it false: memory then stays flat
	 * whatever the number of frames. Snapshots hold no chunks, frames or findings (listen to the events
	 * instead), only the counts, the marks, the summary and the last {@link STDERR_LINES_KEPT} stderr
	 * lines. The findings are the same in both modes (test/core/session/retain.test.ts).
	 */
	readonly retain?: boolean;
	/** Where the session keeps chunks, frames and findings (stores/frame-store.ts); when given, `retain` is ignored. */
	readonly store?: FrameStore;
	/**
	 * The TS SDK's schema checks (`SDK_SCHEMAS` from `core/jsonrpc/sdk-schemas.js`), injected so that a
	 * caller can load zod off its start-up path (docs/performance.md#probe-start-up). Default: the installed ones (importing
	 * `sdk-schemas.js` or the library entry installs them); without them the TS SDK's reactions are `unknown`.
	 */
	readonly schemas?: SdkSchemas;
}

/** Re-exported from its rule module (`findings/rules/slow-response.ts`), where it is used. */
export {SLOW_RESPONSE_LIMITS_MS} from '../findings/rules/slow-response.js';

/** Without `retain`: the stderr lines kept for {@link Session.stderrTail}. */
export {STDERR_LINES_KEPT} from './stores/streaming-window.js';

const STREAMS: readonly StreamName[] = ['stdin', 'stdout', 'stderr'];

/** The codes whose rules pair messages across the streams: dropped once a capture had a gap (gaps.ts). */
const PAIRED: ReadonlySet<FindingCode> = new Set(
	RULES.filter((rule) => rule.pairsAcrossStreams).map((rule) => rule.code),
);

/**
 * The pure heart of mcp-wire: feed it the bytes that crossed a stdio transport (live or from a capture)
 * plus process marks, and it frames each stream, classifies JSON-RPC messages, correlates requests with
 * responses, runs every rule and emits {@link SessionEvent}s in order. It does no I/O and reads no
 * clock: all times come in with the chunks and marks, so a replayed capture derives the same frames and
 * findings as the live session did (style.md §1.1). It is wiring: the work is done by its parts
 * (docs/architecture.md#the-session), which it calls in a fixed order.
 *
 * Throws only on programming errors (a chunk for an ended stream); bad bytes are findings, never throws.
 */
export class Session implements SessionStore {
	readonly meta: SessionMeta;
	private readonly ignore: ReadonlySet<FindingCode>;
	/** Chunks, frames and findings as far as they are kept (stores/frame-store.ts). */
	private readonly store: FrameStore;
	private readonly schemas: SdkSchemas;
	/** One framer per stream (stream-decoders.ts). */
	private readonly decoders: StreamDecoders;
	/** What came in, in order: positions and counts per stream, marks, exit, the latest time (timeline.ts). */
	private readonly timeline = new Timeline();
	/** Every listener of this session's events (event-bus.ts). */
	private readonly bus = new EventBus();
	/** Classifies, correlates and follows the lifecycle of the JSON-RPC messages (conversation.ts). */
	private readonly conversation: Conversation;
	/** Counts the findings by code and severity; knows the live-only ones already reported. */
	private readonly findings = new FindingSink();
	private frameCount = 0;
	/** Runs every rule (findings/registry.ts) over what this session derives. */
	private readonly engine: FindingEngine;
	private summary: Summary | undefined;
	private isFinished = false;
	private isComplete = true;
	/** The replayed capture's `stalls` (given to {@link Session.finish}), for the summary. */
	private stalls: Summary['stalls'];
	/** Per-client outcomes, folded from frames and findings as they come (core/clients/outcome.ts). */
	private readonly clients = new ClientOutcomeTracker();
	private snapshot: SessionSnapshot | undefined;
	/** Gaps in the capture being replayed (gap marks): framing resync and findings it cannot back. */
	private readonly gaps = new GapTracker();

	/**
	 * @param meta facts for the header record (command, env mode, start time…)
	 * @param options `ignore` codes; `retain` (default true) keeps bytes and frames for renderers
	 */
	constructor(meta: SessionMeta, options: SessionOptions = {}) {
		this.meta = meta;
		this.ignore = new Set(options.ignore ?? []);
		this.store = options.store ?? (options.retain === false ? new StreamingWindowStore() : new RetainAllStore());
		this.schemas = options.schemas ?? installedSdkSchemas();
		this.conversation = new Conversation(this.store);
		this.decoders = new StreamDecoders({
			onFramed: this.onFramed,
			awaitedMethod: (requester, token) => this.conversation.awaitedMethod(requester, token),
			gaps: this.gaps,
		});
		this.engine = new FindingEngine({
			facts: ruleFacts({
				meta,
				runtime: runtimeOfCommand(meta.command)?.runtime,
				conversation: this.conversation,
				timeline: this.timeline,
				stderrTail: (maxLines) => this.stderrTail(maxLines),
			}),
			schemas: this.schemas,
			// The passive detectors first: their end-of-session drafts come before the rules' (as when they ran over the kept frames).
			prelude: createPassiveListeners,
			drop: (draft) => this.ignore.has(draft.code) || this.gaps.isDoubtful(PAIRED.has(draft.code)),
			onFinding: (finding) => this.record(finding),
		});
	}

	/** True when the session keeps chunks, frames and findings (`SessionOptions.retain`, default true). */
	get retains(): boolean {
		return this.store.retains;
	}

	/** Listen to every event, synchronously and in order. Returns an unsubscribe function. */
	on(listener: (event: SessionEvent) => void): () => void {
		return this.bus.on(listener);
	}

	/** {@link SessionStore}: called after every change; callers batch (the TUI refreshes at most every ~50 ms). */
	subscribe(listener: () => void): () => void {
		return this.bus.subscribe(listener);
	}

	/**
	 * Record bytes that crossed `stream` at `tMs` (ms since session start) and derive frames and findings.
	 * Returns the chunk with its session-wide `seq` and stream `offset`.
	 * @throws Error if the stream already ended (a caller bug, not a wire fault)
	 */
	pushChunk(stream: StreamName, tMs: number, bytes: Uint8Array): Chunk {
		if (this.decoders.hasEnded(stream)) throw new Error(`mcp-wire: chunk for ended stream ${stream}`);
		const chunk = this.timeline.chunk(stream, tMs, bytes);
		this.store.addChunk(chunk);
		this.emit({type: 'chunk', chunk});
		this.engine.chunk(chunk);
		this.decoders.push(chunk);
		this.store.framed(stream, this.decoders.pendingOffset(stream));
		return chunk;
	}

	/** Record a process or probe mark (stdin-closed also ends the stdin stream; eof ends that stream). */
	mark(mark: Mark): void {
		if (mark.type === 'eof') {
			this.endStream(mark.stream, mark.tMs);
			return;
		}
		if (mark.type === 'gap') {
			if (this.decoders.hasEnded(mark.stream)) return;
			// Bytes not in the capture: offsets stay true, the cut frame is dropped unframed (gaps.ts).
			this.gaps.gap(mark.stream, mark.length);
			this.decoders.restartAt(mark.stream, this.timeline.gap(mark.stream, mark.length));
		}
		this.timeline.mark(mark);
		if (mark.type === 'phase' && mark.name === 'modern-era') this.conversation.lifecycle.era = 'modern';
		this.emit({type: 'mark', mark});
		this.engine.mark(mark);
		if (mark.type === 'stdin-closed') this.decoders.end('stdin', mark.tMs);
	}

	/** End of file on `stream` at `tMs`: records an `eof` mark and flushes the stream's pending bytes. */
	endStream(stream: StreamName, tMs: number): void {
		if (this.decoders.hasEnded(stream)) return;
		const mark: Mark = {type: 'eof', stream, tMs};
		this.timeline.mark(mark);
		this.emit({type: 'mark', mark});
		this.engine.mark(mark);
		this.decoders.end(stream, tMs);
	}

	/** Record how the process ended (the exit rules judge it: R14). */
	exit(info: ExitInfo): void {
		if (!this.timeline.exit(info)) return;
		this.emit({type: 'exit', exit: info});
		this.engine.exit(info);
	}

	/** Add a finding only a live probe can observe (spawn-failed, no-response, a Content-Length re-probe). */
	addFinding(draft: FindingDraft): void {
		// A dump recorded with `observed` marks replays them into the same finding: keep it once.
		if (this.findings.hasProbe(draft)) return;
		this.engine.report({origin: 'probe', ...draft});
	}

	/**
	 * The scripted exchange is over but the session stays open (the probe under the TUI holds the server
	 * for the user): run the end-of-session detectors now, on what was seen so far, so that the live view
	 * shows the findings the plain log shows at the end. They run as for a capture without its end
	 * (`isComplete: false`: nothing is blamed on an end that has not come, no `unanswered-request`), and
	 * pending bytes stay pending. `finish` runs them again; what was reported here is not repeated.
	 * @param tMs ms since the session started.
	 */
	settle(tMs: number): void {
		if (this.isFinished) return;
		this.timeline.time(tMs);
		this.engine.settle(this.timeline.lastTMs);
	}

	/**
	 * End the session at `tMs`: flush every stream, run the end-of-session detectors (unanswered-request,
	 * stderr-merged) and emit the summary. Idempotent: a second call returns the same summary.
	 * @param options `isComplete: false` for a capture that ends without the process's exit (cut short, or
	 *   a tap still running): findings that need the end of the session (unanswered-request) are not derived;
	 *   `stalls`: the capture's end record's waits (a replayed tap capture), carried into the summary
	 */
	finish(
		tMs: number,
		options: {readonly isComplete?: boolean; readonly stalls?: Summary['stalls'] | undefined} = {},
	): Summary {
		if (this.isFinished && this.summary) return this.summary;
		this.timeline.time(tMs);
		const endTMs = this.timeline.lastTMs;
		for (const stream of STREAMS) this.decoders.end(stream, endTMs);
		this.isFinished = true;
		this.isComplete = options.isComplete !== false;
		if (options.stalls !== undefined && options.stalls.count > 0) this.stalls = options.stalls;
		this.engine.end({tMs: this.timeline.lastTMs, isComplete: options.isComplete !== false});
		this.summary = this.buildSummary();
		this.emit({type: 'summary', summary: this.summary});
		return this.summary;
	}

	/** The current immutable view (cached until the next change). */
	getSnapshot(): SessionSnapshot {
		if (this.snapshot) return this.snapshot;
		const view = this.store.view();
		const marks = this.timeline.marks();
		const totals = this.timeline.copyTotals();
		const summary = this.summary ?? this.buildSummary();
		const exit = this.timeline.exitInfo;
		const isEnded = this.isFinished;
		const snapshot: SessionSnapshot = {
			meta: this.meta,
			frames: view.frames,
			findings: view.findings,
			marks,
			...(exit ? {exit} : {}),
			summary,
			isEnded,
			bytes: view.bytes,
			streamLength: (stream) => totals[stream].bytes,
			chunksOf: view.chunksOf,
			stderrTail: view.stderrTail,
		};
		this.snapshot = snapshot;
		return snapshot;
	}

	/** The last `maxLines` stderr lines as text. */
	stderrTail(maxLines: number): string[] {
		return this.store.stderrTail(maxLines);
	}

	/** Bytes pending (received, not yet framed) on a stream: a partial line. */
	pendingBytes(stream: StreamName): number {
		return this.decoders.pendingBytes(stream);
	}

	/** True once `stream` reached end of file (no more chunks may follow). */
	hasEnded(stream: StreamName): boolean {
		return this.decoders.hasEnded(stream);
	}

	/** Total bytes seen on a stream. */
	streamLength(stream: StreamName): number {
		return this.timeline.streamLength(stream);
	}

	/** Every frame, in order: classified and correlated, counted, kept, emitted, then handed to the rules. */
	private readonly onFramed = (output: FramerOutput): void => {
		const index = this.frameCount++;
		const decoded = this.conversation.decode(output.frame, index);
		const {raw, frame, facts} = decoded;
		this.timeline.frame(frame.stream);
		this.clients.frame(frame);
		this.store.addFrame(frame);
		this.emit({type: 'frame', frame});
		if (output.facts) this.engine.framed(raw, output.facts, index);
		if (facts) this.engine.message(facts);
		this.engine.frame(frame);
	};

	/** Count, keep and emit a finding the engine dressed. */
	private record(finding: Finding): void {
		this.findings.record(finding);
		this.store.addFinding(finding);
		this.clients.finding(finding);
		this.emit({type: 'finding', finding});
	}

	private buildSummary(): Summary {
		return buildSummary({
			tally: this.findings.tally(),
			totals: this.timeline.totals,
			lifecycle: this.conversation.lifecycle,
			clients: this.clients,
			exercised: this.conversation.exercised.value(),
			durationMs: this.timeline.lastTMs,
			exit: this.timeline.exitInfo,
			isFinished: this.isFinished,
			isComplete: this.isComplete,
			gaps: this.gaps,
			isStoppedByUser: this.timeline.stoppedByUserAt !== undefined,
			stalls: this.stalls,
		});
	}

	private emit(event: SessionEvent): void {
		this.snapshot = undefined;
		this.bus.emit(event);
	}
}
