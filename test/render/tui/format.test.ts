import {describe, expect, it} from 'vitest';
import {
	jsonPreview,
	fitColumns,
	formatByteCount,
	formatBytes,
	formatId,
	formatLatency,
	formatMs,
	frameRowCells,
	frameSummary,
	padColumns,
	rowHeader,
	rowLayout,
	wrapText,
} from '../../../src/render/tui/format.js';
import type {Frame} from '../../../src/core/types.js';
import {exchangeSession} from './exchange.js';

const frames = exchangeSession().getSnapshot().frames;

describe('formatting', () => {
	it('formats times, latencies, sizes and ids', () => {
		expect([formatMs(1), formatMs(12.345), formatMs(99_999.94), formatMs(123_456.7)]).toEqual([
			'1.0',
			'12.3',
			'99999.9',
			'123457',
		]);
		expect([formatLatency(4), formatLatency(1250), formatLatency(75_400)]).toEqual(['4.0ms', '1.25s', '75s']);
		expect([
			formatByteCount(158),
			formatByteCount(999_999),
			formatByteCount(10 * 1024 * 1024),
			formatByteCount(3 * 1024 ** 3),
		]).toEqual(['158', '999999', '10.0M', '3.0G']);
		expect([formatBytes(420), formatBytes(1229), formatBytes(3.4 * 1024 * 1024)]).toEqual([
			'420 B',
			'1.2 KiB',
			'3.4 MiB',
		]);
		expect([formatId(1), formatId('a b'), formatId(null), formatId('\u001B[2J')]).toEqual([
			'#1',
			'#"a b"',
			'#null',
			'#"\\u001b[2J"',
		]);
	});

	it('previews JSON compactly without serialising all of a huge value', () => {
		expect(jsonPreview({a: [1, 'x', null, true], b: {}}, 100)).toBe('{"a":[1,"x",null,true],"b":{}}');
		expect(jsonPreview({a: 'y'.repeat(10_000_000)}, 12)).toBe('{"a":"yyyyyy');
		expect(
			jsonPreview(
				Array.from({length: 1_000_000}, (_, i) => i),
				10,
			),
		).toBe('[0,1,2,3,4');
	});

	it('fits, pads and wraps escaped text by display width', () => {
		expect(fitColumns('initialize', 6)).toBe('initi…');
		expect(fitColumns('init', 6)).toBe('init');
		expect(padColumns('C→S', 5)).toBe('C→S  ');
		expect(wrapText('print to stderr, not stdout', 10, 2)).toEqual(['print to', '  stderr,', '  not', '  stdout']);
		expect(wrapText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
		expect(wrapText('', 10)).toEqual(['']);
	});

	it('summarises each kind of frame, escaped', () => {
		expect(frames.map((frame) => frameSummary(frame, 60))).toEqual([
			'initialize #1',
			'[info] demo server starting',
			'Server listening on stdio',
			'#1 initialize',
			'notifications/initialized',
			'tools/list #2',
			'#2 tools/list',
			'␛[31mwarn␛[0m: slow disk',
		]);
		const error = {
			...frames[3]!,
			kind: 'error',
			message: {jsonrpc: '2.0', id: 1, error: {code: -32_601, message: 'Method not found'}},
		} as Frame;
		expect(frameSummary(error, 60)).toBe('#1 initialize ✖ -32601 Method not found');
		const blank = {...frames[2]!, kind: 'blank', text: '', terminator: 'crlf'} as Frame;
		expect(frameSummary(blank, 60)).toBe('(blank line, CR LF)');
		const json = {...frames[2]!, kind: 'json', message: {hello: 'world'}} as Frame;
		expect(frameSummary(json, 60)).toBe('(not JSON-RPC) {"hello":"world"}');
		// Truncated text reports the bytes left out.
		expect(frameSummary(frames[2]!, 16)).toBe('Ser… (+22 bytes)');
		expect(frameSummary(frames[2]!, 20)).toBe('Server … (+18 bytes)');
	});

	it('lays out row cells and the header for a width', () => {
		expect(rowLayout(120, 8)).toEqual({width: 120, indexWidth: 3, hasLatency: true, summaryWidth: 77});
		expect(rowLayout(60, 100_000)).toEqual({width: 60, indexWidth: 5, hasLatency: false, summaryWidth: 24});
		expect(frameRowCells(frames[3]!, 'warning', rowLayout(80, 8))).toEqual({
			mark: '▲',
			index: '  3',
			time: '      5.0',
			dir: 'S→C',
			bytes: '   143',
			kind: 'resp ',
			latency: '   4.0ms',
			summary: '#1 initialize',
		});
		expect(rowHeader(rowLayout(80, 8))).toBe('     #        ms dir  bytes kind   latency method / id / text');
		expect(rowHeader(rowLayout(60, 8))).toBe('     #        ms dir  bytes kind  method / id / text');
	});
});
