import fc from 'fast-check';
import {Buffer, isUtf8} from 'node:buffer';
import {escapeJsonHazards} from '../../../src/core/bytes/glyphs.js';
import {describe, expect, it} from 'vitest';
import {
	decodeRecord,
	decodeRecords,
	encodeEvent,
	encodeHeader,
	RECORD_FORMAT,
} from '../../../src/core/capture/record-codec.js';
import {FINDING_CODES, type Finding, type Frame, type SessionEvent} from '../../../src/core/types.js';
import {bytesOf, makeChunk, makeFinding, makeFrame, makeMeta, makeSummary} from '../../helpers/factories.js';

const META = makeMeta({cwd: '/srv/app', envKeys: ['API_KEY'], pid: 4242, protocolVersion: '2025-06-18'});

const RESPONSE: Frame = makeFrame({
	index: 1,
	offset: 0,
	byteLength: 40,
	bodyLength: 38,
	terminator: 'crlf',
	tMs: 12.3,
	firstTMs: 12.1,
	kind: 'response',
	message: {jsonrpc: '2.0', id: 123, result: {}},
	id: 123,
	answers: {method: 'initialize', requestIndex: 0, latencyMs: 8.1},
});

const EVENTS: SessionEvent[] = [
	{
		type: 'chunk',
		chunk: makeChunk({
			seq: 0,
			stream: 'stdin',
			tMs: 0.5,
			offset: 0,
			bytes: '{"jsonrpc":"2.0","id":123,"method":"initialize"}\n',
		}),
	},
	{
		type: 'chunk',
		chunk: makeChunk({
			seq: 1,
			stream: 'stdout',
			tMs: 12.1,
			offset: 0,
			bytes: bytesOf('{"x":"', 0xff, 0xfe, '"}', 0x0a),
		}),
	},
	{type: 'frame', frame: RESPONSE},
	{
		type: 'frame',
		frame: makeFrame({index: 2, stream: 'stderr', kind: 'text', text: 'boot\u2028ok \u001b[31mred', byteLength: 20}),
	},
	{
		type: 'finding',
		finding: makeFinding({
			frameIndex: 1,
			offset: 38,
			detail: {kind: 'banner', n: 2},
			confidence: 'inferred',
			origin: 'probe',
		}),
	},
	{type: 'mark', mark: {type: 'timeout', id: null, method: 'tools/list', timeoutMs: 5000, tMs: 6000}},
	{type: 'mark', mark: {type: 'eof', stream: 'stdout', tMs: 7000}},
	{type: 'exit', exit: {code: null, signal: 'SIGTERM', tMs: 7001.5}},
	{
		type: 'summary',
		summary: makeSummary({
			verdict: 'warn',
			findings: [{code: 'crlf', severity: 'warning', count: 1}],
			warnings: 1,
			durationMs: 7001.5,
			exit: {code: null, signal: 'SIGTERM', tMs: 7001.5},
			era: 'legacy',
			serverInfo: {name: 'demo', version: '1.0.0'},
			protocolVersion: '2025-06-18',
			tools: 3,
		}),
	},
];

function fileOf(events: readonly SessionEvent[]): string {
	return [encodeHeader(META), ...events.map((event) => encodeEvent(event))].join('\n') + '\n';
}

