import {BoundedMap} from '../bounded-map.js';
/**
 * What each client family will do with a whole session (docs/clients.md): connects or not, lists tools
 * or not, which requests hang or fail, and the findings that decide it. Pure: it folds the per-finding
 * client reactions the catalog carries (`Finding.impact`, docs/protocol.md §6) over the session's frames,
 * generically (no finding code is special-cased), and derives the session verdict from the outcomes.
 */
import {exercisedNoHandler} from '../session/exercised.js';
import type {
	ClientFamily,
	ClientOutcome,
	ClientOutcomeKind,
	Finding,
	FindingCode,
	Frame,
	Reaction,
	Summary,
	Verdict,
} from '../types.js';

export type {ClientOutcome, ClientOutcomeKind} from '../types.js';

/** Every client family, in display order (the columns of docs/protocol.md §6). */
export const OUTCOME_CLIENTS: readonly ClientFamily[] = [
	'ts-sdk-v1',
	'ts-sdk-v2',
	'python-sdk',
	'vscode',
	'rmcp',
	'cursor',
];

/**
 * The mainstream client families: the ones whose failure makes the verdict `fail` (wire-faults rule
 * "severity follows what breaks a real client"; docs/clients.md "The verdict"): TS SDK v1 (Claude
 * Desktop, Claude Code, MCP Inspector), the Python SDK, VS Code and Cursor.
 */
export const MAINSTREAM_CLIENTS: ReadonlySet<ClientFamily> = new Set<ClientFamily>([
	'ts-sdk-v1',
	'python-sdk',
	'vscode',
	'cursor',
]);

/**
 * How each family meets a server that speaks only the 2026-07-28 revision (it rejects `initialize` and
 * answers `server/discover`). Checked against the real clients (docs/clients.md: TS SDK 1.32 `connect()`,
 * TS SDK 2.4 with default options, MCP Python SDK 2.3 `ClientSession.initialize()` and Codex 0.171 all send
 * only `initialize` and fail on the server's error); VS Code and Cursor are not established.
 */
const MODERN_ONLY: Readonly<Record<ClientFamily, readonly [Reaction, string]>> = {
	'ts-sdk-v1': ['fatal', 'sends only `initialize` (SDK 1.x); the server rejects it and connect fails'],
	'ts-sdk-v2': [
		'fatal',
		'with default options sends only `initialize` (2.4.0 run here); the server rejects it and connect fails. A host that turns on `versionNegotiation` probes server/discover instead',
	],
	'python-sdk': [
		'fatal',
		'`ClientSession.initialize()` sends only `initialize`; the server rejects it and the session fails',
	],
	vscode: ['unknown', 'not established for a 2026-07-28-only server'],
	rmcp: [
		'fatal',
		'Codex 0.171 sends only `initialize`; the server rejects it and the handshake fails (docs/clients.md#codex)',
	],
	cursor: ['unknown', 'not established for a 2026-07-28-only server'],
};

const HANDSHAKE_METHODS: ReadonlySet<string> = new Set(['initialize', 'server/discover']);
/** Response frames remembered to attribute a later finding to the request its frame answered. */
const REPLIES_KEPT = 4096;

/** What one finding does to one client: its effect and where in the session it happened. */
interface Effect {
	readonly code: FindingCode;
	/** `hang`: the reply is never delivered; `reject`: it arrives and the client rejects it (the request throws). */
	readonly kind: 'fatal' | 'hang' | 'reject' | 'degrade' | 'unknown' | 'skip';
	/** The request whose reply is lost or that never gets one, when the session knows it. */
	readonly method: string | undefined;
	readonly note: string;
	readonly frameIndex: number | undefined;
	readonly tMs: number;
}

interface Point {
	readonly frameIndex: number;
	readonly tMs: number;
}

/** Facts the session knows at the end that the findings do not carry. */
export interface OutcomeFacts {
	/** The era the server speaks (`modern`: 2026-07-28 only, handshake by `server/discover`). */
	readonly era?: 'legacy' | 'modern';
	/**
	 * True once the session has ended with its process's end seen (a finished probe, a complete
	 * capture): what did not happen by then will not happen.
	 */
	readonly isComplete: boolean;
	/** Number of tools `tools/list` returned, when answered. */
	readonly tools?: number;
}

