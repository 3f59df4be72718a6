/**
 * `mcp-wire doctor`'s engine (docs/cli.md#doctor): config files → launch plans → concurrent probes, each as its
 * client launches the server → one row per server with the verdict, the first finding and its fix.
 * No stdout writes here: the CLI presents the report.
 */
import type {HandlerPlan} from '../probe/handler-requests.js';
import {formatProblem, resolveCommand, type ConfigFile} from '../configs/index.js';
import type {Finding} from '../core/types.js';
import {
	DEFAULT_MAX_ENV_PROBES,
	differingVariables,
	ENV_SENSITIVE_CODES,
	findEnvDifference,
	orderCandidates,
} from './env-difference.js';
import {
	explainEnvDifference,
	explainFinding,
	explainMissingVariables,
	explainNotOnPath,
	notOnPathFinding,
	withEnvDifference,
} from './explain.js';
import {envValue, planTargets, type DoctorTarget, type Plan, type PlanContext, type ProbeTarget} from './plan.js';
import {probeOnce, ProbeProcesses} from './probe-once.js';
import {relativePathFix} from './launch-checks.js';
import {informativeLine, variablesNamedIn} from './stderr.js';
import {monotonicMs} from '../process/clock.js';
import type {DoctorReport, DoctorRow, DoctorTotals, EnvDifference} from './types.js';
import {CLIENT_LABEL, evaluateProbe, startupLimitOf, withStartupLimit, type ProbeVerdict} from './verdict.js';

/**
 * Default `--jobs`: probes running at the same time. Not tied to the CPU count: a probe mostly waits
 * (for an interpreter to start, for replies), so 8 at once cuts the waves of slow-starting servers in
 * half against 4 (docs/performance.md#doctor) while keeping a start-up storm of `npx` servers bounded.
 */
export const DEFAULT_JOBS = 8;
/** Lines of a failing server's stderr read for the names of missing variables. */
const STDERR_LINES = 50;
/** Default `--total-timeout` (ms): the whole run, env re-probes included. */
export const DEFAULT_TOTAL_TIMEOUT_MS = 120_000;

/** Inputs of {@link runDoctor}. */
export interface DoctorOptions {
	/** The config files to read (from `discoverConfigs`); files that do not exist are skipped. */
	readonly files: readonly ConfigFile[];
	/** The user's environment, home, project folder and platform. */
	readonly context: PlanContext;
	/** Per-request wait of each probe (ms, `--timeout`); unset: the probe's defaults (10 s per request, 30 s for initialize). */
	readonly timeoutMs?: number;
	/** Handler requests every probe makes (`--call`, `--read`, …; docs/cli.md); default none. */
	readonly handlers?: HandlerPlan;
	/** The whole run (ms, `--total-timeout`); probes still running then are killed and reported. */
	readonly totalTimeoutMs: number;
	/** Probes at the same time (`--jobs`), at least 1. */
	readonly jobs: number;
	readonly protocolVersion?: string;
	/** mcp-wire's version, for the capture headers. */
	readonly toolVersion: string;
	/** Keep every probe's capture in this (existing, private) directory; absent: no captures. */
	readonly captureDir?: string;
	/** Extra probes per server to name the variables that make the difference (default 6). */
	readonly maxEnvProbes?: number;
	/** Diagnostic lines for stderr (`--verbose`), prefixed with `client/name: `. */
	readonly onLog?: (line: string) => void;
	/** Called when the probes of a server start (`label`: `client/name`), before it is spawned, with the number of rows to come. */
	readonly onStart?: (label: string, total: number) => void;
	/**
	 * Called as each row is ready (in completion order), with how many rows are done of how many, and
	 * `label` when the row's server had {@link DoctorOptions.onStart} called (else undefined).
	 */
	readonly onRow?: (row: DoctorRow, done: number, total: number, label: string | undefined) => void;
	/**
	 * The plan to run (from {@link planTargets} over `files`), so that what the user was shown is what
	 * runs; planned here when absent.
	 */
	readonly plan?: Plan;
	/** Probe servers their client would not start without asking (`--include-untrusted`). */
	readonly includeUntrusted?: boolean;
	/**
	 * Only these server names (`doctor NAME...`); a named server is probed even when not trusted.
	 * Problems of a whole file are then left out.
	 */
	readonly names?: readonly string[];
	/**
	 * Called once, before anything is spawned, with every target that would be spawned (trusted or
	 * asked for, and on the client's PATH); resolves to those allowed to run (the CLI lists them and
	 * asks). The others become `skipped` rows with the reason `declined`. Absent: all run.
	 */
	readonly approve?: (
		targets: readonly ProbeTarget[],
	) => Promise<{readonly run: readonly ProbeTarget[]; readonly declined: string}>;
}

