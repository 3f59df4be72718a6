import type {Frame} from '../../types.js';
import {isPlainObject} from '../../jsonrpc/classify.js';
import type {IdMapKey} from '../../jsonrpc/id-key.js';
import type {RuleContext} from '../engine.js';
import {listedTools} from './catalogue.js';

/** A `tools/call` reply with what the rules need to judge it: the tool's name and listing, and the result. */
export interface CallReply {
	/** `params.name` of the request (undefined when it had none). */
	readonly name: string | undefined;
	/** The tool as the last `tools/list` reply listed it, when it did. */
	readonly tool: Readonly<Record<string, unknown>> | undefined;
	/** The `result` object (undefined for an error reply, or a result that is not an object). */
	readonly result: Readonly<Record<string, unknown>> | undefined;
}

/** The {@link ToolCalls} of each session's rules, by their shared {@link RuleContext}. */
const SHARED = new WeakMap<RuleContext, ToolCalls>();

/**
 * The one {@link ToolCalls} of the rules created with `context` (the engine hands one context to every
 * rule of a session): the rules about `tools/call` replies share it, so each frame is followed once
 * however many of them ask (docs/performance.md#replay).
 */
export function toolCallsOf(context: RuleContext): ToolCalls {
	let calls = SHARED.get(context);
	if (calls === undefined) {
		calls = new ToolCalls();
		SHARED.set(context, calls);
	}
	return calls;
}

/**
 * Follows the tools a session lists and calls, for the rules about `tools/call` replies (R23). Feed it
 * every frame ({@link ToolCalls.frame}); it returns a {@link CallReply} for a stdout reply that answers a
 * `tools/call`, else undefined. Requests it keeps are dropped once answered. Asked again about the frame
 * it was last fed, it gives the same answer without following the frame twice (rules share one:
 * {@link toolCallsOf}).
 */
export class ToolCalls {
	private readonly listed = new Map<string, Readonly<Record<string, unknown>>>();
	/** `tools/call` requests waiting for their reply, by id ({@link IdMapKey}) → the tool's name. */
	private readonly calls = new Map<IdMapKey, string | undefined>();
	private lastFrame: Frame | undefined;
	private lastReply: CallReply | undefined;

	/** @returns the call this frame answers, when it is a stdout reply to a `tools/call` */
	frame(frame: Frame): CallReply | undefined {
		if (frame === this.lastFrame) return this.lastReply;
		this.lastFrame = frame;
		this.lastReply = this.follow(frame);
		return this.lastReply;
	}

	private follow(frame: Frame): CallReply | undefined {
		const tools = listedTools(frame);
		if (tools !== undefined) {
			this.listed.clear();
			for (const {tool} of tools) if (typeof tool['name'] === 'string') this.listed.set(tool['name'], tool);
			return undefined;
		}
		if (frame.id === undefined || frame.id === null) return undefined;
		if (frame.stream === 'stdin' && frame.kind === 'request' && frame.method === 'tools/call') {
			const params = (frame.message as {params?: unknown}).params;
			const name = isPlainObject(params) && typeof params['name'] === 'string' ? params['name'] : undefined;
			this.calls.set(frame.id, name);
			return undefined;
		}
		if (frame.stream !== 'stdout' || frame.answers?.method !== 'tools/call') return undefined;
		const key = frame.id;
		const name = this.calls.get(key);
		this.calls.delete(key);
		const result = frame.kind === 'response' ? (frame.message as {result?: unknown}).result : undefined;
		return {
			name,
			tool: name === undefined ? undefined : this.listed.get(name),
			result: isPlainObject(result) ? result : undefined,
		};
	}
}
