/**
 * Redaction shared by the report and `--json --redact`: the secret and path patterns (patterns.ts), the
 * same-length byte masker (mask.ts), the JSON string scanner for `--redact-payloads` (payload-scanner.ts),
 * the engine (redactor.ts), whole-session views (snapshot.ts) and the streaming redactor (stream.ts).
 */
export {describeRedactions} from './describe.js';
export {isSecretName} from './patterns.js';
export {Redactor} from './redactor.js';
export {redactSnapshot, type RedactedSnapshot} from './snapshot.js';
export {createEventRedactor, type EventRedactor} from './stream.js';
export type {RedactionCounts, RedactionKind, RedactOptions} from './types.js';
