import type {Classification, ClassifyOptions, JsonRpcProblem, JsonRpcProblemReason, MessageKind} from './problem.js';
import {BATCH_VERSION, ERROR_ID_OPTIONAL_SINCE, MODERN_VERSION, isKnownProtocolVersion} from './versions.js';

/** The `_meta` key the TS SDK validates as `{taskId: string}` (2025-11-25 tasks). */
export const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';

const NO_PROBLEMS: readonly JsonRpcProblem[] = Object.freeze([]);

/** Own member of a parsed JSON object (inherited members such as `constructor` never count). */
export function own(object: object, key: string): unknown {
	return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/** A JSON object: not null, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Short description of a JSON value's type for messages: `null`, `array`, `boolean`, `1.5`… */
export function describeJsonType(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'number') return Number.isInteger(value) ? `the integer ${value}` : `the number ${value}`;
	if (typeof value === 'string') return 'a string';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'undefined') return 'missing';
	return `a ${typeof value}`;
}

function problem(
	reason: JsonRpcProblemReason,
	rule: string,
	message: string,
	key?: string,
	severity?: 'warning',
): JsonRpcProblem {
	if (key === undefined) return severity ? {reason, message, rule, severity} : {reason, message, rule};
	return severity ? {reason, message, rule, key, severity} : {reason, message, rule, key};
}

function add(list: JsonRpcProblem[] | undefined, item: JsonRpcProblem): JsonRpcProblem[] {
	if (list === undefined) return [item];
	list.push(item);
	return list;
}

/**
 * The problem with an `id` value, or undefined when it is a string or a safe integer (J2: MCP requires a
 * string or integer; the TS SDK's `z.number().int()` also requires |id| ≤ 2^53−1).
 */
function idProblem(id: unknown, severityForNull?: 'warning'): JsonRpcProblem | undefined {
	if (typeof id === 'string') return undefined;
	if (typeof id === 'number') {
		if (!Number.isInteger(id))
			return problem('id-fractional', 'J2', `id ${id} is not an integer; MCP ids are strings or integers`, 'id');
		if (!Number.isSafeInteger(id)) {
			return problem(
				'id-unsafe-integer',
				'C1',
				`id ${id} is outside ±(2^53−1); the TS SDK rejects it and JSON parsers may round it`,
				'id',
			);
		}
		return undefined;
	}
	if (id === null) {
		return severityForNull
			? problem(
					'id-null',
					'J5',
					'error has id null; JSON-RPC allows it for an unreadable id, but MCP omits id instead and TS SDK clients drop the line',
					'id',
					severityForNull,
				)
			: problem('id-null', 'J2', 'id is null; MCP requires a string or integer id', 'id');
	}
	if (typeof id === 'boolean')
		return problem('id-boolean', 'J2', `id is ${id}; MCP requires a string or integer id`, 'id');
	return problem('id-object', 'J2', `id is ${describeJsonType(id)}; MCP requires a string or integer id`, 'id');
}

/** Problems of a `params._meta` or `result._meta` member (C1: the TS SDK's `RequestMetaSchema`; R18). */
function metaProblems(
	container: Record<string, unknown>,
	where: 'params' | 'result',
	list: JsonRpcProblem[] | undefined,
): JsonRpcProblem[] | undefined {
	const meta = own(container, '_meta');
	if (meta === undefined) return list;
	if (!isPlainObject(meta)) {
		return add(
			list,
			problem('meta-not-object', 'C1', `${where}._meta is ${describeJsonType(meta)}, not an object`, `${where}._meta`),
		);
	}
	const token = own(meta, 'progressToken');
	if (token !== undefined && typeof token !== 'string' && !Number.isSafeInteger(token)) {
		list = add(
			list,
			problem(
				'progress-token-invalid',
				'R18',
				`${where}._meta.progressToken is ${describeJsonType(token)}; it must be a string or integer`,
				`${where}._meta.progressToken`,
			),
		);
	}
	const task = own(meta, RELATED_TASK_META_KEY);
	if (task !== undefined && !(isPlainObject(task) && typeof own(task, 'taskId') === 'string')) {
		list = add(
			list,
			problem(
				'related-task-invalid',
				'C1',
				`${where}._meta["${RELATED_TASK_META_KEY}"] must be an object with a string taskId`,
				`${where}._meta.${RELATED_TASK_META_KEY}`,
			),
		);
	}
	return list;
}

