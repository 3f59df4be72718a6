/**
 * The doctor's verdict for one probed server, as one particular client would see it
 * (docs/cli.md#doctor). Pure: it reads a finished session snapshot and the client reaction table that the finding
 * catalog carries (docs/protocol.md "Client reactions"), so a stray banner line is ▲ for Claude Code (logged and skipped)
 * but ✘ for Cursor (2026 builds fail the connection).
 */
import type {ClientName} from '../configs/index.js';
import {isEstablished, startupLimitFor} from '../core/clients/profile.js';
import {clientProfile, HOSTS} from '../core/clients/registry.js';
import {isOwnLimitNoResponse, STARTUP_LIMIT_MS} from '../core/findings/rules/no-response.js';
import {unansweredRequest} from '../core/findings/rules/unanswered-request.js';
import {isConsequence} from '../core/findings/support/catalog.js';
import type {ClientFamily, Finding, Reaction, SessionSnapshot} from '../core/types.js';
import type {DoctorStatus, FindingCount} from './types.js';

/**
 * Which client family's reactions apply to a client (docs/protocol.md "Client reactions", docs/clients.md#the-clients):
 * Claude Desktop, Claude Code and Gemini CLI run the TS SDK v1 client, Codex rmcp; VS Code and Cursor have their
 * own columns. Undefined for a host whose reader is not established.
 */
export function familyOf(client: ClientName): ClientFamily | undefined {
	const family = clientProfile(client).family.value;
	return isEstablished(family) ? family : undefined;
}

/** How people name the clients (`Gemini CLI`), from their modules. */
export const CLIENT_LABEL: Readonly<Record<ClientName, string>> = Object.fromEntries(
	HOSTS.map((profile) => [profile.id, profile.displayName]),
) as Record<ClientName, string>;

/** The reaction of `client` to `finding`, from the finding's impact list (`unknown` when not listed). */
export function reactionOf(finding: Finding, client: ClientName): Reaction {
	const family = familyOf(client);
	if (family === undefined) return 'unknown';
	return finding.impact.find((impact) => impact.client === family)?.reaction ?? 'unknown';
}

/**
 * True when `finding` keeps `client` from a working session: its reaction is `hang` or `fatal`, or it is
 * not established (`unknown`) and the finding is an error. Never for a host whose reader is not established
 * at all: nothing is known that it breaks on (a verdict is a promise).
 */
export function breaksClient(finding: Finding, client: ClientName): boolean {
	if (familyOf(client) === undefined) return false;
	const reaction = reactionOf(finding, client);
	return reaction === 'hang' || reaction === 'fatal' || (reaction === 'unknown' && finding.severity === 'error');
}

/**
 * What {@link evaluateProbe} found.
 * - `connected`: the server answered `initialize` before the probe gave up on it (or, for a
 *   2026-07-28 server, `server/discover`) in a frame this client can read (no finding on that frame
 *   breaks it), i.e. what `claude mcp list` calls "Connected".
 * - `startupMs`: ms from the spawn (the session clock's 0) to the `initialize` reply when `connected`:
 *   the server's start-up and the handshake, as a client waits for both (not only the reply's latency
 *   after our write, which doctor makes ~100 ms after the spawn, more under load).
 * - `tools`: the number of tools from `tools/list`, when answered.
 * - `finding`: the finding that decides the status (see {@link DoctorStatus}); absent for `ok`.
 */
export interface ProbeVerdict {
	readonly status: Exclude<DoctorStatus, 'skipped' | 'not-checked'>;
	readonly connected: boolean;
	readonly startupMs?: number;
	readonly tools?: number;
	readonly finding?: Finding;
	readonly findings: readonly FindingCount[];
}

/**
 * First finding matching `test`, root causes before consequences (in the order found otherwise): a finding its
 * rule marks a consequence of another fault (`meta.consequenceOf`: a request left open because the server died
 * or was stuck) decides the verdict only when nothing else does.
 */
function pick(findings: readonly Finding[], test: (finding: Finding) => boolean): Finding | undefined {
	return findings.find((f) => test(f) && !isConsequence(f.code)) ?? findings.find(test);
}

