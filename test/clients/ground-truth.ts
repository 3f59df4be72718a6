/**
 * Shared parts of the real-client ground-truth tests (docs/clients.md "Checked against the real
 * clients"): the example servers, mcp-wire's prediction for each (replayed from its recorded capture, so
 * it does not depend on this machine's speed), and a comparison that says what disagrees.
 */
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {decodeRecords} from '../../src/core/capture/record-codec.js';
import {SDK_SCHEMAS} from '../../src/core/jsonrpc/sdk-schemas.js';
import {replayEvents} from '../../src/core/session/replay.js';
import type {ClientFamily, ClientOutcome} from '../../src/core/types.js';

export const ROOT = join(import.meta.dirname, '..', '..');

/** One example server of examples/servers/manifest.json (`args`: the probe options it was recorded with). */
export interface Example {
	readonly name: string;
	readonly command: readonly string[];
	readonly args?: readonly string[];
}

export const EXAMPLES: readonly Example[] = JSON.parse(
	readFileSync(join(ROOT, 'examples', 'servers', 'manifest.json'), 'utf8'),
) as Example[];

/**
 * What a real client did: connected (its handshake succeeded), the tool count when `tools/list` succeeded,
 * for an example recorded with a call whether its call method returned (`called`: `ok`, or `tool-error` for
 * a result with `isError: true`), the error, what it logged.
 */
export interface RealOutcome {
	readonly connected: boolean;
	readonly tools?: number;
	readonly called?: 'ok' | 'tool-error';
	readonly error?: string;
	readonly logged: readonly string[];
}

/** A tool call to make: the tool and the arguments the probe sent. */
export interface ToolCall {
	readonly name: string;
	readonly arguments: Readonly<Record<string, unknown>>;
}

/**
 * The tool calls of an example recorded with `--call`/`--call-read-only` (manifest `args`): the `tools/call`
 * requests of its capture, with the arguments the probe generated, so the real client calls exactly that.
 * Empty for an example probed without a call.
 */
export function callsOf(example: Example): ToolCall[] {
	if (!(example.args ?? []).some((arg) => arg.startsWith('--call'))) return [];
	const decoded = decodeRecords(
		readFileSync(join(ROOT, 'test', 'fixtures', 'captures', `${example.name}.ndjson`), 'utf8'),
	);
	if (decoded.header === undefined) throw new Error(`${example.name}: the capture has no header`);
	const frames = replayEvents(decoded.header, decoded.events, {schemas: SDK_SCHEMAS}).getSnapshot().frames;
	return frames.flatMap((frame) => {
		if (frame.stream !== 'stdin' || frame.method !== 'tools/call') return [];
		const params = (frame.message as {params?: {name?: string; arguments?: Record<string, unknown>}}).params;
		return params?.name === undefined ? [] : [{name: params.name, arguments: params.arguments ?? {}}];
	});
}

/** mcp-wire's outcome for `client` on example `name`, from the replay of test/fixtures/captures/<name>.ndjson. */
export function predicted(name: string, client: ClientFamily): ClientOutcome {
	const decoded = decodeRecords(readFileSync(join(ROOT, 'test', 'fixtures', 'captures', `${name}.ndjson`), 'utf8'));
	if (decoded.header === undefined) throw new Error(`${name}: the capture has no header`);
	const summary = replayEvents(decoded.header, decoded.events, {schemas: SDK_SCHEMAS}).getSnapshot().summary;
	const outcome = summary.clients?.find((entry) => entry.client === client);
	if (outcome === undefined) throw new Error(`${name}: no outcome for ${client}`);
	return outcome;
}

/**
 * Where a client's handshake differs from the probe's for a reason the capture cannot show. The outcome
 * must still agree; only `connects` is not compared.
 */
export const CONNECTS_NOT_COMPARABLE: Readonly<Record<string, string>> = {
	'python-sdk/wrong-id':
		'the server answers every request with id 0; the probe (and the TS SDK) send initialize as id 0, the Python SDK as id 1, so only the Python SDK also loses its initialize reply',
};