/**
 * Folds a session's frames and findings into per-client outcomes. Feed it every frame (in order) and
 * every finding as they come; {@link ClientOutcomeTracker.outcomes} can be asked at any time.
 *
 * The rules, per client family, from the finding's reaction for that family (docs/clients.md):
 * - `fatal` → the transport closes there: `fails`; it does not connect when that happens at or before
 *   the handshake reply.
 * - `hang` → the message is never delivered and the request waiting for it hangs: `fails`.
 * - `skip`, `skip-log` on a frame that is the reply to a request → that reply is lost, so the request
 *   hangs: `fails`; `drop-log` on a reply → the client rejects it and the request fails (`… fails`, not
 *   `… hangs`: an SDK that validates a result throws at once). On any other frame: `degraded` (`skip`:
 *   no harm, still `works`).
 * - `corrupt` → `degraded`.
 * - `unknown` → `unknown`, unless something else already makes it fail; an `unknown` at or before the
 *   handshake (tools/list) reply, or naming that request, leaves `connects` (`toolsListed`) `null`.
 * - No handshake reply in a complete session (with nothing that explains it) → `unknown`; a server that
 *   speaks only 2026-07-28 → the family's {@link MODERN_ONLY} reaction.
 * Worst wins: fails > unknown > degraded > works. Pure; never throws.
 */
export class ClientOutcomeTracker {
	private readonly effects = new Map<ClientFamily, Effect[]>();
	private readonly seen = new Set<string>();
	/** Response frame index → the method of the request it answers (most recent {@link REPLIES_KEPT}). */
	private readonly replies = new BoundedMap<number, string>(REPLIES_KEPT);
	private handshakeRequested = false;
	private handshakeReply: Point | undefined;
	private toolsRequested = false;
	private toolsReply: Point | undefined;

	constructor() {
		for (const client of OUTCOME_CLIENTS) this.effects.set(client, []);
	}

	/** Note a frame (call it for every frame, before the findings about it). Cheap: the hot path. */
	frame(frame: Frame): void {
		if (frame.stream !== 'stdin' && frame.stream !== 'stdout') return;
		if (frame.kind === 'request' && frame.stream === 'stdin') {
			if (frame.method !== undefined && HANDSHAKE_METHODS.has(frame.method)) this.handshakeRequested = true;
			else if (frame.method === 'tools/list') this.toolsRequested = true;
			return;
		}
		if (
			(frame.kind !== 'response' && frame.kind !== 'error') ||
			frame.answers === undefined ||
			frame.stream !== 'stdout'
		)
			return;
		const method = frame.answers.method;
		this.replies.set(frame.index, method);
		if (frame.kind !== 'response') return;
		// Only a successful initialize reply (or server/discover's) connects; an error is judged by its findings.
		if (HANDSHAKE_METHODS.has(method)) this.handshakeReply ??= {frameIndex: frame.index, tMs: frame.tMs};
		if (method === 'tools/list') this.toolsReply ??= {frameIndex: frame.index, tMs: frame.tMs};
	}

	/** Note a finding (after the frame it points at, if any). */
	finding(finding: Finding): void {
		const replyTo = finding.frameIndex === undefined ? undefined : this.replies.get(finding.frameIndex);
		const detailMethod =
			typeof finding.detail?.['method'] === 'string' ? (finding.detail['method'] as string) : undefined;
		const method = replyTo ?? detailMethod;
		for (const impact of finding.impact) {
			const list = this.effects.get(impact.client);
			if (list === undefined) continue;
			const kind = effectOf(impact.reaction, replyTo !== undefined);
			if (kind === undefined) continue;
			// One effect per client, code, kind and request: a long tap with 10,000 stray lines stays small.
			const key = `${impact.client}\0${finding.code}\0${kind}\0${method ?? ''}`;
			if (this.seen.has(key)) continue;
			this.seen.add(key);
			list.push({
				code: finding.code,
				kind,
				method,
				note: impact.note,
				frameIndex: finding.frameIndex,
				tMs: finding.tMs,
			});
		}
	}

	/** The outcome of every client family as of now, in {@link OUTCOME_CLIENTS} order. */
	outcomes(facts: OutcomeFacts): ClientOutcome[] {
		return OUTCOME_CLIENTS.map((client) => this.outcomeOf(client, this.effects.get(client) ?? [], facts));
	}

