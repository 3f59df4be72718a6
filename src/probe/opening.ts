// What a client sends to open a session, as a plain value: the probe plays whatever opening it is given
// (docs/protocol.md R8–R11, R16, R19). The default is the TS SDK client's; another client's opening differs
// in the version it offers, its ids, and what it sends between the initialize result and `initialized`.

/** The revision of the stateless "modern era" (R19). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
/** The protocol version the probe offers unless told otherwise (the latest legacy revision, R11). */
export const DEFAULT_PROTOCOL_VERSION = '2025-11-25';

/** A JSON-RPC request id as the probe sends it (R2: a string or a number). */
export type RequestId = number | string;

import type {HandlerPlan} from './handler-requests.js';

type JsonObject = Record<string, unknown>;

/**
 * One message of an opening after `initialize`. A request waits for its reply (the exchange's per-request
 * limit); a request without a reply (timeout, EOF, closed stdin) ends the sequence, and so does a
 * notification that could not be written.
 */
export type OpeningStep =
	| {readonly send: 'notification'; readonly method: string; readonly params?: JsonObject}
	/**
	 * The handler requests the user asked for (`--call`, `--read`, `--get-prompt`), planned from the list
	 * replies seen so far when the step is reached (generated arguments need the tool's inputSchema).
	 */
	| {readonly send: 'handlers'; readonly method: 'handlers'; readonly plan: HandlerPlan}
	| {
			readonly send: 'request';
			readonly method: string;
			readonly params?: JsonObject;
			/** Sent only when the server's capabilities (known so far) advertise this one, e.g. `tools`. */
			readonly ifCapability?: string;
			/** This id instead of the next one of the opening's numbering (the string-id check, J2). */
			readonly id?: RequestId;
			/**
			 * False: written, and the next step follows at once without waiting for the reply (VS Code's
			 * `logging/setLevel` before `initialized`, F47); its reply is seen in the session like any other.
			 */
			readonly awaitReply?: false;
			/**
			 * The reply's `result.capabilities` become the known capabilities (`server/discover`, R19); an error
			 * reply then ends the sequence.
			 */
			readonly capabilitiesFromResult?: boolean;
	  };

/** A client's opening: its `initialize`, what follows the result, and how it numbers its requests. */
export interface Opening {
	/** `initialize` (R8): its id, the protocol version offered, the client capabilities, `clientInfo.name`. */
	readonly initialize: {
		readonly id: RequestId;
		readonly protocolVersion: string;
		readonly capabilities: JsonObject;
		readonly clientName: string;
	};
	/**
	 * After a successful `initialize` result, in order: `notifications/initialized` where this client sends
	 * it, and the requests before and after it (R9, R16).
	 */
	readonly afterInitialize: readonly OpeningStep[];
	/** After an `initialize` rejected naming 2026-07-28 (R19): the modern era's requests. */
	readonly modern: readonly OpeningStep[];
	/** Ids of the requests after `initialize`: 1, 2, … as numbers, or as the strings "1", "2", … */
	readonly ids: 'number' | 'string';
	/** The id number of the first request after `initialize` (default 1; a client that numbers `initialize` 1 goes on at 2). */
	readonly firstStepId?: number;
}

/**
 * The id of the default opening's last request, a `ping` with a string id (J2: an id is a string or an
 * integer). Java and Swift SDK clients number their requests with strings; a server that answers only
 * integer ids hangs them (`string-id-unanswered`). Sent last, so a server that ignores it changes nothing
 * the probe saw before.
 */
export const STRING_ID_CHECK = 'mcp-wire-1';

/** The per-request `_meta` of a 2026-07-28 request (R19). */
export const MODERN_META = {
	'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
	'io.modelcontextprotocol/clientCapabilities': {},
} as const;

/**
 * The TS SDK client's opening, as the probe plays it by default: `initialize` (id 0, no client
 * capabilities, `clientInfo.name` `mcp-wire`), then `notifications/initialized`, `tools/list`,
 * `prompts/list`, `resources/list` (each only when advertised), `ping`, and a second `ping` with the
 * string id {@link STRING_ID_CHECK} (J2; no other client sends it, it checks what string-id clients need); for a modern-era server
 * `server/discover` then `tools/list` if advertised, both with `_meta` (R19). Numeric ids from 1.
 * @param protocolVersion offered in `initialize` (default {@link DEFAULT_PROTOCOL_VERSION})
 */
export function defaultOpening(protocolVersion: string = DEFAULT_PROTOCOL_VERSION): Opening {
	return {
		initialize: {id: 0, protocolVersion, capabilities: {}, clientName: 'mcp-wire'},
		afterInitialize: [
			{send: 'notification', method: 'notifications/initialized'},
			{send: 'request', method: 'tools/list', ifCapability: 'tools'},
			{send: 'request', method: 'prompts/list', ifCapability: 'prompts'},
			{send: 'request', method: 'resources/list', ifCapability: 'resources'},
			{send: 'request', method: 'ping'},
			{send: 'request', method: 'ping', id: STRING_ID_CHECK},
		],
		modern: [
			{send: 'request', method: 'server/discover', params: {_meta: MODERN_META}, capabilitiesFromResult: true},
			{send: 'request', method: 'tools/list', params: {_meta: MODERN_META}, ifCapability: 'tools'},
		],
		ids: 'number',
	};
}

/**
 * An opening with `steps` added after its last list request and before its closing `ping` (or at the end
 * when it sends none): where tool calls and reads go.
 */
export function withStepsAfterLists(opening: Opening, steps: readonly OpeningStep[]): Opening {
	const after = opening.afterInitialize;
	const ping = after.findIndex((step) => step.method === 'ping');
	const at = ping === -1 ? after.length : ping;
	return {...opening, afterInitialize: [...after.slice(0, at), ...steps, ...after.slice(at)]};
}

/** The probe's `initialize` request (R8), as an opening writes it. */
export type InitializeRequest = {
	jsonrpc: '2.0';
	id: RequestId;
	method: 'initialize';
	params: {
		protocolVersion: string;
		capabilities: JsonObject;
		clientInfo: {name: string; version: string};
	};
};

/**
 * The `initialize` request of `opening` (R8): its id, protocol version, capabilities and
 * `clientInfo` `{name, version}`, in the key order the TS SDK writes.
 * @param clientVersion `clientInfo.version` (ours)
 */
export function openingInitialize(opening: Opening, clientVersion: string): InitializeRequest {
	const {id, protocolVersion, capabilities, clientName} = opening.initialize;
	return {
		jsonrpc: '2.0',
		id,
		method: 'initialize',
		params: {protocolVersion, capabilities, clientInfo: {name: clientName, version: clientVersion}},
	};
}

/**
 * The default opening's `initialize` request (id 0, R8): the offered protocol version, no client
 * capabilities, `clientInfo` `{name: 'mcp-wire', version}`.
 */
export function initializeRequest(protocolVersion: string, clientVersion: string): InitializeRequest {
	return openingInitialize(defaultOpening(protocolVersion), clientVersion);
}

/** The id of the `n`th request after `initialize` (n from 1), as `opening.ids` numbers them. */
export function openingId(opening: Opening, n: number): RequestId {
	return opening.ids === 'string' ? String(n) : n;
}
