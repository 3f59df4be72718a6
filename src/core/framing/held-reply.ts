import type {RawFrame} from './framer.js';
import {ProtocolFramer} from './protocol-framer.js';

/**
 * A Content-Length frame the framer holds back although its message is complete: the header
 * block and one whole JSON value as its body, nothing after it. The framer emits such a frame only when
 * the next byte or the end of the stream arrives (an LF / CR LF right after the body belongs to it, L1),
 * and an LSP-framed server writes nothing after its reply until it gets the next request: the frame
 * then waits for EOF, while an MCP client (which reads lines, R1) never sees a message in it.
 *
 * @param bytes the bytes of a stream that no frame has taken yet (`Framer.pendingBytes` from
 *   `Framer.pendingOffset`): they start at a frame boundary
 * @returns the frame the framer would emit if the stream ended now, when it is exactly such a frame
 *   (`framing: 'content-length'`, `isJson`, covering every byte); otherwise undefined (a partial header
 *   block or body, a line, anything else). Offsets and times are relative to `bytes` (0).
 */
export function heldContentLengthFrame(bytes: Uint8Array): RawFrame | undefined {
	const framer = new ProtocolFramer('stdout');
	const frames: RawFrame[] = [];
	let isComplete = false;
	framer.push({seq: 0, stream: 'stdout', tMs: 0, offset: 0, bytes}, ({frame}) => frames.push(frame));
	// Still in the body (or in the header block) when the bytes ran out: the message is not complete.
	if (frames.length > 0) return undefined;
	framer.end(0, ({frame, facts}) => {
		frames.push(frame);
		isComplete = facts?.content?.kind === 'content-length' && facts.content.bodyEnd === 'json';
	});
	const [frame] = frames;
	if (frames.length !== 1 || !isComplete || frame === undefined) return undefined;
	return frame.framing === 'content-length' && frame.isJson && frame.byteLength === bytes.byteLength
		? frame
		: undefined;
}