describe('encodeHeader / encodeEvent', () => {
	it('writes the session header with the format version first', () => {
		expect(encodeHeader(makeMeta())).toBe(
			'{"type":"session","format":1,"tool":{"name":"mcp-wire","version":"0.1.0"},"node":"v20.20.2","platform":"linux","command":["node","server.mjs"],"envMode":"sdk-default","startedAt":"2026-01-02T03:04:05.678Z","mode":"probe"}',
		);
	});

	it('writes a chunk as base64 with a UTF-8 preview when the bytes are valid UTF-8', () => {
		expect(
			encodeEvent({type: 'chunk', chunk: makeChunk({seq: 3, stream: 'stdout', tMs: 1.25, offset: 10, bytes: '{}\n'})}),
		).toBe(
			'{"type":"chunk","seq":3,"stream":"stdout","tMs":1.25,"offset":10,"length":3,"base64":"e30K","text":"{}\\n"}',
		);
	});

	it('leaves the preview out for invalid UTF-8 and for long chunks', () => {
		expect(encodeEvent({type: 'chunk', chunk: makeChunk({bytes: bytesOf('a', 0xff)})})).toBe(
			'{"type":"chunk","seq":0,"stream":"stdout","tMs":0,"offset":0,"length":2,"base64":"Yf8="}',
		);
		expect(encodeEvent({type: 'chunk', chunk: makeChunk({bytes: 'a'.repeat(1025)})})).not.toContain('"text"');
		expect(encodeEvent({type: 'chunk', chunk: makeChunk({bytes: 'a'.repeat(1024)})})).toContain('"text"');
	});

	it('reads back a 5 MB chunk (a big tools/call result in one read)', () => {
		const bytes = new Uint8Array(5 * 1024 * 1024).fill(0x78);
		const decoded = decodeRecord(
			encodeEvent({type: 'chunk', chunk: {seq: 7, stream: 'stdout', tMs: 2, offset: 100, bytes}}),
		);
		expect(decoded.kind).toBe('event');
		const chunk = decoded.kind === 'event' && decoded.event.type === 'chunk' ? decoded.event.chunk : undefined;
		expect(chunk?.bytes.byteLength).toBe(5 * 1024 * 1024);
		expect(chunk?.bytes.every((byte) => byte === 0x78)).toBe(true);
		expect(chunk?.offset).toBe(100);
	});

	it('writes marks nested, exits flat', () => {
		expect(encodeEvent({type: 'mark', mark: {type: 'stdin-closed', tMs: 5}})).toBe(
			'{"type":"mark","mark":{"type":"stdin-closed","tMs":5}}',
		);
		expect(encodeEvent({type: 'exit', exit: {code: 0, signal: null, tMs: 9}})).toBe(
			'{"type":"exit","code":0,"signal":null,"tMs":9}',
		);
	});

	it('never writes a raw line break, not even U+2028, U+2029 or U+0085', () => {
		for (const line of [encodeHeader(META), ...EVENTS.map((event) => encodeEvent(event))]) {
			expect(line).not.toMatch(/[\n\r\u0085\u2028\u2029]/u);
		}

		expect(encodeEvent(EVENTS[3]!)).toContain('boot\\u2028ok \\u001b[31mred');
	});

	it('writes only the Frame fields, not extra runtime properties', () => {
		const frame = {...makeFrame(), isJson: false} as Frame;
		expect(encodeEvent({type: 'frame', frame})).not.toContain('isJson');
	});
});

