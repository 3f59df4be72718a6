import type {FindingCode, FindingDraft, Severity} from '../../types.js';
import type {RawFrame} from '../../framing/framer.js';

/**
 * A draft for a finding whose evidence lies in `frame` (a framing rule's `onFrameFacts`): on the frame's
 * stream, at its completion time, with only the fields that are set, and the session's `frameIndex` last.
 * @param offset stream byte offset of the evidence; `byteLength` its length in bytes
 */
export function frameDraft(
	code: FindingCode,
	frame: RawFrame,
	offset: number,
	byteLength: number,
	frameIndex: number | undefined,
	detail?: Readonly<Record<string, unknown>>,
	severity?: Severity,
): FindingDraft {
	const draft: {-readonly [K in keyof FindingDraft]: FindingDraft[K]} = {
		code,
		stream: frame.stream,
		offset,
		byteLength,
		tMs: frame.tMs,
	};
	if (severity !== undefined) draft.severity = severity;
	if (detail !== undefined) draft.detail = detail;
	if (frameIndex !== undefined) draft.frameIndex = frameIndex;
	return draft;
}
