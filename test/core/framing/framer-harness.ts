import {Buffer} from 'node:buffer';
import type {Chunk, FindingDraft, StreamName} from '../../../src/core/types.js';
import {
	createFramer,
	ProtocolFramer,
	type FramerOutput,
	type FramingLimits,
	type RawFrame,
} from '../../../src/core/framing/index.js';
import {RULES} from '../../../src/core/findings/registry.js';
import type {SessionFacts} from '../../../src/core/findings/engine.js';
import {UNCHECKED_SDK_SCHEMAS} from '../../../src/core/jsonrpc/sdk-checks.js';

/** Bytes from a string (UTF-8) or from byte values / buffers concatenated. */
export function bytes(...pieces: ReadonlyArray<string | readonly number[] | Uint8Array>): Buffer {
	return Buffer.concat(
		pieces.map((piece) =>
			typeof piece === 'string' ? Buffer.from(piece, 'utf8') : Buffer.from(piece as readonly number[]),
		),
	);
}

/** Chunks of `data` cut at `cuts` (ascending stream offsets), seq from `firstSeq`, tMs = 10 × seq. */
export function chunksOf(
	data: Uint8Array,
	cuts: readonly number[] = [],
	stream: StreamName = 'stdout',
	firstSeq = 0,
): Chunk[] {
	const bounds = [0, ...cuts.filter((cut) => cut > 0 && cut < data.length), data.length];
	const chunks: Chunk[] = [];
	for (let i = 0; i + 1 < bounds.length; i++) {
		const start = bounds[i]!;
		const end = bounds[i + 1]!;
		if (end > start || data.length === 0) {
			const seq = firstSeq + chunks.length;
			chunks.push({seq, stream, tMs: seq * 10, offset: start, bytes: data.subarray(start, end)});
		}
	}

	return chunks;
}

/**
 * The drafts the framing rules (findings/rules/, `onFrameFacts`) report for one framer output, in report
 * order: what the session reports for the frame before it is classified (no `frameIndex`: there is no
 * session).
 */
export function framingDrafts(output: FramerOutput): FindingDraft[] {
	const drafts: FindingDraft[] = [];
	const facts = output.facts;
	if (facts === undefined) return drafts;
	const context = {
		report: (draft: FindingDraft) => drafts.push(draft),
		facts: {meta: {command: []}} as unknown as SessionFacts,
		schemas: UNCHECKED_SDK_SCHEMAS,
	};
	for (const rule of RULES) {
		const instance = rule.create(context);
		if (instance.onFrameFacts === undefined) continue;
		instance.onFrameFacts(output.frame, facts, undefined);
		// A framing rule may hold a frame until the exit (missing-newline: docs/findings.md#missing-newline);
		// the harness has no exit, so the end releases it as a capture cut short does.
		instance.onEnd?.({tMs: output.frame.tMs, isComplete: false});
	}
	return drafts;
}

/** A framer output with the drafts the framing rules report for it ({@link framingDrafts}). */
export type JudgedOutput = FramerOutput & {readonly findings: readonly FindingDraft[]};

export interface RunResult {
	readonly outputs: JudgedOutput[];
	readonly frames: RawFrame[];
	readonly findings: FindingDraft[];
}

/** Feeds `data` cut at `cuts` through a fresh framer and ends it at tMs 1000. */
export function runFramer(
	data: Uint8Array | string,
	options: {
		cuts?: readonly number[];
		stream?: StreamName;
		mode?: 'protocol' | 'log';
		end?: boolean;
		limits?: FramingLimits;
	} = {},
): RunResult {
	const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
	const stream = options.stream ?? 'stdout';
	const framer =
		options.limits === undefined
			? createFramer(stream, {mode: options.mode ?? 'protocol'})
			: new ProtocolFramer(stream, options.limits);
	const outputs: JudgedOutput[] = [];
	const emit = (output: FramerOutput): void => {
		outputs.push({...output, findings: framingDrafts(output)});
	};

	for (const chunk of chunksOf(buf, options.cuts, stream)) {
		framer.push(chunk, emit);
	}

	if (options.end !== false) {
		framer.end(1000, emit);
	}

	return {
		outputs,
		frames: outputs.map((output) => output.frame),
		findings: outputs.flatMap((output) => output.findings),
	};
}

/** A frame without its chunk-dependent fields (tMs, firstTMs, firstSeq, lastSeq). */
export function stableFrame(frame: RawFrame): Omit<RawFrame, 'tMs' | 'firstTMs' | 'firstSeq' | 'lastSeq'> {
	const {tMs: _t, firstTMs: _f, firstSeq: _s, lastSeq: _l, ...rest} = frame;
	return rest;
}

/** A finding without `tMs`. */
export function stableFinding(finding: FindingDraft): Omit<FindingDraft, 'tMs'> {
	const {tMs: _t, ...rest} = finding;
	return rest;
}

/** Outputs without chunk-dependent fields, for comparing runs with different chunk cuts. */
export function stableOutputs(outputs: readonly JudgedOutput[]): unknown[] {
	return outputs.map((output) => ({
		frame: stableFrame(output.frame),
		facts: output.facts,
		findings: output.findings.map(stableFinding),
	}));
}

/** [code, offset] pairs of all findings, in order. */
export function codesAt(findings: readonly FindingDraft[]): Array<[string, number]> {
	return findings.map((finding) => [finding.code, finding.offset]);
}

/** Tiny limits that make every bound reachable with short inputs. */
export const SMALL_LIMITS: FramingLimits = {
	oversizeWarnBytes: 64,
	oversizeErrorBytes: 256,
	pipeBlockBytes: 64,
	multilineMaxLines: 4,
	multilineMaxBytes: 200,
	headerMaxLines: 3,
	headerMaxLineBytes: 40,
	bodyScanSlackBytes: 8,
	bodyScanMinBytes: 24,
	bodyScanNoLengthBytes: 48,
};
