import type {ClientFamily, ClientImpact, Reaction} from '../types.js';
import {isPlainObject, own} from './classify.js';
import type {JsonRpcProblem} from './problem.js';
import {installedSdkSchemas, type SdkSchemas} from './sdk-checks.js';
import {pythonSdkVerdict} from './verdicts.js';

/** The client families, in display order (docs/protocol.md "Client reactions" columns). */
export const CLIENT_FAMILIES: readonly ClientFamily[] = [
	'ts-sdk-v1',
	'ts-sdk-v2',
	'python-sdk',
	'vscode',
	'rmcp',
	'cursor',
];

/** docs/protocol.md "Client reactions" rows about valid JSON that is not valid JSON-RPC. */
type Row =
	| 'not-jsonrpc'
	| 'jsonrpc-version'
	| 'extra-key'
	| 'result-and-error'
	| 'result-not-object'
	| 'meta-null'
	| 'error-id-null'
	| 'error-without-id'
	| 'fractional-id'
	| 'id-token'
	| 'batch';

type TableFamily = 'vscode' | 'rmcp' | 'cursor';

interface Cell {
	readonly reaction: Reaction;
	readonly note: string;
}

const UNKNOWN: Cell = {reaction: 'unknown', note: 'not established (no source settles it)'};

/** The §6 cells for the clients whose reaction is known only from source and issue logs. */
const TABLE: Readonly<Record<Row, Readonly<Record<TableFamily, Cell>>>> = {
	'not-jsonrpc': {
		vscode: {reaction: 'skip', note: 'ignored: duck typing finds no method, result or error'},
		rmcp: {
			reaction: 'drop-log',
			note: '≥2.1 rejects it and writes an Invalid Request error back (<1.7: transport closed)',
		},
		cursor: {reaction: 'drop-log', note: '2025 builds log the zod error and drop the line'},
	},
	'jsonrpc-version': {
		vscode: {reaction: 'ok', note: 'jsonrpc is not checked'},
		rmcp: {reaction: 'drop-log', note: 'rejected with an Invalid Request reply (inferred from source)'},
		cursor: UNKNOWN,
	},
	'extra-key': {
		vscode: {reaction: 'ok', note: 'no schema validation'},
		rmcp: {reaction: 'ok', note: 'Codex 0.171 (rmcp) ignores an unknown top-level key (docs/clients.md#codex)'},
		cursor: UNKNOWN,
	},
	'result-and-error': {
		vscode: {reaction: 'ok', note: 'read as a result; the error is ignored'},
		rmcp: {
			reaction: 'skip',
			note: 'Codex 0.171 (rmcp) skips the line as an "unrecognized JSON-RPC message" (a debug log only), with `"error": null` or an error object (docs/clients.md#codex)',
		},
		cursor: UNKNOWN,
	},
	'result-not-object': {
		vscode: {reaction: 'ok', note: 'no schema validation'},
		rmcp: UNKNOWN,
		cursor: UNKNOWN,
	},
	'meta-null': {
		vscode: {reaction: 'ok', note: 'no schema validation'},
		rmcp: {reaction: 'ok', note: 'Codex 0.171 (rmcp) reads `"_meta": null` as no _meta (docs/clients.md#codex)'},
		cursor: UNKNOWN,
	},
	'error-id-null': {
		vscode: {reaction: 'hang', note: 'ignored: no pending request has id null; the request waits (no timeout)'},
		rmcp: UNKNOWN,
		cursor: UNKNOWN,
	},
	'error-without-id': {
		vscode: {reaction: 'hang', note: 'ignored: no pending request matches; the request waits (no timeout)'},
		rmcp: {reaction: 'ok', note: 'parses (id optional since 1.7.0)'},
		cursor: UNKNOWN,
	},
	'fractional-id': {
		vscode: {reaction: 'hang', note: 'ignored: pending requests are keyed by the integer id sent; the request waits'},
		rmcp: UNKNOWN,
		cursor: UNKNOWN,
	},
	'id-token': {
		vscode: {reaction: 'unknown', note: 'not established: never run against an id written 0.0'},
		rmcp: {
			reaction: 'ok',
			note: 'Codex 0.171 (rmcp) matches a reply whose id is written `0.0` (docs/clients.md#codex); older rmcp rejected the token (F38)',
		},
		cursor: UNKNOWN,
	},
	batch: {
		vscode: {reaction: 'ok', note: 'the array is expanded into single messages'},
		rmcp: UNKNOWN,
		cursor: UNKNOWN,
	},
};

