import {describeJsonType, isPlainObject, own} from './classify.js';
import type {JsonRpcProblem, JsonRpcProblemReason} from './problem.js';
import {installedSdkSchemas, type SdkSchemas} from './sdk-checks.js';
import {MODERN_VERSION, isKnownProtocolVersion} from './versions.js';

function problem(reason: JsonRpcProblemReason, message: string, key?: string, rule = 'R8'): JsonRpcProblem {
	return key === undefined ? {reason, message, rule} : {reason, message, rule, key};
}

/**
 * Checks the `result` of a successful `initialize` response (R8): `protocolVersion` (string),
 * `capabilities` (object) and `serverInfo` (object with string `name` and `version`) are required,
 * `instructions` is an optional string. When those hold, the TS SDK's own `InitializeResultSchema`
 * (1.32.2) runs too and anything else it rejects (a capability of the wrong type, a bad icon) is reported
 * as `initialize-result-schema` (rule C1): a TS SDK client fails to connect on it.
 *
 * Input: `result`, the response's `result` member; `offeredVersion`, the version the client sent (quoted
 * in the messages); `schemas`, the injected TS SDK checks (default: the installed ones; unloaded, the
 * schema pass is skipped). Output: problems (empty when valid); each maps to the finding `invalid-initialize`.
 * Whether the version itself is acceptable is {@link checkNegotiatedVersion}'s job. Never throws.
 */
/** The server capabilities of MCP 2025-11-25 `ServerCapabilities`, each an object when present. */
const CAPABILITY_NAMES = ['tools', 'prompts', 'resources', 'logging', 'completions', 'experimental', 'tasks'] as const;

export function checkInitializeResult(
	result: unknown,
	offeredVersion: string,
	schemas: SdkSchemas = installedSdkSchemas(),
): JsonRpcProblem[] {
	if (!isPlainObject(result)) {
		return [
			problem(
				'initialize-result-not-object',
				`the initialize result is ${describeJsonType(result)}, not an object`,
				'result',
			),
		];
	}
	const problems: JsonRpcProblem[] = [];
	const version = own(result, 'protocolVersion');
	if (version === undefined) {
		problems.push(
			problem(
				'missing-protocol-version',
				`no protocolVersion; the server must answer ${offeredVersion} or a version it supports`,
				'result.protocolVersion',
			),
		);
	} else if (typeof version !== 'string') {
		problems.push(
			problem(
				'protocol-version-not-string',
				`protocolVersion is ${describeJsonType(version)}; it must be a version string such as ${offeredVersion}`,
				'result.protocolVersion',
			),
		);
	}
	const capabilities = own(result, 'capabilities');
	if (capabilities === undefined) {
		problems.push(
			problem('missing-capabilities', 'no capabilities; send {} when the server has none', 'result.capabilities'),
		);
	} else if (!isPlainObject(capabilities)) {
		problems.push(
			problem(
				'capabilities-not-object',
				`capabilities is ${describeJsonType(capabilities)}, not an object`,
				'result.capabilities',
			),
		);
	}
	if (isPlainObject(capabilities)) {
		// Each declared capability is an object (`{}` when it has no options); say what is there instead.
		for (const name of CAPABILITY_NAMES) {
			const value = own(capabilities, name);
			if (value === undefined || isPlainObject(value)) continue;
			problems.push(
				problem(
					'capability-not-object',
					`capabilities.${name} is ${describeJsonType(value)} where an object is required (\`"${name}": {}\` declares it)`,
					`result.capabilities.${name}`,
				),
			);
		}
	}
	const serverInfo = own(result, 'serverInfo');
	if (serverInfo === undefined) {
		problems.push(
			problem(
				'missing-server-info',
				'no serverInfo; it must name the server: {"name": …, "version": …}',
				'result.serverInfo',
			),
		);
	} else if (!isPlainObject(serverInfo)) {
		problems.push(
			problem(
				'server-info-not-object',
				`serverInfo is ${describeJsonType(serverInfo)}, not an object`,
				'result.serverInfo',
			),
		);
	} else {
		const name = own(serverInfo, 'name');
		if (typeof name !== 'string')
			problems.push(
				problem(
					'server-info-name-not-string',
					`serverInfo.name is ${describeJsonType(name)}; it must be a string`,
					'result.serverInfo.name',
				),
			);
		const serverVersion = own(serverInfo, 'version');
		if (typeof serverVersion !== 'string') {
			problems.push(
				problem(
					'server-info-version-not-string',
					`serverInfo.version is ${describeJsonType(serverVersion)}; it must be a string`,
					'result.serverInfo.version',
				),
			);
		}
	}
	const instructions = own(result, 'instructions');
	if (instructions !== undefined && typeof instructions !== 'string') {
		problems.push(
			problem(
				'instructions-not-string',
				`instructions is ${describeJsonType(instructions)}; it must be a string`,
				'result.instructions',
			),
		);
	}
	if (problems.length > 0) return problems;

	const issue = schemas.initializeResult(result);
	if (issue) {
		const where = issue.path;
		const text = where ? `${where}: ${issue.message}` : issue.message;
		problems.push(
			problem(
				'initialize-result-schema',
				`the TS SDK rejects the initialize result: ${text}`,
				where ? `result.${where}` : 'result',
				'C1',
			),
		);
	}
	return problems;
}