/** Is `key` a member of a message of this kind? `extra` admits a member already reported by another problem. */
function isKnownKey(kind: MessageKind, key: string, extra: string | undefined): boolean {
	if (key === 'jsonrpc' || key === extra) return true;
	switch (kind) {
		case 'request':
			return key === 'id' || key === 'method' || key === 'params';
		case 'notification':
			return key === 'method' || key === 'params';
		case 'response':
			return key === 'id' || key === 'result';
		case 'error':
			return key === 'id' || key === 'error';
		default:
			return true;
	}
}

function errorObjectProblems(error: unknown, list: JsonRpcProblem[] | undefined): JsonRpcProblem[] | undefined {
	if (!isPlainObject(error)) {
		return add(
			list,
			problem(
				'error-not-object',
				'J6',
				`error is ${describeJsonType(error)}, not an object with code and message`,
				'error',
			),
		);
	}
	const code = own(error, 'code');
	if (typeof code !== 'number' || !Number.isInteger(code)) {
		list = add(
			list,
			problem(
				'error-code-not-integer',
				'J6',
				`error.code is ${describeJsonType(code)}; it must be an integer`,
				'error.code',
			),
		);
	} else if (!Number.isSafeInteger(code)) {
		list = add(
			list,
			problem(
				'error-code-unsafe-integer',
				'C1',
				`error.code ${code} is outside ±(2^53−1); the TS SDK rejects it`,
				'error.code',
			),
		);
	}
	const message = own(error, 'message');
	if (typeof message !== 'string') {
		list = add(
			list,
			problem(
				'error-message-not-string',
				'J6',
				`error.message is ${describeJsonType(message)}; it must be a string`,
				'error.message',
			),
		);
	}
	return list;
}

function classifyBatch(batch: readonly unknown[], options: ClassifyOptions): Classification {
	if (options.protocolVersion !== BATCH_VERSION) {
		return {
			kind: 'json',
			hasId: false,
			problems: [
				problem(
					'batch',
					'R6',
					`a JSON-RPC batch array (${batch.length} elements); MCP allows batches only in 2025-03-26 and no SDK client accepts them`,
				),
			],
		};
	}
	const problems: JsonRpcProblem[] = [
		problem(
			'batch',
			'R6',
			`a JSON-RPC batch array (${batch.length} elements): legal in 2025-03-26, but TS and Python SDK clients drop it`,
			undefined,
			'warning',
		),
	];
	if (batch.length === 0)
		problems.push(
			problem('batch-empty', 'J8', 'an empty batch array; JSON-RPC answers it with a single Invalid Request error'),
		);
	for (let index = 0; index < batch.length; index++) {
		const element = batch[index];
		const elementProblems = Array.isArray(element)
			? [problem('not-object', 'J8', 'a batch element is itself an array; batches do not nest')]
			: classifyMessage(element, options).problems;
		for (const item of elementProblems) problems.push({...item, index});
	}
	return {kind: 'json', hasId: false, problems};
}

