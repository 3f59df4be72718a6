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
import type {CatalogEntry} from './meta.js';

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
	/** A fresh detector for one session (it may keep per-session state in the closure). */
	create(context: RuleContext): RuleListeners;
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
	onFrame?(frame: Frame): void;
	onFinding?(finding: Finding): void;
	onMark?(mark: Mark): void;
	/**
	 * What the server's processes were doing (an `evidence` mark, also passed to `onMark`): taken at every
	 * stall, at the timeout, at shutdown and after the exit (issue 10 §1). `tMs` is when it was taken.
	 */
	onEvidence?(evidence: ProcessEvidence, tMs: number): void;
	onExit?(exit: ExitInfo): void;
	/** `isComplete` is false for a capture that ends without the process's exit (cut short, tap still running). */
	onEnd?(end: {readonly tMs: number; readonly isComplete: boolean}): void;
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