/** A probe target that is not spawned, with the reason shown in its row. */
interface HeldTarget {
	readonly kind: 'held';
	readonly target: ProbeTarget;
	readonly reason: string;
}

/**
 * The targets of `plan` narrowed to `names` (when given), with the untrusted ones held back unless
 * `includeUntrusted` or named (docs/cli.md#doctor). Returns the rows-to-be in plan order.
 */
export function selectTargets(
	plan: Plan,
	options: {readonly includeUntrusted?: boolean; readonly names?: readonly string[]},
): (DoctorTarget | HeldTarget)[] {
	const names = options.names === undefined || options.names.length === 0 ? undefined : new Set(options.names);
	const out: (DoctorTarget | HeldTarget)[] = [];
	for (const target of plan.targets) {
		const name = target.kind === 'problem' ? target.problem.server : target.entry.name;
		if (names !== undefined && (name === undefined || !names.has(name))) continue;
		if (target.kind === 'probe' && !target.trust.trusted && options.includeUntrusted !== true && names === undefined) {
			out.push({
				kind: 'held',
				target,
				reason: `not started: ${target.trust.reason ?? 'not trusted'}; run \`mcp-wire doctor ${target.entry.name}\` or pass --include-untrusted to probe it`,
			});
		} else {
			out.push(target);
		}
	}
	return out;
}

interface Deadline {
	firedAt: number | undefined;
}

/** The totals of a list of rows. */
export function totalsOf(rows: readonly DoctorRow[]): DoctorTotals {
	const count = (status: DoctorRow['status']): number => rows.filter((row) => row.status === status).length;
	return {
		servers: rows.length,
		ok: count('ok'),
		warn: count('warn'),
		fail: count('fail'),
		skipped: count('skipped'),
		notChecked: count('not-checked'),
	};
}

/** The process exit code for a report: 1 when any row failed, else 0 (rows `not-checked` at `--total-timeout` do not count as failed). */
export function exitCodeOf(report: DoctorReport): number {
	return report.totals.fail > 0 ? 1 : 0;
}

function problemRow(target: Extract<DoctorTarget, {kind: 'problem'}>): DoctorRow {
	const {file, problem} = target;
	return {
		client: file.client,
		scope: file.scope,
		file: file.path,
		position: {line: problem.line, column: problem.column},
		...(problem.server === undefined ? {} : {name: problem.server}),
		// A format mcp-wire does not read yet is not a broken file: the row says so and checks nothing.
		status: problem.kind === 'unsupported' ? 'skipped' : 'fail',
		findings: [],
		problem,
		reason:
			problem.kind === 'unsupported'
				? `${problem.message}: mcp-wire does not check the servers of this file`
				: problem.kind === 'broken-json'
					? `${problem.message}: ${file.client} loads no server from this file`
					: problem.message,
		fix: formatProblem(problem),
		notes: [],
	};
}

function skippedRow(target: Extract<DoctorTarget, {kind: 'skipped'}>): DoctorRow {
	const {file, entry} = target;
	return {
		client: file.client,
		scope: file.scope,
		file: file.path,
		position: entry.position,
		name: entry.name,
		transport: entry.transport,
		status: 'skipped',
		findings: [],
		reason: target.reason,
		notes: [],
	};
}

