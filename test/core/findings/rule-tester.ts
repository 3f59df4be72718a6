/**
 * ESLint's RuleTester for finding codes: each rule's test lists `valid` exchanges (no finding of the code)
 * and `invalid` ones (exactly these findings of the code: severity, stream, offset, byte length and, when
 * given, detail), fed through a real Session (exchange.ts), so the rule runs as it does in a probe.
 */
import {describe, expect, it} from 'vitest';
import {RULES} from '../../../src/core/findings/registry.js';
import type {FindingCode, Severity, StreamName} from '../../../src/core/types.js';
import {findingsOf, run, type Step} from './exchange.js';

/** One exchange; `isComplete: false` ends it as a capture cut short. */
export interface RuleCase {
	readonly name: string;
	readonly steps: readonly Step[];
	readonly isComplete?: boolean;
}

/** What one expected finding must be, exactly. */
export interface ExpectedFinding {
	readonly severity: Severity;
	readonly stream: StreamName;
	readonly offset: number;
	readonly byteLength: number;
	/** Compared with `toMatchObject` (the keys given must match). */
	readonly detail?: Readonly<Record<string, unknown>>;
}

/** An exchange that must yield exactly `findings` of the code, in this order. */
export interface InvalidCase extends RuleCase {
	readonly findings: readonly ExpectedFinding[];
}

/** Declares the tests of one rule: it is registered once, every valid case is clean, every invalid case exact. */
export function ruleTester(
	code: FindingCode,
	cases: {readonly valid: readonly RuleCase[]; readonly invalid: readonly InvalidCase[]},
): void {
	describe(`rule ${code}`, () => {
		it('is registered once, in rules/<code>.ts', () => {
			expect(RULES.filter((rule) => rule.code === code)).toHaveLength(1);
		});
		for (const valid of cases.valid) {
			it(`valid: ${valid.name}`, () => {
				const session = run(valid.steps, valid.isComplete === false ? {isComplete: false} : {});
				expect(findingsOf(session, code)).toEqual([]);
			});
		}
		for (const invalid of cases.invalid) {
			it(`invalid: ${invalid.name}`, () => {
				const session = run(invalid.steps, invalid.isComplete === false ? {isComplete: false} : {});
				const found = findingsOf(session, code);
				expect(found.map(({severity, stream, offset, byteLength}) => ({severity, stream, offset, byteLength}))).toEqual(
					invalid.findings.map(({severity, stream, offset, byteLength}) => ({severity, stream, offset, byteLength})),
				);
				invalid.findings.forEach((expected, i) => {
					if (expected.detail) expect(found[i]!.detail).toMatchObject(expected.detail);
				});
			});
		}
	});
}
