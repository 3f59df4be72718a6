/**
 * Shapes shared by the JSON-RPC checks: a problem (one reason a message is not valid MCP JSON-RPC) and
 * a classification (what a message is, with its problems).
 */

/**
 * Every stable problem reason, kebab-case. A reason says exactly which rule a message breaks; the
 * session reports each one as the finding `invalid-jsonrpc` (message rules) or `invalid-initialize`
 * (the `initialize` result rules) with `detail.reason` set to it. Never rename one.
 *
 * Message rules ({@link classifyMessage}):
 * - `not-object`: the JSON value is a string, number, boolean or null (R6).
 * - `batch`: a JSON array (R6, J8; a warning when 2025-03-26 is negotiated, R13).
 * - `batch-empty`: an empty batch array (J8); only checked inside the batch window.
 * - `missing-jsonrpc` / `wrong-jsonrpc`: no `jsonrpc` member / not exactly `"2.0"` (J1).
 * - `no-method-or-result`: an object with none of `method`, `result`, `error` (R6).
 * - `method-not-string`: `method` is not a string (J2).
 * - `id-null` / `id-boolean` / `id-object` / `id-fractional`: an `id` MCP forbids (J2, J5).
 * - `id-not-integer`: an integer id written as a non-integer number token (`0.0`, `1e0`); JavaScript reads
 *   the integer, strict clients (Python `int`, Rust `serde_json`) reject the token (J2, F38).
 * - `id-unsafe-integer`: an integer id beyond ±(2^53−1); the TS SDK's `z.number().int()` rejects it (C1).
 * - `missing-id`: a result response without `id` (J5).
 * - `error-without-id`: an error response without `id` when the negotiated version is before
 *   2025-11-25 (J5; legal from 2025-11-25 on).
 * - `notification-with-id`: a `notifications/…` method sent with an `id` member (J4).
 * - `params-not-object`: `params` present and not an object: null, array (by-position) or scalar (J2).
 * - `meta-not-object`: `params._meta` / `result._meta` present and not an object (C1).
 * - `progress-token-invalid`: `_meta.progressToken` not a string or safe integer (R18, C1).
 * - `related-task-invalid`: `_meta["io.modelcontextprotocol/related-task"]` without a string `taskId` (C1).
 * - `result-and-error`: both `result` and `error` (J5).
 * - `result-not-object`: `result` is null, an array or a scalar (J5).
 * - `error-not-object`, `error-code-not-integer`, `error-code-unsafe-integer`, `error-message-not-string`:
 *   a malformed error object (J6; the unsafe-integer one is C1).
 * - `unknown-key`: a top-level member the message kind does not have; `key` names it (C1: the TS SDK's
 *   schemas are `.strict()`).
 * - `server-request` / `client-response`: a request from the server, a response from the client, on a
 *   2026-07-28 connection (R6).
 * - `missing-result-type` / `invalid-result-type`: a 2026-07-28 result without a valid `resultType` (J5;
 *   warnings: clients read a missing one as `"complete"`).
 *
 * Initialize rules ({@link checkInitializeResult}, R8): `initialize-result-not-object`,
 * `missing-protocol-version`, `protocol-version-not-string`, `missing-capabilities`,
 * `capabilities-not-object`, `capability-not-object`, `missing-server-info`, `server-info-not-object`,
 * `server-info-name-not-string`, `server-info-version-not-string`, `instructions-not-string`,
 * `initialize-result-schema` (anything else the TS SDK's `InitializeResultSchema` rejects, C1).
 *
 * `nesting`: the value nests deeper than `MAX_JSON_DEPTH` (depth.ts); the frame is shown as text.
 */
export const JSON_RPC_PROBLEM_REASONS = [
	'not-object',
	'batch',
	'batch-empty',
	'missing-jsonrpc',
	'wrong-jsonrpc',
	'no-method-or-result',
	'method-not-string',
	'id-null',
	'id-boolean',
	'id-object',
	'id-fractional',
	'id-not-integer',
	'id-unsafe-integer',
	'missing-id',
	'error-without-id',
	'notification-with-id',
	'params-not-object',
	'meta-not-object',
	'progress-token-invalid',
	'related-task-invalid',
	'result-and-error',
	'result-not-object',
	'error-not-object',
	'error-code-not-integer',
	'error-code-unsafe-integer',
	'error-message-not-string',
	'unknown-key',
	'server-request',
	'client-response',
	'missing-result-type',
	'invalid-result-type',
	'initialize-result-not-object',
	'missing-protocol-version',
	'protocol-version-not-string',
	'missing-capabilities',
	'capabilities-not-object',
	'capability-not-object',
	'missing-server-info',
	'server-info-not-object',
	'server-info-name-not-string',
	'server-info-version-not-string',
	'instructions-not-string',
	'initialize-result-schema',
	'nesting',
] as const;

/** A stable problem reason (see {@link JSON_RPC_PROBLEM_REASONS}). */
export type JsonRpcProblemReason = (typeof JSON_RPC_PROBLEM_REASONS)[number];

/**
 * One reason a message is not valid JSON-RPC 2.0 as MCP tightens it.
 * - `reason`: stable kebab-case id (the finding's `detail.reason`).
 * - `message`: one line for humans.
 * - `rule`: the docs/protocol.md rule it comes from (J1–J9, R6, R8, R18, or C1 for a TS SDK schema rule).
 * - `key`: the member concerned, as a dotted path (`id`, `params._meta`, `error.code`); for
 *   `unknown-key` the unknown top-level key itself.
 * - `severity`: `'warning'` when the problem is tolerated by the rule (a batch on 2025-03-26, `id: null`
 *   on an error, a missing `resultType`); absent means error.
 * - `index`: for problems of one element inside a batch array, the element's 0-based index.
 */
export interface JsonRpcProblem {
	readonly reason: JsonRpcProblemReason;
	readonly message: string;
	readonly rule: string;
	readonly key?: string;
	readonly severity?: 'warning';
	readonly index?: number;
}

/** What a message is: the JSON-RPC kinds, or `json` for valid JSON that is none of them. */
export type MessageKind = 'request' | 'notification' | 'response' | 'error' | 'json';

/**
 * The reading of one parsed JSON value as a JSON-RPC message.
 * - `kind`: the best reading even when there are problems (`{"id":1,"result":{}}` is a `response`).
 * - `method`: the `method` member when it is a string (requests and notifications).
 * - `id`: the `id` member when it is a string, a number or null (absent for other types).
 * - `hasId`: true when the message has an `id` member of any type.
 * - `problems`: empty for a valid message (a shared frozen empty array: do not mutate).
 */
export interface Classification {
	readonly kind: MessageKind;
	readonly method?: string;
	readonly id?: string | number | null;
	readonly hasId: boolean;
	readonly problems: readonly JsonRpcProblem[];
}

/** Who wrote the message: the client (on the server's stdin) or the server (on its stdout). */
export type Direction = 'client-to-server' | 'server-to-client';

/** Options for {@link classifyMessage}. `protocolVersion` is the negotiated version, when known. */
export interface ClassifyOptions {
	readonly direction: Direction;
	readonly protocolVersion?: string;
}

/** Result of a client-model verdict: accepted, or dropped with a short reason (`path: message`). */
export type SdkVerdict = {readonly accepted: true} | {readonly accepted: false; readonly issue: string};
