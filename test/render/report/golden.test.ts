import {describe, expect, it} from 'vitest';
import type {SessionSnapshot} from '../../../src/core/types.js';
import {orderFindings} from '../../../src/render/report/sections/context.js';
import {FIELD_CASES, type FieldCase} from '../../fixtures/field-cases/cases.js';
import {chunk, expectGolden, goldenMeta, goldenReport, sessionFrom, type Step} from './golden.js';
import {SCENARIOS} from './scenarios.js';

/** A field case (test/fixtures/field-cases/cases.ts) as steps for {@link sessionFrom}. */
function fieldCaseSteps(fieldCase: FieldCase): Step[] {
	const steps: Step[] = fieldCase.chunks.map((part) => chunk(part.stream, part.tMs, part.bytes));
	for (const mark of fieldCase.marks ?? []) {
		steps.push({tMs: mark.tMs, mark});
	}

	if (fieldCase.exit !== undefined) {
		steps.push({tMs: fieldCase.exit.tMs, exit: {code: fieldCase.exit.code, signal: fieldCase.exit.signal}});
	}

	return steps;
}

/** What every report must satisfy, whatever the session (docs/cli.md#report). */
function expectReportShape(report: string, snapshot: SessionSnapshot): void {
	const lines = report.split('\n');
	expect(report.endsWith('\n')).toBe(true);
	// Capped at the default budget.
	expect(lines.length - 1).toBeLessThanOrEqual(150);
	// No ANSI, no control characters at all besides LF.
	expect(report).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u009b]/);
	// Verdict first.
	expect(lines[0]).toMatch(new RegExp(`^\\*\\*mcp-wire: ${snapshot.summary.verdict.toUpperCase()}\\*\\*`));
	// Every fence and <details> is closed.
	expect(lines.filter((line) => /^`{3,}text$/.test(line)).length).toBe(
		lines.filter((line) => /^`{3,}$/.test(line)).length,
	);
	expect(lines.filter((line) => line === '<details>').length).toBe(
		lines.filter((line) => line === '</details>').length,
	);
	// The first finding of each code shows its bytes (or, for a finding about absence, where) outside any
	// <details>: in its block's caption, or inline in a one-paragraph block.
	const depthAt: number[] = [];
	let depth = 0;
	for (const line of lines) {
		depth += line === '<details>' ? 1 : 0;
		depthAt.push(depth);
		depth -= line === '</details>' ? 1 : 0;
	}

	const firsts = new Map<string, {number: number; byteLength: number}>();
	for (const [index, finding] of orderFindings(snapshot.findings).entries()) {
		if (!firsts.has(finding.code)) {
			firsts.set(finding.code, {number: index + 1, byteLength: finding.byteLength});
		}
	}

	for (const [findingCode, {number, byteLength}] of firsts) {
		const start = lines.findIndex((line) => line.startsWith(`**${number}. \`${findingCode}\``));
		expect(start, `heading of ${findingCode}`).toBeGreaterThanOrEqual(0);
		expect(depthAt[start]).toBe(0);
		let end = lines.findIndex((line, index) => index > start && /^\*\*\d+\. `/.test(line));
		end = end === -1 ? lines.length : end;
		const block = lines.slice(start, end).filter((_, index) => depthAt[start + index] === 0);
		const evidence =
			byteLength > 0
				? /Bytes at /.test(block.join('\n'))
				: /Where: |Bytes at /.test(block.join('\n')) || block.length === 1;
		expect(evidence, `visible evidence of ${findingCode}`).toBe(true);
		const caption = block.findIndex((line) => /^(?:Bytes at |Where: )/.test(line));
		if (caption !== -1 && /^`{3,}text$/.test(block[caption + 2] ?? '')) {
			expect(block[caption + 3], `hex excerpt of ${findingCode}`).toMatch(/^[0-9a-f]{8}: [0-9a-f]{2}/);
		}
	}
}

describe('report goldens: scripted sessions with real-world bytes', () => {
	it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))('%s', (name, scenario) => {
		const snapshot = sessionFrom(scenario.meta, scenario.steps).getSnapshot();
		const report = goldenReport(snapshot);
		expectReportShape(report, snapshot);
		expectGolden(name, report);
	});
});

describe('report goldens: field cases (docs/field-cases.md)', () => {
	it.each(FIELD_CASES.map((fieldCase) => [fieldCase.id, fieldCase] as const))('%s', (id, fieldCase) => {
		const meta = goldenMeta({command: fieldCase.command ?? ['server'], name: fieldCase.title});
		const snapshot = sessionFrom(meta, fieldCaseSteps(fieldCase)).getSnapshot();
		const report = goldenReport(snapshot);
		expectReportShape(report, snapshot);
		// Every code the session found is in the report (what the detectors find is tested in test/core).
		for (const finding of snapshot.findings) {
			expect(report).toContain(`\`${finding.code}\``);
		}

		expectGolden(`field-${id}`, report);
	});
});
