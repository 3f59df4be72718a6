/**
 * `mcp-wire doctor` (docs/cli.md#doctor): every configured MCP server, probed as its client launches it, with a
 * verdict and the reason. I/O code (spawns servers, reads configs, writes captures; never stdout).
 */
export {DEFAULT_JOBS, DEFAULT_TOTAL_TIMEOUT_MS, exitCodeOf, runDoctor, totalsOf, type DoctorOptions} from './run.js';
export {
	formatJsonRecords,
	formatReport,
	formatTable,
	formatTotals,
	rowCells,
	STATUS_TEXT,
	TABLE_COLUMNS,
	type FormatOptions,
} from './format.js';
export {DoctorProgress, type DoctorProgressOptions} from './progress.js';
export {planTargets, planProbe, type DoctorTarget, type Plan, type PlanContext, type ProbeTarget} from './plan.js';
export {breaksClient, CLIENT_LABEL, familyOf, evaluateProbe, reactionOf, type ProbeVerdict} from './verdict.js';
export {
	DEFAULT_MAX_ENV_PROBES,
	findEnvDifference,
	pathEntriesFor,
	type EnvDifferenceOptions,
} from './env-difference.js';
export type {DoctorReport, DoctorRow, DoctorStatus, DoctorTotals, EnvDifference, FindingCount} from './types.js';
