/**
 * `probe --as <client>` and `probe --as all` (docs/clients.md#one-client-as-itself): the probe plays each
 * client's opening (src/probe/as-client.ts) against a server process of its own, a few at a time, and
 * judges each client on what its server did (src/core/clients/client-run.ts). Prints one row per client:
 * connects, tools listed, the first failure and its finding (or why it is degraded or not established), the start
 * against the client's limit.
 */
import {handshakeFacts, judgeClient, type ClientRun} from '../core/clients/client-run.js';
import {isEstablished, startupLimitFor, type ClientProfile} from '../core/clients/profile.js';
import {CLIENTS, findClient} from '../core/clients/registry.js';
import type {Session} from '../core/session/session.js';
import {clientOpening, openingKey} from '../probe/as-client.js';
import {runProbe, type ProbeOptions, type SessionInit} from '../probe/probe.js';
import {EXIT, UsageError} from './exit-codes.js';

/**
 * Server processes probed at once by `--as all`: the openings mostly wait on the server, so all of today's
 * distinct openings (five) overlap and the wall time stays near one probe's.
 */
export const AS_ALL_PARALLEL = 6;

/** The clients `--as all` plays: every client whose opening records at least its version or its order. */
export function playableClients(): ClientProfile[] {
	return CLIENTS.filter(
		(profile) => isEstablished(profile.opening.protocolVersion) || isEstablished(profile.opening.order),
	);
}

/**
 * The clients `--as NAMES` names: `all`, or client ids separated by commas (`codex,gemini-cli`).
 * Throws {@link UsageError} for a name the registry lacks.
 */
export function clientsNamed(names: string): ClientProfile[] {
	if (names === 'all') return playableClients();
	return names.split(',').map((name) => {
		const profile = findClient(name.trim());
		if (profile === undefined)
			throw new UsageError(`probe --as: unknown client ${name} (one of: all, ${CLIENTS.map((c) => c.id).join(', ')})`);
		return profile;
	});
}

/** What `--as` needs of the probe command: the probe's options without the opening, and its session factory. */
export interface AsClientsInput {
	readonly probeOptions: Omit<ProbeOptions, 'createSession' | 'opening'>;
	readonly newSession: (init: SessionInit) => Session;
	/** `--timeout`: each client's start-up limit as if raised with its knob (and the probe's wait). */
	readonly startupLimitMs?: number;
	/** The user's environment: a client that reads its limit from it (Claude Code's `MCP_TIMEOUT`) gets that limit. */
	readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Plays each distinct opening of `clients` once, {@link AS_ALL_PARALLEL} at a time, and judges every client
 * on the run of its opening. Rows keep the order of `clients`.
 * @returns the rows and the wall time (ms)
 */
export async function runAsClients(
	clients: readonly ClientProfile[],
	input: AsClientsInput,
): Promise<{readonly rows: ClientRun[]; readonly wallMs: number}> {
	const started = performance.now();
	const groups = new Map<string, {opening: ReturnType<typeof clientOpening>['opening']; members: ClientProfile[]}>();
	for (const profile of clients) {
		const {opening} = clientOpening(profile);
		const key = openingKey(opening);
		const group = groups.get(key) ?? {opening, members: []};
		group.members.push(profile);
		groups.set(key, group);
	}
	const rows = new Map<string, ClientRun>();
	const queue = [...groups.values()];
	const worker = async (): Promise<void> => {
		for (let group = queue.shift(); group !== undefined; group = queue.shift()) {
			const result = await runProbe({...input.probeOptions, opening: group.opening, createSession: input.newSession});
			const snapshot = result.session.getSnapshot();
			const facts = handshakeFacts(snapshot.frames);
			for (const profile of group.members) {
				const family = profile.family.value;
				const outcome = isEstablished(family)
					? result.summary.clients?.find((entry) => entry.client === family)
					: undefined;
				const fromEnv = startupLimitFor(profile, {env: input.env ?? {}});
				const limit = input.startupLimitMs ?? (typeof fromEnv === 'number' ? fromEnv : undefined);
				rows.set(profile.id, judgeClient(profile, outcome, facts, result.summary.tools, limit));
			}
		}
	};
	await Promise.all(Array.from({length: Math.min(AS_ALL_PARALLEL, queue.length)}, worker));
	return {rows: clients.map((c) => rows.get(c.id)!), wallMs: performance.now() - started};
}

const MARK: Record<ClientRun['outcome'], string> = {works: '✔', degraded: '▲', fails: '✘', unknown: '?'};
const yesNo = (value: boolean | null): string => (value === null ? '?' : value ? 'yes' : 'no');

/** The matrix `--as` prints: a header, one row per client, and the wall time. */
export function formatMatrix(rows: readonly ClientRun[], wallMs: number, openings: number): string[] {
	const start = (row: ClientRun): string => {
		const at = row.startMs === undefined ? '–' : `${row.startMs} ms`;
		const limit =
			row.startupLimitMs === undefined ? '?' : row.startupLimitMs === null ? 'none' : `${row.startupLimitMs} ms`;
		return `${at} / ${limit}`;
	};
	const table = [
		['client', 'outcome', 'connects', 'tools', 'start / limit', 'first failure'],
		...rows.map((row) => [
			row.displayName,
			`${MARK[row.outcome]} ${row.outcome === 'unknown' ? 'not established' : row.outcome}`,
			yesNo(row.connects),
			row.toolsListed === true ? String(row.tools ?? 'yes') : yesNo(row.toolsListed),
			start(row),
			row.firstFailure === undefined
				? row.outcome === 'unknown' || row.outcome === 'degraded'
					? row.note
					: ''
				: `${row.firstFailure.code}: ${row.firstFailure.note}`,
		]),
	];
	const widths = table[0]!.map((_, column) => Math.max(...table.map((line) => line[column]!.length)));
	const lines = table.map((line) =>
		line
			.map((cell, column) => (column === line.length - 1 ? cell : cell.padEnd(widths[column]!)))
			.join('  ')
			.trimEnd(),
	);
	lines.push(`${rows.length} client(s), ${openings} distinct opening(s), ${(wallMs / 1000).toFixed(1)} s`);
	return lines;
}

/** The exit code of `--as`: 1 when some client fails, else 0. */
export function asExitCode(rows: readonly ClientRun[]): number {
	return rows.some((row) => row.outcome === 'fails') ? EXIT.findings : EXIT.ok;
}

/** The number of distinct openings among `clients`. */
export function distinctOpenings(clients: readonly ClientProfile[]): number {
	return new Set(clients.map((c) => openingKey(clientOpening(c).opening))).size;
}