describe('decodeRecords', () => {
	it("round-trips the capturing user's home and name in the header (docs/cli.md#report)", () => {
		const meta = makeMeta({home: '/home/alice', user: 'alice'});
		const line = encodeHeader(meta);
		expect(line.endsWith(',"home":"/home/alice","user":"alice"}')).toBe(true);
		expect(decodeRecords(`${line}\n`).header).toEqual({...meta, format: 1});
	});

	it('round-trips a header and every event type', () => {
		const decoded = decodeRecords(fileOf(EVENTS));
		expect(decoded.problems).toEqual([]);
		expect(decoded.isTruncated).toBe(false);
		expect(decoded.header).toEqual({...META, format: 1});
		expect(decoded.events).toEqual(EVENTS);
	});

	it('gives chunk bytes back exactly as a plain Uint8Array', () => {
		const {events} = decodeRecords(fileOf(EVENTS));
		const chunk = events[1]!.type === 'chunk' ? events[1]!.chunk : undefined;
		expect(chunk?.bytes.constructor).toBe(Uint8Array);
		expect([...chunk!.bytes]).toEqual([0x7b, 0x22, 0x78, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]);
	});

	it('keeps everything before a cut last line and says the file is truncated', () => {
		const file = fileOf(EVENTS);
		const cut = file.slice(0, file.length - 40);
		const decoded = decodeRecords(cut);
		expect(decoded.isTruncated).toBe(true);
		expect(decoded.problems).toEqual([
			{line: 10, message: 'the file ends inside a record (truncated capture); the cut record is skipped'},
		]);
		expect(decoded.events).toEqual(EVENTS.slice(0, 8));
		expect(decoded.header).toEqual({...META, format: 1});
	});

	it('accepts a complete last record without a final newline', () => {
		const decoded = decodeRecords(fileOf(EVENTS).slice(0, -1));
		expect(decoded.isTruncated).toBe(false);
		expect(decoded.problems).toEqual([]);
		expect(decoded.events).toHaveLength(EVENTS.length);
	});

	it('skips unknown record types, non-JSON lines and bad records with their line numbers', () => {
		const lines = [
			encodeHeader(META),
			'{"type":"telemetry","x":1}',
			'Starting server...',
			encodeEvent(EVENTS[0]!),
			'{"type":"chunk","seq":1,"stream":"stdout","tMs":1,"offset":0,"length":5,"base64":"e30K"}',
			'{"type":"chunk","seq":1,"stream":"stdout","tMs":1,"offset":0,"length":3,"base64":"e3!K"}',
			'{"type":"frame","index":"one"}',
			'[1,2]',
			'',
			encodeEvent(EVENTS[5]!),
		];
		const decoded = decodeRecords(lines.join('\n') + '\n');
		expect(decoded.events).toEqual([EVENTS[0], EVENTS[5]]);
		expect(decoded.isTruncated).toBe(false);
		expect(decoded.problems).toEqual([
			{line: 2, message: 'unknown record type "telemetry", skipped'},
			{line: 3, message: 'not JSON'},
			{line: 5, message: 'bad chunk record: `base64` holds 3 bytes but `length` says 5, skipped'},
			{line: 6, message: 'bad chunk record: `base64` is not valid base64, skipped'},
			{line: 7, message: 'bad frame record: `index` is not a non-negative integer, skipped'},
			{line: 8, message: 'not a record (a JSON object with a string `type`)'},
		]);
	});

	it('reads a future format version with a problem', () => {
		const header = encodeHeader(META).replace('"format":1', '"format":2');
		const decoded = decodeRecords(`${header}\n${encodeEvent(EVENTS[6]!)}\n`);
		expect(decoded.header?.format).toBe(2);
		expect(decoded.events).toEqual([EVENTS[6]]);
		expect(decoded.problems).toEqual([
			{line: 1, message: 'format 2 is newer than this version of mcp-wire reads (1); records are read as format 1'},
		]);
		expect(RECORD_FORMAT).toBe(1);
	});

	it('reports a missing header and a second header', () => {
		expect(decodeRecords(`${encodeEvent(EVENTS[6]!)}\n`).problems).toEqual([
			{line: 1, message: 'records before any session header'},
		]);
		expect(decodeRecords(`${encodeHeader(META)}\n${encodeHeader(META)}\n`).problems).toEqual([
			{line: 2, message: 'a second session header, skipped'},
		]);
		expect(decodeRecords('garbage\n').problems).toEqual([
			{line: 1, message: 'not JSON'},
			{line: 1, message: 'no session header'},
		]);
	});

	it('accepts CRLF line ends and ignores blank lines', () => {
		const file = `${encodeHeader(META)}\r\n\r\n${encodeEvent(EVENTS[6]!)}\r\n`;
		const decoded = decodeRecords(file);
		expect(decoded.problems).toEqual([]);
		expect(decoded.events).toEqual([EVENTS[6]]);
	});

	it('returns nothing and no problem for an empty file', () => {
		expect(decodeRecords('')).toEqual({header: undefined, events: [], problems: [], isTruncated: false});
	});

	it('never throws on arbitrary input (property)', () => {
		const recordish = fc.oneof(
			fc.string(),
			fc.jsonValue().map((value) => JSON.stringify(value)),
			fc
				.constantFrom(...['session', 'chunk', 'frame', 'finding', 'mark', 'exit', 'summary'])
				.chain((type) =>
					fc
						.dictionary(
							fc.constantFrom(
								'seq',
								'stream',
								'offset',
								'length',
								'base64',
								'mark',
								'tool',
								'impact',
								'streams',
								'format',
							),
							fc.jsonValue(),
						)
						.map((record) => JSON.stringify({...record, type})),
				),
		);
		fc.assert(
			fc.property(fc.array(recordish, {maxLength: 8}), (lines) => {
				const decoded = decodeRecords(lines.join('\n'));
				expect(Array.isArray(decoded.problems)).toBe(true);
			}),
			{numRuns: 500},
		);
	});

	it('decodeRecord classifies single lines', () => {
		expect(decodeRecord('   ')).toEqual({kind: 'empty'});
		expect(decodeRecord('{"type":"exit","code":1,"signal":null,"tMs":3}\r')).toEqual({
			kind: 'event',
			event: {type: 'exit', exit: {code: 1, signal: null, tMs: 3}},
		});
		expect(decodeRecord('{"type":"exit","code":1.5,"signal":null,"tMs":3}')).toEqual({
			kind: 'problem',
			message: 'bad exit record: `code` is not an integer or null, skipped',
			isJson: true,
		});
	});
});