/**
 * Probes every server of `options.files` as its client launches it and returns one row per server (and
 * per config problem), in discovery order.
 *
 * Trust (docs/cli.md#doctor): a server its client would not start without asking (see `Trust` in plan.ts) is
 * a `skipped` row unless `includeUntrusted` or named in `names`; then `approve` sees every target
 * about to be spawned, before any is, and may hold some back.
 *
 * Per stdio server: a command that is not on the PATH the client gives is `spawn-failed` at once (no
 * spawn); otherwise one probe (`runProbe`) under the client's environment, judged for that client
 * (verdict.ts). When it fails with `spawn-failed`, `early-exit`, `no-response` or `unflushed-output`
 * under a client that does not pass the whole environment, it is probed once more with the target's
 * `fullEnv` (the config env plus only the harmless variables of the user's environment and the
 * `--try-env` ones, never the whole environment), and if it works there, {@link findEnvDifference}
 * names the variables (at most `maxEnvProbes` more probes), recorded as `detail.envDifference` on
 * the same finding (no new code).
 *
 * At most `jobs` servers are probed at once. When `totalTimeoutMs` passes, no new probe starts, running
 * servers are SIGKILLed, and their rows (and those never started) are `not-checked` with the reason.
 * Never throws for what servers do; config files are only read.
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
	const started = monotonicMs();
	const plan = options.plan ?? planTargets(options.files, options.context);
	const targets: (DoctorTarget | HeldTarget)[] = selectTargets(plan, options);
	const spawning = targets.filter(
		(target): target is ProbeTarget => target.kind === 'probe' && target.resolved !== null,
	);
	if (options.approve !== undefined && spawning.length > 0) {
		const answer = await options.approve(spawning);
		const allowed = new Set(answer.run);
		for (const [index, target] of targets.entries()) {
			if (target.kind === 'probe' && target.resolved !== null && !allowed.has(target))
				targets[index] = {kind: 'held', target, reason: answer.declined};
		}
	}
	const rows: (DoctorRow | undefined)[] = targets.map(() => undefined);
	const warnings: string[] = [];
	const processes = new ProbeProcesses();
	const deadline: Deadline = {firedAt: undefined};
	const timer = setTimeout(() => {
		deadline.firedAt = monotonicMs();
		processes.killAll();
	}, options.totalTimeoutMs);
	let done = 0;
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < targets.length) {
			const index = next++;
			const target = targets[index]!;
			let row: DoctorRow;
			let label: string | undefined;
			if (target.kind === 'problem') row = problemRow(target);
			else if (target.kind === 'skipped') row = skippedRow(target);
			else if (target.kind === 'held') row = heldRow(target.target, target.reason);
			else {
				label = `${target.file.client}/${target.entry.name}`;
				options.onStart?.(label, targets.length);
				row = await probeTarget(target, options, processes, deadline, warnings);
			}
			rows[index] = row;
			done += 1;
			options.onRow?.(row, done, targets.length, label);
		}
	};
	try {
		await Promise.all(Array.from({length: Math.max(1, Math.min(options.jobs, targets.length))}, () => worker()));
	} finally {
		clearTimeout(timer);
	}
	const finished = rows.filter((row): row is DoctorRow => row !== undefined);
	return {
		files: options.files,
		rows: finished,
		notes: plan.notes,
		totals: totalsOf(finished),
		timedOut: deadline.firedAt !== undefined,
		durationMs: monotonicMs() - started,
		...(options.captureDir === undefined ? {} : {captureDir: options.captureDir}),
		warnings,
	};
}

function heldRow(target: ProbeTarget, reason: string): DoctorRow {
	const {file, entry} = target;
	return {
		client: file.client,
		scope: file.scope,
		file: file.path,
		position: entry.position,
		name: entry.name,
		transport: entry.transport,
		command: target.command,
		cwd: target.cwd,
		envMode: target.mode,
		status: 'skipped',
		findings: [],
		reason,
		notes: [...target.notes],
	};
}

/** The row of a server `--total-timeout` kept from a verdict (not started, or stopped by us): `not-checked`. */
function stoppedRow(
	target: ProbeTarget,
	base: Omit<DoctorRow, 'status' | 'findings' | 'notes'>,
	options: DoctorOptions,
	what: string,
): DoctorRow {
	return {
		...base,
		status: 'not-checked',
		findings: [],
		reason: `${what}: --total-timeout (${options.totalTimeoutMs} ms) elapsed`,
		fix: `probe it alone: mcp-wire probe${options.timeoutMs === undefined ? '' : ` --timeout ${options.timeoutMs}`} -- ${target.command.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word))).join(' ')}`,
		notes: [...target.notes],
	};
}

/** Probe one config entry with one environment: the client's, the shell's, or a candidate of the search. */
type ProbeWith = (
	env: Readonly<Record<string, string>>,
	kind: 'client' | 'shell' | 'search',
	timeoutMs?: number,
) => ReturnType<typeof probeOnce>;

/** The shortest wait a search probe gets for each request (ms), however fast the server started. */
export const MIN_SEARCH_WAIT_MS = 5000;

/**
 * The wait of one environment-search probe (ms): the server answered `initialize` in `startupMs` under the
 * shell's variables, so a candidate environment under which it works answers well within 3× that (at least
 * {@link MIN_SEARCH_WAIT_MS}); a failing candidate then costs that wait, not the full 30 s startup wait
 * (docs/cli.md#doctor). Never longer than the run's own `--timeout`, when given; undefined (the probe's
 * defaults) when the start-up time is unknown.
 */
