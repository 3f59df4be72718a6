import type {StreamName} from '../types.js';

/**
 * What a gap in a capture (a `gap` mark: bytes that crossed the wire but are not in the capture) means
 * for the findings (docs/capture-format.md#gaps-and-incomplete-captures: a capture never lies, and a verdict is a promise).
 *
 * 1. Framing: the frame cut by the gap and the bytes after it up to the next LF are not framed (they are
 *    kept as bytes, in no frame), so no framing finding (`invalid-json`, `stray-output`,
 *    `missing-newline`…) comes from the cut; framing resumes at the first line after the gap.
 * 2. Pairing and ordering: once either protocol stream (stdin, stdout) had a gap, a request, response or
 *    `initialize` may be among the missing bytes, so findings that depend on what the other side sent
 *    earlier or later (a rule's `pairsAcrossStreams`) are not reported: the capture cannot back them.
 *    Findings about a frame's own bytes (crlf, invalid-utf8, invalid-jsonrpc…) still are.
 */

/** Per-stream gap state of a session. */
export class GapTracker {
	/** Streams whose framing waits for the first LF after a gap. */
	private readonly resyncing = new Set<StreamName>();
	private hasProtocolGap = false;
	/** Bytes and number of gaps seen. */
	missingBytes = 0;
	count = 0;

	/** A gap on `stream` of `length` bytes: framing of that stream resyncs at the next LF. */
	gap(stream: StreamName, length: number): void {
		this.count++;
		this.missingBytes += length;
		this.resyncing.add(stream);
		if (stream !== 'stderr') this.hasProtocolGap = true;
	}

	/**
	 * While `stream` resyncs: how many leading bytes of the next chunk to leave unframed (up to and
	 * including its first LF), or -1 when the whole chunk is skipped. 0 when the stream is not resyncing.
	 */
	skipOf(stream: StreamName, bytes: Uint8Array): number {
		if (!this.resyncing.has(stream)) return 0;
		const lf = bytes.indexOf(0x0a);
		if (lf === -1) return -1;
		this.resyncing.delete(stream);
		return lf + 1;
	}

	/**
	 * True when a finding of a rule that pairs messages across the streams (`Rule.pairsAcrossStreams`) cannot be
	 * backed by the capture: a protocol stream had a gap.
	 */
	isDoubtful(pairsAcrossStreams: boolean): boolean {
		return this.hasProtocolGap && pairsAcrossStreams;
	}
}