describe('round trip (property)', () => {
	const stream = fc.constantFrom('stdin' as const, 'stdout' as const, 'stderr' as const);
	const count = fc.nat({max: 1_000_000});
	const ms = fc.integer({min: 0, max: 100_000_000}).map((n) => n / 1000);
	const text = fc.string({unit: 'binary', maxLength: 40});
	const id = fc.oneof(fc.string({maxLength: 8}), fc.integer(), fc.constant(null));

	const chunk = fc.record({seq: count, stream, tMs: ms, offset: count, bytes: fc.uint8Array({maxLength: 2000})});

	const frame: fc.Arbitrary<Frame> = fc.record(
		{
			index: count,
			stream,
			framing: fc.constantFrom('newline' as const, 'content-length' as const),
			offset: count,
			byteLength: count,
			bodyOffset: count,
			bodyLength: count,
			terminator: fc.constantFrom('lf' as const, 'crlf' as const, 'none' as const, 'length' as const),
			lineCount: count,
			tMs: ms,
			firstTMs: ms,
			firstSeq: count,
			lastSeq: count,
			kind: fc.constantFrom(
				'request' as const,
				'notification' as const,
				'response' as const,
				'error' as const,
				'json' as const,
				'text' as const,
				'blank' as const,
			),
			message: fc.jsonValue(),
			method: text,
			id,
			answers: fc.record({method: text, requestIndex: count, latencyMs: ms}),
			text,
		},
		{
			requiredKeys: [
				'index',
				'stream',
				'framing',
				'offset',
				'byteLength',
				'bodyOffset',
				'bodyLength',
				'terminator',
				'lineCount',
				'tMs',
				'firstTMs',
				'firstSeq',
				'lastSeq',
				'kind',
			],
		},
	);

	const finding: fc.Arbitrary<Finding> = fc.record(
		{
			code: fc.constantFrom(...FINDING_CODES),
			stream,
			offset: count,
			byteLength: count,
			frameIndex: count,
			tMs: ms,
			severity: fc.constantFrom('error' as const, 'warning' as const, 'info' as const),
			message: text,
			hint: text,
			detail: fc.dictionary(fc.string({maxLength: 6}), fc.jsonValue({maxDepth: 2})),
			confidence: fc.constantFrom('observed' as const, 'inferred' as const),
			origin: fc.constantFrom('derived' as const, 'probe' as const),
			rules: fc.array(fc.string({maxLength: 4}), {maxLength: 3}),
			impact: fc.array(
				fc.record({
					client: fc.constantFrom(
						'ts-sdk-v1' as const,
						'ts-sdk-v2' as const,
						'python-sdk' as const,
						'vscode' as const,
						'rmcp' as const,
						'cursor' as const,
					),
					reaction: fc.constantFrom(
						'ok' as const,
						'skip' as const,
						'skip-log' as const,
						'drop-log' as const,
						'hang' as const,
						'fatal' as const,
						'corrupt' as const,
						'unknown' as const,
					),
					note: text,
				}),
				{maxLength: 6},
			),
		},
		{requiredKeys: ['code', 'stream', 'offset', 'byteLength', 'tMs', 'severity', 'message', 'hint', 'rules', 'impact']},
	);

	const event: fc.Arbitrary<SessionEvent> = fc.oneof(
		chunk.map((c) => ({type: 'chunk' as const, chunk: c})),
		frame.map((f) => ({type: 'frame' as const, frame: f})),
		finding.map((f) => ({type: 'finding' as const, finding: f})),
	);

	/** What JSON can carry: -0 becomes 0 (the only change fc.jsonValue values undergo). */
	const viaJson = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

	it('decode(encode(events)) gives the events back, bytes exact', () => {
		fc.assert(
			fc.property(fc.array(event, {maxLength: 12}), (events) => {
				const file = fileOf(events);
				expect(
					file
						.split('\n')
						.slice(0, -1)
						.every((line) => !/[\r\u0085\u2028\u2029]/u.test(line)),
				).toBe(true);
				const decoded = decodeRecords(file);
				expect(decoded.problems).toEqual([]);
				const expected = events.map((e): SessionEvent => {
					if (e.type === 'frame' && 'message' in e.frame) {
						return {type: 'frame', frame: {...e.frame, message: viaJson(e.frame.message)}};
					}

					if (e.type === 'finding' && e.finding.detail !== undefined) {
						return {type: 'finding', finding: {...e.finding, detail: viaJson(e.finding.detail) as Finding['detail']}};
					}

					return e;
				});
				expect(decoded.events).toEqual(expected);
			}),
			{numRuns: 300},
		);
	});

	it('a file cut anywhere keeps every record before the cut (property)', () => {
		fc.assert(
			fc.property(
				fc.array(event, {minLength: 1, maxLength: 6}),
				fc.double({min: 0, max: 1, noNaN: true}),
				(events, where) => {
					const file = fileOf(events);
					const cutAt = Math.floor(where * file.length);
					const decoded = decodeRecords(file.slice(0, cutAt));
					const completeLines = file.slice(0, cutAt).split('\n').length - 1;
					// Every complete record line before the cut survives (the header is line 1).
					expect(decoded.events.length).toBeGreaterThanOrEqual(Math.max(0, completeLines - 1));
					expect(decoded.events.length).toBeLessThanOrEqual(events.length);
				},
			),
			{numRuns: 200},
		);
	});
});

