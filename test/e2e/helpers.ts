import {execa} from 'execa';
import {join} from 'node:path';
import {decodeRecords} from '../../src/core/capture/record-codec.js';
import type {Finding, Frame, SessionEvent, Summary} from '../../src/core/types.js';

/** The repository root. */
export const ROOT = join(import.meta.dirname, '..', '..');
/** The built CLI (tests run after `npm run build`). */
export const BIN = join(ROOT, 'bin', 'mcp-wire.js');

/** What a `--json` run of the CLI produced, decoded. */
export interface JsonRun {
	readonly exitCode: number;
	readonly stdout: string;
	readonly stderr: string;
	readonly events: readonly SessionEvent[];
	readonly frames: readonly Frame[];
	readonly findings: readonly Finding[];
	readonly summary: Summary | undefined;
	readonly problems: readonly {line: number; message: string}[];
}

/** Run `mcp-wire <args>` with the real built CLI as a child process and decode its NDJSON stdout. */
export async function runJson(
	args: readonly string[],
	options: {cwd?: string; env?: Record<string, string>} = {},
): Promise<JsonRun> {
	const result = await execa('node', [BIN, ...args], {
		cwd: options.cwd ?? ROOT,
		reject: false,
		...(options.env ? {env: options.env} : {}),
		stdin: 'ignore',
	});
	const decoded = decodeRecords(result.stdout);
	const events = decoded.events;
	const frames = events.flatMap((e) => (e.type === 'frame' ? [e.frame] : []));
	const findings = events.flatMap((e) => (e.type === 'finding' ? [e.finding] : []));
	const summaryEvent = events.find((e) => e.type === 'summary');
	return {
		exitCode: result.exitCode ?? -1,
		stdout: result.stdout,
		stderr: result.stderr,
		events,
		frames,
		findings,
		summary: summaryEvent?.type === 'summary' ? summaryEvent.summary : undefined,
		problems: decoded.problems,
	};
}

/** Run the CLI and return its plain output. */
export async function runCli(args: readonly string[], options: {cwd?: string; input?: string} = {}) {
	const result = await execa('node', [BIN, ...args], {
		cwd: options.cwd ?? ROOT,
		reject: false,
		...(options.input === undefined ? {stdin: 'ignore' as const} : {input: options.input}),
	});
	return {exitCode: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr};
}
