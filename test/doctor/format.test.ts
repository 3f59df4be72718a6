import {describe, expect, it} from 'vitest';
import {dressFinding} from '../../src/core/findings/support/catalog.js';
import {formatJsonRecords, formatReport, formatTable, formatTotals} from '../../src/doctor/format.js';
import {exitCodeOf, totalsOf} from '../../src/doctor/run.js';
import type {DoctorReport, DoctorRow} from '../../src/doctor/types.js';

const unflushed = dressFinding({
	code: 'unflushed-output',
	stream: 'stdout',
	offset: 0,
	byteLength: 147,
	tMs: 2001,
	detail: {envDifference: {variables: ['PYTHONUNBUFFERED'], minimal: true}},
});

const ROWS: DoctorRow[] = [
	{
		client: 'claude-desktop',
		scope: 'user',
		file: '/h/c.json',
		name: 'fs',
		status: 'ok',
		connected: true,
		startupMs: 41.6,
		tools: 12,
		findings: [],
		notes: [],
	},
	{
		client: 'claude-desktop',
		scope: 'user',
		file: '/h/c.json',
		name: 'py',
		status: 'fail',
		connected: false,
		finding: unflushed,
		findings: [{code: 'unflushed-output', severity: 'error', count: 1}],
		fix: "works only because your shell sets PYTHONUNBUFFERED=1; add it to the config's env",
		capture: '/s/a.ndjson',
		fullEnvCapture: '/s/b.ndjson',
		notes: [],
	},
	{
		client: 'claude-code',
		scope: 'user',
		file: '/h/.claude.json',
		name: 'web',
		transport: 'http',
		status: 'skipped',
		findings: [],
		reason: 'HTTP server at https://x/mcp: doctor checks stdio servers only',
		notes: [],
	},
	{
		client: 'cursor',
		scope: 'project',
		file: '/p/.cursor/mcp.json',
		position: {line: 3, column: 9},
		status: 'fail',
		findings: [],
		problem: {
			kind: 'broken-json',
			file: '/p/.cursor/mcp.json',
			line: 3,
			column: 9,
			message: 'broken JSON: trailing comma',
		},
		fix: '/p/.cursor/mcp.json:3:9: broken JSON: trailing comma',
		notes: ['a note'],
	},
];

const REPORT: DoctorReport = {
	files: [
		{
			client: 'claude-desktop',
			scope: 'user',
			path: '/h/c.json',
			exists: true,
			serversPath: ['mcpServers'],
			format: 'json',
		},
		{
			client: 'claude-code',
			scope: 'user',
			path: '/h/.claude.json',
			exists: true,
			serversPath: ['mcpServers'],
			format: 'json',
		},
		{
			client: 'claude-code',
			scope: 'local',
			path: '/h/.claude.json',
			exists: true,
			serversPath: ['projects', '/p', 'mcpServers'],
			format: 'json',
		},
		{
			client: 'cursor',
			scope: 'project',
			path: '/p/.cursor/mcp.json',
			exists: true,
			serversPath: ['mcpServers'],
			format: 'json',
		},
		{
			client: 'vscode',
			scope: 'project',
			path: '/p/.vscode/mcp.json',
			exists: false,
			serversPath: ['servers'],
			format: 'jsonc',
		},
	],
	rows: ROWS,
	notes: ['/h/c.json:2:3: server "a" is defined twice; the client uses the later one at line 4'],
	totals: {servers: 4, ok: 1, warn: 0, fail: 2, skipped: 1, notChecked: 0},
	timedOut: false,
	durationMs: 2345,
	warnings: [],
};

describe('formatTable', () => {
	it('pads every column but the last, right-aligns startup and tools', () => {
		expect(formatTable(ROWS, {color: false})).toEqual([
			'CLIENT          SCOPE    SERVER  STATUS  STARTUP  TOOLS  FINDING           FIX',
			'claude-desktop  user     fs      ✔ ok      42 ms     12  —',
			"claude-desktop  user     py      ✘ fail        —      —  unflushed-output  works only because your shell sets PYTHONUNBUFFERED=1; add it to the config's env",
			'claude-code     user     web     – skip        —      —  —                 HTTP server at https://x/mcp: doctor checks stdio servers only',
			'cursor          project  (file)  ✘ fail        —      —  config            /p/.cursor/mcp.json:3:9: broken JSON: trailing comma (Cursor loads no server from this file)',
		]);
	});

	it('paints the status cell when colour is on', () => {
		const lines = formatTable(ROWS.slice(0, 2), {color: true});
		expect(lines[0]).toBe(
			'\u001B[1mCLIENT          SCOPE  SERVER  STATUS  STARTUP  TOOLS  FINDING           FIX\u001B[22m',
		);
		expect(lines[1]).toBe('claude-desktop  user   fs      \u001B[32m✔ ok  \u001B[39m    42 ms     12  —');
		expect(lines[2]!.includes('\u001B[31m✘ fail\u001B[39m')).toBe(true);
	});
});

