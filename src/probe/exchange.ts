import {MODERN_PROTOCOL_VERSION, openingId, type Opening, type OpeningStep} from './opening.js';
import {sendRequest} from './exchange-request.js';
import {planHandlerRequests} from './handler-requests.js';
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
 * next id (`openingId`, from `opening.firstStepId`, default 1; or the step's own `id`) and waited for at most `timeoutMs` (`unanswered` when no reply came: the
 * probe goes on to its shutdown), or only written when it says `awaitReply: false`. A request with `capabilitiesFromResult` needs a success reply
 * (`rejected` otherwise), whose `result.capabilities` then count.
 * A `handlers` step plans its requests from the `tools/list` and `prompts/list` replies played before it
 * ({@link planHandlerRequests}), tells `tell` each one (its arguments and where they came from), and sends
 * them in order; a `tools/call` carries `_meta.progressToken` (its id).
 * @param capabilities the server's capabilities known before the first step (from the initialize result)
 * @param tell told each handler request before it is sent (default: the link's diagnostics)
 */
export async function playSteps(
	link: ServerLink,
	opening: Opening,
	steps: readonly OpeningStep[],
	capabilities: JsonObject,
	timeoutMs: number,
	tell: (line: string) => void = link.log,
): Promise<StepsEnd> {
	let known = capabilities;
	let n = opening.firstStepId ?? 1;
	const listings: {tools?: readonly unknown[]; prompts?: readonly unknown[]} = {};
	for (const step of steps) {
		if (step.send === 'handlers') {
			for (const planned of planHandlerRequests(step.plan, listings)) {
				const id = openingId(opening, n++);
				tell(planned.says);
				// A call carries a progress token, as the SDK clients' do: progress under it is seen (R18, R25).
				const params =
					planned.method === 'tools/call' ? {...planned.params, _meta: {progressToken: id}} : planned.params;
				const outcome = await sendRequest(link, {jsonrpc: '2.0', id, method: planned.method, params}, timeoutMs);
				if (outcome.type !== 'frame') return 'unanswered';
			}
			continue;
		}
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
		const id = step.id ?? openingId(opening, n++);
		if (step.awaitReply === false) {
			if (!link.send({jsonrpc: '2.0', id, method: step.method, ...params})) return 'unsent';
			continue;
		}
		const outcome = await sendRequest(link, {jsonrpc: '2.0', id, method: step.method, ...params}, timeoutMs);
		if (outcome.type !== 'frame') return 'unanswered';
		const result = asObject((outcome.frame.message as {result?: unknown}).result);
		if (step.method === 'tools/list' && Array.isArray(result['tools'])) listings.tools = result['tools'] as unknown[];
		if (step.method === 'prompts/list' && Array.isArray(result['prompts']))
			listings.prompts = result['prompts'] as unknown[];
		if (step.capabilitiesFromResult === true) {
			if (outcome.frame.kind !== 'response') return 'rejected';
			known = asObject(asObject((outcome.frame.message as {result?: unknown}).result)['capabilities']);
		}
	}
	return 'done';
}
