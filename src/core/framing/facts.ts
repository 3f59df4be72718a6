import type {EscapeSequenceKind, LauncherName, StrayKind} from './stray-kind.js';
import type {FramingLimits} from './limits.js';

/**
 * What the bytes of one protocol-mode frame did, as the framer saw them: facts, never a verdict. The
 * framing rules (`findings/rules/<code>.ts`, `onFrameFacts`) decide which of them are findings. Every
 * offset is a stream byte offset; lengths are bytes. Facts that follow from the frame itself (its
 * terminator, length, framing, `isJson`, `isBlank`) are not repeated here.
 */
export interface FrameFacts {
	/** The byte and line limits this framer works with (C1, O4): the size rules compare against them. */
	readonly limits: FramingLimits;
	/** What the content is, when it is anything but one clean JSON value on its own line. */
	readonly content?: ContentFact | undefined;
	/** Escapes and numbers in the parsed JSON body that not every parser reads the same (J3), in order. */
	readonly nonPortable?: readonly NonPortableToken[] | undefined;
	/** The frame starts with a UTF-8 byte order mark (EF BB BF, at the frame's offset). */
	readonly bom?: BomFact | undefined;
	/** The first ESC byte (0x1B) of a frame that is not one clean JSON value (ESC cannot be in JSON). */
	readonly escape?: EscapeFact | undefined;
	/** The first byte that is not valid UTF-8 (R3). */
	readonly invalidUtf8?: InvalidUtf8Fact | undefined;
	/** A frame with no LF whose last byte is a CR: lines ended by a lone CR, which clients never split on (R1). */
	readonly loneCrEnd?: true | undefined;
}

/** The BOM at a frame's start and what a client's `JSON.parse` says of the line with it (R4). */
export interface BomFact {
	/** V8's `JSON.parse` message for the line with its BOM, when it is a line of JSON text. */
	readonly clientError: string | undefined;
}

/** The first escape sequence in a frame (R5). */
export interface EscapeFact {
	/** Stream offset of the first ESC byte. */
	readonly at: number;
	/** Length of the sequence that starts there, in bytes. */
	readonly length: number;
	readonly kind: EscapeSequenceKind;
	/** A private CSI sequence (`ESC [ ?`). */
	readonly isPrivate: boolean;
	/** How many ESC bytes the frame holds. */
	readonly count: number;
}

/** The first invalid UTF-8 byte sequence of a frame (R3). */
export interface InvalidUtf8Fact {
	/** Stream offset of its first byte. */
	readonly at: number;
	/** Its length in bytes. */
	readonly length: number;
	/** True when it sits inside a JSON string of the body (a parser would replace it with U+FFFD). */
	readonly inString: boolean;
}

/**
 * One token of a parsed JSON body that is not portable (J3): a lone surrogate escape, an unsafe integer, or
 * a `NaN` / `Infinity` / `-Infinity` token that only a lenient parser read (`non-finite`: the line failed
 * `JSON.parse` and was read as Python's parser reads it, `parseNonFinite` in `portability.ts`).
 */
export interface NonPortableToken {
	readonly reason: 'lone-surrogate' | 'unsafe-integer' | 'non-finite';
	/** Stream offset of the token's first byte. */
	readonly at: number;
	/** Its length in bytes. */
	readonly length: number;
	/** The token as written. */
	readonly token: string;
}

/** What a frame's content is when it is not one clean JSON value on its own line. */
export type ContentFact =
	BlankFact | TextFact | UnparsedMessageFact | TrailingFact | MultilineFact | ContentLengthFact | CutJsonFact;

/** An empty line (only its LF or CR LF). */
export interface BlankFact {
	readonly kind: 'blank';
	/** V8's `JSON.parse` message for an empty line. */
	readonly clientError: string;
}

