import {isPlainObject} from '../core/jsonrpc/classify.js';
import {toolArguments} from '../core/jsonrpc/tool-arguments.js';

// The requests that run a server's handlers (docs/protocol.md R23–R25): tool calls, resource reads, prompt
// gets. The probe sends none unless asked (`--call`, `--call-read-only`, `--read`, `--get-prompt`): a call
// runs the server's code, with effects the probe cannot know.

type JsonObject = Record<string, unknown>;

/** One named call or prompt the user asked for; `arguments` undefined: generate them from the listing. */
export interface NamedRequest {
	readonly name: string;
	readonly arguments?: JsonObject;
}

/** What the user asked the probe to exercise beyond the lists. Plain data (an opening step carries it). */
export interface HandlerPlan {
	/** `--call NAME[=JSON]`, in order. */
	readonly calls: readonly NamedRequest[];
	/** `--call-read-only`: every listed tool annotated `readOnlyHint: true` and not `destructiveHint: true`. */
	readonly callReadOnly: boolean;
	/** `--read URI`, in order. */
	readonly reads: readonly string[];
	/** `--get-prompt NAME[=JSON]`, in order (prompt arguments are strings). */
	readonly prompts: readonly NamedRequest[];
}

/** A plan that asks for nothing. */
export const NO_HANDLERS: HandlerPlan = Object.freeze({calls: [], callReadOnly: false, reads: [], prompts: []});

/** True when `plan` asks for at least one request. */
export const asksAnything = (plan: HandlerPlan): boolean =>
	plan.calls.length > 0 || plan.callReadOnly || plan.reads.length > 0 || plan.prompts.length > 0;

/** One request to send, and the line that tells the user what it is and where its arguments came from. */
export interface PlannedRequest {
	readonly method: 'tools/call' | 'resources/read' | 'prompts/get';
	readonly params: JsonObject;
	/** `tools/call get_weather, arguments generated from its inputSchema: {"city":""}`. */
	readonly says: string;
}

/** The `tools` and `prompts` arrays of the list replies seen (each undefined when not listed). */
export interface Listings {
	readonly tools?: readonly unknown[];
	readonly prompts?: readonly unknown[];
}

/** True when a tool's annotations say it only reads: `readOnlyHint: true` and not `destructiveHint: true` (hints). */
export function isReadOnlyTool(tool: unknown): boolean {
	if (!isPlainObject(tool) || !isPlainObject(tool['annotations'])) return false;
	const annotations = tool['annotations'];
	return annotations['readOnlyHint'] === true && annotations['destructiveHint'] !== true;
}

const named = (list: readonly unknown[] | undefined, name: string): JsonObject | undefined =>
	list?.find((item): item is JsonObject => isPlainObject(item) && item['name'] === name);

/**
 * The requests of `plan`, in order: the calls asked by name, then the read-only tools not already called
 * (in listing order), then the reads, then the prompts. Arguments not given are generated: a tool's from
 * its `inputSchema` ({@link toolArguments}); a prompt's required arguments as `""`. A name not listed is
 * still requested (the user asked), with `{}`, and `says` so. Pure.
 */
export function planHandlerRequests(plan: HandlerPlan, listings: Listings): PlannedRequest[] {
	const out: PlannedRequest[] = [];
	const calls = [...plan.calls];
	if (plan.callReadOnly) {
		for (const tool of listings.tools ?? []) {
			if (!isReadOnlyTool(tool)) continue;
			const name = (tool as JsonObject)['name'];
			if (typeof name === 'string' && !calls.some((c) => c.name === name)) calls.push({name});
		}
	}
	for (const call of calls) {
		const tool = named(listings.tools, call.name);
		let args = call.arguments;
		let from = 'the given arguments';
		if (args === undefined) {
			const sampled = toolArguments(tool?.['inputSchema']);
			args = sampled.value as JsonObject;
			from =
				tool === undefined
					? 'not in tools/list, so no inputSchema: arguments {}'
					: `arguments generated from its inputSchema${sampled.unsure.length > 0 ? ` (may not satisfy ${sampled.unsure.join(', ')})` : ''}`;
		}
		out.push({
			method: 'tools/call',
			params: {name: call.name, arguments: args},
			says: `tools/call ${call.name}, ${from}: ${JSON.stringify(args)}`,
		});
	}
	for (const uri of plan.reads) out.push({method: 'resources/read', params: {uri}, says: `resources/read ${uri}`});
	for (const prompt of plan.prompts) {
		const listed = named(listings.prompts, prompt.name);
		let args = prompt.arguments;
		let from = 'the given arguments';
		if (args === undefined) {
			args = {};
			const declared = Array.isArray(listed?.['arguments']) ? (listed['arguments'] as unknown[]) : [];
			for (const a of declared)
				if (isPlainObject(a) && a['required'] === true && typeof a['name'] === 'string') args[a['name']] = '';
			from = listed === undefined ? 'not in prompts/list: arguments {}' : 'its required arguments as ""';
		}
		out.push({
			method: 'prompts/get',
			params: {name: prompt.name, arguments: args},
			says: `prompts/get ${prompt.name}, ${from}: ${JSON.stringify(args)}`,
		});
	}
	return out;
}
