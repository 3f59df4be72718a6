/**
 * The report's finding numbers are stable: a finding's `#` is its place in the report order of all the
 * session's findings, whether the report is built from the whole session (`probe --report`) or from the
 * few findings `mcp-wire report` keeps in memory (keep.ts); the findings it does not keep get table rows
 * that name their numbers, so the table's numbers run 1…N without a hole or a repeat.
 */
import {describe, expect, it} from 'vitest';
import {Session} from '../../../src/core/session/session.js';
import {keepForReport} from '../../../src/render/report/keep.js';
import {buildReport} from '../../../src/render/report/markdown.js';
import {orderFindings} from '../../../src/render/report/sections/context.js';
import {makeMeta} from '../../helpers/factories.js';

/**
 * 200 stray lines and 100 log notifications ending in CR LF (stray-output ×200, crlf ×100: crlf is about
 * messages), then an exit before any handshake (early-exit).
 */
function feed(session: Session): void {
	let text = '';
	const note = JSON.stringify({jsonrpc: '2.0', method: 'notifications/message', params: {level: 'info', data: 'x'}});
	for (let i = 0; i < 100; i++) text += `log line ${i}\nx\n${note}\r\n`;
	session.pushChunk('stdout', 1, new TextEncoder().encode(text));
	session.exit({code: 0, signal: null, tMs: 5});
	session.finish(5);
}

function keptReport(maxLines: number): string {
	const session = new Session(makeMeta({mode: 'tap'}), {retain: false});
	const keeper = keepForReport(session, {maxLines});
	feed(session);
	return buildReport(keeper.snapshot(), {maxLines, redact: false, toolVersion: 't', kept: keeper.facts}).markdown;
}

/** The number each finding has in the report of the whole session, by `code@offset`. */
function fullNumbers(): Map<string, number> {
	const session = new Session(makeMeta({mode: 'tap'}));
	feed(session);
	const numbers = new Map<string, number>();
	for (const [index, finding] of orderFindings(session.getSnapshot().findings).entries())
		numbers.set(key(finding.code, finding.offset), index + 1);
	return numbers;
}

const key = (findingCode: string, offset: number): string => `${findingCode}@${offset}`;
const offsetOf = (text: string): number => Number(text.replaceAll(',', ''));

describe('finding numbers in the report', () => {
	const full = fullNumbers();
	it('the whole session has 301 findings: stray-output 1–200, early-exit 201, crlf 202–301', () => {
		expect(full.size).toBe(301);
		expect([full.get(key('stray-output', 0)), full.get(key('crlf', 100))]).toEqual([1, 202]);
	});

	it.each([150, 400])(
		"--max-lines %i: every number names the finding the whole session's report gives it; the table covers 1–301 in order",
		(maxLines) => {
			const markdown = keptReport(maxLines);
			// Headings and the folded lists of repeated findings.
			const headings = [...markdown.matchAll(/^\*\*(\d+)\. `([a-z-]+)`:.* · offset ([\d,]+) /gm)];
			expect(headings.map((match) => [Number(match[1]), match[2]])).toEqual([
				[1, 'stray-output'],
				[201, 'early-exit'],
				[202, 'crlf'],
			]);
			for (const match of headings) expect(full.get(key(match[2]!, offsetOf(match[3]!)))).toBe(Number(match[1]));
			const listed = [...markdown.matchAll(/^- (\d+)\. stdout offset ([\d,]+) /gm)];
			expect(listed.length).toBeGreaterThan(4);
			for (const match of listed) {
				const number = Number(match[1]);
				const findingCode = number <= 200 ? 'stray-output' : number > 201 ? 'crlf' : 'early-exit';
				expect(full.get(key(findingCode, offsetOf(match[2]!))), match[0]).toBe(number);
			}

			// The table: consecutive ranges from 1 to 300; a run's count is its range's size; hidden ranges are said.
			const findingsTable = markdown.match(/^\| # \|[\s\S]*?\n\n/m)![0];
			const rows = [...findingsTable.matchAll(/^\| (\d+)(?:–(\d+))? \| (.*?) \|/gm)].map((match) => ({
				first: Number(match[1]),
				last: Number(match[2] ?? match[1]),
				what: match[3]!,
			}));
			let next = 1;
			for (const row of rows) {
				expect(row.first, row.what).toBe(next);
				const size = row.last - row.first + 1;
				expect(row.what).toMatch(
					size === 1
						? /^`(stray-output|early-exit|crlf)`$/
						: new RegExp(`^(\`(stray-output|crlf)\` ×${size}|… ${size} findings not listed)$`),
				);
				next = row.last + 1;
			}

			expect(next).toBe(302);
			expect(rows.some((row) => row.what.endsWith('not listed'))).toBe(true);
		},
	);

	it('a report of the whole session numbers its table 1–301 the same way, without hidden rows', () => {
		const session = new Session(makeMeta({mode: 'tap'}));
		feed(session);
		const markdown = buildReport(session.getSnapshot(), {maxLines: 150, redact: false, toolVersion: 't'}).markdown;
		const table = markdown.match(/^\| # \|[\s\S]*?\n\n/m)![0];
		expect(table).toContain('| 1–200 | `stray-output` ×200 |');
		expect(table).toContain('| 201 | `early-exit` |');
		expect(table).toContain('| 202–301 | `crlf` ×100 |');
		expect(table).not.toContain('not listed');
	});

	it("rows of the table cut by the line budget are named by their findings' numbers", () => {
		const session = new Session(makeMeta({mode: 'tap'}));
		let text = '';
		// stray-output and invalid-json alternate: one row each, 61 rows with the early-exit. 62 lines: 60 and the
		// verdict block's `Exercised` line with its blank line.
		for (let i = 0; i < 30; i++) text += `log line ${i}\n{"jsonrpc":"2.0","id":1,"result":{bad}}\n`;
		session.pushChunk('stdout', 1, new TextEncoder().encode(text));
		session.exit({code: 0, signal: null, tMs: 5});
		session.finish(5);
		const markdown = buildReport(session.getSnapshot(), {maxLines: 62, redact: false, toolVersion: 't'}).markdown;
		const shown = [...markdown.matchAll(/^\| (\d+) \| `/gm)].map((match) => Number(match[1]));
		expect(shown).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
		expect(markdown).toContain('… and 51 more rows not listed (findings 11–61).');
		expect(markdown).toMatch(/^Left out: 51 rows of the findings table \(findings 11–61\);/m);
	});
});
