import {createFramer} from '../framing/index.js';
import type {Framer, FramerOptions, FramerOutput} from '../framing/framer.js';
import {GapTracker} from './gaps.js';
import type {BodyPrint, FrameStore} from './stores/frame-store.js';
import {RetainAllStore} from './stores/retain-all.js';
import {StreamingWindowStore} from './stores/streaming-window.js';
import {BoundedMap} from '../bounded-map.js';
// Not '../jsonrpc/index.js': that loads the TS SDK's zod schemas, which are injected (SessionOptions.schemas).
import {classifyMessage, withRawId} from '../jsonrpc/classify.js';
import {impactForProblems} from '../jsonrpc/impact.js';
import {checkInitializeError} from '../jsonrpc/lifecycle.js';
import {installedSdkSchemas, type SdkSchemas} from '../jsonrpc/sdk-checks.js';
import {ClientOutcomeTracker, verdictOf} from '../clients/outcome.js';
import {idKey} from '../jsonrpc/id-key.js';
import {cutNesting, nestingDraft, nestsDeeperThan} from '../jsonrpc/depth.js';
import {createPassiveListeners} from '../findings/support/passive.js';
import {FindingEngine, type OutstandingRequest, type SessionFacts} from '../findings/engine.js';
import {runtimeOfCommand} from '../findings/support/runtime.js';
import type {
	Chunk,
	ExitInfo,
	Finding,
	FindingCode,
	FindingDraft,
	Frame,
	Mark,
	SessionEvent,
	SessionMeta,
	SessionSnapshot,
	SessionStore,
	Severity,
	StreamName,
	StreamTotals,
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

/** How many answered request ids per direction are remembered to recognise a duplicate response. */
const ANSWERED_IDS_KEPT = 4096;

/** Without `retain`: the stderr lines kept for {@link Session.stderrTail}. */
export {STDERR_LINES_KEPT} from './stores/streaming-window.js';

const STREAMS: readonly StreamName[] = ['stdin', 'stdout', 'stderr'];

interface Outstanding {
	readonly frame: Frame;
	readonly method: string;
}

const opposite = (stream: StreamName): StreamName => (stream === 'stdin' ? 'stdout' : 'stdin');

/**
 * The pure heart of mcp-wire: feed it the bytes that crossed a stdio transport (live or from a capture)
 * plus process marks, and it frames each stream, classifies JSON-RPC messages, correlates requests with
 * responses, runs every detector and emits {@link SessionEvent}s in order. It does no I/O and reads no
 * clock: all times come in with the chunks and marks, so a replayed capture derives the same frames and
 * findings as the live session did (style.md §1.1).
 *
 * Throws only on programming errors (a chunk for an ended stream); bad bytes are findings, never throws.
 */
export class Session implements SessionStore {
	readonly meta: SessionMeta;
	private readonly ignore: ReadonlySet<FindingCode>;
	/** Chunks, frames and findings as far as they are kept (stores/frame-store.ts). */
	private readonly store: FrameStore;
	private readonly schemas: SdkSchemas;
	private readonly framers: Record<StreamName, Framer>;
	private readonly ended = new Set<StreamName>();
	private readonly totals: Record<StreamName, {bytes: number; chunks: number; frames: number}> = {
		stdin: {bytes: 0, chunks: 0, frames: 0},
		stdout: {bytes: 0, chunks: 0, frames: 0},
		stderr: {bytes: 0, chunks: 0, frames: 0},
	};
	private readonly marks: Mark[] = [];
	private readonly listeners = new Set<(event: SessionEvent) => void>();
	private readonly storeListeners = new Set<() => void>();
	private readonly outstanding: Record<StreamName, Map<string, Outstanding>> = {
		stdin: new Map(),
		stdout: new Map(),
		stderr: new Map(),
	};
	/** Answered request ids per requesting stream → the answer's frame index and the chunk that completed it. */
	private readonly answered: Record<
		StreamName,
		BoundedMap<string, {index: number; lastSeq: number; body: BodyPrint | undefined}>
	> = {
		stdin: new BoundedMap(ANSWERED_IDS_KEPT),
		stdout: new BoundedMap(ANSWERED_IDS_KEPT),
		stderr: new BoundedMap(ANSWERED_IDS_KEPT),
	};
	/** Per requester stream: the last notification it sent that no id-less response has claimed yet (J4). */
	private readonly unclaimedNotification: Record<StreamName, Frame | undefined> = {
		stdin: undefined,
		stdout: undefined,
		stderr: undefined,
	};
	private readonly severityCounts = new Map<FindingCode, {severity: Severity; count: number}>();
	private readonly bySeverity: Record<Severity, number> = {error: 0, warning: 0, info: 0};
	private seq = 0;
	private frameCount = 0;
	private lastTMs = 0;
	private exitInfo: ExitInfo | undefined;
	private stdinClosedAt: number | undefined;
	private firstReplyTMs: number | undefined;
	private offeredVersion: string | undefined;
	private negotiatedVersion: string | undefined;
	private era: 'legacy' | 'modern' | undefined;
	private serverInfo: {name?: string; version?: string} | undefined;
	private clientInfo: {name?: string; version?: string} | undefined;
	private handshakeDone = false;
	private counts: {tools?: number; prompts?: number; resources?: number} = {};
	private stdinOptions: ClassifyOptions = {direction: 'client-to-server'};
	private stdoutOptions: ClassifyOptions = {direction: 'server-to-client'};
	private serverCapabilities: Readonly<Record<string, unknown>> | undefined;
	/** Runs every rule (findings/registry.ts) over what this session derives. */
	private readonly engine: FindingEngine;
	/** `code@stream:offset` of the live-only findings reported so far (see {@link Session.addFinding}). */
	private readonly probeKeys = new Set<string>();
	/** The server's runtime guessed from the command (for runtime-specific fixes), e.g. `python`. */
	private readonly runtime: string | undefined;
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
		this.runtime = runtimeOfCommand(meta.command)?.runtime;
		this.framers = {
			stdin: createFramer('stdin', this.framerOptions('stdin')),
			stdout: createFramer('stdout', this.framerOptions('stdout')),
			stderr: createFramer('stderr', this.framerOptions('stderr')),
		};
		this.engine = new FindingEngine({
			facts: this.facts(),
			schemas: this.schemas,
			// The passive detectors first: their end-of-session drafts come before the rules' (as when they ran over the kept frames).
			prelude: createPassiveListeners,
			drop: (draft) => this.ignore.has(draft.code) || this.gaps.isDoubtful(draft.code),
			onFinding: (finding) => this.record(finding),
		});
	}

	/** The read-only view of this session's derived state that rule modules get (rule.ts). */
	private facts(): SessionFacts {
		const session = this; // eslint-disable-line @typescript-eslint/no-this-alias
		return {
			meta: this.meta,
			get offeredVersion() {
				return session.offeredVersion;
			},
			get negotiatedVersion() {
				return session.negotiatedVersion;
			},
			get handshakeDone() {
				return session.handshakeDone;
			},
			get serverCapabilities() {
				return session.serverCapabilities;
			},
			get stdinClosedAt() {
				return session.stdinClosedAt;
			},
			get firstReplyTMs() {
				return session.firstReplyTMs;
			},
			get exit() {
				return session.exitInfo;
			},
			runtime: this.runtime,
			outstanding: (stream: StreamName): OutstandingRequest[] =>
				[...this.outstanding[stream].values()].map(({frame, method}) => ({frame, method, id: frame.id ?? null})),
			streamLength: (stream: StreamName) => this.totals[stream].bytes,
			stderrTail: (maxLines: number) => this.stderrTail(maxLines),
		};
	}

	/** True when the session keeps chunks, frames and findings (`SessionOptions.retain`, default true). */
	get retains(): boolean {
		return this.store.retains;
	}

	/** Listen to every event, synchronously and in order. Returns an unsubscribe function. */
	on(listener: (event: SessionEvent) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** {@link SessionStore}: called after every change; callers batch (the TUI refreshes at most every ~50 ms). */
	subscribe(listener: () => void): () => void {
		this.storeListeners.add(listener);
		return () => this.storeListeners.delete(listener);
	}

	/**
	 * Record bytes that crossed `stream` at `tMs` (ms since session start) and derive frames and findings.
	 * Returns the chunk with its session-wide `seq` and stream `offset`.
	 * @throws Error if the stream already ended (a caller bug, not a wire fault)
	 */
	pushChunk(stream: StreamName, tMs: number, bytes: Uint8Array): Chunk {
		if (this.ended.has(stream)) throw new Error(`mcp-wire: chunk for ended stream ${stream}`);
		const totals = this.totals[stream];
		const chunk: Chunk = {seq: this.seq++, stream, tMs, offset: totals.bytes, bytes};
		totals.bytes += bytes.length;
		totals.chunks += 1;
		this.lastTMs = Math.max(this.lastTMs, tMs);
		this.store.addChunk(chunk);
		this.emit({type: 'chunk', chunk});
		this.engine.chunk(chunk);
		const skip = this.gaps.skipOf(stream, bytes);
		if (skip === 0) this.framers[stream].push(chunk, this.onFramed);
		else if (skip > 0) this.resyncFramer(stream, {...chunk, offset: chunk.offset + skip, bytes: bytes.subarray(skip)});
		this.store.framed(stream, this.framers[stream].pendingOffset);
		return chunk;
	}

	/** Record a process or probe mark (stdin-closed also ends the stdin stream; eof ends that stream). */
	mark(mark: Mark): void {
		if (mark.type === 'eof') {
			this.endStream(mark.stream, mark.tMs);
			return;
		}
		if (mark.type === 'gap') {
			if (this.ended.has(mark.stream)) return;
			// Bytes not in the capture: offsets stay true, the cut frame is dropped unframed (gaps.ts).
			this.totals[mark.stream].bytes += mark.length;
			this.gaps.gap(mark.stream, mark.length);
			this.framers[mark.stream] = createFramer(mark.stream, {
				...this.framerOptions(mark.stream),
				startOffset: this.totals[mark.stream].bytes,
			});
		}
		this.marks.push(mark);
		this.lastTMs = Math.max(this.lastTMs, mark.tMs);
		if (mark.type === 'stdin-closed' && this.stdinClosedAt === undefined) this.stdinClosedAt = mark.tMs;
		if (mark.type === 'phase' && mark.name === 'modern-era') this.era = 'modern';
		this.emit({type: 'mark', mark});
		this.engine.mark(mark);
		if (mark.type === 'stdin-closed') this.endFramer('stdin', mark.tMs);
	}

	/** End of file on `stream` at `tMs`: records an `eof` mark and flushes the stream's pending bytes. */
	endStream(stream: StreamName, tMs: number): void {
		if (this.ended.has(stream)) return;
		const mark: Mark = {type: 'eof', stream, tMs};
		this.marks.push(mark);
		this.lastTMs = Math.max(this.lastTMs, tMs);
		this.emit({type: 'mark', mark});
		this.engine.mark(mark);
		this.endFramer(stream, tMs);
	}

	/** Record how the process ended; derives `early-exit` and `shutdown-timeout` (R14). */
	exit(info: ExitInfo): void {
		if (this.exitInfo) return;
		this.exitInfo = info;
		this.lastTMs = Math.max(this.lastTMs, info.tMs);
		this.emit({type: 'exit', exit: info});
		this.engine.exit(info);
		const stdoutBytes = this.totals.stdout.bytes;
		const signals = this.marks.filter((m): m is Extract<Mark, {type: 'signal-sent'}> => m.type === 'signal-sent');
		const closedFirst = this.stdinClosedAt !== undefined && this.stdinClosedAt <= info.tMs;
		// In tap mode the client may end the server with a signal (forwarded by the tap): its shutdown, not an early exit.
		const clientSignalled = this.marks.some((m) => m.type === 'phase' && m.name.startsWith('signal-forwarded'));
		if (!closedFirst && signals.length === 0 && !clientSignalled) {
			this.report({
				code: 'early-exit',
				stream: 'stdout',
				offset: stdoutBytes,
				byteLength: 0,
				tMs: info.tMs,
				detail: {
					exitCode: info.code,
					signal: info.signal,
					phase: this.handshakeDone ? 'mid-session' : 'before-handshake',
					stdoutBytes,
					stderrTail: this.stderrTail(10),
				},
			});
		} else if (signals.length > 0) {
			const last = signals[signals.length - 1]!;
			this.report({
				code: 'shutdown-timeout',
				stream: 'stdout',
				offset: stdoutBytes,
				byteLength: 0,
				tMs: info.tMs,
				severity: last.signal === 'SIGKILL' ? 'error' : 'warning',
				detail: {
					signal: last.signal,
					afterStdinClosedMs: this.stdinClosedAt === undefined ? null : info.tMs - this.stdinClosedAt,
				},
			});
		}
	}

	/** Add a finding only a live probe can observe (spawn-failed, no-response, a Content-Length re-probe). */
	addFinding(draft: FindingDraft): void {
		// A dump recorded with `observed` marks replays them into the same finding: keep it once.
		if (this.probeKeys.has(`${draft.code}@${draft.stream}:${draft.offset}`)) return;
		this.report({origin: 'probe', ...draft});
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
		this.lastTMs = Math.max(this.lastTMs, tMs);
		this.engine.settle(this.lastTMs);
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
		this.lastTMs = Math.max(this.lastTMs, tMs);
		for (const stream of STREAMS) this.endFramer(stream, this.lastTMs);
		this.isFinished = true;
		this.isComplete = options.isComplete !== false;
		if (options.stalls !== undefined && options.stalls.count > 0) this.stalls = options.stalls;
		this.engine.end({tMs: this.lastTMs, isComplete: options.isComplete !== false});
		this.summary = this.buildSummary();
		this.emit({type: 'summary', summary: this.summary});
		return this.summary;
	}

	/** The current immutable view (cached until the next change). */
	getSnapshot(): SessionSnapshot {
		if (this.snapshot) return this.snapshot;
		const view = this.store.view();
		const marks = this.marks.slice();
		const totals = {stdin: {...this.totals.stdin}, stdout: {...this.totals.stdout}, stderr: {...this.totals.stderr}};
		const summary = this.summary ?? this.buildSummary();
		const exit = this.exitInfo;
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
		return this.framers[stream].pendingBytes;
	}

	/** True once `stream` reached end of file (no more chunks may follow). */
	hasEnded(stream: StreamName): boolean {
		return this.ended.has(stream);
	}

	/** Total bytes seen on a stream. */
	streamLength(stream: StreamName): number {
		return this.totals[stream].bytes;
	}

	/** The method of `requester`'s outstanding request whose id is this raw JSON token, if any (invalid-json). */
	private awaitedMethod(requester: StreamName, token: string): string | undefined {
		let id: unknown;
		try {
			id = JSON.parse(token);
		} catch {
			return undefined;
		}
		return typeof id === 'string' || typeof id === 'number'
			? this.outstanding[requester].get(idKey(id))?.method
			: undefined;
	}

	/** Framing after a gap starts over at the first line after it (gaps.ts); `chunk` holds what follows that line's start. */
	private resyncFramer(stream: StreamName, chunk: Chunk): void {
		this.framers[stream] = createFramer(stream, {...this.framerOptions(stream), startOffset: chunk.offset});
		if (chunk.bytes.length > 0) this.framers[stream].push(chunk, this.onFramed);
	}

	private framerOptions(stream: StreamName): FramerOptions {
		if (stream === 'stderr') return {mode: 'log'};
		const peer: StreamName = stream === 'stdin' ? 'stdout' : 'stdin';
		return {mode: 'protocol', awaitedMethod: (token) => this.awaitedMethod(peer, token)};
	}

	private endFramer(stream: StreamName, tMs: number): void {
		if (this.ended.has(stream)) return;
		this.ended.add(stream);
		this.framers[stream].end(tMs, this.onFramed);
	}

	private readonly onFramed = (output: FramerOutput): void => {
		let raw = output.frame;
		const index = this.frameCount++;
		const stream = raw.stream;
		let frame: Frame;
		let drafts: FindingDraft[] | undefined;
		let nesting: FindingDraft | undefined;
		if (raw.isJson && nestsDeeperThan(raw.message)) {
			// Too deep for the renderers' walks (depth.ts): the levels past the limit become a placeholder.
			raw = {...raw, message: cutNesting(raw.message)};
			if (stream !== 'stderr') nesting = nestingDraft(raw, index);
		}
		if (stream !== 'stderr' && raw.isJson) {
			const cls = withRawId(
				classifyMessage(raw.message, stream === 'stdin' ? this.stdinOptions : this.stdoutOptions),
				raw.rawId,
			);
			frame = buildFrame(raw, index, cls.kind, cls.method, cls.hasId ? (cls.id ?? null) : undefined);
			if (cls.problems.length > 0) {
				const first = cls.problems[0]!;
				const isWarning = cls.problems.every((p) => p.severity === 'warning');
				drafts = [
					{
						code: 'invalid-jsonrpc',
						stream,
						offset: raw.offset,
						byteLength: raw.byteLength,
						frameIndex: index,
						tMs: raw.tMs,
						...(isWarning ? {severity: 'warning' as const} : {}),
						detail: {
							reason: first.reason,
							problem: first.message,
							rule: first.rule,
							...(first.key === undefined ? {} : {key: first.key}),
							problems: cls.problems.map((p) => p.reason),
							...(raw.rawId === undefined ? {} : {rawId: raw.rawId}),
							impact: impactForProblems(cls.problems, raw.message, this.schemas),
						},
					},
				];
			}
			if (cls.kind !== 'json') drafts = this.correlate(frame as MutableFrame, drafts);
			if (drafts && drafts.length > 1 && drafts.some((d) => d.code === 'response-to-notification')) {
				// An error without id right after a notification is one fault (J4), not also a shape fault; an
				// explicit `"id":null` is both (F45: JSON-RPC allows null only for an unreadable request id).
				drafts = drafts.filter((d) => !(d.code === 'invalid-jsonrpc' && onlyIdProblems(d)));
			}
			if (stream === 'stdout' && cls.kind !== 'json') this.firstReplyTMs ??= raw.firstTMs;
		} else {
			frame = buildFrame(raw, index, raw.isBlank ? 'blank' : raw.isJson ? 'json' : 'text', undefined, undefined);
		}
		this.totals[stream].frames += 1;
		this.clients.frame(frame);
		this.store.addFrame(frame);
		this.emit({type: 'frame', frame});
		for (const draft of output.findings) this.report({...draft, frameIndex: index});
		if (nesting) this.report(nesting);
		if (drafts) for (const draft of drafts) this.report(draft);
		this.engine.frame(frame);
	};

	/** Request/response correlation (J4, J5), lifecycle checks (R8, R11) and timing (R15, O2–O4). */
	private correlate(frame: MutableFrame, given: FindingDraft[] | undefined): FindingDraft[] | undefined {
		let drafts = given;
		const add = (draft: FindingDraft): void => {
			(drafts ??= []).push(draft);
		};
		const stream = frame.stream;
		const base = {stream, offset: frame.offset, byteLength: frame.byteLength, frameIndex: frame.index, tMs: frame.tMs};
		if (frame.kind === 'request' && frame.id !== undefined && frame.id !== null && frame.method !== undefined) {
			this.outstanding[stream].set(idKey(frame.id), {frame, method: frame.method});
			if (frame.method === 'initialize' && stream === 'stdin') {
				const params = (
					frame.message as {params?: {protocolVersion?: unknown; clientInfo?: {name?: unknown; version?: unknown}}}
				).params;
				if (typeof params?.protocolVersion === 'string') this.offeredVersion = params.protocolVersion;
				const info = params?.clientInfo;
				if (info && typeof info === 'object')
					this.clientInfo = {
						...(typeof info.name === 'string' ? {name: info.name} : {}),
						...(typeof info.version === 'string' ? {version: info.version} : {}),
					};
			}
			return drafts;
		}
		if (frame.kind === 'notification') {
			this.unclaimedNotification[stream] = frame;
			return drafts;
		}
		if (frame.kind !== 'response' && frame.kind !== 'error') return drafts;
		const requester = opposite(stream);
		if (frame.id === undefined || frame.id === null) {
			// An id-less response is legal only for a request whose id could not be read (J5); when the peer
			// sent a notification that nothing has answered yet, this answers it (J4: F29, and the probe's
			// initialized + tools/list sent back to back).
			const notification = this.unclaimedNotification[requester];
			if (notification) {
				this.unclaimedNotification[requester] = undefined;
				add({
					...base,
					code: 'response-to-notification',
					detail: {method: notification.method ?? null, notificationIndex: notification.index},
				});
			}
			return drafts;
		}
		let key = idKey(frame.id);
		let request = this.outstanding[requester].get(key);
		// The id came back as a string of the request's integer (`"0"` for 0): the TS SDK v1 and v2 clients
		// match by `Number(id)` and the Python SDK normalises it, so the request is answered for them; VS Code
		// and rmcp match the type too and never see the answer (a warning naming them, unknown-id).
		if (!request && typeof frame.id === 'string' && /^-?\d{1,15}$/.test(frame.id)) {
			const numeric = idKey(Number(frame.id));
			request = this.outstanding[requester].get(numeric);
			if (request) {
				key = numeric;
				add({
					...base,
					code: 'unknown-id',
					severity: 'warning',
					detail: {id: frame.id, reason: 'id-type-changed', requestId: request.frame.id ?? null},
				});
			}
		}
		if (!request) {
			// A second answer to an answered id is a duplicate when it came in the same burst as the first,
			// repeats it byte for byte, or when nothing newer is waiting; when a newer request is waiting, the
			// id was most likely not echoed (coerced to 0, or to a stale id): unknown-id (J5, docs/findings.md).
			const earlier = this.answered[requester].get(key);
			let isDuplicate = earlier !== undefined;
			if (earlier && earlier.lastSeq !== frame.firstSeq && !this.sameBody(earlier.index, frame, earlier.body)) {
				for (const waiting of this.outstanding[requester].values()) {
					if (waiting.frame.index > earlier.index) {
						isDuplicate = false;
						break;
					}
				}
			}
			add({...base, code: isDuplicate ? 'duplicate-response' : 'unknown-id', detail: {id: frame.id}});
			return drafts;
		}
		this.outstanding[requester].delete(key);
		// Remember the most recent answered ids only (for duplicate-response): memory stays flat on long taps.
		this.answered[requester].set(key, {
			index: frame.index,
			lastSeq: frame.lastSeq,
			body: this.store.answerPrint(frame),
		});
		const latencyMs = frame.tMs - request.frame.tMs;
		frame.answers = {method: request.method, requestIndex: request.frame.index, latencyMs};
		if (stream === 'stdout') this.checkServerReply(frame, request);
		return drafts;
	}

	/** True when `frame` repeats the body of frame `index` byte for byte (a re-sent answer, not a stale id). */
	private sameBody(index: number, frame: Frame, print: BodyPrint | undefined): boolean {
		return this.store.sameBody(index, frame, print);
	}

	/** Session state from a server reply (era, handshake, negotiated version, capabilities, list counts); the findings are the rules'. */
	private checkServerReply(frame: Frame, request: Outstanding): void {
		const message = frame.message as {result?: unknown; error?: unknown};
		if (request.method === 'initialize') {
			if (frame.kind === 'error') {
				// A rejection naming 2026-07-28 is a modern-only server (R19); any other is protocol-version's.
				if (checkInitializeError(message.error)?.modernEra) this.era = 'modern';
				return;
			}
			this.era = 'legacy';
			this.handshakeDone = true;
			const result = message.result as
				{protocolVersion?: unknown; serverInfo?: {name?: unknown; version?: unknown}} | undefined;
			if (typeof result?.protocolVersion === 'string') {
				this.negotiatedVersion = result.protocolVersion;
				this.stdinOptions = {direction: 'client-to-server', protocolVersion: result.protocolVersion};
				this.stdoutOptions = {direction: 'server-to-client', protocolVersion: result.protocolVersion};
			}
			const capabilities = (result as {capabilities?: unknown} | undefined)?.capabilities;
			if (capabilities && typeof capabilities === 'object' && !Array.isArray(capabilities))
				this.serverCapabilities = capabilities as Record<string, unknown>;
			if (result?.serverInfo && typeof result.serverInfo === 'object') {
				this.serverInfo = {
					...(typeof result.serverInfo.name === 'string' ? {name: result.serverInfo.name} : {}),
					...(typeof result.serverInfo.version === 'string' ? {version: result.serverInfo.version} : {}),
				};
			}
			return;
		}
		if (request.method === 'server/discover' && frame.kind === 'response') {
			this.era = 'modern';
			this.handshakeDone = true;
			return;
		}
		if (frame.kind === 'response' && message.result && typeof message.result === 'object') {
			const result = message.result as Record<string, unknown>;
			if (request.method === 'tools/list' && Array.isArray(result['tools']))
				this.counts.tools = (result['tools'] as unknown[]).length;
			if (request.method === 'prompts/list' && Array.isArray(result['prompts']))
				this.counts.prompts = (result['prompts'] as unknown[]).length;
			if (request.method === 'resources/list' && Array.isArray(result['resources']))
				this.counts.resources = (result['resources'] as unknown[]).length;
		}
	}

	private report(draft: FindingDraft): void {
		this.engine.report(draft);
	}

	/** Count, keep and emit a finding the engine dressed. */
	private record(finding: Finding): void {
		if (finding.origin === 'probe') this.probeKeys.add(`${finding.code}@${finding.stream}:${finding.offset}`);
		const counted = this.severityCounts.get(finding.code);
		if (counted) {
			counted.count += 1;
			if (rank(finding.severity) > rank(counted.severity)) counted.severity = finding.severity;
		} else {
			this.severityCounts.set(finding.code, {severity: finding.severity, count: 1});
		}
		this.bySeverity[finding.severity] += 1;
		this.store.addFinding(finding);
		this.clients.finding(finding);
		this.emit({type: 'finding', finding});
	}

	private buildSummary(): Summary {
		const {error: errors, warning: warnings, info: infos} = this.bySeverity;
		// Errors first, then warnings, then infos; within a severity, in the order first found.
		const findings = [...this.severityCounts.entries()]
			.map(([code, {severity, count}]) => ({code, severity, count}))
			.sort((a, b) => rank(b.severity) - rank(a.severity));
		const streams = {} as Record<StreamName, StreamTotals>;
		for (const s of STREAMS) streams[s] = {...this.totals[s]};
		const clients = this.clients.outcomes({
			isComplete: this.isFinished && this.isComplete,
			...(this.era ? {era: this.era} : {}),
			...(this.counts.tools === undefined ? {} : {tools: this.counts.tools}),
		});
		return {
			verdict: verdictOf(clients, {
				errors,
				warnings,
				cutBeforeAnyFrame: this.isFinished && !this.isComplete && streams.stdin.frames + streams.stdout.frames === 0,
			}),
			findings,
			errors,
			warnings,
			infos,
			streams,
			durationMs: this.lastTMs,
			...(this.exitInfo ? {exit: this.exitInfo} : {}),
			...(this.era ? {era: this.era} : {}),
			...(this.serverInfo ? {serverInfo: this.serverInfo} : {}),
			...(this.clientInfo ? {clientInfo: this.clientInfo} : {}),
			...(this.negotiatedVersion ? {protocolVersion: this.negotiatedVersion} : {}),
			...this.counts,
			clients,
			...(this.isFinished && (!this.isComplete || this.gaps.count > 0)
				? {incomplete: {cutShort: !this.isComplete, missingBytes: this.gaps.missingBytes, gaps: this.gaps.count}}
				: {}),
			...(this.stalls === undefined ? {} : {stalls: this.stalls}),
		};
	}

	private emit(event: SessionEvent): void {
		this.snapshot = undefined;
		for (const listener of this.listeners) listener(event);
		for (const listener of this.storeListeners) listener();
	}
}

const rank = (s: Severity): number => (s === 'error' ? 2 : s === 'warning' ? 1 : 0);

const ID_REASONS = new Set(['error-without-id', 'missing-id']);

function onlyIdProblems(draft: FindingDraft): boolean {
	const problems = draft.detail?.['problems'];
	return Array.isArray(problems) && problems.every((p) => ID_REASONS.has(p as string));
}

type MutableFrame = {-readonly [K in keyof Frame]: Frame[K]};
type ClassifyOptions = Parameters<typeof classifyMessage>[1];

/**
 * A frame with every field present in one fixed order (one hidden class for all frames: this is the
 * hot path). Optional fields that do not apply are `undefined`, which JSON and `toEqual` treat as absent.
 */
function buildFrame(
	raw: FramerOutput['frame'],
	index: number,
	kind: Frame['kind'],
	method: string | undefined,
	id: Frame['id'],
): MutableFrame {
	return {
		index,
		stream: raw.stream,
		framing: raw.framing,
		offset: raw.offset,
		byteLength: raw.byteLength,
		bodyOffset: raw.bodyOffset,
		bodyLength: raw.bodyLength,
		terminator: raw.terminator,
		lineCount: raw.lineCount,
		tMs: raw.tMs,
		firstTMs: raw.firstTMs,
		firstSeq: raw.firstSeq,
		lastSeq: raw.lastSeq,
		kind,
		message: raw.message,
		method,
		id,
		...(raw.rawId === undefined ? {} : {rawId: raw.rawId}),
		answers: undefined,
		text: raw.text,
	};
}