/** Worse reactions rank higher; `unknown` outranks only `ok`. */
const RANK: Readonly<Record<Reaction, number>> = {
	ok: 0,
	unknown: 1,
	corrupt: 2,
	skip: 3,
	'skip-log': 4,
	'drop-log': 5,
	hang: 6,
	fatal: 7,
};

/** The value at a problem's `key` of one or two members (`result._meta`), or undefined. */
function valueAt(message: unknown, key: string | undefined): unknown {
	let value: unknown = message;
	for (const part of key?.split('.') ?? []) value = isPlainObject(value) ? own(value, part) : undefined;
	return value;
}

function rowOf(item: JsonRpcProblem, isResponse: boolean, isError: boolean, message: unknown): Row | undefined {
	switch (item.reason) {
		case 'meta-not-object':
			return valueAt(message, item.key) === null ? 'meta-null' : undefined;
		case 'not-object':
		case 'no-method-or-result':
			return 'not-jsonrpc';
		case 'missing-jsonrpc':
		case 'wrong-jsonrpc':
			return 'jsonrpc-version';
		case 'unknown-key':
			return 'extra-key';
		case 'result-and-error':
			return 'result-and-error';
		case 'result-not-object':
			return 'result-not-object';
		case 'id-null':
			return isError ? 'error-id-null' : undefined;
		case 'error-without-id':
			return 'error-without-id';
		case 'id-fractional':
			return isResponse || isError ? 'fractional-id' : undefined;
		case 'id-not-integer':
			return isResponse || isError ? 'id-token' : undefined;
		case 'batch':
			return 'batch';
		default:
			return undefined;
	}
}

const ACCEPTED_CELL: Cell = {reaction: 'ok', note: 'accepted'};

/** The worst cell; the first one among equals (so the order of rows and problems decides the note). */
function worst(cells: readonly Cell[]): Cell {
	let out: Cell | undefined;
	for (const cell of cells) if (out === undefined || RANK[cell.reaction] > RANK[out.reaction]) out = cell;
	return out ?? ACCEPTED_CELL;
}

const ROW_ORDER = Object.keys(TABLE) as Row[];

/** Why the lenient Python model accepted a message that has problems. */
function pythonAcceptedNote(problems: readonly JsonRpcProblem[], message: unknown): string {
	if (problems.length === 0) return 'accepted';
	// With an error object beside it the message is read as an error (impactForProblems); here it is `null`.
	if (problems.some((item) => item.reason === 'result-and-error'))
		return 'accepted as the result: `"error": null` is no error object, so it rides along as an extra key';
	const hasMethod = isPlainObject(message) && typeof own(message, 'method') === 'string';
	if (hasMethod && problems.some((item) => item.key === 'id' && item.reason !== 'notification-with-id')) {
		return 'accepted as a notification: the bad id is kept as an extra key, so the request is never answered';
	}
	if (problems.some((item) => item.reason === 'unknown-key')) return 'accepted: extra keys are allowed';
	return 'accepted by the lax pydantic models';
}

/**
 * How each client family reacts to one message with these problems (docs/protocol.md "Client reactions"): one
 * {@link ClientImpact} per family, in {@link CLIENT_FAMILIES} order.
 *
 * - `ts-sdk-v1` / `ts-sdk-v2` (same strict zod schemas): from {@link tsSdkVerdict}: rejected →
 *   `drop-log`; accepted → `ok`, except an error response without `id`, which the schema accepts but no
 *   request matches (`onerror` "unknown message ID", the request waits for its 60 s timeout) → `hang`.
 * - `python-sdk`: from {@link pythonSdkVerdict} (1.29): rejected → `drop-log`; accepted → `ok`.
 * - `vscode`, `rmcp`, `cursor`: from the §6 rows each problem falls in (valid JSON not JSON-RPC,
 *   missing/wrong `jsonrpc`, extra top-level key, `result`+`error`, `result: null`, error `id: null`,
 *   error without `id`, fractional id on a response, batch array); an error response without `id` falls
 *   in its row even when it is legal (2025-11-25+). A problem with no row, or a `?` cell, gives
 *   `unknown`. With several problems the worst reaction wins (ok < unknown < corrupt < skip < skip-log <
 *   drop-log < hang < fatal) and its note is kept.
 *
 * Input: `problems` from {@link classifyMessage} for `message` (the parsed JSON value); `schemas`, the
 * injected TS SDK checks (default: the installed ones; unloaded, the TS rows are `unknown`). Pure; never throws.
 */