	private outcomeOf(client: ClientFamily, effects: readonly Effect[], facts: OutcomeFacts): ClientOutcome {
		const handshake = this.handshakeReply;
		const modern = facts.era === 'modern' && handshake !== undefined ? MODERN_ONLY[client] : undefined;
		const breaking = effects.filter((e) => e.kind !== 'degrade' && e.kind !== 'unknown' && e.kind !== 'skip');
		const isBefore = (effect: Effect, point: Point | undefined): boolean =>
			point === undefined ||
			(effect.frameIndex === undefined ? effect.tMs <= point.tMs : effect.frameIndex <= point.frameIndex);
		const breaksAt = (method: string, point: Point | undefined): Effect | undefined =>
			breaking.find((e) =>
				e.kind !== 'fatal'
					? e.method === method || (method === 'initialize' && e.method === 'server/discover')
					: isBefore(e, point),
			);
		const handshakeBreaker = handshake === undefined ? undefined : breakingHandshake(breaking, handshake, isBefore);
		const modernFails = modern !== undefined && modern[0] === 'fatal';

		let connects: boolean | null;
		if (handshake !== undefined) connects = handshakeBreaker === undefined && !modernFails;
		else if (breaking.length > 0 || (facts.isComplete && this.handshakeRequested)) connects = false;
		else connects = null;
		let toolsListed: boolean | null = null;
		if (this.toolsRequested) {
			if (connects === false) toolsListed = false;
			else if (this.toolsReply === undefined) toolsListed = facts.isComplete || breaking.length > 0 ? false : null;
			else toolsListed = breaksAt('tools/list', this.toolsReply) === undefined;
		}

		const codes = (list: readonly Effect[]): FindingCode[] => [...new Set(list.map((e) => e.code))];
		const tools = facts.tools === undefined ? '' : ` (${facts.tools} tool${facts.tools === 1 ? '' : 's'})`;
		const reached =
			connects === true
				? toolsListed === true
					? `connects and lists tools${tools}`
					: 'connects'
				: connects === false
					? 'does not connect'
					: '';
		const join = (...parts: string[]): string => parts.filter((p) => p !== '').join('; ');
		const because = (e: Effect): string => `${e.code}: ${e.note}`;

		if (breaking.length > 0) {
			const first = handshakeBreaker ?? breaking[0]!;
			// A lost message nobody can name: the request left waiting names it (unanswered, or the handshake).
			const method =
				first.method ??
				(connects === false
					? this.handshakeRequested
						? 'initialize'
						: undefined
					: breaking.find((e) => e.kind !== 'fatal' && e.method !== undefined)?.method);
			const what =
				first.kind === 'fatal'
					? 'the connection closes'
					: method === undefined
						? 'a message it waits for is lost'
						: first.kind === 'reject'
							? `${method} fails`
							: `${method} hangs`;
			const lead = connects === false ? `does not connect (${what})` : join(reached, what);
			return {
				client,
				outcome: 'fails',
				decidedBy: codes(breaking),
				note: `${lead}: ${because(first)}`,
				connects,
				toolsListed,
			};
		}
		if (modern !== undefined && modern[0] !== 'ok') {
			const outcome: ClientOutcomeKind = modernFails ? 'fails' : 'unknown';
			return {
				client,
				outcome,
				decidedBy: [],
				note: `server speaks only 2026-07-28: ${modern[1]}`,
				connects: modernFails ? false : null,
				toolsListed: modernFails && this.toolsRequested ? false : null,
			};
		}
		const unknown = effects.filter((e) => e.kind === 'unknown');
		if (unknown.length > 0) {
			// A reaction nobody established, at or before a reply, may have lost that reply: claim only what
			// no such reaction puts in doubt (a verdict is a promise).
			const inDoubt = (method: string, point: Point | undefined): boolean =>
				unknown.some(
					(e) =>
						e.method === method || (method === 'initialize' && e.method === 'server/discover') || isBefore(e, point),
				);
			const sureConnects = connects === true && inDoubt('initialize', handshake) ? null : connects;
			const sureTools =
				sureConnects === null
					? null
					: toolsListed === true && inDoubt('tools/list', this.toolsReply)
						? null
						: toolsListed;
			const list = codes(unknown).join(', ');
			let note: string;
			if (sureConnects === null && connects === true) note = `whether it connects is not established: ${list}`;
			else if (sureTools === null && toolsListed === true)
				note = `connects; whether it lists tools is not established: ${list}`;
			else note = join(reached, `not established: ${list}`);
			return {
				client,
				outcome: 'unknown',
				decidedBy: codes(unknown),
				note,
				connects: sureConnects,
				toolsListed: sureTools,
			};
		}
		if (connects !== true) {
			const note = this.handshakeRequested ? 'no handshake reply seen' : 'no handshake seen';
			return {client, outcome: 'unknown', decidedBy: [], note, connects, toolsListed};
		}
		const degrading = effects.filter((e) => e.kind === 'degrade');
		if (degrading.length > 0) {
			return {
				client,
				outcome: 'degraded',
				decidedBy: codes(degrading),
				note: join(reached, because(degrading[0]!)),
				connects,
				toolsListed,
			};
		}
		const skipped = effects.filter((e) => e.kind === 'skip');
		return {
			client,
			outcome: 'works',
			decidedBy: codes(skipped),
			note: join(reached, skipped.length > 0 ? because(skipped[0]!) : ''),
			connects,
			toolsListed,
		};
	}
}