/**
 * The disagreements between a prediction and a real run, as sentences (empty when they agree):
 * - the outcome: `fails` exactly when the real client did not both connect and list tools, and, for an
 *   example recorded with `calls` tool calls, have its call method return (a tool's own `isError` returns);
 * - never `unknown` for a family the tests run;
 * - `connects`, where the prediction states it (see {@link CONNECTS_NOT_COMPARABLE});
 * - a client that logged errors and still worked is predicted `degraded`.
 */
export function disagreements(key: string, prediction: ClientOutcome, real: RealOutcome, calls = 0): string[] {
	const out: string[] = [];
	const realFails = !real.connected || real.tools === undefined || (calls > 0 && real.called === undefined);
	if (prediction.outcome === 'unknown') out.push(`predicted unknown (${prediction.note})`);
	else if ((prediction.outcome === 'fails') !== realFails)
		out.push(
			`predicted ${prediction.outcome} (${prediction.note}), but the real client ${realFails ? `failed: ${real.error ?? 'no tools'}` : `connected and listed tools${calls > 0 ? ` and its call returned (${real.called})` : ''}`}`,
		);
	if (
		prediction.connects !== null &&
		prediction.connects !== real.connected &&
		CONNECTS_NOT_COMPARABLE[key] === undefined
	) {
		out.push(`predicted connects=${prediction.connects}, the real client connected=${real.connected}`);
	}
	if (!realFails && real.logged.length > 0 && prediction.outcome === 'works')
		out.push(`predicted works, but the real client logged: ${real.logged[0]}`);
	return out;
}

/** Runs `task` over `items`, `limit` at a time, keeping the input order in the result. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
	const results: R[] = new Array(items.length);
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < items.length) {
			const index = next++;
			results[index] = await task(items[index]!);
		}
	};
	await Promise.all(Array.from({length: Math.min(limit, items.length)}, worker));
	return results;
}

/** One line of the agreement table printed by the tests: example, prediction, real result. */
export function agreementLine(name: string, prediction: ClientOutcome, real: RealOutcome): string {
	const realText = !real.connected
		? `does not connect (${real.error ?? '?'})`
		: real.tools === undefined
			? `connects, tools/list fails (${real.error ?? '?'})`
			: `connects, ${real.tools} tool(s)${real.called === undefined ? (real.error === undefined ? '' : `, the call fails (${real.error})`) : `, the call returns (${real.called})`}${real.logged.length > 0 ? ', logs errors' : ''}`;
	return `${name.padEnd(22)} predicted ${prediction.outcome.padEnd(8)} real: ${realText.slice(0, 110)}`;
}

/**
 * Compares a real client's outcomes with mcp-wire's, example by example: `problems` are the disagreements
 * not in `known` (example name → why mcp-wire and the real client differ, kept until the model is fixed),
 * plus every `known` entry that no longer disagrees (a stale entry hides nothing). `table` is the agreement
 * table the test prints: one line per example, with `agree`, `KNOWN` or `DISAGREE`.
 */
export function compareAll(
	label: string,
	reals: ReadonlyMap<string, RealOutcome>,
	predict: (name: string) => ClientOutcome,
	known: Readonly<Record<string, string>>,
	compare: (name: string, prediction: ClientOutcome, real: RealOutcome) => string[],
): {readonly table: string; readonly problems: string[]} {
	const lines: string[] = [];
	const problems: string[] = [];
	for (const example of EXAMPLES) {
		const real = reals.get(example.name);
		if (real === undefined) {
			problems.push(`${example.name}: no result from ${label}`);
			continue;
		}
		const prediction = predict(example.name);
		const found = compare(example.name, prediction, real);
		const reason = known[example.name];
		const mark = found.length === 0 ? 'agree   ' : reason !== undefined ? 'KNOWN   ' : 'DISAGREE';
		lines.push(`${mark} ${agreementLine(example.name, prediction, real)}`);
		if (found.length > 0 && reason === undefined) problems.push(...found.map((p) => `${example.name}: ${p}`));
		if (found.length === 0 && reason !== undefined)
			problems.push(`${example.name}: listed as a known disagreement (${reason}) but agrees now: remove it`);
	}
	return {table: `${label} vs mcp-wire:\n${lines.join('\n')}`, problems};
}
