/**
 * How a doctor report reads: the plain-text table and the `--json` records (docs/cli.md#doctor). Pure
 * string building; the CLI writes the lines to stdout.
 */
import {Chalk} from 'chalk';
import {escapeJsonHazards, escapeText} from '../core/bytes/glyphs.js';
import {shellWord} from '../render/text/plain-log.js';
import type {DoctorReport, DoctorRow, DoctorStatus} from './types.js';
import {CLIENT_LABEL} from './verdict.js';

/** The status cell text: ✔ ok, ▲ warn, ✘ fail, – skip, ○ not checked. */
export const STATUS_TEXT: Readonly<Record<DoctorStatus, string>> = {
	ok: '✔ ok',
	warn: '▲ warn',
	fail: '✘ fail',
	skipped: '– skip',
	'not-checked': '○ not checked',
};

/** The table's column titles, in order. */
export const TABLE_COLUMNS = ['CLIENT', 'SCOPE', 'SERVER', 'STATUS', 'STARTUP', 'TOOLS', 'FINDING', 'FIX'] as const;

/**
 * The cells of one row, unpadded and uncoloured, in {@link TABLE_COLUMNS} order. Every cell is escaped
 * ({@link escapeText}): names, commands and stderr quotes come from config files and servers, and a raw
 * ESC, BS or CR in them could repaint the row (style.md §1.3).
 */
export function rowCells(row: DoctorRow): string[] {
	const startup = row.startupMs === undefined ? '—' : `${Math.round(row.startupMs)} ms`;
	const tools = row.tools === undefined ? '—' : String(row.tools);
	const finding = row.finding?.code ?? (row.problem ? 'config' : '—');
	let fix: string;
	if (row.status === 'skipped') fix = row.reason ?? '';
	else if (row.problem)
		fix =
			row.problem.kind === 'broken-json'
				? `${row.fix ?? ''} (${CLIENT_LABEL[row.client]} loads no server from this file)`
				: (row.fix ?? '');
	else if (row.finding === undefined && row.reason !== undefined) fix = `${row.reason}; ${row.fix ?? ''}`;
	else fix = row.fix ?? '';
	return [row.client, row.scope, row.name ?? '(file)', STATUS_TEXT[row.status], startup, tools, finding, fix].map(
		(cell) => escapeText(cell),
	);
}

/** Options of {@link formatTable} and {@link formatReport}. */
export interface FormatOptions {
	/** Paint the status cells (green ✔, yellow ▲, red ✘, dim skipped). */
	readonly color: boolean;
	/**
	 * The terminal's width (columns), when stdout is one: a longer FIX cell or note is wrapped at spaces
	 * onto indented lines of its own, never cut mid-word by the terminal. Absent: no wrapping (a pipe).
	 */
	readonly columns?: number;
}

/** The narrowest FIX column worth wrapping into; a FIX starting further right goes under its row. */
const MIN_FIX_COLUMNS = 30;

/**
 * `text` in lines of at most `width` columns, broken at spaces (a word longer than `width` stays whole
 * on its own line: cutting it would garble a path or a command).
 */
export function wrapWords(text: string, width: number): string[] {
	const lines: string[] = [];
	let line = '';
	for (const word of text.split(' ')) {
		if (line === '') line = word;
		else if ([...line].length + 1 + [...word].length <= width) line += ` ${word}`;
		else {
			lines.push(line);
			line = word;
		}
	}
	lines.push(line);
	return lines;
}

const RIGHT_ALIGNED = new Set([4, 5]);

/**
 * The table: a header line and one line per row, columns separated by two spaces, STARTUP and TOOLS
 * right-aligned, the last column (FIX) not padded.
 */
