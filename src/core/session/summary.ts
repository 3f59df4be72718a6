import {verdictOf, type ClientOutcomeTracker} from '../clients/outcome.js';
import type {Exercised, ExitInfo, StreamName, StreamTotals, Summary} from '../types.js';
import type {FindingTally} from './finding-sink.js';
import type {LifecycleState} from './lifecycle-state.js';

/** What a session knows when it is asked for its summary ({@link buildSummary}). */
export interface SummaryFacts {
	/** The findings counted so far (finding-sink.ts). */
	readonly tally: FindingTally;
	/** Bytes, chunks and frames per stream (copied into the summary). */
	readonly totals: Readonly<Record<StreamName, StreamTotals>>;
	/** The lifecycle as followed (conversation.ts): era, versions, who the sides are, list counts. */
	readonly lifecycle: Pick<LifecycleState, 'era' | 'counts' | 'serverInfo' | 'clientInfo' | 'negotiatedVersion'>;
	/** Each client family's outcome of what was seen (core/clients/outcome.ts); read, not changed. */
	readonly clients: Pick<ClientOutcomeTracker, 'outcomes'>;
	/** What the client asked of the server. */
	readonly exercised: Exercised;
	/** The latest time seen, in ms since the session started. */
	readonly durationMs: number;
	/** How the process ended, when it did. */
	readonly exit: ExitInfo | undefined;
	/** True once the session was finished (`Session.finish`); a running session's summary is provisional. */
	readonly isFinished: boolean;
	/** False for a capture that ends without the process's end (cut short, or a tap still running). */
	readonly isComplete: boolean;
	/** Gaps in the capture: how many, and the bytes they miss (gaps.ts). */
	readonly gaps: {readonly count: number; readonly missingBytes: number};
	/**
	 * True when a `stopped-by-user` phase mark came in (the user stopped the probe before its exchange was
	 * over): a verdict that would be `ok` is `stopped`. A mark, so a replay of the capture says the same.
	 */
	readonly isStoppedByUser: boolean;
	/** A replayed tap capture's waits for room in its capture, when it had any. */
	readonly stalls: Summary['stalls'];
}

const STREAMS: readonly StreamName[] = ['stdin', 'stdout', 'stderr'];

/**
 * The session's last record from what it derived (docs/json-records.md#summary): the verdict (from each
 * client family's outcome and the finding counts; a capture cut before any frame exercised nothing and is
 * no clean verdict, nor is a probe the user stopped before its exchange was over), the counts per code, the totals, the lifecycle and, for a capture that is not whole,
 * `incomplete`. Pure: facts in, a new Summary out; the key order is the `--json` record's.
 */
export function buildSummary(facts: SummaryFacts): Summary {
	const {tally, totals, lifecycle, isFinished, isComplete, gaps, exit, stalls} = facts;
	const {findings, errors, warnings, infos} = tally;
	const streams = {} as Record<StreamName, StreamTotals>;
	for (const s of STREAMS) streams[s] = {...totals[s]};
	const {era, counts, serverInfo, clientInfo, negotiatedVersion} = lifecycle;
	const clients = facts.clients.outcomes({
		isComplete: isFinished && isComplete,
		...(era ? {era} : {}),
		...(counts.tools === undefined ? {} : {tools: counts.tools}),
	});
	return {
		verdict: verdictOf(clients, {
			errors,
			warnings,
			cutBeforeAnyFrame: isFinished && !isComplete && streams.stdin.frames + streams.stdout.frames === 0,
			stoppedByUser: facts.isStoppedByUser,
		}),
		findings,
		errors,
		warnings,
		infos,
		streams,
		durationMs: facts.durationMs,
		...(exit ? {exit} : {}),
		...(era ? {era} : {}),
		...(serverInfo ? {serverInfo} : {}),
		...(clientInfo ? {clientInfo} : {}),
		...(negotiatedVersion ? {protocolVersion: negotiatedVersion} : {}),
		...counts,
		clients,
		exercised: facts.exercised,
		...(isFinished && (!isComplete || gaps.count > 0)
			? {incomplete: {cutShort: !isComplete, missingBytes: gaps.missingBytes, gaps: gaps.count}}
			: {}),
		...(stalls === undefined ? {} : {stalls}),
	};
}
