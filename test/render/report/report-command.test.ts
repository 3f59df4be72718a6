/**
 * `mcp-wire report` and `mcp-wire explain` as commands (src/cli/commands/report.ts, explain.ts), driven
 * through commander with injected stdio.
 */
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, afterEach, describe, expect, it} from 'vitest';
import {encodeEvent, encodeHeader} from '../../../src/core/capture/record-codec.js';
import {replayEvents} from '../../../src/core/session/replay.js';
import {Session} from '../../../src/core/session/session.js';
import type {SessionEvent} from '../../../src/core/types.js';
import {explainCommand} from '../../../src/cli/commands/explain.js';
import {localRedactOptions, reportCommand, type CommandIo} from '../../../src/cli/commands/report.js';
import {UsageError} from '../../../src/cli/exit-codes.js';
import {VERSION} from '../../../src/cli/version.js';
import {buildReport} from '../../../src/render/report/markdown.js';
import {decodeRecords} from '../../../src/core/capture/record-codec.js';
import {expectGolden, goldenMeta, reportFromCapture} from './golden.js';
import {SCENARIOS} from './scenarios.js';

function fakeIo(stdin = ''): CommandIo & {out: string; err: string} {
	const io = {
		out: '',
		err: '',
		writeOut(text: string) {
			io.out += text;
		},
		writeErr(text: string) {
			io.err += text;
		},
		readStdin: async () => stdin,
	};
	return io;
}

/** The capture (NDJSON records) of a scenario, as a probe would write it. */
function captureOf(name: string): string {
	const scenario = SCENARIOS.find((entry) => entry.name === name)!;
	const events: SessionEvent[] = [];
	const session = new Session(scenario.meta);
	session.on((event) => events.push(event));
	const ordered = [...scenario.steps].sort((a, b) => a.tMs - b.tMs);
	for (const step of ordered) {
		if ('stream' in step) {
			session.pushChunk(step.stream, step.tMs, typeof step.bytes === 'string' ? new Uint8Array(Buffer.from(step.bytes)) : step.bytes);
		} else if ('mark' in step) {
			session.mark(step.mark);
		} else {
			session.exit({...step.exit, tMs: step.tMs});
		}
	}

	session.finish(ordered.at(-1)!.tMs);
	return [encodeHeader(scenario.meta), ...events.map((event) => encodeEvent(event))].join('\n') + '\n';
}

const dir = mkdtempSync(join(tmpdir(), 'mcp-wire-report-'));
afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

async function runReport(args: string[], stdin = ''): Promise<ReturnType<typeof fakeIo>> {
	const io = fakeIo(stdin);
	await reportCommand(io).exitOverride().configureOutput({writeOut: () => {}, writeErr: () => {}}).parseAsync(args, {from: 'user'});
	return io;
}