/** A version the server answered that a client should not accept (R11). */
export interface VersionVerdict {
	readonly severity: 'error' | 'warning';
	/**
	 * `unknown-version`: not a known MCP revision (or not a string) → error; TS and Python clients
	 * disconnect. `not-offered-unsupported`: a known revision the client did not offer and that shipping
	 * clients reject in `initialize` (`2026-07-28` → error; the TS pre-release `2024-10-07` → warning,
	 * Python rejects it). `echoed-unsupported`: the offered version echoed back although it is unknown or
	 * `2026-07-28` (no `initialize` in that revision) → warning: the server claims support it may not have.
	 */
	readonly reason: 'unknown-version' | 'not-offered-unsupported' | 'echoed-unsupported';
	readonly message: string;
}

/**
 * Judges the `protocolVersion` of an `initialize` result against the version the client offered (R11).
 * Returns null when it is fine: the offered known version echoed, or a different known legacy version
 * (a counter-offer, which the spec allows). Maps to the finding `protocol-version`.
 *
 * Input: `offered`, the version string the client sent; `answered`, the result's `protocolVersion` as
 * found (any JSON value). Never throws.
 */
export function checkNegotiatedVersion(offered: string, answered: unknown): VersionVerdict | null {
	if (typeof answered !== 'string') {
		return {
			severity: 'error',
			reason: 'unknown-version',
			message: `protocolVersion is ${describeJsonType(answered)}, not a version string (offered ${offered})`,
		};
	}
	if (answered === offered) {
		if (!isKnownProtocolVersion(answered)) {
			return {
				severity: 'warning',
				reason: 'echoed-unsupported',
				message: `echoed the offered version ${answered}, which is not a known MCP revision: the server claims support it cannot have`,
			};
		}
		if (answered === MODERN_VERSION) {
			return {
				severity: 'warning',
				reason: 'echoed-unsupported',
				message: `echoed ${answered} in an initialize result, but ${answered} has no initialize handshake; a legacy server should counter-offer its latest legacy version`,
			};
		}
		return null;
	}
	if (!isKnownProtocolVersion(answered)) {
		return {
			severity: 'error',
			reason: 'unknown-version',
			message: `answered ${JSON.stringify(answered)}, not a known MCP revision (offered ${offered}); TS and Python clients disconnect`,
		};
	}
	if (answered === MODERN_VERSION) {
		return {
			severity: 'error',
			reason: 'not-offered-unsupported',
			message: `answered ${answered}, which was not offered and has no initialize handshake; TS SDK v1 and Python SDK clients disconnect`,
		};
	}
	if (isKnownProtocolVersion(offered) && offered !== '2024-10-07' && answered > offered) {
		return {
			severity: 'error',
			reason: 'not-offered-unsupported',
			message: `answered ${answered}, newer than the offered ${offered}: a client that offers ${offered} does not know ${answered} and disconnects (R11: echo the offered version if supported, else counter-offer an older one)`,
		};
	}
	if (answered === '2024-10-07') {
		return {
			severity: 'warning',
			reason: 'not-offered-unsupported',
			message: `answered the TS SDK pre-release ${answered} (offered ${offered}); Python SDK clients disconnect`,
		};
	}
	return null;
}

