/**
 * mcp-wire's public library API: the pure core (no I/O). Feed bytes to a {@link Session} and read
 * frames, findings and the summary; replay a capture with {@link replayEvents}; encode and decode the
 * NDJSON record format with the record codec.
 */
export * from './types.js';
export {Session, SLOW_RESPONSE_LIMITS_MS, type SessionOptions} from './session/session.js';
export {replayEvents, type ReplayOptions} from './session/replay.js';
export {
	CATALOG,
	CLIENT_FAMILY_LABEL,
	dressFinding,
	type CatalogEntry,
	type FindingDoc,
	type FindingExample,
	type ExampleStep,
} from './findings/support/catalog.js';
export {FINDINGS_DOC_PATH, findingDocsRef} from './findings/support/docs-ref.js';
export {createFramer} from './framing/index.js';
export type {Framer, FramerEmit, FramerOptions, FramerOutput, RawFrame} from './framing/framer.js';
export {
	decodeRecord,
	decodeRecords,
	encodeEvent,
	encodeHeader,
	RECORD_FORMAT,
	type DecodedLine,
	type DecodedRecords,
	type DecodeProblem,
	type SessionHeader,
} from './capture/record-codec.js';
export {
	CAPTURE_FORMAT,
	CaptureDecoder,
	decodeCapture,
	isBinaryCapture,
	readCaptureEnd,
	type CaptureEnd,
	type CaptureStalls,
	type DecodedCapture,
} from './capture/binary-codec.js';
export * as jsonrpc from './jsonrpc/index.js';
export {explainError, type Explanation, type ExplainResult} from './findings/explain.js';
export {detectPassive, type PassiveInput} from './findings/support/passive.js';
