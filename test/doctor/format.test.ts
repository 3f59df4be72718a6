import {describe, expect, it} from 'vitest';
import {dressFinding} from '../../src/core/detectors/catalog.js';
import {formatJsonRecords, formatReport, formatTable} from '../../src/doctor/format.js';
import type {DoctorReport, DoctorRow} from '../../src/doctor/types.js';

const unflushed = dressFinding({code: 'unflushed-output', stream: 'stdout', offset: 0, byteLength: 147, tMs: 2001, detail: {envDifference: {variables: ['PYTHONUNBUFFERED'], minimal: true}}});

const ROWS: DoctorRow[] = [
	{client: 'claude-desktop', scope: 'user', file: '/h/c.json', name: 'fs', status: 'ok', connected: true, startupMs: 41.6, tools: 12, findings: [], notes: []},
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
	{client: 'claude-code', scope: 'user', file: '/h/.claude.json', name: 'web', transport: 'http', status: 'skipped', findings: [], reason: 'HTTP server at https://x/mcp: doctor checks stdio servers only', notes: []},
	{
		client: 'cursor',
		scope: 'project',
		file: '/p/.cursor/mcp.json',
		position: {line: 3, column: 9},
		status: 'fail',
		findings: [],
		problem: {kind: 'broken-json', file: '/p/.cursor/mcp.json', line: 3, column: 9, message: 'broken JSON: trailing comma'},
		fix: '/p/.cursor/mcp.json:3:9: broken JSON: trailing comma',
		notes: ['a note'],
	},
];

const REPORT: DoctorReport = {
	files: [
		{client: 'claude-desktop', scope: 'user', path: '/h/c.json', exists: true, serversPath: ['mcpServers'], format: 'json'},
		{client: 'claude-code', scope: 'user', path: '/h/.claude.json', exists: true, serversPath: ['mcpServers'], format: 'json'},
		{client: 'claude-code', scope: 'local', path: '/h/.claude.json', exists: true, serversPath: ['projects', '/p', 'mcpServers'], format: 'json'},
		{client: 'cursor', scope: 'project', path: '/p/.cursor/mcp.json', exists: true, serversPath: ['mcpServers'], format: 'json'},
		{client: 'vscode', scope: 'project', path: '/p/.vscode/mcp.json', exists: false, serversPath: ['servers'], format: 'jsonc'},
	],
	rows: ROWS,
	notes: ['/h/c.json:2:3: server "a" is defined twice; the client uses the later one at line 4'],
	totals: {servers: 4, ok: 1, warn: 0, fail: 2, skipped: 1},
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
		expect(lines[0]).toBe('\u001B[1mCLIENT          SCOPE  SERVER  STATUS  STARTUP  TOOLS  FINDING           FIX\u001B[22m');
		expect(lines[1]).toBe('claude-desktop  user   fs      \u001B[32m✔ ok  \u001B[39m    42 ms     12  —');
		expect(lines[2]!.includes('\u001B[31m✘ fail\u001B[39m')).toBe(true);
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
			'  claude-desktop/py  /s/a.ndjson',
			"  claude-desktop/py (your shell's environment)  /s/b.ndjson",
			'',
			'4 entries: 1 ✔ ok, 0 ▲ warn, 2 ✘ fail, 1 skipped (2.3 s)',
		]);
	});

	it('says where it looked when no config file exists', () => {
		const none = {...REPORT, files: REPORT.files.map((file) => ({...file, exists: false})), rows: []};
		expect(formatReport(none, {color: false})).toEqual(['No MCP client config file found. Looked in:', '  /h/c.json', '  /h/.claude.json', '  /p/.cursor/mcp.json', '  /p/.vscode/mcp.json']);
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
		expect((records[1]!['finding'] as {detail: unknown}).detail).toEqual({envDifference: {variables: ['PYTHONUNBUFFERED'], minimal: true}});
		expect(records[4]).toEqual({
			type: 'doctor-summary',
			servers: 4,
			ok: 1,
			warn: 0,
			fail: 2,
			skipped: 1,
			exitCode: 1,
			timedOut: false,
			durationMs: 2345,
			configs: REPORT.files.map((f) => ({client: f.client, scope: f.scope, path: f.path, exists: f.exists})),
			notes: REPORT.notes,
			warnings: [],
		});
	});
});
