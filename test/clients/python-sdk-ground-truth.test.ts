/**
 * Ground truth: every example server under the real MCP Python SDK client (`ClientSession.initialize` +
 * `list_tools`, + `call_tool` with the probe's arguments for an example recorded with `--call`), installed with `python3 -m venv` + `pip install mcp` from the machine's package index
 * into a cached directory under the OS temp dir. mcp-wire's prediction for `python-sdk`, replayed from
 * the example's recorded capture, must match what the client did (docs/clients.md). Skipped, with the
 * reason printed, where the SDK cannot be installed.
 */
import {execFile} from 'node:child_process';
import {existsSync, mkdirSync, renameSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {promisify} from 'node:util';
import {beforeAll, describe, expect, it} from 'vitest';
import {agreementLine, callsOf, disagreements, EXAMPLES, predicted, ROOT, type RealOutcome} from './ground-truth.js';

const run = promisify(execFile);
/** The cached virtual environment (shared by runs; rebuilt when `import mcp` fails). */
const VENV = join(tmpdir(), 'mcp-wire-python-sdk');
const PYTHON = join(VENV, 'bin', 'python');
/** Per request, seconds: as the TS ground truth (a slow-by-design example must not hit it on a busy machine). */
const REQUEST_TIMEOUT_S = 60;
const PARALLEL = 16;

let python: {readonly path: string; readonly version: string} | {readonly skip: string};

async function mcpVersion(path: string): Promise<string | undefined> {
	try {
		const {stdout} = await run(path, ['-c', 'import importlib.metadata as m; import mcp; print(m.version("mcp"))'], {
			timeout: 60_000,
		});
		return stdout.trim();
	} catch {
		return undefined;
	}
}

/** Finds or builds the venv: built next to the cache and renamed into place, so a half-built one is never used. */
async function ensurePythonSdk(): Promise<typeof python> {
	const cached = existsSync(PYTHON) ? await mcpVersion(PYTHON) : undefined;
	if (cached !== undefined) return {path: PYTHON, version: cached};
	const building = `${VENV}.build-${process.pid}`;
	try {
		rmSync(building, {recursive: true, force: true});
		await run('python3', ['-m', 'venv', building], {timeout: 120_000});
		// No retries against an index this machine cannot reach: the local one answers at once.
		await run(join(building, 'bin', 'pip'), ['install', '--quiet', 'mcp'], {
			timeout: 400_000,
			env: {...process.env, PIP_RETRIES: '0', PIP_DISABLE_PIP_VERSION_CHECK: '1'},
		});
		rmSync(VENV, {recursive: true, force: true});
		renameSync(building, VENV);
	} catch (error) {
		rmSync(building, {recursive: true, force: true});
		return {
			skip: `the MCP Python SDK could not be installed (python3 -m venv + pip install mcp): ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`,
		};
	}
	const version = await mcpVersion(PYTHON);
	return version === undefined
		? {skip: 'the MCP Python SDK was installed but `import mcp` fails'}
		: {path: PYTHON, version};
}

describe('the real MCP Python SDK client on every example server', () => {
	beforeAll(async () => {
		python = await ensurePythonSdk();
	}, 600_000);

	it('does what mcp-wire predicts for python-sdk', async (context) => {
		if ('skip' in python) {
			console.warn(`SKIPPED: ${python.skip}`);
			context.skip();
			return;
		}
		const dir = join(tmpdir(), `mcp-wire-gt-${process.pid}`);
		mkdirSync(dir, {recursive: true});
		const jobs = join(dir, 'jobs.json');
		writeFileSync(jobs, JSON.stringify(EXAMPLES.map((e) => ({name: e.name, command: e.command, calls: callsOf(e)}))));
		const {stdout} = await run(
			python.path,
			[join(ROOT, 'test', 'clients', 'python-sdk-client.py'), jobs, ROOT, String(REQUEST_TIMEOUT_S), String(PARALLEL)],
			{
				cwd: ROOT,
				timeout: 540_000,
				maxBuffer: 16 * 1024 * 1024,
			},
		);
		rmSync(dir, {recursive: true, force: true});
		const reals = new Map<string, RealOutcome>();
		for (const line of stdout.split('\n').filter((l) => l.trim() !== '')) {
			const {name, ...real} = JSON.parse(line) as RealOutcome & {name: string};
			reals.set(name, real);
		}
		const lines: string[] = [];
		const problems: string[] = [];
		for (const example of EXAMPLES) {
			const real = reals.get(example.name);
			expect(real, `${example.name}: no result from the Python client`).toBeDefined();
			const prediction = predicted(example.name, 'python-sdk');
			lines.push(agreementLine(example.name, prediction, real!));
			for (const problem of disagreements(`python-sdk/${example.name}`, prediction, real!, callsOf(example).length))
				problems.push(`${example.name}: ${problem}`);
		}
		console.log(`MCP Python SDK ${python.version} client vs mcp-wire (python-sdk):\n${lines.join('\n')}`);
		expect(problems).toEqual([]);
		// Where clients differ: bytes that are not UTF-8 end the Python client's session (the TS one reads U+FFFD).
		expect(reals.get('invalid-utf8')).toMatchObject({
			connected: true,
			error: expect.stringMatching(/^UnicodeDecodeError/),
		});
		// The calls: what call_tool did on each call example (docs/clients.md "Checked against the real clients").
		expect(reals.get('handler-print')).toMatchObject({
			called: 'ok',
			logged: [expect.stringMatching(/^ValidationError: .*Invalid JSON/s)],
		});
		expect(reals.get('handler-print-no-call')).toEqual({connected: true, tools: 2, logged: []});
		expect(reals.get('structured-content-mismatch')).toEqual({
			connected: true,
			tools: 1,
			error: "RuntimeError: Invalid structured content returned by tool get_weather: '21' is not of type 'number'",
			logged: [],
		});
		expect(reals.get('tool-error')).toEqual({connected: true, tools: 1, called: 'tool-error', logged: []});
		expect(reals.get('unknown-content-type')).toMatchObject({
			tools: 1,
			error: expect.stringMatching(/^ValidationError: \d+ validation errors for CallToolResult$/),
		});
		// No default timeout: the Python client waits the 65 s.
		expect(reals.get('slow-call')).toEqual({connected: true, tools: 1, called: 'ok', logged: []});
		// mcp 2.3 ignores a progress token that matches no pending request, without a log.
		expect(reals.get('progress-after-reply')).toEqual({connected: true, tools: 1, called: 'ok', logged: []});
	}, 600_000);
});