export function formatTable(rows: readonly DoctorRow[], options: FormatOptions): string[] {
	const chalk = new Chalk({level: options.color ? 1 : 0});
	const paint: Record<DoctorStatus, (text: string) => string> = {
		ok: chalk.green,
		warn: chalk.yellow,
		fail: chalk.red,
		skipped: chalk.dim,
		'not-checked': chalk.dim,
	};
	const cells = rows.map(rowCells);
	const widths = TABLE_COLUMNS.map((title, column) =>
		Math.max(title.length, ...cells.map((line) => [...line[column]!].length)),
	);
	const pad = (text: string, column: number): string => {
		if (column === TABLE_COLUMNS.length - 1) return text;
		const fill = ' '.repeat(widths[column]! - [...text].length);
		return RIGHT_ALIGNED.has(column) ? fill + text : text + fill;
	};
	const header = TABLE_COLUMNS.map((title, column) => pad(title, column))
		.join('  ')
		.trimEnd();
	const lines = cells.map((line, index) =>
		line
			.map((text, column) => (column === 3 ? paint[rows[index]!.status](pad(text, column)) : pad(text, column)))
			.join('  ')
			.trimEnd(),
	);
	const fixStart = widths.slice(0, -1).reduce((sum, width) => sum + width + 2, 0);
	const wrapped = lines.flatMap((line, index) => wrapRow(line, cells[index]!.at(-1)!, fixStart, options.columns));
	return [options.color ? chalk.bold(header) : header, ...wrapped];
}

/**
 * A table line that fits `columns` as it is; a longer one keeps its cells and wraps its FIX at spaces:
 * under the FIX column when at least {@link MIN_FIX_COLUMNS} columns are left there, else the whole FIX
 * on lines of its own below the row, indented by 4.
 */
function wrapRow(line: string, fix: string, fixStart: number, columns: number | undefined): string[] {
	if (columns === undefined || visibleLength(line) <= columns || fix === '') return [line];
	// Up to the FIX cell, with the padding of the cells before it: a FINDING shorter than its column keeps
	// its fill, so the FIX starts at `fixStart` as its wrapped lines do.
	const head = line.slice(0, line.length - fix.length);
	const room = columns - fixStart;
	if (room >= MIN_FIX_COLUMNS) {
		const parts = wrapWords(fix, room);
		return [`${head}${parts[0]}`, ...parts.slice(1).map((part) => ' '.repeat(fixStart) + part)];
	}
	return [head.trimEnd(), ...wrapWords(fix, columns - 4).map((part) => `    ${part}`)];
}