export function searchWaitMs(startupMs: number | undefined, timeoutMs: number | undefined): number | undefined {
	if (startupMs === undefined) return timeoutMs;
	const wait = Math.max(MIN_SEARCH_WAIT_MS, Math.ceil(3 * startupMs));
	return timeoutMs === undefined ? wait : Math.min(wait, timeoutMs);
}

/**
 * A server that fails under the client's environment with an environment-sensitive finding is probed
 * again with the harmless variables of the user's shell (and `--try-env`); when that works, the smallest
 * set of variables that makes it work is searched (at most `maxEnvProbes` probes). When it fails too, a
 * note says so.
 * @returns the variables found (or the candidates), and the shell probe's capture
 */
async function tryShellEnv(
	target: ProbeTarget,
	options: DoctorOptions,
	deadline: Deadline,
	probe: ProbeWith,
	failed: {
		readonly verdict: ProbeVerdict;
		readonly code: Finding['code'] | undefined;
		readonly likelyMissing: readonly string[];
		readonly notes: string[];
		readonly log?: (line: string) => void;
	},
): Promise<{envDifference?: EnvDifference; fullEnvCapture?: string}> {
	const {verdict, code, likelyMissing, notes, log} = failed;
	const platform = options.context.platform;
	const {file} = target;
	let envDifference: EnvDifference | undefined;
	let fullEnvCapture: string | undefined;
	const startsInShell =
		target.resolved !== null ||
		resolveCommand(target.command[0] ?? '', envValue(target.fullEnv, 'PATH', platform) ?? '', target.cwd, {
			platform,
		}) !== null;
	const mayDependOnEnv =
		verdict.status === 'fail' &&
		code !== undefined &&
		ENV_SENSITIVE_CODES.has(code) &&
		target.mode !== 'client-full' &&
		startsInShell;
	if (mayDependOnEnv && differingVariables(target.env, target.fullEnv).length > 0 && deadline.firedAt === undefined) {
		log?.('failed under the client environment; re-probing with the harmless variables of your shell (and --try-env)');
		const shell = await probe(target.fullEnv, 'shell');
		fullEnvCapture = shell.capture;
		const shellVerdict = evaluateProbe(shell.snapshot, file.client);
		if (deadline.firedAt === undefined && shellVerdict.status !== 'fail') {
			const found = await findEnvDifference({
				baseEnv: target.env,
				fullEnv: target.fullEnv,
				code,
				named: likelyMissing,
				command: target.command,
				cwd: target.cwd,
				platform,
				maxProbes: options.maxEnvProbes ?? DEFAULT_MAX_ENV_PROBES,
				works: async (env) => {
					if (deadline.firedAt !== undefined) return undefined;
					const outcome = await probe(env, 'search', searchWaitMs(shellVerdict.startupMs, options.timeoutMs));
					if (deadline.firedAt !== undefined) return undefined;
					// Connected, and not failing: a shortened wait that ran out is `warn` (own limit), not working.
					const judged = evaluateProbe(outcome.snapshot, file.client);
					return judged.connected && judged.status !== 'fail';
				},
			});
			const candidates = orderCandidates(differingVariables(target.env, target.fullEnv), code, likelyMissing);
			envDifference = found ?? {variables: candidates, minimal: false, probes: 0, candidates};
			log?.(`works with ${envDifference.variables.join(', ')} from your shell`);
		} else if (deadline.firedAt === undefined) {
			notes.push(
				`fails too with what doctor may take from your shell (its harmless variables and any --try-env names; never your whole environment) (${shellVerdict.finding?.code ?? 'no handshake'})`,
			);
		}
	}
	return {...(envDifference ? {envDifference} : {}), ...(fullEnvCapture === undefined ? {} : {fullEnvCapture})};
}

