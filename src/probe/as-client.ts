/**
 * A client's opening as the probe plays it (`probe --as <client>`, docs/clients.md#one-client-as-itself):
 * the registry's record of what the client sends (src/core/clients) turned into the probe's
 * {@link Opening}. What the record does not establish falls back to the probe's default, and says so.
 */
import {isEstablished, type ClientProfile} from '../core/clients/profile.js';
import {defaultOpening, DEFAULT_PROTOCOL_VERSION, type Opening, type OpeningStep} from './opening.js';

/** A client's opening, and the parts of it that are the probe's default because the client's are not established. */
export interface ClientOpening {
	readonly opening: Opening;
	/** `protocolVersion`, `capabilities`, `clientInfo`, `ids`, `order`: each one the probe's default here. */
	readonly assumed: readonly string[];
}

/**
 * The step of `method` after `initialize`: a notification for `notifications/*`; `logging/setLevel`
 * (level `info`) only when the server advertises `logging`, and not awaited (`initialized` follows at once),
 * as VS Code sends it (F47: its `_sendLogLevelToServer` is not awaited); a list request
 * only when its capability is advertised; anything else as a plain request.
 */
function stepOf(method: string): OpeningStep {
	if (method.startsWith('notifications/')) return {send: 'notification', method};
	if (method === 'logging/setLevel')
		return {send: 'request', method, params: {level: 'info'}, ifCapability: 'logging', awaitReply: false};
	const list = /^(tools|prompts|resources)\/list$/.exec(method);
	if (list !== null) return {send: 'request', method, ifCapability: list[1]!};
	return {send: 'request', method};
}

/**
 * The opening of `profile`: its offered version, capabilities, `clientInfo.name`, id style (integers from
 * `first`, or strings) and the order of its first messages. `initialize` gets the first id; the requests
 * after it the next ones.
 */
export function clientOpening(profile: ClientProfile): ClientOpening {
	const recorded = profile.opening;
	const base = defaultOpening(
		isEstablished(recorded.protocolVersion) ? recorded.protocolVersion : DEFAULT_PROTOCOL_VERSION,
	);
	const assumed: string[] = [];
	if (!isEstablished(recorded.protocolVersion)) assumed.push('protocolVersion');
	const capabilities = isEstablished(recorded.capabilities) ? {...recorded.capabilities} : {};
	if (!isEstablished(recorded.capabilities)) assumed.push('capabilities');
	const clientName = isEstablished(recorded.clientInfo) ? recorded.clientInfo.name : base.initialize.clientName;
	if (!isEstablished(recorded.clientInfo)) assumed.push('clientInfo');
	const ids = isEstablished(recorded.ids) ? recorded.ids : {kind: 'integer' as const, first: 0};
	if (!isEstablished(recorded.ids)) assumed.push('ids');
	const first = ids.kind === 'integer' ? ids.first : 0;
	const order = isEstablished(recorded.order) ? recorded.order : undefined;
	if (order === undefined) assumed.push('order');
	return {
		opening: {
			...base,
			initialize: {
				id: ids.kind === 'string' ? String(first) : first,
				protocolVersion: base.initialize.protocolVersion,
				capabilities,
				clientName,
			},
			afterInitialize: order === undefined ? base.afterInitialize : order.filter((m) => m !== 'initialize').map(stepOf),
			ids: ids.kind === 'string' ? 'string' : 'number',
			firstStepId: first + 1,
		},
		assumed,
	};
}

/** A key that is equal for two clients exactly when their openings are (`--as all` plays each distinct one once). */
export function openingKey(opening: Opening): string {
	return JSON.stringify(opening);
}
