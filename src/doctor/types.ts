/**
 * The data `mcp-wire doctor` works with (docs/cli.md#doctor): one row per configured server (or per config
 * problem), with the verdict for the client that launches it.
 */
import type {
	ClientName,
	ConfigFile,
	ConfigProblem,
	ConfigScope,
	LaunchMode,
	Position,
	ServerTransport,
} from '../configs/index.js';
import type {Finding, FindingCode, Severity} from '../core/types.js';

/**
 * A row's verdict, as the client of the row would see the server.
 * - `ok` (✔): no finding above info.
 * - `warn` (▲): it connects and works, with findings this client tolerates (e.g. a stray line that
 *   Claude Code logs and skips).
 * - `fail` (✘): this client does not get a working session (spawn error, no answer, early exit, a
 *   finding whose reaction for this client is hang or fatal), or the config entry is broken.
 * - `skipped`: not a stdio server (HTTP/SSE), or held back by the trust model, so not probed.
 * - `not-checked`: `--total-timeout` elapsed before its probe started or ended: no verdict,
 *   neither ✔ nor ✘, and it does not make the exit code 1.
 */
export type DoctorStatus = 'ok' | 'warn' | 'fail' | 'skipped' | 'not-checked';

/**
 * Why a server works in the user's shell but not under its client: the variables of the shell that
 * make the difference (`finding.detail.envDifference`).
 * - `variables`: names, in the order they were identified (e.g. `['PYTHONUNBUFFERED']`, `['PATH']`).
 * - `pathEntries`: for `PATH`, the folders of the shell's PATH the client's PATH lacks that hold the
 *   command (or its `#!/usr/bin/env` interpreter), when they were identified and verified.
 * - `minimal`: true when the server was seen working with exactly these added (a single variable, or
 *   a set no half of which worked alone); false when the probe budget ran out first.
 * - `probes`: extra probes spent after the full-environment re-probe (at most `maxEnvProbes`).
 * - `candidates`: every variable that differed, in the order they were ranked (named by the server's
 *   stderr first, then the likely ones, then by name, shell noise such as `SHLVL` or `SSL_*` last).
 */
export interface EnvDifference {
	readonly variables: readonly string[];
	readonly pathEntries?: readonly string[];
	readonly minimal: boolean;
	readonly probes: number;
	readonly candidates: readonly string[];
}

/** Counts of one finding code in a probe (like `Summary.findings`). */
export interface FindingCount {
	readonly code: FindingCode;
	readonly severity: Severity;
	readonly count: number;
}

/**
 * One line of the doctor's table and one `doctor-server` record of `--json`.
 * - `name`: the server name; absent for a problem of the whole file (broken JSON).
 * - `position`: where the entry (or the problem) is in `file`, 1-based.
 * - `command`, `cwd`, `envMode`: how the server was launched (after the client's variable expansion).
 * - `connected`: the server answered the handshake in time, in a frame this client can read: what
 *   `claude mcp list` reports as "Connected" (docs/protocol.md "Measured: Claude Code's claude mcp list"). A `fail` row can be connected: it
 *   then breaks later in the session (a `tools/list` reply with the wrong id, a crash on the next
 *   request). Absent for config problems and skipped rows.
 * - `startupMs`: ms from the spawn to the `initialize` reply when connected (start-up and handshake);
 *   absent otherwise.
 * - `tools`: the number of tools `tools/list` returned, when it was answered.
 * - `finding`: the finding that decides the status (for `fail`, the first whose reaction for this
 *   client is hang/fatal; else the first error or warning), with `detail.envDifference` when the
 *   server works under the variables doctor may take from the user's shell.
 * - `fix`: one line of advice (the env difference, the finding's hint, or how to fix the config).
 * - `reason`: for `skipped` rows and config problems, why; for probes cut by `--total-timeout`, that.
 * - `likelyMissing`: for a `fail` row, the variables the server's stderr names as missing
 *   (`KeyError: 'WEATHER_API_KEY'`, `X is not set`…) that the client's environment does not set, in the
 *   order named: a reading of text, reported (and tried first by the env-difference search when the
 *   trust model lets doctor pass them), never passed on its own.
 * - `capture`: the kept capture of the probe under the client's environment; `fullEnvCapture`: the
 *   capture of the re-probe under the variables doctor may take from the user's shell, when one ran.
 * - `notes`: facts about the launch worth knowing (assumed working directory, unresolved variables).
 */
export interface DoctorRow {
	readonly client: ClientName;
	readonly scope: ConfigScope;
	readonly file: string;
	readonly position?: Position;
	readonly name?: string;
	readonly transport?: ServerTransport;
	readonly status: DoctorStatus;
	readonly command?: readonly string[];
	readonly cwd?: string;
	readonly envMode?: LaunchMode;
	readonly connected?: boolean;
	readonly startupMs?: number;
	readonly tools?: number;
	readonly finding?: Finding;
	readonly findings: readonly FindingCount[];
	readonly fix?: string;
	readonly reason?: string;
	readonly problem?: ConfigProblem;
	readonly envDifference?: EnvDifference;
	readonly likelyMissing?: readonly string[];
	readonly capture?: string;
	readonly fullEnvCapture?: string;
	readonly durationMs?: number;
	readonly notes: readonly string[];
}

/** Totals of a doctor run (the `doctor-summary` record). */
export interface DoctorTotals {
	readonly servers: number;
	readonly ok: number;
	readonly warn: number;
	readonly fail: number;
	readonly skipped: number;
	/** Rows `not-checked` because `--total-timeout` elapsed. */
	readonly notChecked: number;
}

/**
 * The result of a doctor run.
 * - `files`: every config location looked at (existing or not), in discovery order.
 * - `rows`: in discovery order (client, file, entry order), config problems of a file before its servers.
 * - `notes`: config notes that are no row of their own (a name defined twice), as `file:line:col: text`.
 * - `timedOut`: `--total-timeout` elapsed; unfinished probes were stopped and say so.
 * - `captureDir`: where captures were written (absent when capturing was off or failed).
 * - `warnings`: things that went wrong on our side (a capture that could not be written).
 */
export interface DoctorReport {
	readonly files: readonly ConfigFile[];
	readonly rows: readonly DoctorRow[];
	readonly notes: readonly string[];
	readonly totals: DoctorTotals;
	readonly timedOut: boolean;
	readonly durationMs: number;
	readonly captureDir?: string;
	readonly warnings: readonly string[];
}