/**
 * Reads one parsed JSON value as a JSON-RPC 2.0 message with MCP's tightening (J1–J8, R6) and lists
 * every problem. Cheap enough for every frame: a valid message costs one result object (its `problems`
 * is a shared frozen empty array); no schema library runs.
 *
 * Input: `message`, the value `JSON.parse` returned for a frame body; `options.direction` (who wrote it)
 * and `options.protocolVersion` (the negotiated version, when known). Never throws.
 *
 * Kind, in this order: an array → `json` (+ `batch`); a non-object → `json` (+ `not-object`); `error`
 * present → `error` (also when `result` is present: `result-and-error`), except `"error": null` beside a
 * `result`, which reads as a `response` (+ `result-and-error` on the key `error`); `result` present → `response`;
 * `method` present → `request` when an `id` member exists, else `notification`, except that a
 * `notifications/…` method with `id: null` reads as a `notification` (+ `notification-with-id`);
 * otherwise `json` (+ `no-method-or-result`). Problems are ordered: `jsonrpc`, then the shape
 * (`result-and-error`, direction), then `id`, then the body, then unknown keys in member order.
 *
 * Version-dependent rules (applied only when `protocolVersion` is given):
 * - a batch array is a warning on 2025-03-26 (then its elements are checked too, with `index`), an
 *   error otherwise (R6, R13);
 * - an error without `id` is a problem only before 2025-11-25 (J5); from 2025-11-25 it is legal and
 *   not reported (correlation sees `hasId: false`);
 * - on 2026-07-28: `server-request` (a server request on stdout) and `client-response` (a response on
 *   stdin) (R6); results without a valid `resultType` get a warning (J5).
 *
 * Agreement with the TS SDK (`JSONRPCMessageSchema` in `@modelcontextprotocol/sdk` 1.32.2, zod 4): with
 * no `protocolVersion`, a message has no problems exactly when the SDK accepts it, with these
 * intentional differences (checked by the property test):
 * 1. `notification-with-id`: a `notifications/…` method with a string/integer `id` is a valid request
 *    to the SDK; MCP says notifications MUST NOT carry an id (J4), so it is a problem here.
 * 2. Version rules: `batch` inside 2025-03-26 (the SDK has no array branch), `error-without-id` before
 *    2025-11-25 (the SDK accepts a missing error id in every version), `server-request`,
 *    `client-response` and the `resultType` rules of 2026-07-28 (the v1 SDK does not know them).
 * Rules taken from the SDK although MCP does not state them, because a TS SDK client drops the line:
 * unknown top-level keys (strict schemas), ids and error codes beyond ±(2^53−1) (zod `int()` is
 * safe-integer only), `result._meta` must be an object whose `progressToken` is a string or safe
 * integer and whose related-task entry has a string `taskId` (the SDK reuses `RequestMetaSchema` there).
 */
export function classifyMessage(message: unknown, options: ClassifyOptions): Classification {
	if (typeof message !== 'object' || message === null) {
		return {
			kind: 'json',
			hasId: false,
			problems: [problem('not-object', 'R6', `${describeJsonType(message)} is not a JSON-RPC message object`)],
		};
	}
	if (Array.isArray(message)) return classifyBatch(message, options);

	const object = message as Record<string, unknown>;
	const id = own(object, 'id');
	const parts: MessageParts = {
		object,
		options,
		isModern: options.protocolVersion === MODERN_VERSION,
		id,
		hasId: id !== undefined,
		result: own(object, 'result'),
	};
	let problems = versionProblems(object);
	const error = own(object, 'error');
	const method = own(object, 'method');
	let kind: MessageKind;
	let extraKey: string | undefined;
	// `"error": null` beside a result (a serializer that writes null members) is read as the result by the
	// clients that accept it at all (Python SDK 2.3, VS Code); Codex 0.171 and the TS SDK drop the line.
	const nullError = error === null && parts.result !== undefined;
	if (error !== undefined && !nullError) {
		kind = 'error';
		if (parts.result !== undefined) extraKey = 'result';
		problems = errorProblems(parts, error, problems);
	} else if (parts.result !== undefined) {
		kind = 'response';
		if (nullError) {
			extraKey = 'error';
			problems = add(
				problems,
				problem(
					'result-and-error',
					'J5',
					'"error": null beside "result"; a success response has no "error" member',
					'error',
				),
			);
		}
		problems = responseProblems(parts, parts.result, problems);
	} else if (method !== undefined) {
		const isNotificationName = typeof method === 'string' && method.startsWith('notifications/');
		kind = parts.hasId && !(id === null && isNotificationName) ? 'request' : 'notification';
		if (parts.hasId && isNotificationName) extraKey = 'id';
		problems = methodProblems(parts, kind, method, problems);
	} else {
		kind = 'json';
		problems = add(
			problems,
			problem('no-method-or-result', 'R6', 'valid JSON with no "method", "result" or "error": not a JSON-RPC message'),
		);
	}
	if (kind !== 'json') problems = unknownKeyProblems(object, kind, extraKey, problems);

	const idValue = typeof id === 'string' || typeof id === 'number' || id === null ? id : undefined;
	const out: {
		kind: MessageKind;
		method?: string;
		id?: string | number | null;
		hasId: boolean;
		problems: readonly JsonRpcProblem[];
	} = {
		kind,
		hasId: parts.hasId,
		problems: problems ?? NO_PROBLEMS,
	};
	if (typeof method === 'string' && (kind === 'request' || kind === 'notification')) out.method = method;
	if (idValue !== undefined) out.id = idValue;
	return out;
}