describe("the summary's `stalls` (a replayed tap capture whose end record has them)", () => {
	it("is written last, in the end record's shape, and read back", () => {
		const summary = makeSummary({
			durationMs: 900,
			incomplete: {cutShort: false, missingBytes: 4096, gaps: 1},
			stalls: {count: 2, totalMs: 2300, longestMs: 2000, timedOut: 1},
		});
		const line = encodeEvent({type: 'summary', summary});
		expect(
			line.endsWith(
				',"incomplete":{"cutShort":false,"missingBytes":4096,"gaps":1},"stalls":{"count":2,"totalMs":2300,"longestMs":2000,"timedOut":1}}',
			),
		).toBe(true);
		const decoded = decodeRecord(line);
		expect(
			decoded.kind === 'event' && decoded.event.type === 'summary' ? decoded.event.summary.stalls : undefined,
		).toEqual({count: 2, totalMs: 2300, longestMs: 2000, timedOut: 1});
	});

	it('a summary without stalls has no `stalls` key; a malformed one is a problem with its name', () => {
		expect(encodeEvent({type: 'summary', summary: makeSummary()})).not.toContain('stalls');
		const bad = encodeEvent({type: 'summary', summary: makeSummary()}).replace(
			/}$/,
			',"stalls":{"count":-1,"totalMs":0,"longestMs":0,"timedOut":0}}',
		);
		const decoded = decodeRecord(bad);
		expect(decoded.kind).toBe('problem');
		expect(decoded.kind === 'problem' ? decoded.message : '').toContain('count');
	});
});

