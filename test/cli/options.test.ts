// CLI input edges: durations Node's timers cannot take, and options that would swallow `--`.
import {describe, expect, it} from 'vitest';
import {buildProgram} from '../../src/cli/main.js';
import {checkValuesBeforeDashDash, exitCodeFor, MAX_TIMER_MS, parseFailOn, parseMs} from '../../src/cli/options.js';
import type {ClientOutcome, Summary} from '../../src/core/types.js';
import {UsageError} from '../../src/cli/exit-codes.js';

describe('parseMs', () => {
	it('takes 1 … 2^31−1 ms and rejects more (Node would fire after 1 ms: a false timeout)', () => {
		const parse = parseMs('--timeout');
		expect(parse('1')).toBe(1);
		expect(parse(String(MAX_TIMER_MS))).toBe(2_147_483_647);
		expect(() => parse('2147483648')).toThrow(
			'--timeout takes at most 2147483647 ms (about 24.8 days), got "2147483648"',
		);
		expect(() => parse('1e12')).toThrow('--timeout takes at most');
		expect(() => parse('0')).toThrow('--timeout takes a positive whole number, got "0"');
	});
});

describe('checkValuesBeforeDashDash', () => {
	const options = async (name: string) =>
		(await buildProgram(['node', 'mcp-wire', name])).commands.find((c) => c.name() === name)!.options;

	it.each([
		[['--protocol-version', '--', 'node', 'server.js'], '--protocol-version'],
		[['--env', '--', 'node', 'server.js'], '--env'],
		[['--json', '--timeout', '--', 'node'], '--timeout'],
		[['--env', 'A=1', '--cwd', '--', 'node'], '--cwd'],
	])('probe %j is a usage error naming %s', async (args, flag) => {
		const probe = await options('probe');
		expect(() => checkValuesBeforeDashDash('probe', probe, args)).toThrow(
			new UsageError(`probe: ${flag} needs a value before "--" (the server command starts after "--")`),
		);
	});

	it.each([
		[['--env', 'A=1', '--', 'node', '--env', '--']],
		[['--json', '--', 'node', 'server.js']],
		[['--env=--', 'node']],
		[['--timeout', '5000', '--protocol-version', '2025-06-18', '--', 'python3', 'server.py', '--cwd', '--']],
	])('probe %j is fine (what follows the first "--" is the server\'s)', async (args) => {
		const probe = await options('probe');
		expect(() => checkValuesBeforeDashDash('probe', probe, args)).not.toThrow();
	});

	it('tap: --name and --capture need a value too', async () => {
		const tap = await options('tap');
		expect(() => checkValuesBeforeDashDash('tap', tap, ['--name', '--', 'node', 's.js'])).toThrow(
			'tap: --name needs a value before "--"',
		);
		expect(() => checkValuesBeforeDashDash('tap', tap, ['--capture', '--', 'node', 's.js'])).toThrow(
			'tap: --capture needs a value before "--"',
		);
	});
});

describe('buildProgram loads only the commands a run needs (docs/performance.md#probe-start-up: start-up time)', () => {
	it('--version and -V load no command; a command name loads that one; --help loads all ten', async () => {
		expect((await buildProgram(['node', 'mcp-wire', '--version'])).commands).toEqual([]);
		expect((await buildProgram(['node', 'mcp-wire', '-V'])).commands).toEqual([]);
		expect((await buildProgram(['node', 'mcp-wire', 'probe'])).commands.map((c) => c.name())).toEqual(['probe']);
		expect((await buildProgram(['node', 'mcp-wire', '--help'])).commands.map((c) => c.name())).toEqual([
			'probe',
			'tap',
			'view',
			'attach',
			'sessions',
			'report',
			'explain',
			'doctor',
			'wrap',
			'unwrap',
			'version',
		]);
	});
});

describe('mcp-wire version', () => {
	it('prints the version, as --version does (was: unknown command)', async () => {
		const {VERSION} = await import('../../src/cli/version.js');
		const out: string[] = [];
		const write = process.stdout.write.bind(process.stdout);
		process.stdout.write = ((text: string) => out.push(text) > 0) as typeof process.stdout.write;
		try {
			await (await buildProgram(['node', 'mcp-wire', 'version'])).parseAsync(['node', 'mcp-wire', 'version']);
		} finally {
			process.stdout.write = write;
		}
		expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
		expect(out).toEqual([`${VERSION}\n`]);
	});
});

describe('--fail-on client: exit 1 only when a client fails', () => {
	const summary = (
		verdict: Summary['verdict'],
		errors: number,
		warnings: number,
		outcomes: ClientOutcome['outcome'][],
	): Summary => ({
		verdict,
		findings: [],
		errors,
		warnings,
		infos: 0,
		streams: {
			stdin: {bytes: 0, chunks: 0, frames: 0},
			stdout: {bytes: 0, chunks: 0, frames: 0},
			stderr: {bytes: 0, chunks: 0, frames: 0},
		},
		durationMs: 1,
		clients: outcomes.map((outcome, i) => ({
			client: (['ts-sdk-v1', 'python-sdk', 'rmcp'] as const)[i]!,
			outcome,
			decidedBy: [],
			note: '',
			connects: outcome !== 'fails',
			toolsListed: null,
		})),
	});

	it('a WARN with an error finding whose clients all connect: 0 under client, 1 under error (unchanged)', () => {
		const warn = summary('warn', 1, 0, ['degraded', 'works', 'degraded']);
		expect(exitCodeFor(warn, 'client')).toBe(0);
		expect(exitCodeFor(warn, 'error')).toBe(1);
		expect(exitCodeFor(warn, 'warning')).toBe(1);
	});

	it('a niche client that fails (rmcp), or a FAIL: 1 under client', () => {
		expect(exitCodeFor(summary('warn', 1, 0, ['works', 'works', 'fails']), 'client')).toBe(1);
		expect(exitCodeFor(summary('fail', 0, 0, ['fails', 'works', 'works']), 'client')).toBe(1);
		expect(exitCodeFor(summary('warn', 0, 2, ['works', 'works', 'works']), 'client')).toBe(0);
		expect(exitCodeFor(summary('warn', 0, 2, ['works', 'works', 'works']), 'warning')).toBe(1);
		expect(exitCodeFor(summary('warn', 0, 2, ['works', 'works', 'works']), 'error')).toBe(0);
	});

	it('parseFailOn takes client; commander offers it on probe and view', async () => {
		expect(parseFailOn('client')).toBe('client');
		expect(() => parseFailOn('clients')).toThrow('--fail-on takes "error", "warning" or "client", got "clients"');
		for (const name of ['probe', 'view', 'attach']) {
			const command = (await buildProgram(['node', 'mcp-wire', name])).commands[0]!;
			expect(command.options.find((o) => o.long === '--fail-on')?.argChoices).toEqual(['error', 'warning', 'client']);
		}
	});
});
