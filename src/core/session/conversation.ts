import type {FramerOutput, RawFrame} from '../framing/framer.js';
// Not '../jsonrpc/index.js': that loads the TS SDK's zod schemas, which are injected (SessionOptions.schemas).
import {classifyMessage, withRawId} from '../jsonrpc/classify.js';
import {Correlator, type AnswerPrints, type Correlation} from '../jsonrpc/correlator.js';
import {cutNesting, MAX_JSON_DEPTH, nestsDeeperThan} from '../jsonrpc/depth.js';
import type {MessageFacts, OutstandingRequest} from '../findings/engine.js';
import type {Frame, StreamName} from '../types.js';
import {ExercisedTracker} from './exercised.js';
import {LifecycleState} from './lifecycle-state.js';
import type {BodyPrint} from './stores/frame-store.js';

/**
 * One framer output made a session frame ({@link Conversation.decode}). The object is reused: read its
 * fields before the next `decode`.
 */
export interface DecodedFrame {
	/** The framer's frame; its `message` cut where it nested too deep (jsonrpc/depth.ts). */
	raw: RawFrame;
	/** The session frame: index, kind, method, id, and for a response the request it `answers`. */
	frame: Frame;
	/** For a JSON frame on stdin or stdout: what the classifier and the correlator found; else undefined. */
	facts: MessageFacts | undefined;
}

/** The shortest JSON text that nests deeper than {@link MAX_JSON_DEPTH}: `[` and `]` for each level. */
const MIN_TOO_DEEP_BYTES = 2 * (MAX_JSON_DEPTH + 1);

type MutableFrame = {-readonly [K in keyof Frame]: Frame[K]};
type ClassifyOptions = Parameters<typeof classifyMessage>[1];

/**
 * The JSON-RPC part of a session: makes each framer output a {@link Frame}, classifying the JSON ones on
 * stdin and stdout (jsonrpc/classify.ts, by the negotiated protocol version once there is one), pairing
 * requests with responses (the {@link Correlator}, J4, J5), and following the lifecycle
 * ({@link LifecycleState}, R8–R11) and what the client asked ({@link ExercisedTracker}). Facts for the
 * rules and the summary; it decides no finding. Pure.
 */
export class Conversation {
	/** Where the session stands in the MCP lifecycle (handshake, versions, era, capabilities). */
	readonly lifecycle = new LifecycleState();
	/** Which requests the client made: calls, reads, prompts (the summary's `exercised`). */
	readonly exercised = new ExercisedTracker();
	/** When the first JSON-RPC message on stdout began (ms since session start), once there is one. */
	firstReplyTMs: number | undefined;
	private readonly correlator: Correlator<BodyPrint | undefined>;
	private stdinOptions: ClassifyOptions = {direction: 'client-to-server'};
	private stdoutOptions: ClassifyOptions = {direction: 'server-to-client'};
	/** The one {@link DecodedFrame} handed out (no object per frame beyond the frame and its facts). */
	private readonly decoded: DecodedFrame = {raw: undefined!, frame: undefined!, facts: undefined};

	/** @param prints the store's answer prints: how a re-sent answer is told from a stale id (J5) */
	constructor(prints: AnswerPrints<BodyPrint | undefined>) {
		this.correlator = new Correlator(prints);
	}

	/**
	 * Make a framer output the session's frame number `index`: classify it, correlate it, follow the
	 * lifecycle. Returns the reused {@link DecodedFrame}.
	 */
	decode(output: FramerOutput['frame'], index: number): DecodedFrame {
		let raw = output;
		const stream = raw.stream;
		const decoded = this.decoded;
		let nestingCut = false;
		// Nesting past the limit takes an open and a close bracket per level: a shorter body cannot, and is
		// not walked (docs/performance.md#replay).
		if (raw.isJson && raw.bodyLength >= MIN_TOO_DEEP_BYTES && nestsDeeperThan(raw.message)) {
			// Too deep for the renderers' walks (depth.ts): the levels past the limit become a placeholder.
			raw = {...raw, message: cutNesting(raw.message)};
			nestingCut = stream !== 'stderr';
		}
		decoded.raw = raw;
		if (stream !== 'stderr' && raw.isJson) {
			const cls = withRawId(
				classifyMessage(raw.message, stream === 'stdin' ? this.stdinOptions : this.stdoutOptions),
				raw.rawId,
			);
			const frame = buildFrame(raw, index, cls.kind, cls.method, cls.hasId ? (cls.id ?? null) : undefined);
			const correlation = cls.kind === 'json' ? undefined : this.follow(frame);
			if (stream === 'stdout' && cls.kind !== 'json') this.firstReplyTMs ??= raw.firstTMs;
			decoded.frame = frame;
			decoded.facts = {frame, problems: cls.problems, nestingCut, correlation};
		} else {
			decoded.frame = buildFrame(
				raw,
				index,
				raw.isBlank ? 'blank' : raw.isJson ? 'json' : 'text',
				undefined,
				undefined,
			);
			decoded.facts = undefined;
		}
		return decoded;
	}

	/** The requests sent on `stream` still waiting for a response, oldest first. */
	outstanding(stream: StreamName): OutstandingRequest[] {
		return this.correlator.outstanding(stream).map(({frame, method}) => ({frame, method, id: frame.id ?? null}));
	}

	/** The method of `requester`'s outstanding request whose id is this raw JSON token (`1`, `"a"`), if any. */
	awaitedMethod(requester: StreamName, token: string): string | undefined {
		let id: unknown;
		try {
			id = JSON.parse(token);
		} catch {
			return undefined;
		}
		return typeof id === 'string' || typeof id === 'number' ? this.correlator.methodOf(requester, id) : undefined;
	}

	/** Correlate a classified message (J4, J5) and follow the lifecycle (R8–R11): set a response's `answers`. */
	private follow(frame: MutableFrame): Correlation | undefined {
		if (frame.kind === 'request' && frame.stream === 'stdin' && frame.id !== undefined && frame.id !== null)
			this.lifecycle.clientRequest(frame);
		if (frame.kind === 'request' && frame.id !== undefined && frame.id !== null && frame.method !== undefined)
			this.exercised.frame(frame);
		const correlation = this.correlator.correlate(frame);
		if (correlation?.type !== 'answered') return correlation;
		const request = correlation.request;
		frame.answers = {
			method: request.method,
			requestIndex: request.frame.index,
			latencyMs: frame.tMs - request.frame.tMs,
		};
		if (frame.stream === 'stdout') {
			const before = this.lifecycle.negotiatedVersion;
			this.lifecycle.serverReply(frame, request.method);
			const version = this.lifecycle.negotiatedVersion;
			if (version !== before && version !== undefined) {
				this.stdinOptions = {direction: 'client-to-server', protocolVersion: version};
				this.stdoutOptions = {direction: 'server-to-client', protocolVersion: version};
			}
		}
		return correlation;
	}
}

/**
 * A frame with every field present in one fixed order (one hidden class for all frames: this is the
 * hot path; a spread for `rawId` alone cost more than the rest of the object, docs/performance.md#replay).
 * Optional fields that do not apply are `undefined`, which JSON and `toEqual` treat as absent.
 */
function buildFrame(
	raw: RawFrame,
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
		rawId: raw.rawId,
		answers: undefined,
		text: raw.text,
	};
}
