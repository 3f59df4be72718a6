export type {Framer, FramerEmit, FramerOptions, FramerOutput, RawFrame} from './framer.js';
export {createFramer} from './create-framer.js';
export {FRAMING_LIMITS, type FramingLimits} from './limits.js';
export {ProtocolFramer} from './protocol-framer.js';
export {LogFramer} from './log-framer.js';
export {
	classifyStrayLine,
	readEscapeSequence,
	stripAnsiSequences,
	type EscapeSequence,
	type EscapeSequenceKind,
	type StrayContext,
	type StrayKind,
} from './stray-kind.js';
export {isInsideJsonString, newJsonScanState, scanJsonValueEnd, type JsonScanState} from './json-scan.js';
export {parseContentLengthValue, parseHeaderLine, type HeaderLine} from './content-length.js';
export {heldContentLengthFrame} from './held-reply.js';