/** What {@link classifyMessage} has read of one message object, for the checks of each message kind. */
interface MessageParts {
	readonly object: Record<string, unknown>;
	readonly options: ClassifyOptions;
	/** The session negotiated 2026-07-28 (R19). */
	readonly isModern: boolean;
	readonly id: unknown;
	readonly hasId: boolean;
	readonly result: unknown;
}

/** J1: `jsonrpc` must be exactly "2.0". */
function versionProblems(object: Record<string, unknown>): JsonRpcProblem[] | undefined {
	const jsonrpc = own(object, 'jsonrpc');
	if (jsonrpc === undefined) {
		return add(undefined, problem('missing-jsonrpc', 'J1', 'no "jsonrpc" member; it must be exactly "2.0"', 'jsonrpc'));
	}
	if (jsonrpc === '2.0') return undefined;
	const shown = typeof jsonrpc === 'string' ? JSON.stringify(jsonrpc) : describeJsonType(jsonrpc);
	return add(undefined, problem('wrong-jsonrpc', 'J1', `"jsonrpc" is ${shown}; it must be exactly "2.0"`, 'jsonrpc'));
}

/** R6 on 2026-07-28 stdio: a client never writes a response. */
function clientResponseProblems(
	parts: MessageParts,
	problems: JsonRpcProblem[] | undefined,
): JsonRpcProblem[] | undefined {
	if (!parts.isModern || parts.options.direction !== 'client-to-server') return problems;
	return add(
		problems,
		problem(
			'client-response',
			'R6',
			'the client wrote a response; on 2026-07-28 stdio the client MUST NOT write responses',
		),
	);
}

/** An error response (J5): not also a result, an id unless the version lets it go, the error object. */
function errorProblems(
	parts: MessageParts,
	error: unknown,
	given: JsonRpcProblem[] | undefined,
): JsonRpcProblem[] | undefined {
	let problems = given;
	if (parts.result !== undefined) {
		problems = add(
			problems,
			problem('result-and-error', 'J5', 'both "result" and "error"; a response carries exactly one of them', 'result'),
		);
	}
	problems = clientResponseProblems(parts, problems);
	const version = parts.options.protocolVersion;
	if (!parts.hasId) {
		if (isKnownProtocolVersion(version) && version < ERROR_ID_OPTIONAL_SINCE) {
			problems = add(
				problems,
				problem(
					'error-without-id',
					'J5',
					`error without "id"; ${version} requires it (it may be omitted only from 2025-11-25)`,
					'id',
				),
			);
		}
	} else {
		const item = idProblem(parts.id, 'warning');
		if (item) problems = add(problems, item);
	}
	return errorObjectProblems(error, problems);
}

