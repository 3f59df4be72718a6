// One escaping rule for the terminal (style.md §1.3): every string that came from a server, a config file
// or a capture passes through escapeText (core/bytes/glyphs.ts) before it is written to a terminal. This
// fills every free-text field of the terminal formatters' inputs with bytes that repaint a terminal and
// fails on any that reaches the output raw: a field added without escaping shows up here.
import {describe, expect, it} from 'vitest';
import {formatReport, formatTable} from '../../src/doctor/format.js';
import type {DoctorReport, DoctorRow} from '../../src/doctor/types.js';
import {runLine} from '../../src/cli/commands/doctor.js';
import {formatHeader, formatMarkLine, formatSummary} from '../../src/render/text/plain-log.js';
import type {Mark} from '../../src/core/types.js';
import {makeMeta, makeSummary} from '../helpers/factories.js';

/** ESC, CSI, OSC with BEL, backspaces, CR, C1 CSI and a bidi override. */
const HOSTILE = '\u001b[2K\r\u001b]52;c;UFdORUQ=\u0007\b\b\u009b31m\u202e';
/** Our own colours (SGR) are allowed; anything else in C0 (but LF), DEL, C1 or bidi is not. */
const SGR = /\u001b\[[0-9;]*m/g;
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function raw(lines: readonly string[]): string[] {
	return lines.filter((line) => RAW.test(line.replace(SGR, '')));
}

const row = (over: Partial<DoctorRow>): DoctorRow => ({
	client: 'cursor',
	scope: 'project',
	file: `/p/${HOSTILE}/mcp.json`,
	name: `n${HOSTILE}`,
	status: 'fail',
	findings: [],
	command: [HOSTILE],
	cwd: HOSTILE,
	fix: `fix ${HOSTILE}`,
	reason: `reason ${HOSTILE}`,
	capture: `/s/${HOSTILE}.mcpcap`,
	fullEnvCapture: `/s/${HOSTILE}-env.mcpcap`,
	notes: [`note ${HOSTILE}`],
	...over,
});

const report: DoctorReport = {
	files: [
		{client: 'cursor', scope: 'project', path: `/p/${HOSTILE}/mcp.json`, exists: true} as DoctorReport['files'][number],
	],
	rows: [row({}), row({status: 'skipped'}), row({status: 'ok', fix: undefined})],
	notes: [`note ${HOSTILE}`],
	totals: {servers: 3, ok: 1, warn: 0, fail: 1, skipped: 1, notChecked: 0} as DoctorReport['totals'],
	timedOut: false,
	durationMs: 12,
	warnings: [`warning ${HOSTILE}`],
};

describe('terminal output escapes every server, config and capture string', () => {
	it("doctor's report, table and approval list", () => {
		for (const color of [false, true]) {
			expect(raw(formatReport(report, {color}))).toEqual([]);
			expect(raw(formatTable(report.rows, {color}))).toEqual([]);
		}
		const missing = {...report, files: [{...report.files[0]!, exists: false}]};
		expect(raw(formatReport(missing, {color: false}))).toEqual([]);
		const target = {
			file: {client: 'cursor'},
			entry: {name: `docs${HOSTILE}`},
			command: ['sh', '-c', HOSTILE],
			cwd: HOSTILE,
			trust: {trusted: false, reason: HOSTILE},
		} as unknown as Parameters<typeof runLine>[0];
		expect(raw([runLine(target)])).toEqual([]);
	});

	it("a crafted capture's header, summary and marks", () => {
		const meta = makeMeta({
			tool: {name: `mcp-wire${HOSTILE}` as never, version: HOSTILE},
			node: HOSTILE,
			platform: HOSTILE as never,
			mode: HOSTILE as never,
			envMode: HOSTILE as never,
			command: [HOSTILE],
			cwd: HOSTILE,
			envKeys: [HOSTILE],
			protocolVersion: HOSTILE,
		});
		expect(raw(formatHeader(meta))).toEqual([]);
		const summary = makeSummary({
			exit: {code: null, signal: HOSTILE as never, tMs: 1},
			serverInfo: {name: HOSTILE, version: HOSTILE},
			protocolVersion: HOSTILE,
		});
		expect(raw(formatSummary(summary, {color: true}))).toEqual([]);
		const marks = [
			{type: 'timeout', tMs: 1, method: HOSTILE, id: HOSTILE, timeoutMs: 5},
			{type: 'signal-sent', tMs: 1, signal: HOSTILE},
			{type: 'exit', tMs: 1, code: null, signal: HOSTILE},
			{type: 'reaped', tMs: 1, pids: [HOSTILE], signal: HOSTILE},
		] as unknown as Mark[];
		for (const mark of marks) expect(raw([formatMarkLine(mark, {color: true}) ?? ''])).toEqual([]);
	});
});
