import {MODERN_PROTOCOL_VERSION, openingId, type Opening, type OpeningStep} from './opening.js';
import {sendRequest} from './exchange-request.js';
import type {ServerLink} from './server-link.js';

type JsonObject = Record<string, unknown>;

/** The object itself, or `{}` for anything that is not a plain object. */
export function asObject(value: unknown): JsonObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};
}

/**
 * True when an `initialize` error names the 2026-07-28 revision: its message or data contains
 * `2026-07-28`, or it is `-32022` (UnsupportedProtocolVersionError) with `data.supported` (R19).
 */
export function isModernEraError(error: unknown): boolean {
	const e = asObject(error);
	if (typeof e['message'] === 'string' && e['message'].includes(MODERN_PROTOCOL_VERSION)) return true;
	if (e['data'] !== undefined && JSON.stringify(e['data']).includes(MODERN_PROTOCOL_VERSION)) return true;
	return e['code'] === -32022 && Array.isArray(asObject(e['data'])['supported']);
}

/** How far {@link playSteps} got: `done` (every step played or skipped) or where it stopped. */
export type StepsEnd = 'done' | 'unsent' | 'unanswered' | 'rejected';

/**
 * Play an opening's steps in order (R9, R16, R19): a notification is written (`unsent` when it could not
 * be); a request is skipped when it names a capability the server did not advertise, else sent with the
 * next id (`openingId`, from `opening.firstStepId`, default 1) and waited for at most `timeoutMs` (`unanswered` when no reply came: the
 * probe goes on to its shutdown). A request with `capabilitiesFromResult` needs a success reply
 * (`rejected` otherwise), whose `result.capabilities` then count.
 * @param capabilities the server's capabilities known before the first step (from the initialize result)
 */
export async function playSteps(
	link: ServerLink,
	opening: Opening,
	steps: readonly OpeningStep[],
	capabilities: JsonObject,
	timeoutMs: number,
): Promise<StepsEnd> {
	let known = capabilities;
	let n = opening.firstStepId ?? 1;
	for (const step of steps) {
		const params = step.params === undefined ? {} : {params: step.params};
		if (step.send === 'notification') {
			if (!link.send({jsonrpc: '2.0', method: step.method, ...params})) return 'unsent';
			continue;
		}
		if (
			step.ifCapability !== undefined &&
			(known[step.ifCapability] === undefined || known[step.ifCapability] === null)
		)
			continue;
		const id = openingId(opening, n++);
		const outcome = await sendRequest(link, {jsonrpc: '2.0', id, method: step.method, ...params}, timeoutMs);
		if (outcome.type !== 'frame') return 'unanswered';
		if (step.capabilitiesFromResult === true) {
			if (outcome.frame.kind !== 'response') return 'rejected';
			known = asObject(asObject((outcome.frame.message as {result?: unknown}).result)['capabilities']);
		}
	}
	return 'done';
}
