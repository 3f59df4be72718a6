/**
 * MCP protocol revisions (docs/protocol.md R11, R19). Revision strings are ISO dates, so comparing two of
 * them as strings orders them in time.
 */

/**
 * Every protocol version string a real implementation may send, oldest first: `2024-10-07` is the TS
 * SDK's pre-release (`SUPPORTED_PROTOCOL_VERSIONS` in `@modelcontextprotocol/sdk` 1.x), the rest are the
 * published revisions (R11). `2026-07-28` is the first "modern era" revision (no `initialize`, R19).
 */
export const KNOWN_PROTOCOL_VERSIONS = [
	'2024-10-07',
	'2024-11-05',
	'2025-03-26',
	'2025-06-18',
	'2025-11-25',
	'2026-07-28',
] as const;

/** A protocol version string from {@link KNOWN_PROTOCOL_VERSIONS}. */
export type KnownProtocolVersion = (typeof KNOWN_PROTOCOL_VERSIONS)[number];

/** The newest revision negotiated with the `initialize` handshake ("legacy era", R8–R11). */
export const LATEST_LEGACY = '2025-11-25';

/** The first revision without `initialize`; servers answer `server/discover` instead (R19). */
export const MODERN_VERSION = '2026-07-28';

/** The only revision whose transport allows a JSON-RPC batch array on a line (R6, R13). */
export const BATCH_VERSION = '2025-03-26';

/** The first revision in which an error response may omit `id` (J5: schema `id?: RequestId`). */
export const ERROR_ID_OPTIONAL_SINCE = '2025-11-25';

const KNOWN = new Set<string>(KNOWN_PROTOCOL_VERSIONS);

/** True when `value` is a string in {@link KNOWN_PROTOCOL_VERSIONS}. */
export function isKnownProtocolVersion(value: unknown): value is KnownProtocolVersion {
	return typeof value === 'string' && KNOWN.has(value);
}