/** The breaking effect that keeps the handshake from succeeding: its reply lost, or a fatal at or before it. */
function breakingHandshake(
	breaking: readonly Effect[],
	handshake: Point,
	isBefore: (e: Effect, p: Point | undefined) => boolean,
): Effect | undefined {
	return breaking.find((e) =>
		e.kind !== 'fatal' ? e.method !== undefined && HANDSHAKE_METHODS.has(e.method) : isBefore(e, handshake),
	);
}

/** The effect of a reaction; `isReply`: the finding's frame is the reply to a request. */
function effectOf(reaction: Reaction, isReply: boolean): Effect['kind'] | undefined {
	switch (reaction) {
		case 'fatal':
			return 'fatal';
		case 'hang':
			return 'hang';
		case 'skip':
			return isReply ? 'hang' : 'skip';
		case 'skip-log':
			return isReply ? 'hang' : 'degrade';
		case 'drop-log':
			return isReply ? 'reject' : 'degrade';
		case 'corrupt':
			return 'degrade';
		case 'unknown':
			return 'unknown';
		default:
			return undefined;
	}
}

/**
 * The session verdict, in agreement with the client outcomes (docs/clients.md "The verdict"):
 * - `fail` when at least one mainstream client ({@link MAINSTREAM_CLIENTS}) `fails`;
 * - `warn` when none does but there is an error or warning finding, or some client is `degraded` or
 *   `fails` (a niche one, e.g. rmcp);
 * - `stopped` when it would be `ok` but the user stopped the probe before its exchange was over
 *   (`counts.stoppedByUser`, the `stopped-by-user` phase mark): what was seen stays a finding, but the
 *   silence before the stop is no verdict on the server (docs/json-records.md#summary);
 * - `ok` otherwise. An `unknown` outcome alone never makes a verdict worse: a verdict is a promise,
 *   and a cell nobody established is no evidence of a fault.
 * So an error finding whose impact says every mainstream client works gives `warn`, not `fail`.
 * A capture cut short before any frame crossed (`counts.cutBeforeAnyFrame`) gives `warn` too: nothing
 * was exercised, and a clean verdict over nothing would be a promise without evidence.
 * @param outcomes from {@link ClientOutcomeTracker.outcomes}
 * @param counts the session's error and warning finding counts, and what cut it short
 */
export function verdictOf(
	outcomes: readonly ClientOutcome[],
	counts: {
		readonly errors: number;
		readonly warnings: number;
		readonly cutBeforeAnyFrame?: boolean;
		readonly stoppedByUser?: boolean;
	},
): Verdict {
	if (outcomes.some((o) => o.outcome === 'fails' && MAINSTREAM_CLIENTS.has(o.client))) return 'fail';
	if (
		counts.cutBeforeAnyFrame === true ||
		counts.errors > 0 ||
		counts.warnings > 0 ||
		outcomes.some((o) => o.outcome === 'fails' || o.outcome === 'degraded')
	)
		return 'warn';
	return counts.stoppedByUser === true ? 'stopped' : 'ok';
}

/**
 * What a verdict means for the clients, in the words of their outcomes (docs/clients.md "The verdict"),
 * so that `ERROR stray-output`, `verdict WARN` and `▲ degraded` read as one account:
 * - `fail`: `a mainstream client fails`;
 * - `warn`: `no mainstream client fails` and what the others do: a niche client that fails by name,
 *   else how many are degraded (they connect but log the fault or lose a message), else that the
 *   findings reach no client yet;
 * - `ok`: `no client fails or is degraded`, `… in what was exercised (no handler ran)` when no tool was called,
 *   no resource read and no prompt got.
 * - `stopped`: the user stopped the probe before its exchange was over; what followed was not exercised.
 * Without an established outcome (none, or all `unknown`), short of `fail`: `no client outcome is established`.
 * A capture cut before any frame says so (its verdict is `warn`, {@link verdictOf}).
 */