/** A result response (J5): an id, an object result with a valid `_meta`, and `resultType` on 2026-07-28. */
function responseProblems(
	parts: MessageParts,
	result: unknown,
	given: JsonRpcProblem[] | undefined,
): JsonRpcProblem[] | undefined {
	let problems = clientResponseProblems(parts, given);
	if (!parts.hasId) {
		problems = add(
			problems,
			problem('missing-id', 'J5', 'a result without "id"; it cannot be matched to a request', 'id'),
		);
	} else {
		const item = idProblem(parts.id);
		if (item) problems = add(problems, item);
	}
	if (!isPlainObject(result)) {
		return add(
			problems,
			problem(
				'result-not-object',
				'J5',
				`result is ${describeJsonType(result)}; MCP results are objects (use {} for an empty result)`,
				'result',
			),
		);
	}
	problems = metaProblems(result, 'result', problems);
	if (!parts.isModern) return problems;
	const resultType = own(result, 'resultType');
	if (resultType === undefined) {
		return add(
			problems,
			problem(
				'missing-result-type',
				'J5',
				'a 2026-07-28 result without "resultType"; clients read it as "complete"',
				'result.resultType',
				'warning',
			),
		);
	}
	if (resultType === 'complete' || resultType === 'input_required') return problems;
	return add(
		problems,
		problem(
			'invalid-result-type',
			'J5',
			`result.resultType is ${JSON.stringify(resultType)}; it must be "complete" or "input_required"`,
			'result.resultType',
			'warning',
		),
	);
}

/** A request or notification (J2, J4, R6): a string method, the id rules, object params with a valid `_meta`. */
function methodProblems(
	parts: MessageParts,
	kind: 'request' | 'notification',
	method: unknown,
	given: JsonRpcProblem[] | undefined,
): JsonRpcProblem[] | undefined {
	let problems = given;
	if (typeof method !== 'string') {
		problems = add(
			problems,
			problem('method-not-string', 'J2', `method is ${describeJsonType(method)}; it must be a string`, 'method'),
		);
	}
	if (kind === 'request' && parts.isModern && parts.options.direction === 'server-to-client') {
		problems = add(
			problems,
			problem(
				'server-request',
				'R6',
				'the server wrote a request; on 2026-07-28 stdio the server MUST NOT write requests to stdout',
			),
		);
	}
	if (parts.hasId) {
		if (kind === 'request') {
			const item = idProblem(parts.id);
			if (item) problems = add(problems, item);
		}
		if (typeof method === 'string' && method.startsWith('notifications/')) {
			problems = add(
				problems,
				problem(
					'notification-with-id',
					'J4',
					`notification ${String(method)} carries an "id"; notifications MUST NOT include one`,
					'id',
				),
			);
		}
	}
	const params = own(parts.object, 'params');
	if (params === undefined) return problems;
	if (isPlainObject(params)) return metaProblems(params, 'params', problems);
	return add(
		problems,
		problem('params-not-object', 'J2', `params is ${describeJsonType(params)}; MCP params are an object`, 'params'),
	);
}

/** C1: a top-level key the TS SDK's strict schema does not know drops the message. */
function unknownKeyProblems(
	object: Record<string, unknown>,
	kind: MessageKind,
	extraKey: string | undefined,
	given: JsonRpcProblem[] | undefined,
): JsonRpcProblem[] | undefined {
	let problems = given;
	for (const key in object) {
		if (!Object.hasOwn(object, key) || isKnownKey(kind, key, extraKey)) continue;
		problems = add(
			problems,
			problem(
				'unknown-key',
				'C1',
				`unknown top-level key ${JSON.stringify(key)}; the TS SDK's strict schema drops the message`,
				key,
			),
		);
	}
	return problems;
}

/**
 * Adds `id-not-integer` (J2, F38) to a classification when the frame's id token as written (`rawId`, from
 * the framer: set only for a numeric id not written as a plain integer, e.g. `0.0`, `1e0`) stands for an
 * integer: `JSON.parse` reads 0, but strict clients judge the token. A fractional value is already
 * `id-fractional`. Returns `cls` itself when there is nothing to add. Never throws.
 */
export function withRawId(cls: Classification, rawId: string | undefined): Classification {
	if (rawId === undefined || typeof cls.id !== 'number' || !Number.isInteger(cls.id)) return cls;
	if (cls.kind === 'notification' || cls.kind === 'json') return cls;
	const item = problem(
		'id-not-integer',
		'J2',
		`id is written ${rawId}, not as an integer; MCP ids are strings or integers, and strict clients reject the token`,
		'id',
	);
	return {...cls, problems: [...cls.problems, item]};
}
