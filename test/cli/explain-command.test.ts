// `mcp-wire explain` without text on a terminal says what it takes, instead of report's "pass a FILE".
import {describe, expect, it} from 'vitest';
import {EXPLAIN_USAGE, explainCommand, nearestFindingCode} from '../../src/cli/commands/explain.js';
import {PROCESS_IO} from '../../src/cli/commands/report.js';
import {UsageError} from '../../src/cli/exit-codes.js';
import {PACKAGE_ROOT} from '../../src/cli/version.js';
import {existsSync} from 'node:fs';
import {isAbsolute, join} from 'node:path';

describe('explain without text', () => {
	it('on a terminal: a usage error naming the error text it takes', async () => {
		const out: string[] = [];
		// stdin as a terminal: the process reader refuses, as it does when nothing is piped.
		const isTTY = process.stdin.isTTY;
		Object.defineProperty(process.stdin, 'isTTY', {value: true, configurable: true});
		try {
			const command = explainCommand({...PROCESS_IO, writeOut: (text) => out.push(text)}).exitOverride();
			await expect(command.parseAsync([], {from: 'user'})).rejects.toEqual(new UsageError(EXPLAIN_USAGE));
		} finally {
			Object.defineProperty(process.stdin, 'isTTY', {value: isTTY, configurable: true});
		}
		expect(EXPLAIN_USAGE).toBe(
			'explain takes the error text from a client log: mcp-wire explain "<error text>" (or pipe the text into it)',
		);
		expect(out).toEqual([]);
	});

	it('piped text is explained as before', async () => {
		const out: string[] = [];
		const command = explainCommand({
			...PROCESS_IO,
			writeOut: (text) => out.push(text),
			readStdin: async () => 'Unexpected token \'S\', "Starting B"... is not valid JSON',
		}).exitOverride();
		await command.parseAsync([], {from: 'user'});
		expect(out.join('')).toContain('stray-output');
	});
});

describe('explain with a finding code', () => {
	it('describes the code (what, fix, clients, docs) instead of saying nothing matches', async () => {
		const out: string[] = [];
		const exitCode = process.exitCode;
		try {
			const command = explainCommand({...PROCESS_IO, writeOut: (text) => out.push(text)}).exitOverride();
			await command.parseAsync(['Stray-Output'], {from: 'user'});
			expect(process.exitCode ?? 0).toBe(0);
		} finally {
			process.exitCode = exitCode;
		}
		expect(out.join('').split('\n')).toEqual([
			'stray-output (error): stray output on the protocol stream',
			'  what: A line on the protocol stream that is not JSON at all: a start-up banner, a `print()` or `console.log`, a log line, usage text, a progress bar, or what a launcher (npm, dotenv, a wrapper script, `dotnet run`) printed before the server started.',
			'  fix: Only MCP messages may go to stdout (R5): move this output to stderr.',
			'  clients: skip+log: TS SDK v1 (Claude Desktop, Claude Code, MCP Inspector), Python SDK, VS Code · skip: TS SDK v2, rmcp (Rust SDK) · not established: Cursor',
			`  docs: ${PACKAGE_ROOT}/docs/findings.md#stray-output`,
			'',
			'See it in the bytes: mcp-wire probe -- <your server command>   (add --report for a paste-ready report)',
			'',
		]);
	});
});

describe('explain with a mistyped finding code', () => {
	it('offers the nearest code (was: only "No known wire fault matches")', async () => {
		const out: string[] = [];
		const exitCode = process.exitCode;
		try {
			const command = explainCommand({...PROCESS_IO, writeOut: (text) => out.push(text)}).exitOverride();
			await command.parseAsync(['missing-newlinee'], {from: 'user'});
			expect(process.exitCode).toBe(1);
		} finally {
			process.exitCode = exitCode;
		}
		expect(out.join('').split('\n')).toEqual([
			'No known wire fault matches: missing-newlinee',
			'Did you mean `mcp-wire explain missing-newline`?',
			'Run `mcp-wire probe -- <your server command>` to see every byte the server writes.',
			'',
		]);
	});

	it('near misses only: one code-like word within 3 edits', () => {
		expect(nearestFindingCode('strayoutput')).toBe('stray-output');
		expect(nearestFindingCode('crlff')).toBe('crlf');
		expect(nearestFindingCode('hello')).toBeUndefined();
		expect(nearestFindingCode('Unexpected token')).toBeUndefined();
		expect(nearestFindingCode('no-respnse')).toBe('no-response');
	});
});

describe('the docs pointer', () => {
	it('is an absolute path to the docs/findings.md this install ships (was: relative, missing after a global install)', () => {
		expect(isAbsolute(PACKAGE_ROOT)).toBe(true);
		expect(existsSync(join(PACKAGE_ROOT, 'docs', 'findings.md'))).toBe(true);
		expect(existsSync(join(PACKAGE_ROOT, 'package.json'))).toBe(true);
	});
});