describe("a chunk record's line is written directly (docs/performance.md#replay): the same text as stringifying the record", () => {
	/** The record as an object, stringified with the line-end escapes: how chunk lines were written before. */
	function reference(chunk: {seq: number; stream: string; tMs: number; offset: number; bytes: Uint8Array}): string {
		const buffer = Buffer.from(chunk.bytes);
		const record: Record<string, unknown> = {
			type: 'chunk',
			seq: chunk.seq,
			stream: chunk.stream,
			tMs: chunk.tMs,
			offset: chunk.offset,
			length: buffer.length,
			base64: buffer.toString('base64'),
		};
		if (buffer.length > 0 && buffer.length <= 1024 && isUtf8(buffer)) record['text'] = buffer.toString('utf8');
		// Line ends, C1 and bidi controls as \uXXXX (record-format.ts LINE_ENDS).
		return escapeJsonHazards(JSON.stringify(record));
	}

	it('ASCII, UTF-8 with U+0085/U+2028/U+2029 and control bytes, invalid UTF-8, empty, 1024 and 1025 bytes, odd numbers', () => {
		const cases = [
			makeChunk({
				seq: 1,
				stream: 'stdin',
				tMs: 2.15,
				offset: 206,
				bytes: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}\n',
			}),
			makeChunk({seq: 2, tMs: 0.1 + 0.2, offset: 0, bytes: 'a\u0085b\u2028c\u2029d "q" \\ \u0000\u001f\u007f é 😀\n'}),
			makeChunk({bytes: bytesOf('{"x":"', 0xff, 0xfe, '"}', 0x0a)}),
			makeChunk({bytes: ''}),
			makeChunk({bytes: 'x'.repeat(1024)}),
			makeChunk({bytes: 'x'.repeat(1025)}),
			makeChunk({bytes: '\u2028'.repeat(400)}),
			makeChunk({seq: 0, tMs: -0, offset: 9_007_199_254_740_991, bytes: 'z'}),
			makeChunk({tMs: Number.NaN, bytes: 'n'}),
			makeChunk({tMs: Number.POSITIVE_INFINITY, bytes: 'i'}),
			makeChunk({tMs: 1e21, bytes: 'e'}),
			makeChunk({tMs: 5e-7, bytes: 'e'}),
		];
		for (const chunk of cases) expect(encodeEvent({type: 'chunk', chunk})).toBe(reference(chunk));
		expect(encodeEvent({type: 'chunk', chunk: cases[1]!})).toContain(
			String.raw`a\u0085b\u2028c\u2029d \"q\" \\ \u0000\u001f`,
		);
		expect(encodeEvent({type: 'chunk', chunk: cases[8]!})).toContain('"tMs":null,');
	});

	it('any bytes and numbers (property)', () => {
		const piece = fc.oneof(
			fc.uint8Array({maxLength: 40}),
			fc.constantFrom(
				bytesOf(0xe2, 0x80, 0xa8),
				bytesOf(0xe2, 0x80, 0xa9),
				bytesOf(0xc2, 0x85),
				bytesOf(0xf0, 0x9f, 0x98, 0x80),
				bytesOf(0x22, 0x5c, 0x0a),
			),
			fc.string({maxLength: 30}).map((s) => Buffer.from(s)),
		);
		const bytes = fc.array(piece, {maxLength: 60}).map((parts) => new Uint8Array(Buffer.concat(parts)));
		const number = fc.oneof(fc.double(), fc.nat(), fc.constant(-0));
		fc.assert(
			fc.property(
				fc.record({
					seq: number,
					stream: fc.constantFrom('stdin' as const, 'stdout' as const, 'stderr' as const),
					tMs: number,
					offset: number,
					bytes,
				}),
				(chunk) => {
					expect(encodeEvent({type: 'chunk', chunk})).toBe(reference(chunk));
				},
			),
			{numRuns: 500},
		);
	});
});
