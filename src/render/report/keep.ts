import type {Session} from '../../core/session/session.js';
import type {Finding, FindingCode, Frame, SessionSnapshot, StreamName} from '../../core/types.js';
import {createKeptBytes} from '../kept-bytes.js';
import {DEFAULT_MAX_LINES} from './markdown.js';
import {orderClass} from './sections/context.js';

/** Findings of each code kept from the end of the session (the first ones are kept by the line budget). */
export const LAST_FINDINGS_KEPT = 5;

/** What the report of a session that kept nothing left out of memory, for the sections to say so. */
export interface KeptFacts {
	/** Per code: findings neither among the first nor the last ones kept (the counts in the verdict are exact). */
	readonly omitted: ReadonlyMap<FindingCode, number>;
	/** Codes of the findings on a frame of the kept timeline window. */
	codesOfFrame(index: number): readonly FindingCode[];
	/**
	 * A kept finding's number: its place, from 1, in the report order of all the session's findings
	 * (sections/context.ts `orderFindings`), the number a report of the whole session gives it; undefined
	 * for a finding not kept. Call after the session finished.
	 */
	numberOf(finding: Finding): number | undefined;
}

/** A {@link SessionSnapshot} holding only what a report prints, plus the byte ranges it kept (for redaction). */
export interface KeptSnapshot extends SessionSnapshot {
	/** The kept bytes of a stream, as `[offset, bytes]` ranges (what redaction reads and masks). */
	pieces(stream: StreamName): ReadonlyArray<{readonly offset: number; readonly bytes: Uint8Array}>;
}

/** What {@link keepForReport} returns. */
export interface ReportKeeper {
	/** The kept session as a snapshot (call after the session finished). */
	snapshot(): KeptSnapshot;
	/** What was left out of memory. */
	readonly facts: KeptFacts;
}

/**
 * Keep only what `mcp-wire report` prints (docs/performance.md#replay) from a session that keeps nothing (`retain: false`),
 * listening to its events: counts come from the session's summary; per finding code the first
 * `scale + 1` findings (what the fullest plan lists: the first in full and `moreFindings` more) and the
 * last {@link LAST_FINDINGS_KEPT}, with the bytes around each (render/kept-bytes.ts); the first `scale`
 * stdin/stdout frames (the timeline window) and the codes found on them; the stderr tail (the session's).
 * `scale` is the report's (`max(20, maxLines / 5)`). Memory is bounded by the number of codes, not frames.
 * Attach before the first event.
 * @param session a session, best with `retain: false`
 * @param options `maxLines`: the report's line budget (default 150)
 */
