import type {FindingDraft} from '../../types.js';

/**
 * A `report` that passes each finding once: a draft with the code, stream and offset of one it already
 * passed is dropped. For a rule that reports what it found so far in the settle phase and everything in
 * the end phase (engine.ts, `onSettle`), so that the end does not repeat the settle.
 * @param report the rule context's `report`
 * @returns a `report` with the same signature
 */
export function reportOnce(report: (draft: FindingDraft) => void): (draft: FindingDraft) => void {
	const passed = new Set<string>();
	return (draft) => {
		const key = `${draft.code}@${draft.stream}:${draft.offset}`;
		if (passed.has(key)) return;
		passed.add(key);
		report(draft);
	};
}
