import {Buffer} from 'node:buffer';
import fc from 'fast-check';

/** Text with multi-byte characters and JSON-structural characters (escaped by JSON.stringify). */
export const unicodeText = fc.string({
	unit: fc.constantFrom(
		'a',
		'Z',
		' ',
		'é',
		'€',
		'😀',
		'中',
		'"',
		'\\',
		'{',
		'}',
		'[',
		']',
		':',
		',',
		'\t',
		'\r',
		'\n',
		'\u001B',
	),
	maxLength: 40,
});

/** A JSON-RPC response with a few fields. */
export const messageArbitrary = fc.record({
	jsonrpc: fc.constant('2.0'),
	id: fc.nat(1000),
	result: fc.record({text: unicodeText, n: fc.integer(), list: fc.array(fc.nat(9), {maxLength: 3})}),
});

const json = (value: unknown): string => JSON.stringify(value);

/** Raw bytes that are likely to hit framing edge cases. */
const edgyBytes = fc
	.array(
		fc.constantFrom(
			0x0a,
			0x0d,
			0x7b,
			0x7d,
			0x5b,
			0x5d,
			0x22,
			0x5c,
			0x1b,
			0xef,
			0xbb,
			0xbf,
			0xe2,
			0x82,
			0xac,
			0xb0,
			0xa1,
			0x41,
			0x3a,
			0x20,
		),
		{
			maxLength: 24,
		},
	)
	.map((b) => Buffer.from(b));

const contentLengthFrame = fc
	.record({
		m: messageArbitrary,
		eol: fc.constantFrom('\r\n', '\n'),
		contentType: fc.boolean(),
		otherFirst: fc.boolean(),
		escPrefix: fc.boolean(),
		trailing: fc.constantFrom('', '\n', '\r\n', '\r'),
		delta: fc.integer({min: -3, max: 3}),
		pretty: fc.boolean(),
	})
	.map(({m, eol, contentType, otherFirst, escPrefix, trailing, delta, pretty}) => {
		const body = Buffer.from(pretty ? JSON.stringify(m, null, 1) : json(m));
		const headers =
			(escPrefix ? '\u001B[1;1H\u001B[2J' : '') +
			(otherFirst ? `X-Seq: 1${eol}` : '') +
			`Content-Length: ${Math.max(0, body.length + delta)}${eol}` +
			(contentType ? `Content-Type: application/json${eol}` : '') +
			eol;
		return Buffer.concat([Buffer.from(headers), body, Buffer.from(trailing)]);
	});

const contentLengthJunk = fc
	.tuple(
		fc.nat(40),
		fc.constantFrom('\r\n', '\n'),
		fc.oneof(
			edgyBytes,
			fc.uint8Array({maxLength: 30}).map((b) => Buffer.from(b)),
		),
	)
	.map(([n, eol, junk]) => Buffer.concat([Buffer.from(`Content-Length: ${n}${eol}${eol}`), junk]));

/** Pieces that mix every shape the framer knows, plus random bytes. */
export const pieceArbitrary: fc.Arbitrary<Buffer> = fc.oneof(
	messageArbitrary.map((m) => Buffer.from(`${json(m)}\n`)),
	messageArbitrary.map((m) => Buffer.from(`${json(m)}\r\n`)),
	messageArbitrary.map((m) => Buffer.from(`${JSON.stringify(m, null, 2)}\n`)),
	messageArbitrary.map((m) => Buffer.from(`${JSON.stringify(m, null, 2).replaceAll('\n', '\r\n')}\r\n`)),
	fc
		.tuple(messageArbitrary, messageArbitrary, fc.constantFrom('', ' ', '\r', '\t '))
		.map(([a, b, sep]) => Buffer.from(`${json(a)}${sep}${json(b)}\n`)),
	messageArbitrary.map((m) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${json(m)}\n`)])),
	messageArbitrary.map((m) =>
		Buffer.concat([Buffer.from(json(m).slice(0, 12)), Buffer.from([0xb0, 0xa1]), Buffer.from('"}\n')]),
	),
	fc
		.constantFrom(
			'STDIO MCP Server started\n',
			'2025-06-09 21:38:09,942 - src.log_utils - INFO - Logging initialized\n',
			'[INFO] started\n',
			'> pkg@1.0.0 start\n',
			'[dotenv@17.2.3] injecting env (0) from .env\n',
			'\u001B[33m[2026-01-01] colour\u001B[0m\n',
			'Downloading 10%\r20%\r30%\n',
			'Error: something\n',
			'info: Microsoft.Hosting.Lifetime[14]\n',
			'\n',
			'\r\n',
			'{\n',
			'}\n',
			'[\n',
			']\n',
			'  "a": 1,\n',
			'{"a": "unterminated\n',
			'Content-Length: 5\r\n',
			'Content-Length: x\n',
			'\r\n',
			'[1, 2] tail\n',
		)
		.map((s) => Buffer.from(s)),
	contentLengthFrame,
	contentLengthJunk,
	fc.uint8Array({maxLength: 24}).map((b) => Buffer.from(b)),
	edgyBytes,
);

/** A whole stream: up to 14 pieces. */
export const streamArbitrary = fc.array(pieceArbitrary, {maxLength: 14}).map((pieces) => Buffer.concat(pieces));

/** A stream and ascending cut offsets inside it. */
export const streamWithCutsArbitrary = streamArbitrary.chain((data) =>
	fc.tuple(
		fc.constant(data),
		fc
			.uniqueArray(fc.integer({min: 1, max: Math.max(1, data.length - 1)}), {maxLength: 12})
			.map((cuts) => [...cuts].sort((a, b) => a - b)),
	),
);