/** Columns a line takes on a terminal: its characters, without colour escapes. */
function visibleLength(line: string): number {
	return [...line.replace(/\u001B\[[0-9;]*m/g, '')].length;
}

function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The one-line totals, e.g. `7 entries: 3 ✔ ok, 1 ▲ warn, 2 ✘ fail, 1 skipped (12.4 s)`, with `, 2 ○ not
 * checked` when `--total-timeout` left some without a verdict.
 */
export function formatTotals(report: DoctorReport): string {
	const t = report.totals;
	const notChecked = t.notChecked > 0 ? `, ${t.notChecked} ${STATUS_TEXT['not-checked']}` : '';
	return `${t.servers} ${t.servers === 1 ? 'entry' : 'entries'}: ${t.ok} ✔ ok, ${t.warn} ▲ warn, ${t.fail} ✘ fail, ${t.skipped} skipped${notChecked} (${seconds(report.durationMs)})${report.timedOut ? ' — stopped at --total-timeout' : ''}`;
}

/**
 * The whole plain-text report: the config files read, the table, notes, the kept captures (with how to
 * open them), warnings and the totals. With no config file at all, says where it looked. Paths, names,
 * notes and warnings are escaped ({@link escapeText}): they can hold what a config file or a server
 * wrote; only the status colours are ours.
 */
export function formatReport(report: DoctorReport, options: FormatOptions): string[] {
	const existing = report.files.filter((file) => file.exists);
	const lines: string[] = [];
	if (existing.length === 0) {
		lines.push('No MCP client config file found. Looked in:');
		for (const path of [...new Set(report.files.map((file) => file.path))]) lines.push(`  ${escapeText(path)}`);
		return lines;
	}
	lines.push('Config files:');
	const seen = new Set<string>();
	for (const file of existing) {
		if (seen.has(file.path)) continue;
		seen.add(file.path);
		lines.push(`  ${file.client.padEnd(14)}  ${escapeText(file.path)}`);
	}
	lines.push('');
	if (report.rows.length === 0) {
		lines.push('No MCP servers are configured in these files.');
		return lines;
	}
	lines.push(...formatTable(report.rows, options));
	const notes = [...groupNotes(report.rows), ...report.notes];
	if (notes.length > 0) {
		lines.push('', 'Notes:');
		for (const raw of notes) {
			const note = escapeText(raw);
			if (options.columns === undefined) lines.push(`  ${note}`);
			else
				lines.push(
					...wrapWords(note, options.columns - 4).map((part, index) => (index === 0 ? `  ${part}` : `    ${part}`)),
				);
		}
	}
	// One column of labels, the paths aligned after it and shell-quoted when they need it, so they paste after `mcp-wire view`.
	const entries = report.rows.flatMap((row): (readonly [string, string])[] => [
		...(row.capture ? [[`${row.client}/${row.name ?? ''}`, row.capture] as const] : []),
		...(row.fullEnvCapture
			? [[`${row.client}/${row.name ?? ''} (your shell's environment)`, row.fullEnvCapture] as const]
			: []),
	]);
	const labelWidth = Math.max(0, ...entries.map(([label]) => escapeText(label).length));
	const captures = entries.map(
		([label, file]) => `  ${escapeText(label).padEnd(labelWidth)}  ${escapeText(shellWord(file))}`,
	);
	if (captures.length > 0) {
		lines.push('', 'Captures (open with `mcp-wire view FILE` or `mcp-wire report FILE`):', ...captures);
	}
	if (report.warnings.length > 0) {
		lines.push('', 'Warnings:');
		for (const warning of report.warnings) lines.push(`  ${escapeText(warning)}`);
	}
	lines.push('', formatTotals(report));
	return lines;
}

/**
 * The rows' notes, one per distinct text, prefixed with every `client/name` that has it, in row order:
 * `claude-code/a, claude-code/b: not approved in Claude Code yet: …` (was one line per row, repeated).
 */
function groupNotes(rows: readonly DoctorRow[]): string[] {
	const byText = new Map<string, string[]>();
	for (const row of rows) {
		for (const note of row.notes) {
			const labels = byText.get(note) ?? [];
			labels.push(`${row.client}/${row.name ?? '(file)'}`);
			byText.set(note, labels);
		}
	}
	return [...byText].map(([note, labels]) => `${labels.join(', ')}: ${note}`);
}

/**
 * The `--json` records, one JSON text per line: a `doctor-server` record per row (every
 * {@link DoctorRow} field; `finding` as the full finding with its `detail.envDifference`), then one
 * `doctor-summary` record with the totals, `exitCode`, `timedOut`, `durationMs`, `captureDir`, the
 * config files looked at (`configs`: client, scope, path, exists), `notes` and `warnings`. C1 and bidi
 * code points are written as `\uXXXX` ({@link escapeJsonHazards}).
 */
export function formatJsonRecords(report: DoctorReport, exitCode: number): string[] {
	const records: unknown[] = report.rows.map((row) => ({type: 'doctor-server', ...row}));
	records.push({
		type: 'doctor-summary',
		...report.totals,
		exitCode,
		timedOut: report.timedOut,
		durationMs: report.durationMs,
		...(report.captureDir === undefined ? {} : {captureDir: report.captureDir}),
		configs: report.files.map((file) => ({
			client: file.client,
			scope: file.scope,
			path: file.path,
			exists: file.exists,
		})),
		notes: report.notes,
		warnings: report.warnings,
	});
	return records.map((record) => escapeJsonHazards(JSON.stringify(record)));
}
