/**
 * One client's outcome for a session played with that client's opening (`probe --as <client>`,
 * docs/clients.md#one-client-as-itself): the reading model of its family (the session's per-family
 * outcome, docs/clients.md "The outcome of one client") and, on top, what its own opening and limits
 * decide: the `initialize` result later than its start-up limit, a protocol version it does not support,
 * stderr it does not read filling the pipe before the reply. Pure.
 */
import type {ClientOutcome, ClientOutcomeKind, Frame} from '../types.js';
import {protocolVersion} from '../findings/rules/protocol-version.js';
import {isEstablished, type ClientProfile} from './profile.js';

/** What a pipe holds before a writer blocks (Linux, docs/protocol.md O6; other systems hold less). */
export const PIPE_CAPACITY_BYTES = 65_536;

/** The facts of a session that a client's limits judge, from its frames. */
export interface HandshakeFacts {
	/** When the `initialize` result came (ms since the spawn), or undefined when none came. */
	readonly initializeReplyMs?: number;
	/** The `protocolVersion` of the `initialize` result. */
	readonly answeredVersion?: string;
	/** Bytes the server wrote to stderr before the `initialize` result (all of them when none came). */
	readonly stderrBytesBeforeReply: number;
	/** How long the first `tools/list` reply (result or error) took after its request (ms), when one came. */
	readonly toolsListReplyMs?: number;
}

/**
 * The {@link HandshakeFacts} of a session's frames (in index order): the first successful reply to
 * `initialize` on stdout, the stderr bytes before it, and the latency of the first reply to `tools/list`.
 */
export function handshakeFacts(frames: readonly Frame[]): HandshakeFacts {
	const reply = frames.find(
		(f) => f.stream === 'stdout' && f.kind === 'response' && f.answers?.method === 'initialize',
	);
	let stderrBytes = 0;
	for (const frame of frames) {
		if (frame.stream !== 'stderr') continue;
		if (reply !== undefined && frame.tMs > reply.tMs) break;
		stderrBytes = frame.offset + frame.byteLength;
	}
	const result = (reply?.message as {result?: {protocolVersion?: unknown}} | undefined)?.result;
	const toolsList = frames.find((f) => f.stream === 'stdout' && f.answers?.method === 'tools/list');
	return {
		...(reply === undefined ? {} : {initializeReplyMs: reply.tMs}),
		...(typeof result?.protocolVersion === 'string' ? {answeredVersion: result.protocolVersion} : {}),
		stderrBytesBeforeReply: stderrBytes,
		...(toolsList?.answers === undefined ? {} : {toolsListReplyMs: toolsList.answers.latencyMs}),
	};
}

/**
 * One row of `probe --as`: a client, what it does, and why.
 * - `outcome`, `connects`, `toolsListed`: as {@link ClientOutcome}.
 * - `firstFailure`: the finding code (or client check) and its note that decide a `fails`, else undefined.
 * - `startMs` / `startupLimitMs`: the `initialize` result's time against the client's start-up limit
 *   (`null`: it waits for ever; undefined: not established); `knob`: what raises the limit.
 */
export interface ClientRun {
	readonly client: string;
	readonly displayName: string;
	readonly outcome: ClientOutcomeKind;
	readonly connects: boolean | null;
	readonly toolsListed: boolean | null;
	readonly tools?: number;
	readonly firstFailure?: {readonly code: string; readonly note: string};
	readonly note: string;
	readonly startMs?: number;
	readonly startupLimitMs?: number | null;
	readonly knob?: string;
}

/**
 * Judges one client on a session played with its opening.
 * @param profile the client (its family, limits, supported versions, stderr handling)
 * @param familyOutcome the session's outcome for `profile.family` (undefined when the family is not
 *   established or the session has none)
 * @param facts from {@link handshakeFacts}
 * @param tools the tool count `tools/list` returned, when answered
 * @param startupLimitMs the client's start-up limit as the user set it with its knob (ms), in place of its default
 * @returns the row; a client check that fails (start-up limit, version, stderr) wins over the family's
 *   reading, since the client then never gets to read what follows; but when the family never connects (its
 *   reading loses the `initialize` result), only the stderr check applies: an unread reply is neither late
 *   nor of a version
 */
