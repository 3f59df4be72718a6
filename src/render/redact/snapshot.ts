import {Buffer} from 'node:buffer';
import type {SessionSnapshot, StreamName} from '../../core/types.js';
import {latin1, maskInPlace} from './mask.js';
import {Redactor} from './redactor.js';
import type {RedactionCounts, RedactOptions} from './types.js';

/** What {@link redactSnapshot} returns. */
export interface RedactedSnapshot {
	/** The same session with every byte, frame, finding and fact redacted; offsets and lengths unchanged. */
	readonly snapshot: SessionSnapshot;
	/** What was redacted in the capture (command, cwd and each stream's bytes), by kind. */
	readonly counts: RedactionCounts;
}

export const STREAMS: readonly StreamName[] = ['stdin', 'stdout', 'stderr'];

/**
 * A redacted view of a finished (or live) session for the report: each stream's bytes are masked as a
 * whole (so a secret split across reads is still caught), same length; frames, findings, the command and
 * the summary are redacted as text. The command is redacted first, so argument values it hides are also
 * masked in the streams; then secret-named values seen in any stream are learned and masked everywhere.
 * @param snapshot the session as captured.
 * @param options see {@link RedactOptions}.
 * @returns the view and the counts (occurrences in the command, cwd and stream bytes).
 */
export function redactSnapshot(snapshot: SessionSnapshot, options: RedactOptions = {}): RedactedSnapshot {
	if ('pieces' in snapshot && typeof snapshot.pieces === 'function')
		return redactPieces(snapshot as KeptPieces, options);
	const redactor = new Redactor(options);
	const meta = redactor.meta(snapshot.meta, {count: true});
	const original = Object.fromEntries(
		STREAMS.map((stream) => [stream, snapshot.bytes(stream, 0, snapshot.streamLength(stream))]),
	) as Record<StreamName, Uint8Array>;
	for (const stream of STREAMS) {
		redactor.learnFromBytes(latin1(original[stream]));
	}

	const masked = Object.fromEntries(
		STREAMS.map((stream) => [
			stream,
			redactor.bytes(original[stream], options.payloads === true && stream !== 'stderr', {count: true}),
		]),
	) as Record<StreamName, Uint8Array>;
	const frames = snapshot.frames.map((frame) => redactor.frame(frame));
	const findings = snapshot.findings.map((finding) => redactor.finding(finding));
	const slice = (stream: StreamName, offset: number, length: number): Uint8Array => {
		const data = masked[stream];
		const start = Math.min(Math.max(0, offset), data.length);
		return data.slice(start, Math.min(data.length, start + Math.max(0, length)));
	};

	const view: SessionSnapshot = {
		meta,
		frames,
		findings,
		marks: snapshot.marks.map((mark) => redactor.mark(mark)),
		...(snapshot.exit === undefined ? {} : {exit: snapshot.exit}),
		summary: redactor.summary(snapshot.summary),
		isEnded: snapshot.isEnded,
		bytes: slice,
		streamLength: (stream) => masked[stream].length,
		chunksOf: (frame) =>
			snapshot
				.chunksOf(frame)
				.map((chunk) => ({...chunk, bytes: slice(chunk.stream, chunk.offset, chunk.bytes.length)})),
		stderrTail: (maxLines) => {
			const lines: string[] = [];
			for (let i = frames.length - 1; i >= 0 && lines.length < maxLines; i--) {
				const frame = frames[i]!;
				if (frame.stream === 'stderr') {
					lines.push(frame.text ?? '');
				}
			}

			return lines.reverse();
		},
	};
	return {snapshot: view, counts: redactor.getCounts()};
}

/** A snapshot that holds only some byte ranges of its streams (render/report/keep.ts). */
type KeptPieces = SessionSnapshot & {
	pieces(stream: StreamName): ReadonlyArray<{readonly offset: number; readonly bytes: Uint8Array}>;
};

/**
 * {@link redactSnapshot} for a snapshot that kept only what the report prints (`mcp-wire report` on a
 * big capture, docs/performance.md#replay): only those byte ranges, frames, findings and stderr lines are redacted, not
 * the whole capture. Secret-named values are learned from what was kept (the command, the kept bytes,
 * the stderr tail) and masked in all of it; the shapes (`ghp_…`, `Bearer …`, home paths) are masked
 * wherever they appear in it. Counts cover what was kept.
 */
