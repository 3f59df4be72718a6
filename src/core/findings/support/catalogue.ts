import type {Frame} from '../../types.js';
import {isPlainObject} from '../../jsonrpc/classify.js';

/**
 * The items of a `tools/list` result on stdout, as sent: the `tools` array's members that are objects,
 * each with its index in the array. Input: a correlated frame. Output: undefined for any other frame, or
 * when `tools` is not an array (`invalid-result` names that).
 */
export function listedTools(
	frame: Frame,
): readonly {readonly index: number; readonly tool: Record<string, unknown>}[] | undefined {
	if (frame.stream !== 'stdout' || frame.kind !== 'response' || frame.answers?.method !== 'tools/list')
		return undefined;
	const result = (frame.message as {result?: unknown}).result;
	if (!isPlainObject(result) || !Array.isArray(result['tools'])) return undefined;
	const out: {index: number; tool: Record<string, unknown>}[] = [];
	(result['tools'] as unknown[]).forEach((tool, index) => {
		if (isPlainObject(tool)) out.push({index, tool});
	});
	return out;
}

/** The `where` of a catalogue finding: the reply that carries the tool (its offset and bytes, frame index, time). */
export function atFrame(frame: Frame): {
	readonly stream: 'stdout';
	readonly offset: number;
	readonly byteLength: number;
	readonly frameIndex: number;
	readonly tMs: number;
} {
	return {
		stream: 'stdout',
		offset: frame.offset,
		byteLength: frame.byteLength,
		frameIndex: frame.index,
		tMs: frame.tMs,
	};
}