/**
 * The verdict of a finished probe for `client`, from the session's outcome for the client's family
 * (`summary.clients`, docs/clients.md): `fail` when it `fails` (the finding that decides it is shown) or
 * does not connect; `warn` when it connects with findings left or an outcome short of `works` (a
 * reaction not established for this client is `warn`, never `fail`); `ok` otherwise. A summary without
 * outcomes (an older capture) is judged per finding:
 * - `fail` when a finding breaks this client ({@link breaksClient}), or the server never answered the
 *   handshake (no `initialize` response before the probe's timeout mark), unless the probe gave up at
 *   the user's `--timeout`, shorter than the clients' 30 s startup limit, with no error besides the
 *   unanswered request: that is `warn` (mcp-wire's own limit, not a client failure);
 * - `warn` when it connected and some error or warning remains (one this client tolerates);
 * - `ok` otherwise (info findings only, or none).
 */
export function evaluateProbe(snapshot: SessionSnapshot, client: ClientName): ProbeVerdict {
	const findings = snapshot.findings;
	const answered = (method: string) =>
		snapshot.frames.find(
			(frame) => frame.stream === 'stdout' && frame.kind === 'response' && frame.answers?.method === method,
		);
	const handshake = answered('initialize') ?? answered('server/discover');
	const method = handshake?.answers?.method;
	const gaveUp = snapshot.marks.find((mark) => mark.type === 'timeout' && mark.method === method);
	// A handshake reply this client cannot read (pretty-printed, behind a BOM…) does not connect it.
	const unreadable =
		handshake !== undefined && findings.some((f) => f.frameIndex === handshake.index && breaksClient(f, client));
	const connected = handshake !== undefined && !unreadable && (gaveUp === undefined || handshake.tMs <= gaveUp.tMs);
	// From the spawn, not from our write of initialize: the column promises start-up (spawn → reply).
	const startupMs = connected && method === 'initialize' ? handshake.tMs : undefined;
	const tools = snapshot.summary.tools;
	const counts = snapshot.summary.findings.map((f) => ({code: f.code, severity: f.severity, count: f.count}));
	const base = {
		connected,
		...(startupMs === undefined ? {} : {startupMs}),
		...(tools === undefined ? {} : {tools}),
		findings: counts,
	};

	// The session's outcome for this client's family decides (core/clients/outcome.ts, docs/clients.md);
	// a summary without outcomes (an older capture) falls back to the per-finding reactions.
	const outcome = snapshot.summary.clients?.find((entry) => entry.client === familyOf(client));
	if (outcome !== undefined) {
		const connects = outcome.connects ?? connected;
		const {startupMs: _startup, ...withoutStartup} = base;
		const fixed = connects ? {...base, connected: true} : {...withoutStartup, connected: false};
		if (outcome.outcome === 'fails') {
			const decisive =
				pick(findings, (f) => outcome.decidedBy.includes(f.code)) ?? pick(findings, (f) => breaksClient(f, client));
			return {...fixed, status: 'fail', ...(decisive ? {finding: decisive} : {})};
		}
		if (!connects) {
			const first = pick(findings, (f) => f.severity === 'error') ?? pick(findings, (f) => f.severity === 'warning');
			// The probe gave up at the user's --timeout, shorter than every client's startup limit: mcp-wire's own limit.
			const gaveUp = snapshot.marks.find((mark) => mark.type === 'timeout' && mark.method === 'initialize');
			const ownLimit =
				gaveUp?.type === 'timeout' && gaveUp.timeoutMs < STARTUP_LIMIT_MS && findings.some(isOwnLimitNoResponse);
			return {...fixed, status: ownLimit ? 'warn' : 'fail', ...(first ? {finding: first} : {})};
		}
		const shown =
			pick(findings, (f) => f.severity === 'error') ??
			pick(findings, (f) => f.severity === 'warning') ??
			pick(findings, (f) => outcome.decidedBy.includes(f.code));
		if (shown || outcome.outcome !== 'works') return {...fixed, status: 'warn', ...(shown ? {finding: shown} : {})};
		return {...fixed, status: 'ok'};
	}
	const breaking = pick(findings, (f) => breaksClient(f, client));
	if (breaking) return {...base, status: 'fail', finding: breaking};
	if (!connected) {
		const first = pick(findings, (f) => f.severity === 'error') ?? pick(findings, (f) => f.severity === 'warning');
		// The probe gave up on initialize at the user's --timeout, shorter than every client's startup limit,
		// and nothing else is wrong: mcp-wire's own limit, not a client failure (docs/json-records.md#mark).
		const initGaveUp = snapshot.marks.find((mark) => mark.type === 'timeout' && mark.method === 'initialize');
		const ownLimit =
			initGaveUp?.type === 'timeout' &&
			initGaveUp.timeoutMs < STARTUP_LIMIT_MS &&
			!snapshot.marks.some((mark) => mark.type === 'phase' && mark.name === 'stopped-early') &&
			!findings.some((f) => f.severity === 'error' && f.code !== unansweredRequest.code);
		if (ownLimit) return {...base, status: 'warn', ...(first ? {finding: first} : {})};
		return {...base, status: 'fail', ...(first ? {finding: first} : {})};
	}
	const shown = pick(findings, (f) => f.severity === 'error') ?? pick(findings, (f) => f.severity === 'warning');
	if (shown) return {...base, status: 'warn', finding: shown};
	return {...base, status: 'ok'};
}