function redactPieces(snapshot: KeptPieces, options: RedactOptions): RedactedSnapshot {
	const redactor = new Redactor(options);
	const meta = redactor.meta(snapshot.meta, {count: true});
	const pieces = Object.fromEntries(STREAMS.map((stream) => [stream, snapshot.pieces(stream)])) as Record<
		StreamName,
		ReadonlyArray<{offset: number; bytes: Uint8Array}>
	>;
	const stderrLines = snapshot.stderrTail(STDERR_TAIL_REDACTED);
	for (const stream of STREAMS) for (const piece of pieces[stream]) redactor.learnFromBytes(latin1(piece.bytes));
	for (const line of stderrLines) redactor.learnFromBytes(Buffer.from(line, 'utf8').toString('latin1'));
	const masked = Object.fromEntries(
		STREAMS.map((stream) => [
			stream,
			pieces[stream].map((piece) => ({
				offset: piece.offset,
				bytes: maskCutEdges(
					redactor.bytes(piece.bytes, options.payloads === true && stream !== 'stderr', {count: true}),
					piece.offset > 0,
					piece.offset + piece.bytes.length < snapshot.streamLength(stream),
				),
			})),
		]),
	) as Record<StreamName, Array<{offset: number; bytes: Uint8Array}>>;
	const slice = (stream: StreamName, offset: number, length: number): Uint8Array => {
		let best = new Uint8Array(0);
		for (const piece of masked[stream]) {
			if (offset < piece.offset || offset >= piece.offset + piece.bytes.length) continue;
			const from = offset - piece.offset;
			const got = piece.bytes.slice(from, Math.min(piece.bytes.length, from + Math.max(0, length)));
			if (got.length > best.length) best = got;
		}

		return best;
	};

	const tail = stderrLines.map((line) => redactor.text(line));
	const view: SessionSnapshot = {
		meta,
		frames: snapshot.frames.map((frame) => redactor.frame(frame)),
		findings: snapshot.findings.map((finding) => redactor.finding(finding)),
		marks: snapshot.marks.map((mark) => redactor.mark(mark)),
		...(snapshot.exit === undefined ? {} : {exit: snapshot.exit}),
		summary: redactor.summary(snapshot.summary),
		isEnded: snapshot.isEnded,
		bytes: slice,
		streamLength: (stream) => snapshot.streamLength(stream),
		chunksOf: () => [],
		stderrTail: (maxLines) => (maxLines <= 0 ? [] : tail.slice(-maxLines)),
	};
	return {snapshot: view, counts: redactor.getCounts()};
}

/** Stderr lines a kept snapshot's redacted view can show (the session keeps 200). */
const STDERR_TAIL_REDACTED = 200;

/** A run of token characters at the start or the end of a kept piece. */
const EDGE_RUN_START = /^[A-Za-z0-9_.~+/=-]+/;
const TOKEN_UNIT = /[A-Za-z0-9_.~+/=-]/;

/**
 * Masks a token run that a kept piece's edge cuts, when it could be part of a secret (at least 8
 * characters with a digit, or upper and lower case letters): the rest of it was not kept, so its shape
 * cannot be checked, and half a token must not show (a quote cut to the column width).
 * @param isCutAtStart the piece starts after the stream's start; `isCutAtEnd`: it ends before the stream's end.
 * @returns `bytes`, masked in place.
 */
function maskCutEdges(bytes: Uint8Array, isCutAtStart: boolean, isCutAtEnd: boolean): Uint8Array {
	const text = latin1(bytes);
	const isSecretLike = (run: string): boolean =>
		run.length >= 8 && (/\d/.test(run) || (/[A-Z]/.test(run) && /[a-z]/.test(run)));
	const head = isCutAtStart ? EDGE_RUN_START.exec(text)?.[0] : undefined;
	if (head !== undefined && isSecretLike(head)) maskInPlace(bytes, 0, head.length);
	// Walked back from the end: a `+$` regex retries from every start of a long run (quadratic).
	let start = text.length;
	while (isCutAtEnd && start > 0 && TOKEN_UNIT.test(text[start - 1]!)) start--;
	if (isSecretLike(text.slice(start))) maskInPlace(bytes, start, text.length);
	return bytes;
}