describe('formatTable at 80 columns (a terminal): FIX wraps at words, never mid-word', () => {
	it('keeps a line that fits, wraps a long FIX under its column, and a FIX starting far right under its row', () => {
		const lines = formatTable(ROWS, {color: false, columns: 80});
		expect(lines.slice(0, 2)).toEqual(formatTable(ROWS, {color: false}).slice(0, 2));
		// The FIX column starts at 73 here: too narrow to wrap into, so the FIX goes below the row.
		expect(lines.slice(2, 5)).toEqual([
			'claude-desktop  user     py      ✘ fail        —      —  unflushed-output',
			'    works only because your shell sets PYTHONUNBUFFERED=1; add it to the',
			"    config's env",
		]);
		for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
		// Every word of every FIX is still there, whole.
		const words = (text: string) => text.split(/\s+/).filter((word) => word !== '');
		expect(words(lines.join(' '))).toEqual(words(formatTable(ROWS, {color: false}).join(' ')));
	});

	it('wraps under the FIX column when 30 columns are left there', () => {
		const lines = formatTable(ROWS.slice(1, 2), {color: false, columns: 120});
		expect(lines).toEqual([
			'CLIENT          SCOPE  SERVER  STATUS  STARTUP  TOOLS  FINDING           FIX',
			'claude-desktop  user   py      ✘ fail        —      —  unflushed-output  works only because your shell sets',
			"                                                                         PYTHONUNBUFFERED=1; add it to the config's env",
		]);
	});
});

describe('formatTable: a wrapped FIX lines up under its column', () => {
	it('keeps the fill of a FINDING shorter than its column (was: the FIX started 6 columns left)', () => {
		const skipped = {...ROWS[2]!, reason: 'HTTP server at https://example.com/mcp: doctor checks stdio servers only'};
		const lines = formatTable([ROWS[1]!, skipped], {color: false, columns: 110});
		expect(lines.slice(4)).toEqual([
			'claude-code     user   web     – skip        —      —  —                 HTTP server at',
			'                                                                         https://example.com/mcp: doctor',
			'                                                                         checks stdio servers only',
		]);
	});
});

describe('formatReport notes', () => {
	it('one line per distinct note, naming every server that has it (was: the same note repeated per row)', () => {
		const note = 'not approved in Claude Code yet: it starts .mcp.json servers only once you approve them';
		const rows = [
			{...ROWS[0]!, client: 'claude-code', scope: 'project', name: 'a', notes: [note]},
			{...ROWS[0]!, client: 'claude-code', scope: 'project', name: 'b', notes: [note, 'another note']},
		] as DoctorRow[];
		const lines = formatReport({...REPORT, rows, notes: []}, {color: false});
		const start = lines.indexOf('Notes:');
		expect(lines.slice(start, start + 3)).toEqual([
			'Notes:',
			`  claude-code/a, claude-code/b: ${note}`,
			'  claude-code/b: another note',
		]);
		const narrow = formatReport({...REPORT, rows, notes: []}, {color: false, columns: 60});
		const at = narrow.indexOf('Notes:');
		expect(narrow.slice(at + 1, at + 4)).toEqual([
			'  claude-code/a, claude-code/b: not approved in Claude',
			'    Code yet: it starts .mcp.json servers only once you',
			'    approve them',
		]);
	});
});

