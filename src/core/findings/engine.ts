import type {
	Chunk,
	ExitInfo,
	Finding,
	FindingCode,
	FindingDraft,
	Frame,
	JsonRpcId,
	Mark,
	ProcessEvidence,
	SessionMeta,
	StreamName,
} from '../types.js';
import type {SdkSchemas} from '../jsonrpc/sdk-checks.js';
import type {Correlation} from '../jsonrpc/correlator.js';
import type {JsonRpcProblem} from '../jsonrpc/problem.js';
import type {FrameFacts} from '../framing/facts.js';
import type {RawFrame} from '../framing/framer.js';
import type {CatalogEntry} from './support/meta.js';
import type {ErrorText} from './support/pasted.js';
import type {ClientTextId} from '../clients/profile.js';
import {dressFinding} from './support/catalog.js';
import {RULES} from './registry.js';

/**
 * One finding code's module, the way ESLint keeps one rule per file: the code, its {@link CatalogEntry}
 * (`meta`) and a detector (`create`) that listens to session events. `session.ts` only wires the list in
 * `registry.ts`; the framer and the correlator report byte-level and JSON-RPC facts, the rules decide.
 *
 * A rule is pure: no I/O, no clock. Everything it knows comes in through its listeners and
 * {@link RuleContext.facts}, so a replayed capture yields the same findings as the live session.
 */
export interface Rule {
	/** The stable finding code this module owns (never renamed: a public interface). */
	readonly code: FindingCode;
	/** Severity, message, fix, rule ids and client impact of the code. */
	readonly meta: CatalogEntry;
	/**
	 * The finding depends on what the other side sent earlier or later (a request, a response, `initialize`):
	 * once either protocol stream of a capture had a gap, that message may be among the missing bytes, so the
	 * session drops the finding (docs/capture-format.md#gaps-and-incomplete-captures). Unset: the finding is
	 * about a frame's own bytes, and a gap elsewhere cannot change it.
	 */
	readonly pairsAcrossStreams?: true;
	/**
	 * The client error messages that point at this code, for `mcp-wire explain` (`findings/explain.ts`): each
	 * names a known message of `support/pasted.ts`, how likely this code is behind it, and why.
	 */
	readonly errors?: readonly ErrorText[];
	/**
	 * The texts of client modules (`src/core/clients`, their `errorTexts` by id) that this code can cause, for
	 * `mcp-wire explain` (`findings/client-errors.ts`): a text only its client knows, not one of `support/pasted.ts`.
	 */
	readonly clientTexts?: readonly ClientTextClaim[];
	/** A fresh detector for one session (it may keep per-session state in the closure). */
	create(context: RuleContext): RuleListeners;
}

/**
 * One client text a rule claims: the text's id, and where the rule's code stands among the codes that text
 * points at (0 first). `explain` gives the codes of a text in that order, each with the client's `means` as its
 * `why`: `likely` when one code claims the text, `possible` when several do.
 */
export interface ClientTextClaim {
	readonly text: ClientTextId;
	readonly rank: number;
}

/**
 * What a detector may listen to. Every listener is optional and called synchronously, in session order.
 * `onFrame` is called after the frame was classified and correlated (a response's `answers` is set).
 * `onFinding` sees every finding reported by anything (framer, correlator, other rules), after it was dressed.
 * `onEnd` runs once in `Session.finish`, after every stream was flushed and before the summary.
 */
