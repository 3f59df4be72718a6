/**
 * The check of VS Code's opening order (F47, R10): a second short session that sends `logging/setLevel`
 * between the `initialize` result and `notifications/initialized`, as VS Code does for a server that
 * advertises `logging`, so the main session's findings never depend on it. What it saw becomes an
 * `observed` mark in the main session (docs/json-records.md#mark), from which `pre-initialized-request-rejected`
 * is derived live and on replay alike.
 */
import type {SdkSchemas} from '../core/jsonrpc/sdk-checks.js';
import type {ProcessStarter} from '../process/spawn.js';
import {asObject} from './exchange.js';
import {sendRequest} from './exchange-request.js';
import {openingInitialize, type Opening} from './opening.js';
import {startProbeServer} from './probe-start.js';
import type {ProbeOptions} from './probe-types.js';
import {linkServer, type ServerLink} from './server-link.js';
import {shutdownServer} from './shutdown.js';

/** The request VS Code sends in the gap, and its params (VS Code maps its own log level; `info` is its default). */
export const PRE_INITIALIZED_REQUEST = {method: 'logging/setLevel', params: {level: 'info'}} as const;

/**
 * What the check saw, as the `observed` mark's detail:
 * - `exited`: the server closed stdout or exited with the request pending (`exitCode`, `signal`, `stderrTail`);
 * - `rejected`: an error reply (`errorCode`, `errorMessage`), while the same request after `initialized` succeeded;
 * - `unanswered`: no reply within `waitedMs`, the process still up;
 * - `answered`: a result (no finding).
 */
export type PreInitializedOutcome =
	| {
			readonly outcome: 'exited';
			readonly exitCode: number | null;
			readonly signal: string | null;
			readonly stderrTail: readonly string[];
	  }
	| {readonly outcome: 'rejected'; readonly errorCode: number | null; readonly errorMessage: string | null}
	| {readonly outcome: 'unanswered'; readonly waitedMs: number}
	| {readonly outcome: 'answered'};

/** True when `capabilities` (an `initialize` result's) advertise `logging` (VS Code sends `logging/setLevel` then). */
export function advertisesLogging(capabilities: Record<string, unknown>): boolean {
	return capabilities['logging'] !== undefined && capabilities['logging'] !== null;
}

/**
 * Spawn the server again, send `opening`'s `initialize`, then, once its result advertises `logging`,
 * `logging/setLevel` (id 1) and at once `notifications/initialized` without waiting for the reply, as VS
 * Code does. An error reply is checked once more after `initialized` (id 2): only when that one succeeds was
 * the first rejected for its place (a server that errs on it anyway is no case of this). Then the R14
 * shutdown. Inconclusive (undefined) when the second process did not start, did not answer `initialize`
 * with a result advertising `logging`, or the user aborted: then nothing is claimed.
 * @param timeoutMs the wait for each reply (ms; the probe's per-request wait)
 * @param initializeTimeoutMs the wait for `initialize` (ms)
 */
export async function preInitializedCheck(
	options: ProbeOptions,
	opening: Opening,
	timeoutMs: number,
	initializeTimeoutMs: number,
	schemas: SdkSchemas,
	starter: ProcessStarter,
): Promise<PreInitializedOutcome | undefined> {
	const link = linkServer(options, 'pre-initialized-check', startProbeServer(options, starter), schemas);
	const session = await link.ready;
	const started = await link.server.started;
	if (!started.ok) {
		link.detach();
		session.finish(link.clock.now());
		return undefined;
	}
	session.mark({type: 'phase', name: 'pre-initialized-check', tMs: link.clock.now()});
	const clientVersion = options.clientVersion ?? session.meta.tool.version;
	const init = await sendRequest(link, openingInitialize(opening, clientVersion), initializeTimeoutMs);
	let outcome: PreInitializedOutcome | undefined;
	if (
		init.type === 'frame' &&
		init.frame.kind === 'response' &&
		advertisesLogging(asObject(asObject((init.frame.message as {result?: unknown}).result)['capabilities'])) &&
		options.signal?.aborted !== true
	)
		outcome = await playGap(link, timeoutMs);
	await shutdownServer(link);
	if (outcome?.outcome === 'exited') {
		const exit = link.server.exitInfo;
		outcome = {
			...outcome,
			exitCode: exit?.code ?? null,
			signal: exit?.signal ?? null,
			stderrTail: session.stderrTail(10),
		};
	}
	session.finish(link.clock.now());
	return outcome;
}

/** `logging/setLevel`, `initialized` right after it, then the reply (and the re-check of an error). */
async function playGap(link: ServerLink, timeoutMs: number): Promise<PreInitializedOutcome | undefined> {
	const start = link.clock.now();
	// sendRequest writes before its first await: `initialized` follows the request on the wire, unawaited.
	const pending = sendRequest(link, {jsonrpc: '2.0', id: 1, ...PRE_INITIALIZED_REQUEST}, timeoutMs);
	link.send({jsonrpc: '2.0', method: 'notifications/initialized'});
	const reply = await pending;
	if (reply.type === 'eof' || reply.type === 'closed' || link.server.exitInfo !== undefined)
		return {outcome: 'exited', exitCode: null, signal: null, stderrTail: []};
	if (reply.type === 'timeout') return {outcome: 'unanswered', waitedMs: Math.round(link.clock.now() - start)};
	if (reply.frame.kind !== 'error') return {outcome: 'answered'};
	const error = asObject((reply.frame.message as {error?: unknown}).error);
	const again = await sendRequest(link, {jsonrpc: '2.0', id: 2, ...PRE_INITIALIZED_REQUEST}, timeoutMs);
	if (again.type !== 'frame' || again.frame.kind !== 'response') return undefined;
	return {
		outcome: 'rejected',
		errorCode: typeof error['code'] === 'number' ? error['code'] : null,
		errorMessage: typeof error['message'] === 'string' ? error['message'] : null,
	};
}
