// The NDJSON record format (style.md §1.4), one module per role: record-format.ts (the format, its version
// and its types), record-encode.ts (plain encoding), record-encode-pieces.ts (the same bytes in pieces, for
// big events), record-decode.ts (text to records, with checks) and record-decode-bytes.ts (records from their
// bytes, big chunks without a string). Importers use this module.
export * from './record-format.js';
export {encodeEvent, encodeHeader} from './record-encode.js';
export {RECORD_PIECE_CHARS, encodeEventInPieces} from './record-encode-pieces.js';
export {decodeRecord, decodeRecords} from './record-decode.js';
export {decodeBase64Bytes, decodeRecordBytes, isBase64Alphabet, type Utf8Decoder} from './record-decode-bytes.js';