export interface RuleListeners {
	/**
	 * Every draft (from the framer, the correlator or a rule) before it is dressed: return it with more
	 * `detail` to change how it is presented (e.g. `stderr-merged` marks the stray lines it explains), or
	 * nothing to keep it. A rule may `report` from here; what it reports is dressed and emitted first.
	 */
	onDraft?(draft: FindingDraft): FindingDraft | undefined;
	onChunk?(chunk: Chunk): void;
	/**
	 * What the classifier and the correlator found a JSON frame on stdin or stdout to be ({@link MessageFacts}),
	 * after the framer's drafts for it and before `onFrame`.
	 */
	onMessage?(message: MessageFacts): void;
	/**
	 * A protocol-mode frame (stdin, stdout) as the framer made it, and what its bytes did
	 * (`framing/facts.ts`): the framing rules decide here. Called as soon as the frame is stored, before the
	 * JSON-RPC classifier's and the correlator's drafts for it and before `onFrame`. `frameIndex` is the
	 * session's index of the frame (undefined when a framer runs outside a session).
	 */
	onFrameFacts?(frame: RawFrame, facts: FrameFacts, frameIndex: number | undefined): void;
	onFrame?(frame: Frame): void;
	onFinding?(finding: Finding): void;
	onMark?(mark: Mark): void;
	/**
	 * What the server's processes were doing (an `evidence` mark, also passed to `onMark`): taken at every
	 * stall, at the timeout, at shutdown and after the exit (docs/json-records.md#mark). `tMs` is when it was taken.
	 */
	onEvidence?(evidence: ProcessEvidence, tMs: number): void;
	onExit?(exit: ExitInfo): void;
	/**
	 * The scripted exchange is over but the session stays open (the probe under the TUI holds the server):
	 * report what is already certain from what was seen so far, as for a capture cut short. Nothing may be
	 * blamed on an end that has not come. What a rule reports here it must not report again in `onEnd`.
	 */
	onSettle?(settle: {readonly tMs: number}): void;
	/**
	 * Runs once, in `Session.finish`, after every stream was flushed and before the summary. `isComplete`
	 * is false for a capture that ends without the process's exit (cut short, tap still running).
	 */
	onEnd?(end: {readonly tMs: number; readonly isComplete: boolean}): void;
}

/** The facts about one JSON frame on stdin or stdout, for {@link RuleListeners.onMessage}. */
export interface MessageFacts {
	/** The frame, classified and correlated (a response's `answers` is set). */
	readonly frame: Frame;
	/** What makes it no valid JSON-RPC message (J1–J9), worst first; empty when it is one (or plain JSON). */
	readonly problems: readonly JsonRpcProblem[];
	/** It nested deeper than the renderers walk, and the levels past the limit were cut (jsonrpc/depth.ts). */
	readonly nestingCut: boolean;
	/** What the correlator made of a response or error (J4, J5); undefined for anything else. */
	readonly correlation: Correlation | undefined;
}

/** A request still waiting for its response. */
export interface OutstandingRequest {
	readonly frame: Frame;
	readonly method: string;
	readonly id: JsonRpcId;
}

/** Read-only facts the session has derived so far, for detectors. */
export interface SessionFacts {
	readonly meta: SessionMeta;
	/** The protocol version the client offered in `initialize`, once seen. */
	readonly offeredVersion: string | undefined;
	/** The protocol version the server answered, once seen. */
	readonly negotiatedVersion: string | undefined;
	/** True once `initialize` (or `server/discover`) was answered with a result. */
	readonly handshakeDone: boolean;
	/** `capabilities` of the server's `initialize` result, once seen. */
	readonly serverCapabilities: Readonly<Record<string, unknown>> | undefined;
	/** When the client closed the server's stdin (ms since session start), if it did. */
	readonly stdinClosedAt: number | undefined;
	/** When the server's first JSON-RPC message arrived on stdout (ms since session start), once it did. */
	readonly firstReplyTMs: number | undefined;
	/** How the process ended, once known. */
	readonly exit: ExitInfo | undefined;
	/** The server's runtime guessed from the command (`python`, `node`), for runtime-specific fixes. */
	readonly runtime: string | undefined;
	/** Requests sent on `stream` (stdin: by the client) that have no response yet, oldest first. */
	outstanding(stream: StreamName): readonly OutstandingRequest[];
	/** Total bytes seen on a stream so far. */
	streamLength(stream: StreamName): number;
	/** The last `maxLines` stderr lines as text. */
	stderrTail(maxLines: number): string[];
}

/** Handed to {@link Rule.create}. */
export interface RuleContext {
	/** Report a finding of this rule's code (or, rarely, a related code it owns the logic of). */
	report(draft: FindingDraft): void;
	readonly facts: SessionFacts;
	/**
	 * The TS SDK's schema checks injected into the session (`SessionOptions.schemas`): `invalid-result` and
	 * `invalid-initialize` validate with them. Unloaded (`UNCHECKED_SDK_SCHEMAS`), they check nothing.
	 */
	readonly schemas: SdkSchemas;
}

/** What the {@link FindingEngine} needs from its session. */
export interface EngineOptions {
	readonly facts: SessionFacts;
	readonly schemas: SdkSchemas;
	/**
	 * Listeners that run ahead of the rules (the passive J3 checks): built with the engine's `report`.
	 * @param report the engine's {@link FindingEngine.report}
	 */
	readonly prelude?: (report: (draft: FindingDraft) => void) => RuleListeners;
	/** True for a draft the session drops before it is dressed (`--ignore`, a finding a capture gap cannot back). */
	readonly drop: (draft: FindingDraft) => boolean;
	/** Receives every finding, dressed, in report order (the session counts, stores and emits it). */
	readonly onFinding: (finding: Finding) => void;
}