export function impactForProblems(
	problems: readonly JsonRpcProblem[],
	message: unknown,
	schemas: SdkSchemas = installedSdkSchemas(),
): ClientImpact[] {
	// `"error": null` beside a result reads as a result ({@link classifyMessage}).
	const errorMember = isPlainObject(message) ? own(message, 'error') : undefined;
	const isError =
		isPlainObject(message) &&
		errorMember !== undefined &&
		!(errorMember === null && own(message, 'result') !== undefined);
	const isResponse = !isError && isPlainObject(message) && own(message, 'result') !== undefined;
	const errorWithoutId = isError && isPlainObject(message) && own(message, 'id') === undefined;

	const ts = schemas.message(message);
	let tsCell: Cell;
	if (ts === undefined) tsCell = {reaction: 'unknown', note: 'not checked: the TS SDK schemas were not loaded'};
	else if (!ts.accepted) tsCell = {reaction: 'drop-log', note: `dropped by JSONRPCMessageSchema, onerror: ${ts.issue}`};
	else if (errorWithoutId)
		tsCell = {
			reaction: 'hang',
			note: 'accepted, but no request matches a missing id: onerror "unknown message ID"; the request waits for its timeout',
		};
	else tsCell = {reaction: 'ok', note: 'accepted by JSONRPCMessageSchema'};

	const python = pythonSdkVerdict(message);
	let pythonCell: Cell;
	if (!python.accepted) {
		const idNull = isError && isPlainObject(message) && own(message, 'id') === null;
		pythonCell = {
			reaction: 'drop-log',
			note: `1.29 logs "Failed to parse JSONRPC message from server" and drops it: ${python.issue}${idNull ? ' (main accepts id null)' : ''}`,
		};
	} else if ((isResponse || isError) && problems.some((item) => item.reason === 'id-not-integer')) {
		// Measured with mcp 2.3 (F38): the reply's id token `0.0` matches no request id.
		pythonCell = {
			reaction: 'hang',
			note: 'the reply matches no request (its id is not read as the integer sent); the request times out',
		};
	} else if (
		isError &&
		own(message, 'result') !== undefined &&
		problems.some((item) => item.reason === 'result-and-error')
	) {
		// Measured with mcp 2.3: `list_tools` on such a reply raises `MCPError` with the error's message.
		pythonCell = {
			reaction: 'drop-log',
			note: 'read as an error response: the result is dropped and the request fails with the error it carries (MCPError)',
		};
	} else {
		pythonCell = {reaction: 'ok', note: pythonAcceptedNote(problems, message)};
	}

	const byFamily: Record<TableFamily, Cell[]> = {vscode: [], rmcp: [], cursor: []};
	const rows = new Set<Row>();
	for (const item of problems) {
		const row = rowOf(item, isResponse, isError, message);
		if (row === undefined) {
			for (const family of ['vscode', 'rmcp', 'cursor'] as const)
				byFamily[family].push({reaction: 'unknown', note: `not established for ${item.reason} (no §6 row)`});
		} else {
			rows.add(row);
		}
	}
	if (errorWithoutId) rows.add('error-without-id');
	for (const row of ROW_ORDER) {
		if (rows.has(row))
			for (const family of ['vscode', 'rmcp', 'cursor'] as const) byFamily[family].push(TABLE[row][family]);
	}

	const impact = (client: ClientFamily, cell: Cell): ClientImpact => ({
		client,
		reaction: cell.reaction,
		note: cell.note,
	});
	return [
		impact('ts-sdk-v1', tsCell),
		impact('ts-sdk-v2', tsCell),
		impact('python-sdk', pythonCell),
		impact('vscode', worst(byFamily.vscode)),
		impact('rmcp', worst(byFamily.rmcp)),
		impact('cursor', worst(byFamily.cursor)),
	];
}
