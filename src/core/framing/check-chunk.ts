import type {Chunk, StreamName} from '../types.js';

/**
 * The contract every framer enforces on `push` (framer.ts): chunks of its own stream, in offset order,
 * none after `end()`. A violation is a caller bug, never a wire fault.
 * @throws Error after end; TypeError for another stream's chunk; RangeError on a gap or overlap
 */
export function checkNextChunk(stream: StreamName, received: number, isEnded: boolean, chunk: Chunk): void {
	if (isEnded) throw new Error(`framer for ${stream} already ended`);
	if (chunk.stream !== stream) throw new TypeError(`chunk of ${chunk.stream} pushed to the ${stream} framer`);
	if (chunk.offset !== received)
		throw new RangeError(`${stream} chunk ${chunk.seq} starts at offset ${chunk.offset}, expected ${received}`);
}
