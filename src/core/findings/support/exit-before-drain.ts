import type {FrameFacts} from '../../framing/facts.js';
import type {RawFrame} from '../../framing/framer.js';
import type {ExitInfo} from '../../types.js';

/**
 * The evidence of an exit before stdout drained (O4, F25), shared by `missing-newline` and `early-exit`:
 * the stream ends in a JSON value cut short (no LF, pending when stdout reached EOF), the cut is large
 * (at least a kernel buffer, {@link FrameFacts.limits} `pipeBlockBytes`, or the stream ends at a multiple
 * of it), and then the process exits with code 0 and no signal. A writer only queues bytes in user space
 * once the kernel buffer is full, so a small cut is not this fault; on a pipe the cut lands on 65,536
 * bytes, on the socket pair Node's `child_process` gives a child anywhere from about 200 to 440 KB.
 */

/** A stdout frame that may have been cut by an exit before drain, waiting for the exit to say so. */
export interface CutWrite {
	/** Bytes of the cut frame that arrived. */
	readonly bytes: number;
}

/**
 * The cut-write candidate in a frame: a newline frame with no terminator whose bytes are the start of a
 * JSON value cut short, large enough that the kernel buffer filled. Undefined for anything else.
 * @param frame the frame the framer flushed at the end of the stream
 * @param facts what its bytes did (`facts.content.kind === 'cut-json'`) and the framing limits
 */
export function cutWriteOf(frame: RawFrame, facts: FrameFacts): CutWrite | undefined {
	if (frame.stream !== 'stdout' || frame.framing !== 'newline' || frame.terminator !== 'none') return undefined;
	if (facts.content?.kind !== 'cut-json') return undefined;
	const block = facts.limits.pipeBlockBytes;
	const streamBytes = frame.offset + frame.byteLength;
	return frame.byteLength >= block || (streamBytes > 0 && streamBytes % block === 0)
		? {bytes: frame.byteLength}
		: undefined;
}

/** True for the exit that completes the evidence: code 0, no signal (the process meant to stop). */
export function isCleanExit(exit: Pick<ExitInfo, 'code' | 'signal'>): boolean {
	return exit.code === 0 && !exit.signal;
}

/**
 * The fix for an exit before drain, in the server's runtime first (`detail.runtime`): Node exits from
 * the write callback or sets `process.exitCode`; Python flushes before `os._exit()`.
 * @param runtime the runtime guessed from the command (`node`, `python`), or undefined
 */
export function drainFix(runtime: string | undefined): string {
	const node =
		'Do not call `process.exit()` right after writing: set `process.exitCode` and return, or exit in the callback of the last write (`stdout.write(line, () => process.exit(0))`).';
	const python =
		'Flush before exiting: `sys.stdout.flush()` before `os._exit()`, or return from `main` and let Python exit.';
	if (runtime === 'node') return node;
	if (runtime === 'python') return python;
	return `Node: ${node.charAt(0).toLowerCase()}${node.slice(1)} Python: ${python.charAt(0).toLowerCase()}${python.slice(1)}`;
}

/** The fix when a JSON value was cut but nothing shows why (no clean exit followed): the likely causes. */
export const CUT_JSON_CAUSES =
	'The message was cut short, not merely left without its newline. Likely causes: the process exited before stdout drained (Node `process.exit()` right after a large write, Python `os._exit()` without a flush), or it was killed mid-write; the exit and stderr say which.';