export function judgeClient(
	profile: ClientProfile,
	familyOutcome: ClientOutcome | undefined,
	facts: HandshakeFacts,
	tools?: number,
	startupLimitMs?: number,
): ClientRun {
	const limit = startupLimitMs ?? profile.limits.startupMs.value;
	const limitMs = isEstablished(limit) ? limit : undefined;
	const base = {
		client: profile.id,
		displayName: profile.displayName,
		...(facts.initializeReplyMs === undefined ? {} : {startMs: Math.round(facts.initializeReplyMs)}),
		...(limitMs === undefined ? {} : {startupLimitMs: limitMs}),
		...(profile.limits.knob === undefined ? {} : {knob: profile.limits.knob}),
	};
	// A reply the family never reads (no newline, cut, glued after text) starts nothing and offers no version:
	// only the client's stderr check still applies.
	const check = clientCheck(profile, familyOutcome?.connects === false ? {...facts, ...UNREAD_REPLY} : facts, limitMs);
	if (check !== undefined)
		return {
			...base,
			outcome: 'fails',
			connects: false,
			toolsListed: familyOutcome?.toolsListed === null ? null : false,
			firstFailure: check,
			note: `does not connect: ${check.note}`,
		};
	if (familyOutcome === undefined)
		return {
			...base,
			outcome: 'unknown',
			connects: null,
			toolsListed: null,
			note: `how ${profile.displayName} reads the wire is not established`,
		};
	const first = familyOutcome.decidedBy[0];
	const listCheck = listCheckNote(profile, facts);
	if (familyOutcome.outcome === 'works' && listCheck !== undefined)
		return {
			...base,
			outcome: 'degraded',
			connects: familyOutcome.connects,
			toolsListed: familyOutcome.toolsListed,
			...(tools === undefined || familyOutcome.toolsListed !== true ? {} : {tools}),
			note: `${familyOutcome.note}; but ${listCheck}`,
		};
	return {
		...base,
		outcome: familyOutcome.outcome,
		connects: familyOutcome.connects,
		toolsListed: familyOutcome.toolsListed,
		...(tools === undefined || familyOutcome.toolsListed !== true ? {} : {tools}),
		...(familyOutcome.outcome === 'fails' && first !== undefined
			? {firstFailure: {code: first, note: familyOutcome.note}}
			: {}),
		note: familyOutcome.note,
	};
}

/**
 * The client's own server check (`claude mcp list`) against a `tools/list` reply slower than it waits
 * (`limits.listCheckToolsMs`, measured for that command only: what a session of the client does with the
 * same reply is its `requestMs`).
 * @returns the note, or undefined when the reply came in time, did not come, or the client has no such check
 */
function listCheckNote(profile: ClientProfile, facts: HandshakeFacts): string | undefined {
	const check = profile.limits.listCheckToolsMs;
	if (check === undefined || facts.toolsListReplyMs === undefined) return undefined;
	const limitMs = check.value;
	if (!isEstablished(limitMs)) return undefined;
	if (facts.toolsListReplyMs <= limitMs) return undefined;
	return `\`${check.command}\` shows "tools fetch failed": tools/list answered after ${Math.round(facts.toolsListReplyMs)} ms, over the ${limitMs} ms that command waits for it (measured for \`${check.command}\` only)`;
}

/** The reply facts a client never reads: its time and its version, left out of the client's checks. */
const UNREAD_REPLY = {initializeReplyMs: undefined, answeredVersion: undefined} as const;

/** The client's own checks, first failing first: start-up limit, protocol version, unread stderr. */
function clientCheck(
	profile: ClientProfile,
	facts: HandshakeFacts,
	startupLimitMs: number | null | undefined,
): {readonly code: string; readonly note: string} | undefined {
	const name = profile.displayName;
	const knob = profile.limits.knob === undefined ? '' : ` (raise it with \`${profile.limits.knob}\`)`;
	if (
		typeof startupLimitMs === 'number' &&
		facts.initializeReplyMs !== undefined &&
		facts.initializeReplyMs > startupLimitMs
	)
		return {
			code: 'startup-limit',
			note: `initialize answered after ${Math.round(facts.initializeReplyMs)} ms, over ${name}'s start-up limit of ${startupLimitMs} ms${knob}`,
		};
	const supported = profile.opening.supportedVersions;
	if (facts.answeredVersion !== undefined && isEstablished(supported) && !supported.includes(facts.answeredVersion))
		return {
			// The client refuses the version: the same fault as the `protocol-version` finding (R11).
			code: protocolVersion.code,
			note: `the server answered protocol version ${facts.answeredVersion}, which ${name} does not support (${supported.join(', ')})`,
		};
	if (profile.stderr.value === 'piped-unread' && facts.stderrBytesBeforeReply >= PIPE_CAPACITY_BYTES)
		return {
			code: 'stderr-unread',
			note: `${facts.stderrBytesBeforeReply} bytes on stderr before the initialize result: ${name} never reads its stderr pipe, so the server blocks once ${PIPE_CAPACITY_BYTES} bytes fill it`,
		};
	return undefined;
}
