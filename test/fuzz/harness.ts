// In-process harness for the no-crash fuzz: runs the real CLI entry (`main`) on a
// file with stdout/stderr collected, and the probe's output modes on a Session fed with chunks, and
// judges each run: exit code 0/1/2 only, no stack trace, no internal error.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {PassThrough} from 'node:stream';
import {encodeEvent, encodeHeader} from '../../src/core/capture/record-codec.js';
import {Session} from '../../src/core/session/session.js';
import type {SessionMeta, StreamName} from '../../src/core/types.js';
import {main} from '../../src/cli/main.js';
import {createPresenter, type OutputMode} from '../../src/cli/present.js';

export const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.0.0'},
	node: 'v20.0.0',
	platform: 'linux-x64',
	command: ['server'],
	envMode: 'sdk-default',
	startedAt: '2026-01-01T00:00:00.000Z',
	mode: 'tap',
};

/** One stream's bytes as chunks: `[stream, bytes]` in arrival order. */
export type Feed = readonly (readonly [StreamName, Uint8Array])[];

/** A capture file's text for `feed` (header, chunk records, exit). */
export function captureText(feed: Feed, meta: SessionMeta = META): string {
	const offsets: Record<StreamName, number> = {stdin: 0, stdout: 0, stderr: 0};
	const lines = [encodeHeader(meta)];
	feed.forEach(([stream, bytes], seq) => {
		lines.push(encodeEvent({type: 'chunk', chunk: {seq, stream, tMs: seq, offset: offsets[stream], bytes}}));
		offsets[stream] += bytes.length;
	});
	lines.push(encodeEvent({type: 'exit', exit: {code: 0, signal: null, tMs: feed.length + 1}}));
	return `${lines.join('\n')}\n`;
}

/** What one run did. */
export interface RunOutcome {
	readonly what: string;
	readonly exitCode: number;
	readonly stdout: string;
	readonly stderr: string;
	readonly threw?: string;
}

const STACK = /^\s+at .+(:\d+:\d+\)?|\(native\)|<anonymous>\)?)$/m;

/** Why `outcome` is a crash (exit code outside 0/1/2, a stack trace, an internal error), or undefined. */
export function crashOf(outcome: RunOutcome): string | undefined {
	if (outcome.threw !== undefined) return `threw: ${outcome.threw}`;
	if (![0, 1, 2].includes(outcome.exitCode)) return `exit ${outcome.exitCode}: ${outcome.stderr.slice(0, 400)}`;
	if (STACK.test(outcome.stderr) || STACK.test(outcome.stdout)) return `stack trace: ${outcome.stderr.slice(0, 400)}`;
	if (outcome.stderr.includes('internal error')) return `internal error: ${outcome.stderr.slice(0, 400)}`;
	return undefined;
}

/** Runs `mcp-wire ...args` in this process with stdout and stderr collected. */
export async function runCli(args: readonly string[]): Promise<RunOutcome> {
	const out: string[] = [];
	const err: string[] = [];
	const stdoutWrite = process.stdout.write;
	const stderrWrite = process.stderr.write;
	const saved = process.exitCode;
	process.exitCode = undefined;
	process.stdout.setMaxListeners(0);
	process.stdout.write = ((chunk: string | Uint8Array) => {
		out.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
		return true;
	}) as typeof process.stdout.write;
	process.stderr.write = ((chunk: string | Uint8Array) => {
		err.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
		return true;
	}) as typeof process.stderr.write;
	let exitCode = -1;
	let threw: string | undefined;
	try {
		exitCode = await main(['node', 'mcp-wire', ...args]);
	} catch (error) {
		threw = error instanceof Error ? (error.stack ?? error.message) : String(error);
	} finally {
		process.stdout.write = stdoutWrite;
		process.stderr.write = stderrWrite;
		process.exitCode = saved;
		process.stdout.removeAllListeners('error');
	}
	return {
		what: args.join(' '),
		exitCode,
		stdout: out.join(''),
		stderr: err.join(''),
		...(threw === undefined ? {} : {threw}),
	};
}

/** The probe's output modes (what `probe --json`, `--json --redact`, plain, `--hex`, `--report` print). */
export const PROBE_MODES: readonly {
	readonly name: string;
	readonly mode: OutputMode;
	readonly hex: boolean;
	readonly redact: boolean;
}[] = [
	{name: 'probe --json', mode: 'json', hex: false, redact: false},
	{name: 'probe --json --redact', mode: 'json', hex: false, redact: true},
	{name: 'probe', mode: 'plain', hex: false, redact: false},
	{name: 'probe --hex', mode: 'plain', hex: true, redact: false},
	{name: 'probe --report', mode: 'report', hex: false, redact: true},
];

/** Feeds `feed` to a live Session presented in `mode`, as a probe does; exit 0/1 by the verdict. */
export async function runProbeMode(
	feed: Feed,
	mode: (typeof PROBE_MODES)[number],
	meta: SessionMeta = META,
): Promise<RunOutcome> {
	const sink = new PassThrough();
	const parts: string[] = [];
	sink.on('data', (data: Buffer) => parts.push(data.toString('utf8')));
	try {
		const presenter = createPresenter({
			mode: mode.mode,
			isColor: false,
			hex: mode.hex,
			redact: mode.redact,
			redactPayloads: false,
			out: sink,
		});
		const session = new Session(meta);
		presenter.attach(session);
		feed.forEach(([stream, bytes], seq) => session.pushChunk(stream, seq, bytes));
		for (const stream of ['stdin', 'stdout', 'stderr'] as const) session.endStream(stream, feed.length + 1);
		session.exit({code: 0, signal: null, tMs: feed.length + 1});
		session.finish(feed.length + 2);
		await presenter.finish(session);
		return {
			what: mode.name,
			exitCode: session.getSnapshot().summary.verdict === 'fail' ? 1 : 0,
			stdout: parts.join(''),
			stderr: '',
		};
	} catch (error) {
		return {
			what: mode.name,
			exitCode: -1,
			stdout: parts.join(''),
			stderr: '',
			threw: error instanceof Error ? (error.stack ?? error.message) : String(error),
		};
	}
}

/** The file-reading commands and modes the fuzz drives (`FILE` is replaced by the path). */
export const FILE_COMMANDS: readonly (readonly string[])[] = [
	['view', 'FILE', '--json'],
	['view', 'FILE', '--no-tui'],
	['view', 'FILE', '--no-tui', '--hex'],
	['report', 'FILE'],
	['report', 'FILE', '--no-redact'],
];

/** A temporary directory for capture files, removed by `cleanup`. */
export function scratch(): {file(name: string, content: string | Uint8Array): string; cleanup(): void} {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-fuzz-'));
	return {
		file(name, content) {
			const file = path.join(dir, name);
			writeFileSync(file, content);
			return file;
		},
		cleanup: () => rmSync(dir, {recursive: true, force: true}),
	};
}

/** Runs every file command on `file`; returns the outcomes. */
export async function runFileCommands(file: string): Promise<RunOutcome[]> {
	const outcomes: RunOutcome[] = [];
	for (const command of FILE_COMMANDS)
		outcomes.push(await runCli(command.map((word) => (word === 'FILE' ? file : word))));
	return outcomes;
}