/** A client's start-up limit for one entry: how long it waits (ms) and how the user raises it. */
export interface StartupLimit {
	readonly limitMs: number;
	/** How to raise it, in words (`"timeout" in the entry (ms)`, `the MCP_TIMEOUT environment variable (ms)`). */
	readonly knob: string;
}

/**
 * The start-up limit `client` applies to an entry (docs/clients.md#the-clients): the entry's own value when its
 * client reads one (Gemini CLI `timeout`, Codex `startup_timeout_sec`), else the client's environment variable
 * when it reads one and `env` sets it (Claude Code `MCP_TIMEOUT`, ms, at most 60 s), else the limit its module
 * records; undefined when that is not established or there is none (VS Code, the Python SDK wait for ever).
 * `env`: the environment the client itself runs in (the user's).
 */
export function startupLimitOf(
	client: ClientName,
	entryLimitMs: number | undefined,
	env: Readonly<Record<string, string | undefined>> = {},
): StartupLimit | undefined {
	const profile = clientProfile(client);
	const layout = profile.configs[0]?.servers;
	const knobKey = profile.limits.knob;
	const knob =
		knobKey === undefined
			? 'not established'
			: knobKey === layout?.keys.startupTimeout
				? `"${knobKey}" in the entry (${layout.timeoutUnit === 's' ? 'seconds' : 'ms'})`
				: `the ${knobKey} environment variable (ms)`;
	const limit = startupLimitFor(profile, {...(entryLimitMs === undefined ? {} : {entryMs: entryLimitMs}), env});
	return isEstablished(limit) && limit !== null ? {limitMs: limit, knob} : undefined;
}

/**
 * A verdict that the owning client's start-up limit turns to `fail`: connected, but later than `limit` allows
 * (a server that starts in 11 s works for Claude Code's 30 s and fails under Gemini CLI's 5 s). Returns the
 * verdict unchanged, or the failed one with the fix in one line. Pure.
 */
export function withStartupLimit(
	verdict: ProbeVerdict,
	client: ClientName,
	limit: StartupLimit | undefined,
): {verdict: ProbeVerdict; fix?: string} {
	if (limit === undefined || !verdict.connected || verdict.startupMs === undefined) return {verdict};
	if (verdict.startupMs <= limit.limitMs) return {verdict};
	const seconds = (ms: number) => `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
	return {
		verdict: {...verdict, status: 'fail'},
		fix: `it starts in ${seconds(verdict.startupMs)}; ${clientProfile(client).displayName} waits ${seconds(limit.limitMs)} for a server to start: start faster (answer initialize first), or raise it with ${limit.knob}`,
	};
}