export function keepForReport(session: Session, options: {readonly maxLines?: number} = {}): ReportKeeper {
	const scale = Math.max(20, Math.floor(Math.max(1, Math.floor(options.maxLines ?? DEFAULT_MAX_LINES)) / 5));
	const firstKept = scale + 1;
	const bytes = createKeptBytes();
	const frames: Frame[] = [];
	const frameCodes = new Map<number, FindingCode[]>();
	const byCode = new Map<
		FindingCode,
		{
			first: Array<{finding: Finding; seq: number}>;
			last: Array<{finding: Finding; seq: number; handle: object}>;
			seen: number;
		}
	>();
	let seq = 0;
	// Findings seen per report-order class, and for each kept finding how many of its class came before it:
	// its number in the report order of all findings, without holding the others (numberOf).
	const classSeen = new Map<number, number>();
	const sameClassBefore = new Map<Finding, number>();
	session.on((event) => {
		switch (event.type) {
			case 'chunk': {
				bytes.chunk(event.chunk);
				break;
			}

			case 'frame': {
				bytes.frame(event.frame);
				if (event.frame.stream !== 'stderr' && frames.length < scale) frames.push(shownPart(event.frame));
				break;
			}

			case 'finding': {
				const finding = event.finding;
				if (finding.frameIndex !== undefined && frames.length > 0 && finding.frameIndex <= frames.at(-1)!.index) {
					const codes = frameCodes.get(finding.frameIndex) ?? [];
					if (!codes.includes(finding.code)) codes.push(finding.code);
					frameCodes.set(finding.frameIndex, codes);
				}

				let group = byCode.get(finding.code);
				if (group === undefined) {
					group = {first: [], last: [], seen: 0};
					byCode.set(finding.code, group);
				}

				group.seen += 1;
				seq += 1;
				const order = orderClass(finding);
				const before = classSeen.get(order) ?? 0;
				classSeen.set(order, before + 1);
				sameClassBefore.set(finding, before);
				if (group.first.length < firstKept) {
					group.first.push({finding, seq});
					bytes.keep(finding);
					break;
				}

				group.last.push({finding, seq, handle: bytes.keep(finding)});
				if (group.last.length > LAST_FINDINGS_KEPT) {
					const dropped = group.last.shift()!;
					bytes.release(dropped.handle);
					sameClassBefore.delete(dropped.finding);
				}

				break;
			}

			default:
		}
	});
	const omitted = (): Map<FindingCode, number> => {
		const map = new Map<FindingCode, number>();
		for (const [code, group] of byCode) {
			const left = group.seen - group.first.length - group.last.length;
			if (left > 0) map.set(code, left);
		}

		return map;
	};

	return {
		facts: {
			get omitted() {
				return omitted();
			},
			codesOfFrame: (index) => frameCodes.get(index) ?? [],
			numberOf(finding) {
				const before = sameClassBefore.get(finding);
				if (before === undefined) return undefined;
				const order = orderClass(finding);
				let number = before + 1;
				for (const [other, count] of classSeen) if (other < order) number += count;
				return number;
			},
		},
		snapshot() {
			const live = session.getSnapshot();
			// Findings in the order found (the kept first ones of every code, then the kept last ones).
			const findings = [...byCode.values()]
				.flatMap((group) => [...group.first, ...group.last])
				.sort((a, b) => a.seq - b.seq)
				.map(({finding}) => finding);
			const pieces = (stream: StreamName): Array<{offset: number; bytes: Uint8Array}> => {
				const out: Array<{offset: number; bytes: Uint8Array}> = [];
				const seen = new Set<number>();
				for (const finding of findings) {
					if (finding.stream !== stream) continue;
					const start = Math.max(0, Math.floor(finding.offset / 16) * 16 - 32);
					if (seen.has(start)) continue;
					seen.add(start);
					const data = bytes.bytes(stream, start, finding.offset - start + Math.min(finding.byteLength, 1024) + 128);
					if (data.length > 0) out.push({offset: start, bytes: data});
				}

				return out;
			};

			return {
				meta: live.meta,
				frames,
				findings,
				marks: live.marks,
				...(live.exit === undefined ? {} : {exit: live.exit}),
				summary: live.summary,
				isEnded: live.isEnded,
				bytes: (stream, offset, length) => bytes.bytes(stream, offset, length),
				streamLength: (stream) => session.streamLength(stream),
				chunksOf: () => [],
				stderrTail: (maxLines) => session.stderrTail(maxLines),
				pieces,
			};
		},
	};
}

/**
 * What the report shows of a frame (sections/timeline.ts), without what it never prints: a request's,
 * response's or notification's parsed `message` (a 5 MB `tools/call` result held for a timeline row
 * that shows its method and id, docs/performance.md#replay). An error keeps only its `error.code` and `error.message`
 * (the row's detail), `json` and `text` frames keep their value and text.
 */
function shownPart(frame: Frame): Frame {
	switch (frame.kind) {
		case 'request':
		case 'response':
		case 'notification': {
			if (frame.message === undefined) return frame;
			const {message: _message, ...rest} = frame;
			return rest;
		}

		case 'error': {
			const error = (frame.message as {error?: unknown} | undefined)?.error;
			if (typeof error !== 'object' || error === null) return frame;
			const {code, message} = error as {code?: unknown; message?: unknown};
			return {...frame, message: {error: {code, message}}};
		}

		default: {
			return frame;
		}
	}
}
