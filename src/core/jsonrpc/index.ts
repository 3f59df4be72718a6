/**
 * JSON-RPC and MCP message checks (docs/protocol.md R6/R8/R11/R19, §2 J1–J9, §3 C1/C4/C6, §6): the fast
 * per-frame validator, models of how real clients treat a line, and the `initialize` checks.
 */
export {classifyMessage, RELATED_TASK_META_KEY, withRawId} from './classify.js';
export {cutNesting, MAX_JSON_DEPTH, NESTING_PLACEHOLDER, nestsDeeperThan} from './depth.js';
export {nestingDraft} from '../findings/rules/invalid-jsonrpc.js';
export {checkInitializeError, checkInitializeResult, checkNegotiatedVersion} from './lifecycle.js';
export type {InitializeErrorVerdict, VersionVerdict} from './lifecycle.js';
export {CLIENT_FAMILIES, impactForProblems} from './impact.js';
export {JSON_RPC_PROBLEM_REASONS} from './problem.js';
export type {
	Classification,
	ClassifyOptions,
	Direction,
	JsonRpcProblem,
	JsonRpcProblemReason,
	MessageKind,
	SdkVerdict,
} from './problem.js';
export {pythonSdkVerdict} from './verdicts.js';
export {SDK_SCHEMAS, tsSdkInitializeResult, tsSdkVerdict} from './sdk-schemas.js';
export {installSdkSchemas, installedSdkSchemas, UNCHECKED_SDK_SCHEMAS, type SdkSchemas} from './sdk-checks.js';
export {
	BATCH_VERSION,
	ERROR_ID_OPTIONAL_SINCE,
	KNOWN_PROTOCOL_VERSIONS,
	LATEST_LEGACY,
	MODERN_VERSION,
	isKnownProtocolVersion,
} from './versions.js';
export type {KnownProtocolVersion} from './versions.js';