/** An error response to `initialize` that rejects the offered protocol version (R11, R19). */
export interface InitializeErrorVerdict {
	readonly reason: 'rejected-version';
	/** True when the error shows a modern-only server (2026-07-28): code -32022 or 2026-07-28 among the versions it names. */
	readonly modernEra: boolean;
	/** The versions the server says it supports (`data.supported`, or `data.expected`), when it names them. */
	readonly supported?: string[];
	readonly message: string;
}

const VERSION_WORDS = /protocol[\s_-]*version|unsupported[\w\s]*version|version[\w\s]*not supported/i;
const DATE_VERSION = /\b\d{4}-\d{2}-\d{2}\b/g;

function stringList(value: unknown): string[] | undefined {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string'))
		return [...(value as string[])];
	return undefined;
}

/**
 * Recognises an error response to `initialize` that rejects the offered protocol version instead of
 * counter-offering one (R11; Open question 2: the spec's own example shows -32602, but the MUST is to
 * counter-offer, and cl-ai-project/cl-mcp#26 broke Claude Code this way). Recognised: code -32022
 * (`UnsupportedProtocolVersionError`, 2026-07-28, `data: {supported, requested}`), or any code whose
 * message names a protocol version ("Unsupported protocolVersion …") or whose `data` carries
 * `supported` / `expected` versions. Maps to the finding `protocol-version` (error).
 *
 * `modernEra` is true for -32022, or when 2026-07-28 is among the supported versions or named in the
 * message and was not the offered version (R19: a modern-only server names its versions; the probe then
 * uses `server/discover`).
 *
 * Input: `error`, the error object `{code, message, data?}` or the whole error response (its `error`
 * member is read); `offeredVersion`, the version the client sent, when known. Output: null when the error
 * is about something else. Never throws.
 */
export function checkInitializeError(error: unknown, offeredVersion?: string): InitializeErrorVerdict | null {
	let body = error;
	if (isPlainObject(body) && own(body, 'code') === undefined && isPlainObject(own(body, 'error')))
		body = own(body, 'error');
	if (!isPlainObject(body)) return null;
	const code = own(body, 'code');
	const text = own(body, 'message');
	const message = typeof text === 'string' ? text : '';
	const data = own(body, 'data');
	const supported = isPlainObject(data)
		? (stringList(own(data, 'supported')) ?? stringList(own(data, 'expected')))
		: undefined;
	if (code !== -32022 && supported === undefined && !VERSION_WORDS.test(message)) return null;

	const named = new Set<string>(supported ?? []);
	for (const match of message.matchAll(DATE_VERSION)) if (match[0] !== offeredVersion) named.add(match[0]);
	const modernEra = code === -32022 || (supported ?? []).includes(MODERN_VERSION) || named.has(MODERN_VERSION);

	const quoted = message ? ` "${message.length > 80 ? `${message.slice(0, 79)}…` : message}"` : '';
	const head = `initialize rejected with error ${typeof code === 'number' ? code : '(no code)'}${quoted}`;
	const tail = modernEra
		? `; the server names ${MODERN_VERSION}: a modern-only server (R19), probe it with server/discover`
		: '; a server must counter-offer a version it supports instead (R11)';
	const out: {reason: 'rejected-version'; modernEra: boolean; supported?: string[]; message: string} = {
		reason: 'rejected-version',
		modernEra,
		message: `${head}${tail}${supported ? ` (supported: ${supported.join(', ')})` : ''}`,
	};
	if (supported) out.supported = supported;
	return out;
}