/**
 * Runs the rules of {@link RULES} over one session, the way mitmproxy runs its addons: the session hands
 * it facts in order (chunks, frames, marks, the exit, settle, end) and it calls each rule's listeners in
 * registry order. It knows no code itself: a rule reports a draft, every rule may annotate it
 * (`onDraft`), the catalog dresses it (`support/catalog.ts`), and the session receives the finding.
 */
export class FindingEngine {
	private readonly listeners: readonly RuleListeners[];
	/**
	 * The listeners of each per-frame phase, those that have it: called for every chunk or frame, so the
	 * others are not visited (one loop over every listener per phase, each asked for a method it mostly
	 * lacks, was a measurable part of a replay: docs/performance.md#replay).
	 */
	private readonly factListeners: readonly RuleListeners[];
	private readonly chunkListeners: readonly RuleListeners[];
	private readonly messageListeners: readonly RuleListeners[];
	private readonly frameListeners: readonly RuleListeners[];
	private readonly drop: EngineOptions['drop'];
	private readonly deliver: EngineOptions['onFinding'];

	/** @param options the session's facts, schemas, drop filter and finding sink */
	constructor(options: EngineOptions) {
		this.drop = options.drop;
		this.deliver = options.onFinding;
		const report = (draft: FindingDraft): void => this.report(draft);
		const context: RuleContext = {report, facts: options.facts, schemas: options.schemas};
		this.listeners = [
			...(options.prelude ? [options.prelude(report)] : []),
			...RULES.map((rule) => rule.create(context)),
		];
		this.factListeners = this.listeners.filter((rule) => rule.onFrameFacts !== undefined);
		this.chunkListeners = this.listeners.filter((rule) => rule.onChunk !== undefined);
		this.messageListeners = this.listeners.filter((rule) => rule.onMessage !== undefined);
		this.frameListeners = this.listeners.filter((rule) => rule.onFrame !== undefined);
	}

	/** A chunk as it arrived, before it is framed. */
	chunk(chunk: Chunk): void {
		for (const rule of this.chunkListeners) rule.onChunk!(chunk);
	}

	/** A protocol-mode frame and its facts ({@link RuleListeners.onFrameFacts}), before it is classified. */
	framed(frame: RawFrame, facts: FrameFacts, frameIndex: number): void {
		for (const rule of this.factListeners) rule.onFrameFacts!(frame, facts, frameIndex);
	}

	/** The classifier's and the correlator's facts about a JSON frame on stdin or stdout (before {@link FindingEngine.frame}). */
	message(message: MessageFacts): void {
		for (const rule of this.messageListeners) rule.onMessage!(message);
	}

	/** A frame, classified and correlated (the framer's drafts and the rules' `onMessage` come first). */
	frame(frame: Frame): void {
		for (const rule of this.frameListeners) rule.onFrame!(frame);
	}

	/** A process or probe mark (an `evidence` mark also goes to `onEvidence`). */
	mark(mark: Mark): void {
		for (const rule of this.listeners) rule.onMark?.(mark);
		if (mark.type === 'evidence') for (const rule of this.listeners) rule.onEvidence?.(mark.evidence, mark.tMs);
	}

	/** How the process ended. */
	exit(info: ExitInfo): void {
		for (const rule of this.listeners) rule.onExit?.(info);
	}

	/** The settle phase ({@link RuleListeners.onSettle}); `tMs` in ms since session start. */
	settle(tMs: number): void {
		for (const rule of this.listeners) rule.onSettle?.({tMs});
	}

	/** The end phase ({@link RuleListeners.onEnd}); call it once. */
	end(end: {readonly tMs: number; readonly isComplete: boolean}): void {
		for (const rule of this.listeners) rule.onEnd?.(end);
	}

	/** Annotate (`onDraft`), dress and deliver one draft, then let every rule see the finding. */
	report(given: FindingDraft): void {
		if (this.drop(given)) return;
		let draft = given;
		for (const rule of this.listeners) if (rule.onDraft) draft = rule.onDraft(draft) ?? draft;
		const finding = dressFinding(draft);
		this.deliver(finding);
		for (const rule of this.listeners) rule.onFinding?.(finding);
	}
}
