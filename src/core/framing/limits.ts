/**
 * Byte and line limits the framer works with. Client limits (C1, F24–F26) decide findings; the
 * accumulation bounds keep junk from swallowing the stream.
 */
export const FRAMING_LIMITS = {
	/** asyncio `StreamReader` default limit (Python clients): frames above it get `oversize-frame` info (a niche-client limit). */
	oversizeWarnBytes: 65_536,
	/** TS SDK `STDIO_DEFAULT_MAX_BUFFER_SIZE` (C1, ≥ 1.30.0): frames above it get `oversize-frame` error. */
	oversizeErrorBytes: 10_485_760,
	/** A stream cut at a multiple of this many bytes is the `process.exit()`-before-drain fingerprint (O4). */
	pipeBlockBytes: 65_536,
	/** Pretty-printed JSON (R1) is reassembled over at most this many lines… */
	multilineMaxLines: 10_000,
	/** …and at most this many bytes; past either bound the held lines are framed one by one. */
	multilineMaxBytes: 20 * 1024 * 1024,
	/** A Content-Length header block (L2) has at most this many lines (including the empty one)… */
	headerMaxLines: 32,
	/** …each at most this long (bytes, terminator included). */
	headerMaxLineBytes: 8192,
	/**
	 * The body scan for the end of one JSON value (L6) gives up after max(3 × declared + slack, min)
	 * bytes (3×: a length counted in UTF-16 units or characters instead of bytes), or after
	 * `bodyScanNoLengthBytes` when no usable length was declared; it then falls back to the declared length.
	 */
	bodyScanSlackBytes: 4096,
	bodyScanMinBytes: 65_536,
	bodyScanNoLengthBytes: 20 * 1024 * 1024,
} as const satisfies Readonly<Record<string, number>>;

/** The limits as a type, so tests can run the framer with small ones (`ProtocolFramer` constructor). */
export type FramingLimits = {readonly [K in keyof typeof FRAMING_LIMITS]: number};