export function verdictMeaning(
	summary: Pick<Summary, 'verdict' | 'clients' | 'incomplete' | 'streams' | 'exercised'>,
): string {
	const {verdict} = summary;
	const outcomes = summary.clients ?? [];
	if (verdict === 'fail') return 'a mainstream client fails';
	if (verdict === 'stopped') return STOPPED_MEANING;
	if (isCutBeforeAnyFrame(summary)) return 'the capture was cut before any frame: nothing was exercised';
	// No handshake seen (a capture cut before any frame): a verdict over nothing exercised promises nothing.
	if (outcomes.every((o) => o.outcome === 'unknown')) return 'no client outcome is established';
	// A clean session that ran no handler is clean for what it exercised, no more (docs/cli.md "What was exercised").
	if (verdict === 'ok')
		return summary.exercised !== undefined && exercisedNoHandler(summary.exercised)
			? 'no client fails or is degraded in what was exercised (no handler ran)'
			: 'no client fails or is degraded';
	const failing = outcomes.filter((o) => o.outcome === 'fails');
	if (failing.length > 0)
		return `no mainstream client fails; ${failing.map((o) => CLIENT_SHORT_LABEL[o.client]).join(', ')} fails`;
	const degraded = outcomes.filter((o) => o.outcome === 'degraded').length;
	if (degraded > 0)
		return `no client fails; ${degraded} ${degraded === 1 ? 'is' : 'are'} degraded (connect${degraded === 1 ? 's' : ''}, but log${degraded === 1 ? 's' : ''} the fault or lose${degraded === 1 ? 's' : ''} a message)`;
	return 'no client fails or is degraded; the findings break a rule a stricter client may enforce';
}

/** What the `stopped` verdict means, on its line in every output (the plain log, `report`, `view`). */
export const STOPPED_MEANING = 'stopped by the user before the exchange was over: what followed was not exercised';

/** Whether a session ended cut short (no exit record) before any frame crossed stdin or stdout. */
export function isCutBeforeAnyFrame(summary: Pick<Summary, 'incomplete' | 'streams'>): boolean {
	return summary.incomplete?.cutShort === true && summary.streams.stdin.frames + summary.streams.stdout.frames === 0;
}

/** A one-glyph mark per outcome, as doctor shows its rows: ✔ works, ▲ degraded, ✘ fails, ? unknown. */
export const OUTCOME_MARK: Readonly<Record<ClientOutcomeKind, string>> = {
	works: '✔',
	degraded: '▲',
	fails: '✘',
	unknown: '?',
};

/** Words for the outcomes in prose (`unknown` is said as "not established"). */
export const OUTCOME_WORD: Readonly<Record<ClientOutcomeKind, string>> = {
	works: 'works',
	degraded: 'degraded',
	fails: 'fails',
	unknown: 'not established',
};

/** Outcomes worst first, the order in which one-line summaries list them. */
export const OUTCOME_ORDER: readonly ClientOutcomeKind[] = ['fails', 'unknown', 'degraded', 'works'];

/**
 * The outcomes in one line, worst first, with the deciding codes of failures and open cells:
 * `✘ fails: Python SDK (invalid-utf8) · ▲ degraded: TS SDK v1, VS Code · ✔ works: TS SDK v2, rmcp`.
 * @param label the name to show per family (e.g. {@link CLIENT_FAMILY_LABEL} or a short form)
 */
export function outcomesLine(outcomes: readonly ClientOutcome[], label: (client: ClientFamily) => string): string {
	return OUTCOME_ORDER.map((kind) => {
		const of = outcomes.filter((o) => o.outcome === kind);
		if (of.length === 0) return '';
		const names = of.map((o) =>
			(kind === 'fails' || kind === 'unknown') && o.decidedBy.length > 0
				? `${label(o.client)} (${o.decidedBy.join(', ')})`
				: label(o.client),
		);
		return `${OUTCOME_MARK[kind]} ${OUTCOME_WORD[kind]}: ${names.join(', ')}`;
	})
		.filter((part) => part !== '')
		.join(' · ');
}

/** Short names of the client families, for one-line summaries (the TUI, the plain log's columns). */
export const CLIENT_SHORT_LABEL: Readonly<Record<ClientFamily, string>> = {
	'ts-sdk-v1': 'TS SDK v1 (Claude Desktop/Code)',
	'ts-sdk-v2': 'TS SDK v2',
	'python-sdk': 'Python SDK',
	vscode: 'VS Code',
	rmcp: 'rmcp',
	cursor: 'Cursor',
};
