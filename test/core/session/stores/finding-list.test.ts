/**
 * The compact finding store (columns, a finding's text built again when read) against the plain list it
 * replaces in the TUI (docs/performance.md#tui-on-big-captures): over random finding sequences, the same
 * length, the same count per code and, at every index, the same finding (equal values, keys in the same
 * order, numbers by Object.is), its code, severity and frame read from the columns alike.
 */
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {CompactFindings} from '../../../../src/core/session/stores/compact-findings.js';
import {RetainedFindings, type FindingList} from '../../../../src/core/session/stores/finding-list.js';
import {FINDING_CODES, type ClientImpact, type Finding} from '../../../../src/core/types.js';

/** Deep equality that also compares key order and numbers by Object.is (what `toStrictEqual` does not). */
function sameValue(a: unknown, b: unknown): boolean {
	if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
	if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
	const ka = Object.keys(a);
	const kb = Object.keys(b);
	if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return false;
	return ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const SHARED_IMPACT: readonly ClientImpact[] = [{client: 'vscode', reaction: 'ok', note: 'JSON.parse accepts it'}];

/** Findings that often share everything but their place (as the rules make them), with the odd value a column cannot hold. */
const findingArb: fc.Arbitrary<Finding> = fc
	.record(
		{
			code: fc.constantFrom(...FINDING_CODES.slice(0, 4)),
			stream: fc.oneof(fc.constantFrom('stdin', 'stdout', 'stderr'), fc.constant('odd')),
			offset: fc.oneof(fc.nat(), fc.double(), fc.constant(-0)),
			byteLength: fc.nat(10),
			frameIndex: fc.oneof(fc.nat(50), fc.constant(undefined), fc.constant('x')),
			tMs: fc.oneof(fc.double({min: 0, max: 1e6}), fc.constant(Number.NaN), fc.constant(-0)),
			severity: fc.constantFrom('error', 'warning', 'info'),
			message: fc.constantFrom('a message', 'another one', 'a message\u0000"quoted"'),
			hint: fc.constantFrom('fix it', ''),
			impact: fc.oneof(
				fc.constant(SHARED_IMPACT),
				fc.constant(undefined).map(() => SHARED_IMPACT.map((i) => ({...i}))),
				fc.constant([]),
			),
			rules: fc.constantFrom(['R2'], ['R2', 'O5'], []),
			detail: fc.oneof(
				fc.constant(undefined),
				fc.dictionary(
					fc.constantFrom('kind', 'reason', 'n'),
					fc.oneof(fc.jsonValue(), fc.constantFrom(undefined, -0, 0, Number.NaN, null)),
				),
				fc.constant(undefined).map(() => ({when: new Date(0)})),
			),
			confidence: fc.constantFrom('observed', 'inferred'),
		},
		{requiredKeys: ['code', 'stream', 'offset', 'byteLength', 'tMs', 'severity', 'message', 'hint', 'impact', 'rules']},
	)
	.map((finding) => finding as unknown as Finding);

function both(findings: readonly Finding[]): [RetainedFindings, CompactFindings] {
	const plain = new RetainedFindings();
	const compact = new CompactFindings();
	for (const finding of findings) {
		plain.add(finding);
		compact.add(finding);
	}

	return [plain, compact];
}

function expectSame(want: FindingList, got: FindingList): void {
	expect(got.length).toBe(want.length);
	for (const code of FINDING_CODES) expect(got.countOf(code)).toBe(want.countOf(code));
	for (let i = 0; i < want.length; i++) {
		expect(sameValue(got.at(i), want.at(i))).toBe(true);
		expect(got.codeAt(i)).toBe(want.codeAt(i));
		expect(got.severityAt(i)).toBe(want.severityAt(i));
		expect(Object.is(got.frameIndexAt(i), want.frameIndexAt(i))).toBe(true);
	}

	for (const i of [-1, 0.5, want.length, Number.NaN]) expect(got.at(i)).toBe(want.at(i));
}

describe('CompactFindings against the plain list', () => {
	it('holds the same findings, counts and columns for any sequence', () => {
		fc.assert(
			fc.property(fc.array(findingArb, {maxLength: 200}), (findings) => {
				const [plain, compact] = both(findings);
				expectSame(plain, compact);
			}),
			{numRuns: 200},
		);
	});

	it('gives a view that stays as it was when more findings are added', () => {
		fc.assert(
			fc.property(fc.array(findingArb, {maxLength: 60}), fc.array(findingArb, {maxLength: 60}), (first, more) => {
				const [plain, compact] = both(first);
				const views = [plain.view(), compact.view()] as const;
				for (const finding of more) {
					plain.add(finding);
					compact.add(finding);
				}

				for (const view of views) expect(view.length).toBe(first.length);
				for (let i = 0; i <= first.length; i++) expect(sameValue(views[1].at(i), views[0].at(i))).toBe(true);
				expect(views[1].at(first.length)).toBeUndefined();
			}),
			{numRuns: 100},
		);
	});

	it('tells apart findings whose values differ only where a serialisation could blur them', () => {
		const base = {code: 'crlf', stream: 'stdin', offset: 0, byteLength: 2, tMs: 0, severity: 'warning'} as const;
		const rest = {message: 'm', hint: 'h', impact: [], rules: []};
		const findings = [
			{...base, ...rest, detail: {n: 0}},
			{...base, ...rest, detail: {n: -0}},
			{...base, ...rest, detail: {n: null}},
			{...base, ...rest, detail: {n: Number.NaN}},
			{...base, ...rest, detail: {n: '0'}},
			{...base, ...rest, detail: {n: undefined}},
			{...base, ...rest, detail: {}},
			{...base, ...rest, detail: {a: 1, b: 2}},
			{...base, ...rest, detail: {b: 2, a: 1}},
			{...base, ...rest, detail: [undefined]},
			{...base, ...rest, detail: []},
			{...base, ...rest, detail: Object.assign(Object.create(null) as object, {a: 1})},
			{...base, ...rest, detail: {a: 1}},
			{...rest, ...base},
			{...base, frameIndex: undefined, ...rest},
		] as unknown as Finding[];
		const [plain, compact] = both(findings);
		expectSame(plain, compact);
		expect(compact.shapeCount).toBe(findings.length);
	});

	it('keeps one shape for a finding on every frame, whatever its place', () => {
		const compact = new CompactFindings();
		for (let i = 0; i < 10_000; i++)
			compact.add({
				code: 'crlf',
				stream: i % 2 === 0 ? 'stdin' : 'stdout',
				offset: i * 100 + 98,
				byteLength: 2,
				frameIndex: i,
				tMs: i * 0.05,
				severity: 'warning',
				message: 'a message on stdin ends with CR LF (0D 0A) instead of LF',
				// A hint and an impact list made afresh for each finding, equal in value.
				hint: ['Write LF only.', 'Node.js'].join(' '),
				impact: SHARED_IMPACT.map((impact) => ({...impact})),
				rules: ['R2', 'O5'],
			});
		expect(compact.length).toBe(10_000);
		expect(compact.countOf('crlf')).toBe(10_000);
		expect(compact.shapeCount).toBe(1);
		expect(compact.at(9_999)).toEqual({
			code: 'crlf',
			stream: 'stdout',
			offset: 999_998,
			byteLength: 2,
			frameIndex: 9_999,
			tMs: 9_999 * 0.05,
			severity: 'warning',
			message: 'a message on stdin ends with CR LF (0D 0A) instead of LF',
			hint: 'Write LF only. Node.js',
			impact: SHARED_IMPACT,
			rules: ['R2', 'O5'],
		});
	});
});