async function probeTarget(
	target: ProbeTarget,
	options: DoctorOptions,
	processes: ProbeProcesses,
	deadline: Deadline,
	warnings: string[],
): Promise<DoctorRow> {
	const {file, entry} = target;
	const platform = options.context.platform;
	const label = `${file.client}/${entry.name}`;
	const log = options.onLog === undefined ? undefined : (line: string): void => options.onLog?.(`${label}: ${line}`);
	const started = monotonicMs();
	const base = {
		client: file.client,
		scope: file.scope,
		file: file.path,
		position: entry.position,
		name: entry.name,
		transport: entry.transport,
		command: target.command,
		cwd: target.cwd,
		envMode: target.mode,
	} as const;
	if (deadline.firedAt !== undefined) return stoppedRow(target, base, options, 'not probed');

	const envKeys = Object.keys(entry.env);
	const probe: ProbeWith = async (env, kind, waitMs = options.timeoutMs) => {
		const outcome = await probeOnce({
			command: target.command,
			env,
			cwd: target.cwd,
			...(waitMs === undefined ? {} : {timeoutMs: waitMs}),
			...(options.handlers === undefined ? {} : {handlers: options.handlers}),
			...(options.protocolVersion === undefined ? {} : {protocolVersion: options.protocolVersion}),
			contentLengthReprobe: kind === 'client',
			envMode: kind === 'client' ? target.mode : 'inherit',
			envKeys,
			name: entry.name,
			toolVersion: options.toolVersion,
			...(options.captureDir !== undefined && kind !== 'search'
				? {capture: {dir: options.captureDir, name: `${file.client}-${entry.name}${kind === 'shell' ? '-shell' : ''}`}}
				: {}),
			processes,
			...(log ? {onLog: log} : {}),
		});
		if (outcome.warning !== undefined) warnings.push(outcome.warning);
		return outcome;
	};

	let verdict: ProbeVerdict;
	let capture: string | undefined;
	let finding: Finding | undefined;
	let fix: string | undefined;
	const notes = [...target.notes];
	let stderrTail: readonly string[] = [];
	let likelyMissing: string[] = [];
	if (target.resolved === null) {
		finding = notOnPathFinding(target);
		verdict = {
			status: 'fail',
			connected: false,
			finding,
			findings: [{code: finding.code, severity: finding.severity, count: 1}],
		};
		fix = explainNotOnPath(target, platform);
		log?.(`${target.command[0] ?? ''} is not on the PATH the client gives (${target.clientPath}); not spawned`);
	} else {
		const main = await probe(target.env, 'client');
		const killedByUs =
			deadline.firedAt !== undefined &&
			main.result.exit?.signal === 'SIGKILL' &&
			!main.snapshot.marks.some((mark) => mark.type === 'signal-sent' && mark.signal === 'SIGKILL');
		if (killedByUs) {
			return {...stoppedRow(target, base, options, 'stopped'), ...(main.capture ? {capture: main.capture} : {})};
		}
		// The owning client's start-up limit decides too (docs/clients.md#the-clients): Gemini CLI waits 5 s.
		const limited = withStartupLimit(
			evaluateProbe(main.snapshot, file.client),
			file.client,
			startupLimitOf(file.client, entry.startupTimeoutMs, options.context.env),
		);
		verdict = limited.verdict;
		capture = main.capture;
		finding = verdict.finding;
		fix = limited.fix ?? (finding === undefined ? undefined : explainFinding(finding, main.snapshot.findings));
		if (verdict.status === 'fail') {
			stderrTail = main.snapshot.stderrTail(STDERR_LINES);
			likelyMissing = variablesNamedIn(stderrTail).filter(
				(name) => (envValue(target.env, name, platform) ?? '') === '',
			);
			if (likelyMissing.length > 0) log?.(`stderr names ${likelyMissing.join(', ')} as missing`);
		}
	}

	const {envDifference, fullEnvCapture} = await tryShellEnv(target, options, deadline, probe, {
		verdict,
		code: finding?.code,
		likelyMissing,
		notes,
		...(log ? {log} : {}),
	});
	if (envDifference && finding) {
		finding = withEnvDifference(finding, envDifference);
		fix = explainEnvDifference(envDifference, target, platform);
	} else if (likelyMissing.length > 0) {
		fix = explainMissingVariables(likelyMissing, target, options.context.env, platform, informativeLine(stderrTail));
	} else if (verdict.status === 'fail' && target.relativePath !== undefined && !target.relativePath.exists) {
		fix = relativePathFix(target.relativePath, target.cwd, CLIENT_LABEL[file.client]);
	}
	return {
		...base,
		status: verdict.status,
		connected: verdict.connected,
		...(verdict.startupMs === undefined ? {} : {startupMs: verdict.startupMs}),
		...(verdict.tools === undefined ? {} : {tools: verdict.tools}),
		...(finding ? {finding} : {}),
		findings: verdict.findings,
		...(fix === undefined ? {} : {fix}),
		...(envDifference ? {envDifference} : {}),
		...(likelyMissing.length > 0 ? {likelyMissing} : {}),
		...(capture === undefined ? {} : {capture}),
		...(fullEnvCapture === undefined ? {} : {fullEnvCapture}),
		durationMs: monotonicMs() - started,
		notes,
	};
}
