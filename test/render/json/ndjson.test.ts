import {describe, expect, it} from 'vitest';
import {decodeRecords} from '../../../src/core/capture/record-codec.js';
import type {SessionEvent} from '../../../src/core/types.js';
import {createNdjsonPieceWriter, createNdjsonWriter} from '../../../src/render/json/ndjson.js';
import {makeChunk, makeFinding, makeFrame, makeMeta, makeSummary} from '../../helpers/factories.js';

const META = makeMeta({command: ['node', 'server.mjs', '--token=s3cret'], cwd: '/home/s3cret/app'});

const EVENTS: SessionEvent[] = [
	{type: 'chunk', chunk: makeChunk({stream: 'stdout', bytes: 's3cret banner\n'})},
	{type: 'frame', frame: makeFrame({kind: 'text', text: 's3cret banner', byteLength: 14})},
	{type: 'finding', finding: makeFinding({code: 'stray-output', severity: 'error', message: 'stdout carries s3cret'})},
	{type: 'mark', mark: {type: 'eof', stream: 'stdout', tMs: 3}},
	{type: 'exit', exit: {code: 0, signal: null, tMs: 4}},
	{type: 'summary', summary: makeSummary({verdict: 'fail', errors: 1, durationMs: 4})},
];

function run(options: Parameters<typeof createNdjsonWriter>[1] = {}): string[] {
	const lines: string[] = [];
	const writer = createNdjsonWriter((line) => lines.push(line), options);
	writer.header(META);
	for (const event of EVENTS) {
		writer.event(event);
	}

	return lines;
}

describe('createNdjsonWriter', () => {
	it('writes the header and every event in the capture-file format, so a dump decodes back', () => {
		const lines = run();
		expect(lines).toHaveLength(7);
		expect(lines.map((line) => (JSON.parse(line) as {type: string}).type)).toEqual([
			'session',
			'chunk',
			'frame',
			'finding',
			'mark',
			'exit',
			'summary',
		]);
		const decoded = decodeRecords(`${lines.join('\n')}\n`);
		expect(decoded.problems).toEqual([]);
		expect(decoded.header).toEqual({...META, format: 1});
		expect(decoded.events).toEqual(EVENTS);
	});

	it('leaves chunks or frames out on request', () => {
		expect(run({chunks: false}).map((line) => (JSON.parse(line) as {type: string}).type)).toEqual([
			'session',
			'frame',
			'finding',
			'mark',
			'exit',
			'summary',
		]);
		expect(run({frames: false}).map((line) => (JSON.parse(line) as {type: string}).type)).toEqual([
			'session',
			'chunk',
			'finding',
			'mark',
			'exit',
			'summary',
		]);
	});

	it('redacts command, cwd, frame text and finding messages but never the bytes', () => {
		const lines = run({redact: (text) => text.replaceAll('s3cret', '***')});
		const decoded = decodeRecords(`${lines.join('\n')}\n`);
		expect(decoded.header?.command).toEqual(['node', 'server.mjs', '--token=***']);
		expect(decoded.header?.cwd).toBe('/home/***/app');
		const [chunk, frame, finding] = decoded.events;
		expect(chunk?.type === 'chunk' && Buffer.from(chunk.chunk.bytes).toString('utf8')).toBe('s3cret banner\n');
		expect(frame?.type === 'frame' && frame.frame.text).toBe('*** banner');
		expect(finding?.type === 'finding' && finding.finding.message).toBe('stdout carries ***');
	});

	it('demands exactly one header, first', () => {
		const writer = createNdjsonWriter(() => undefined);
		expect(() => writer.event(EVENTS[3]!)).toThrow('header() must be written before any event');
		writer.header(META);
		expect(() => writer.header(META)).toThrow('header() was already written');
	});
});

describe('createNdjsonPieceWriter', () => {
	it('writes the bytes createNdjsonWriter writes, with the newlines, a big chunk and a big frame in pieces (docs/performance.md#replay)', () => {
		const big: SessionEvent[] = [
			{type: 'chunk', chunk: makeChunk({stream: 'stdin', bytes: 'é'.repeat(300_000)})},
			{
				type: 'frame',
				frame: makeFrame({
					stream: 'stdin',
					byteLength: 600_001,
					message: {jsonrpc: '2.0', id: 1, method: 's3cret', params: {text: 'é s3cret '.repeat(60_000)}},
				}),
			},
			...EVENTS,
		];
		for (const options of [{}, {chunks: false}, {redact: (text: string) => text.replaceAll('s3cret', '***')}]) {
			const lines: string[] = [];
			const whole = createNdjsonWriter((line) => lines.push(line), options);
			const pieces: Array<string | Uint8Array> = [];
			const inPieces = createNdjsonPieceWriter((piece) => pieces.push(piece), options);
			for (const writer of [whole, inPieces]) {
				writer.header(META);
				for (const event of big) writer.event(event);
			}

			const bytes = Buffer.concat(pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece)));
			expect(bytes.equals(Buffer.from(`${lines.join('\n')}\n`))).toBe(true);
			expect(pieces.length).toBeGreaterThan(2 * (lines.length + 1));
		}
	});
});
