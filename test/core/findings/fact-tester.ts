/**
 * The framing rules' half of the RuleTester: a rule's `onFrameFacts` fed one synthetic frame and its
 * facts (framing/facts.ts) directly, without a framer or a session. `valid` cases report nothing;
 * `invalid` cases report exactly these drafts (code, severity, offset, byte length, exact detail).
 */
import {describe, expect, it} from 'vitest';
import {RULES} from '../../../src/core/findings/registry.js';
import type {SessionFacts} from '../../../src/core/findings/engine.js';
import type {FrameFacts} from '../../../src/core/framing/facts.js';
import type {RawFrame} from '../../../src/core/framing/framer.js';
import {FRAMING_LIMITS} from '../../../src/core/framing/limits.js';
import {UNCHECKED_SDK_SCHEMAS} from '../../../src/core/jsonrpc/sdk-checks.js';
import type {FindingCode, FindingDraft, Severity} from '../../../src/core/types.js';

/** One frame and its facts; what is not given is a clean one-line JSON frame of 20 bytes at offset 100. */
export interface FactCase {
	readonly name: string;
	readonly frame?: Partial<RawFrame>;
	readonly facts?: Partial<FrameFacts>;
}

/** A draft the rule must report, exactly. */
export interface ExpectedDraft {
	readonly severity: Severity;
	readonly offset: number;
	readonly byteLength: number;
	readonly detail?: Readonly<Record<string, unknown>>;
}

/** The frame index the cases pass: every draft must carry it. */
const FRAME_INDEX = 7;

/** A clean frame: `{"jsonrpc":"2.0"}` and LF (18 bytes) at stream offset 100 of stdout, at 40 ms. */
export function cleanFrame(frame: Partial<RawFrame> = {}): RawFrame {
	return {
		stream: 'stdout',
		framing: 'newline',
		offset: 100,
		byteLength: 18,
		bodyOffset: 100,
		bodyLength: 17,
		terminator: 'lf',
		lineCount: 1,
		tMs: 40,
		firstTMs: 40,
		firstSeq: 3,
		lastSeq: 3,
		isJson: true,
		isBlank: false,
		message: {jsonrpc: '2.0'},
		...frame,
	} as RawFrame;
}

function judge(code: FindingCode, given: FactCase): FindingDraft[] {
	const rule = RULES.find((candidate) => candidate.code === code)!;
	const drafts: FindingDraft[] = [];
	const listeners = rule.create({
		report: (draft) => drafts.push(draft),
		facts: {meta: {command: []}} as unknown as SessionFacts,
		schemas: UNCHECKED_SDK_SCHEMAS,
	});
	listeners.onFrameFacts?.(cleanFrame(given.frame), {limits: FRAMING_LIMITS, ...given.facts}, FRAME_INDEX);
	return drafts;
}

/** Declares the fact cases of one framing rule. */
export function factTester(
	code: FindingCode,
	cases: {
		readonly valid: readonly FactCase[];
		readonly invalid: ReadonlyArray<FactCase & {readonly drafts: readonly ExpectedDraft[]}>;
	},
): void {
	describe(`rule ${code} over frame facts`, () => {
		const severity = RULES.find((candidate) => candidate.code === code)!.meta.severity;
		for (const valid of cases.valid) {
			it(`valid: ${valid.name}`, () => {
				expect(judge(code, valid)).toEqual([]);
			});
		}
		for (const invalid of cases.invalid) {
			it(`invalid: ${invalid.name}`, () => {
				const drafts = judge(code, invalid);
				expect(
					drafts.map((draft) => ({
						code: draft.code,
						severity: draft.severity ?? severity,
						stream: draft.stream,
						offset: draft.offset,
						byteLength: draft.byteLength,
						tMs: draft.tMs,
						frameIndex: draft.frameIndex,
						...(draft.detail === undefined ? {} : {detail: draft.detail}),
					})),
				).toEqual(
					invalid.drafts.map((expected) => ({
						code,
						severity: expected.severity,
						stream: invalid.frame?.stream ?? 'stdout',
						offset: expected.offset,
						byteLength: expected.byteLength,
						tMs: invalid.frame?.tMs ?? 40,
						frameIndex: FRAME_INDEX,
						...(expected.detail === undefined ? {} : {detail: expected.detail}),
					})),
				);
			});
		}
	});
}
