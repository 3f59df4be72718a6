import type {Exercised, Frame, Summary} from '../types.js';

/** Distinct names kept per handler kind (a long tap capture calls the same few tools again and again). */
const NAMES_KEPT = 64;

/**
 * What the client asked of the server in one session (docs/json-records.md#summary, `exercised`): every
 * request it sent on stdin, counted per method, and the tools it called, resources it read and prompts it
 * got, by name. A clean verdict covers only these (docs/cli.md "What was exercised"). Feed it every frame.
 */
export class ExercisedTracker {
	private readonly requests = new Map<string, number>();
	private readonly called = new Set<string>();
	private readonly read = new Set<string>();
	private readonly prompts = new Set<string>();

	/** Note a frame: only client requests (stdin) count. */
	frame(frame: Frame): void {
		if (frame.stream !== 'stdin' || frame.kind !== 'request' || frame.method === undefined) return;
		this.requests.set(frame.method, (this.requests.get(frame.method) ?? 0) + 1);
		const params = (frame.message as {params?: unknown}).params;
		if (params === null || typeof params !== 'object') return;
		const p = params as {name?: unknown; uri?: unknown};
		if (frame.method === 'tools/call' && typeof p.name === 'string') keep(this.called, p.name);
		if (frame.method === 'resources/read' && typeof p.uri === 'string') keep(this.read, p.uri);
		if (frame.method === 'prompts/get' && typeof p.name === 'string') keep(this.prompts, p.name);
	}

	/** The summary's `exercised`, as of now. */
	value(): Exercised {
		return {
			requests: Object.fromEntries(this.requests),
			called: [...this.called],
			read: [...this.read],
			prompts: [...this.prompts],
		};
	}
}

function keep(set: Set<string>, name: string): void {
	if (set.size < NAMES_KEPT) set.add(name);
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** True when the session ran no handler: no tool called, no resource read, no prompt got. */
export function exercisedNoHandler(exercised: Exercised): boolean {
	const r = exercised.requests;
	return (r['tools/call'] ?? 0) + (r['resources/read'] ?? 0) + (r['prompts/get'] ?? 0) === 0;
}

/**
 * One line on what the session exercised and what it did not:
 * `initialize, tools/list, ping · 3 tools listed, none called: faults inside handlers are not seen; use --call`.
 * Undefined without `exercised` (a capture from before it was recorded). Names are the server's: escape
 * them before display.
 * @param hint with the probe's options to exercise more (`use --call`), for a probe's own session
 */
export function exercisedLine(
	summary: Pick<Summary, 'exercised' | 'tools' | 'resources' | 'prompts'>,
	options: {readonly hint?: boolean} = {},
): string | undefined {
	const exercised = summary.exercised;
	if (exercised === undefined) return undefined;
	const methods = Object.keys(exercised.requests);
	const parts = [methods.length === 0 ? 'no request sent' : methods.join(', ')];
	const called = exercised.requests['tools/call'] ?? 0;
	if (summary.tools === 0 && called === 0) parts.push('no tools listed');
	else if (summary.tools !== undefined) {
		parts.push(
			called === 0
				? `${plural(summary.tools, 'tool')} listed, none called: faults inside handlers are not seen${options.hint === true ? '; use --call' : ''}`
				: `${plural(summary.tools, 'tool')} listed, ${exercised.called.length} called (${exercised.called.join(', ')})`,
		);
	} else if (called > 0) parts.push(`${exercised.called.length} called (${exercised.called.join(', ')})`);
	if (summary.resources !== undefined && summary.resources > 0)
		parts.push(
			`${plural(summary.resources, 'resource')} listed, ${exercised.read.length === 0 ? `none read${options.hint === true ? ' (--read)' : ''}` : `${exercised.read.length} read`}`,
		);
	if (summary.prompts !== undefined && summary.prompts > 0)
		parts.push(
			`${plural(summary.prompts, 'prompt')} listed, ${exercised.prompts.length === 0 ? `none got${options.hint === true ? ' (--get-prompt)' : ''}` : `${exercised.prompts.length} got`}`,
		);
	return parts.join(' · ');
}