describe('mcp-wire report', () => {
	const file = join(dir, 'secrets.ndjson');
	writeFileSync(file, captureOf('secrets'));

	it('renders a capture file exactly as renderReport does, redacted for this machine', async () => {
		const io = await runReport([file]);
		const decoded = decodeRecords(readFileSync(file, 'utf8'));
		const expected = buildReport(replayEvents(decoded.header!, decoded.events).getSnapshot(), {
			maxLines: 150,
			redact: localRedactOptions(),
			toolVersion: VERSION,
			source: {isTruncated: false, problems: 0},
		});
		expect(io.out).toBe(expected.markdown);
		expect(io.err).toBe('');
		expect(io.out).toContain('--token <redacted>');
		expect(io.out).not.toContain('hunter2-secret-value');
	});

	it('reads stdin for - and for no FILE', async () => {
		const text = readFileSync(file, 'utf8');
		expect((await runReport(['-'], text)).out).toBe((await runReport([file])).out);
		expect((await runReport([], text)).out).toBe((await runReport([file])).out);
	});

	it('writes --out FILE and says so on stderr', async () => {
		const out = join(dir, 'report.md');
		const io = await runReport([file, '--out', out]);
		expect(io.out).toBe('');
		const written = readFileSync(out, 'utf8');
		expect(written).toBe((await runReport([file])).out);
		expect(io.err).toBe(`mcp-wire: report written to ${out} (${written.split('\n').length - 1} lines)\n`);
	});

	it('honours --max-lines, --no-redact and --redact-payloads', async () => {
		const short = (await runReport([file, '--max-lines', '40'])).out;
		expect(short.split('\n').length - 1).toBeLessThanOrEqual(40);
		expect(short).toContain('Left out: ');
		const raw = (await runReport([file, '--no-redact'])).out;
		expect(raw).toContain('--token hunter2-secret-value');
		expect(raw).toContain('Redaction: off');
		const payloads = (await runReport([file, '--redact-payloads'])).out;
		expect(payloads).toContain('JSON string values in frames are masked (`--redact-payloads`)');
	});

	it('rejects a --max-lines that is not a whole number of at least 10', async () => {
		await expect(runReport([file, '--max-lines', 'many'])).rejects.toThrow('expected a whole number of lines, at least 10');
	});

	it('still renders a capture cut short, and says so', async () => {
		const text = readFileSync(file, 'utf8');
		const cut = join(dir, 'cut.ndjson');
		writeFileSync(cut, text.slice(0, text.lastIndexOf('{"type":"summary"') + 20));
		const io = await runReport([cut]);
		expect(io.err).toBe(`mcp-wire: ${cut} is cut short; the report covers the records before the cut\n`);
		expect(io.out.split('\n')[0]).toContain('· the capture was cut short (this report covers the bytes before the cut)');
	});

	it('gives one clear usage error for a file that is not a capture, or missing', async () => {
		const notCapture = join(dir, 'notes.txt');
		writeFileSync(notCapture, 'hello\n');
		await expect(runReport([notCapture])).rejects.toThrow(new UsageError(`${notCapture} is not an mcp-wire capture or --json dump (no session header)`));
		await expect(runReport([join(dir, 'nope.ndjson')])).rejects.toThrow(`cannot read ${join(dir, 'nope.ndjson')}: ENOENT`);
	});

	it('renders a --json dump with only a header as an empty session', async () => {
		const io = await runReport(['-'], `${encodeHeader(goldenMeta())}\n`);
		expect(io.out.split('\n')[0]).toBe('**mcp-wire: OK** · no wire faults in 0 frames');
	});
});

describe('reportFromCapture (the golden helper for real captures)', () => {
	it('renders a saved capture like the live session it recorded (live = replay)', () => {
		expectGolden('stray-banner', reportFromCapture(captureOf('stray-banner')));
		expectGolden('secrets', reportFromCapture(captureOf('secrets')));
	});
});

describe('mcp-wire explain', () => {
	afterEach(() => {
		process.exitCode = undefined;
	});

	async function runExplain(args: string[], stdin = ''): Promise<ReturnType<typeof fakeIo>> {
		const io = fakeIo(stdin);
		await explainCommand(io).exitOverride().parseAsync(args, {from: 'user'});
		return io;
	}

	it('explains a pasted message in plain text', async () => {
		const io = await runExplain(['Unexpected end of JSON input']);
		const lines = io.out.split('\n');
		expect(lines[0]).toBe("Logged by V8's JSON.parse, in TS SDK v1 hosts (Claude Desktop, Claude Code, MCP Inspector) and Cursor.");
		expect(lines).toContain('blank-line (warning, likely): blank line');
		expect(lines).toContain('  fix: Write exactly one `JSON + "\\n"` per message; do not write an extra newline.');
		expect(lines).toContain('content-length-framing (error, possible): Content-Length (LSP) framing');
		expect(io.out).not.toMatch(/\u001b/);
		expect(process.exitCode).toBeUndefined();
	});

	it('joins unquoted words and reads stdin for -', async () => {
		const joined = await runExplain(['Unexpected', 'end', 'of', 'JSON', 'input']);
		const piped = await runExplain(['-'], 'Unexpected end of JSON input\n');
		expect(joined.out).toBe((await runExplain(['Unexpected end of JSON input'])).out);
		expect(piped.out).toBe(joined.out);
	});

	it('prints JSON with --json', async () => {
		const io = await runExplain(['--json', `Unexpected token 'S', "Starting B"... is not valid JSON`]);
		const result = JSON.parse(io.out) as {explanations: Array<{code: string}>};
		expect(result.explanations.map((explanation) => explanation.code)).toEqual(['stray-output']);
	});

	it('exits 1 when nothing matches', async () => {
		const io = await runExplain(['all good here']);
		expect(io.out).toBe('No known wire fault matches: all good here\nRun `mcp-wire probe -- <your server command>` to see every byte the server writes.\n');
		expect(process.exitCode).toBe(1);
	});
});
