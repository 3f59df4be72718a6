import {Box, Text} from 'ink';
import type {Chunk, Frame} from '../../../core/types.js';
import {formatMs, groupDigits} from '../format.js';

/**
 * The chunks tab: which reads delivered the frame and when. A reply that arrives in one late burst, or
 * in 4096-byte pieces long after its request, is what a missing flush looks like (O2, O3).
 */

/** The one-line summary: `1 read at 12.3 ms` or `3 reads from 12.3 ms to 512.0 ms (499.7 ms apart)`. */
export function chunkSummary(chunks: readonly Chunk[]): string {
	if (chunks.length === 0) {
		return 'no reads recorded';
	}

	const first = chunks[0]!.tMs;
	const last = chunks.at(-1)!.tMs;
	if (chunks.length === 1) {
		return `1 read at ${formatMs(first)} ms`;
	}

	return `${chunks.length} reads from ${formatMs(first)} ms to ${formatMs(last)} ms (${formatMs(last - first)} ms apart)`;
}

/**
 * One line per read: its sequence number, time, time since the frame's first read, which bytes of the
 * frame it carried, and how big the read was.
 * `read #4 at 12.3 ms (+0.0 ms): frame bytes 0–99 (100 of a 120-byte read)`
 */
export function chunkLines(frame: Frame, chunks: readonly Chunk[]): string[] {
	const lines = [chunkSummary(chunks)];
	const first = chunks[0]?.tMs ?? 0;
	const frameEnd = frame.offset + frame.byteLength;
	for (const chunk of chunks) {
		const from = Math.max(chunk.offset, frame.offset);
		const to = Math.min(chunk.offset + chunk.bytes.length, frameEnd);
		const carried = Math.max(0, to - from);
		lines.push(
			`read #${chunk.seq} at ${formatMs(chunk.tMs)} ms (+${formatMs(chunk.tMs - first)} ms): frame bytes ${groupDigits(from - frame.offset)}–${groupDigits(Math.max(from, to - 1) - frame.offset)} (${groupDigits(carried)} of a ${groupDigits(chunk.bytes.length)}-byte read)`,
		);
	}

	return lines;
}

/** Props of {@link ChunksPane}. */
export interface ChunksPaneProps {
	readonly lines: readonly string[];
	readonly scroll: number;
	readonly height: number;
}

/** Shows `height` chunk lines from `scroll`. */
export function ChunksPane({lines, scroll, height}: ChunksPaneProps) {
	return (
		<Box flexDirection="column" height={height} overflow="hidden">
			{lines.slice(scroll, scroll + height).map((line, i) => (
				<Text key={scroll + i} wrap="truncate-end">
					{line}
				</Text>
			))}
		</Box>
	);
}