describe('formatReport', () => {
	it('lists the files read, the table, notes, captures and totals', () => {
		expect(formatReport(REPORT, {color: false})).toEqual([
			'Config files:',
			'  claude-desktop  /h/c.json',
			'  claude-code     /h/.claude.json',
			'  cursor          /p/.cursor/mcp.json',
			'',
			...formatTable(ROWS, {color: false}),
			'',
			'Notes:',
			'  cursor/(file): a note',
			'  /h/c.json:2:3: server "a" is defined twice; the client uses the later one at line 4',
			'',
			'Captures (open with `mcp-wire view FILE` or `mcp-wire report FILE`):',
			`  ${'claude-desktop/py'.padEnd(44)}  /s/a.ndjson`,
			"  claude-desktop/py (your shell's environment)  /s/b.ndjson",
			'',
			'4 entries: 1 ✔ ok, 0 ▲ warn, 2 ✘ fail, 1 skipped (2.3 s)',
		]);
	});

	it('quotes a capture path that a shell would split, so it pastes after mcp-wire view', () => {
		const rows = [{...ROWS[0]!, capture: "/h/my state/it's.ndjson", fullEnvCapture: undefined} as DoctorRow];
		const lines = formatReport({...REPORT, rows, notes: []}, {color: false});
		expect(lines[lines.indexOf('Captures (open with `mcp-wire view FILE` or `mcp-wire report FILE`):') + 1]).toBe(
			`  claude-desktop/${ROWS[0]!.name}  '/h/my state/it'\\''s.ndjson'`,
		);
	});

	it('says where it looked when no config file exists', () => {
		const none = {...REPORT, files: REPORT.files.map((file) => ({...file, exists: false})), rows: []};
		expect(formatReport(none, {color: false})).toEqual([
			'No MCP client config file found. Looked in:',
			'  /h/c.json',
			'  /h/.claude.json',
			'  /p/.cursor/mcp.json',
			'  /p/.vscode/mcp.json',
		]);
	});
});

describe('servers --total-timeout left without a verdict', () => {
	const stopped: DoctorRow = {
		client: 'claude-desktop',
		scope: 'user',
		file: '/h/c.json',
		name: 'late',
		command: ['late-server'],
		status: 'not-checked',
		findings: [],
		reason: 'not probed: --total-timeout (500 ms) elapsed',
		fix: 'probe it alone: mcp-wire probe -- late-server',
		notes: [],
	};
	const rows = [ROWS[0]!, stopped];
	const report: DoctorReport = {...REPORT, rows, totals: totalsOf(rows), timedOut: true};

	it('are "not checked" in the table and the totals, not ✘', () => {
		expect(formatTable(rows, {color: false})).toEqual([
			'CLIENT          SCOPE  SERVER  STATUS         STARTUP  TOOLS  FINDING  FIX',
			'claude-desktop  user   fs      ✔ ok             42 ms     12  —',
			'claude-desktop  user   late    ○ not checked        —      —  —        not probed: --total-timeout (500 ms) elapsed; probe it alone: mcp-wire probe -- late-server',
		]);
		expect(report.totals).toEqual({servers: 2, ok: 1, warn: 0, fail: 0, skipped: 0, notChecked: 1});
		expect(formatTotals(report)).toBe(
			'2 entries: 1 ✔ ok, 0 ▲ warn, 0 ✘ fail, 0 skipped, 1 ○ not checked (2.3 s) — stopped at --total-timeout',
		);
	});

	it('do not make the exit code 1, and say "not-checked" in --json', () => {
		expect(exitCodeOf(report)).toBe(0);
		expect(exitCodeOf({...report, rows: [...rows, ROWS[1]!], totals: totalsOf([...rows, ROWS[1]!])})).toBe(1);
		const records = formatJsonRecords(report, 0).map((line) => JSON.parse(line) as Record<string, unknown>);
		expect(records.map((r) => r['status'] ?? r['type'])).toEqual(['ok', 'not-checked', 'doctor-summary']);
		expect([records[2]!['fail'], records[2]!['notChecked'], records[2]!['timedOut']]).toEqual([0, 1, true]);
	});
});

describe('formatJsonRecords', () => {
	it('writes a doctor-server record per row and a doctor-summary record', () => {
		const records = formatJsonRecords(REPORT, 1).map((line) => JSON.parse(line) as Record<string, unknown>);
		expect(records.map((r) => [r['type'], r['name'] ?? null, r['status'] ?? null])).toEqual([
			['doctor-server', 'fs', 'ok'],
			['doctor-server', 'py', 'fail'],
			['doctor-server', 'web', 'skipped'],
			['doctor-server', null, 'fail'],
			['doctor-summary', null, null],
		]);
		expect((records[1]!['finding'] as {detail: unknown}).detail).toEqual({
			envDifference: {variables: ['PYTHONUNBUFFERED'], minimal: true},
		});
		expect(records[4]).toEqual({
			type: 'doctor-summary',
			servers: 4,
			ok: 1,
			warn: 0,
			fail: 2,
			skipped: 1,
			notChecked: 0,
			exitCode: 1,
			timedOut: false,
			durationMs: 2345,
			configs: REPORT.files.map((f) => ({client: f.client, scope: f.scope, path: f.path, exists: f.exists})),
			notes: REPORT.notes,
			warnings: [],
		});
	});
});