/** A line that is not JSON and not meant as a message (R5). */
export interface TextFact {
	readonly kind: 'text';
	/** Bytes of the line without its terminator. */
	readonly length: number;
	/** What the line reads like (stray-kind.ts). */
	readonly strayKind: StrayKind;
	/** V8's `JSON.parse` message for the line as a client reads it (C1, C8). */
	readonly clientError: string | undefined;
	/** The logging library whose format the line has (`strayKind` `log`). */
	readonly logger?: string | undefined;
	/** The launcher that wrote the line (`strayKind` `launcher`). */
	readonly launcher?: LauncherName | undefined;
	/** Text that only a stderr stream writes (a traceback, a JVM or Node notice). */
	readonly stderrOnly?: string | undefined;
	/** The reply to an awaited request that ends the line, glued after its text with no newline between. */
	readonly glued?: GluedReply | undefined;
}

/**
 * A complete reply (result or error) to a request the peer awaits, written after text on the same line
 * (`print('ready', end='')`, an escape sequence, a spinner's last frame): clients read one line and drop it,
 * reply included.
 */
export interface GluedReply {
	/** Stream offset of the reply's first byte (its `{`). */
	readonly at: number;
	readonly id: string | number;
	/** The method of the request it answers. */
	readonly method: string;
}

/**
 * A line meant as a JSON-RPC message (it opens with `{` and has a `"jsonrpc"` member, or holds the id of a
 * request the peer awaits) that does not parse (R1, J1).
 */
export interface UnparsedMessageFact {
	readonly kind: 'unparsed-message';
	/** Stream offset of the byte the parse error names (the end of the content when the text was cut). */
	readonly at: number;
	/** 1 when `at` is a byte of the content, 0 when the text ended first. */
	readonly length: number;
	/** `reply to tools/list, id 1`, `request tools/call, id 3`, … */
	readonly looksLike: string;
	/** V8's `JSON.parse` message. */
	readonly clientError: string;
	/** Byte offset of the error within the JSON text. */
	readonly position: number;
	/** The byte at `at`, when it is one. */
	readonly byte?: number | undefined;
	/** The raw id token, when the text has one. */
	readonly id?: string | undefined;
	/** The method of the peer's request this id answers, when it awaits one. */
	readonly awaitedMethod?: string | undefined;
	/** The `method` member, when the text has one (and answers nothing awaited). */
	readonly method?: string | undefined;
	/** The message printed as an object literal (Python's `repr`, Node's `console.log` of an object), not as JSON. */
	readonly objectLiteral?: true | undefined;
}

/** A complete JSON value followed on the same line by more values or by text (J9, F43). */
export interface TrailingFact {
	readonly kind: 'trailing';
	/** Stream offset of the first byte after the first value and its whitespace. */
	readonly at: number;
	/** Bytes from `at` to the end of the content. */
	readonly length: number;
	/** Complete JSON values on the line (1 when text follows the first). */
	readonly values: number;
	/** V8's `JSON.parse` message for the whole line. */
	readonly clientError: string | undefined;
	/** Stream offset just after the first value (text after a message only). */
	readonly messageEnd?: number | undefined;
	/** The text after the message, at most 240 bytes (text after a message only). */
	readonly trailing?: string | undefined;
}

/** One JSON value spread over several lines and reassembled (R1). */
export interface MultilineFact {
	readonly kind: 'multiline';
	readonly lines: number;
	/** V8's `JSON.parse` message for the first line alone (what a line-reading client sees). */
	readonly clientError: string | undefined;
}

/** An LSP Content-Length header block and the body read after it (L1–L6). */
export interface ContentLengthFact {
	readonly kind: 'content-length';
	/** Stream offset of the first header name byte (after a BOM / ESC prefix, F14). */
	readonly at: number;
	/** Bytes from `at` to the end of the header block. */
	readonly length: number;
	readonly declaredLength: number | null;
	readonly bodyLength: number;
	/** Where the body ended: at the end of one JSON value, at the declared length, before a body, at EOF. */
	readonly bodyEnd: 'json' | 'declared' | 'missing' | 'eof';
	/** Declared bytes that never came before the end of the stream. */
	readonly missingBytes?: number | undefined;
	readonly hasContentType: boolean;
	readonly lineEndings: 'crlf' | 'lf';
	readonly headers: readonly string[];
	/** V8's `JSON.parse` message for the first header line. */
	readonly clientError: string | undefined;
}

/** The start of a JSON value cut by the end of the stream (F25): not a line a client ever sees. */
export interface CutJsonFact {
	readonly kind: 'cut-json';
}
