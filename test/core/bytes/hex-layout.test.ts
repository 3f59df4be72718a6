import {describe, expect, it} from 'vitest';
import {hexRows, hexWindow} from '../../../src/core/bytes/hex-layout.js';
import {bytesOf, utf8} from '../../helpers/factories.js';

const FRAME_40 = utf8('{"jsonrpc":"2.0","id":123,"result":{}}\r\n');

describe('hexRows', () => {
	it('lays 40 bytes out as rows of 16 at stream offsets', () => {
		const rows = hexRows(FRAME_40, {baseOffset: 0x1f3});
		expect(rows.map((row) => [row.offset, row.cells.length, row.isSqueezed])).toEqual([
			[0x1f3, 16, false],
			[0x203, 16, false],
			[0x213, 8, false],
		]);
		expect(rows.map((row) => row.gutter)).toEqual(['{"jsonrpc":"2.0"', ',"id":123,"resul', 't":{}}←↵']);
		const last = rows[2]!.cells;
		expect(last.map((cell) => cell.offset)).toEqual([0x213, 0x214, 0x215, 0x216, 0x217, 0x218, 0x219, 0x21a]);
		expect(last[6]).toEqual({
			byte: 0x0d,
			offset: 0x219,
			category: 'ascii-whitespace',
			glyph: '←',
			isHighlighted: false,
		});
		expect(last[7]).toEqual({
			byte: 0x0a,
			offset: 0x21a,
			category: 'ascii-whitespace',
			glyph: '↵',
			isHighlighted: false,
		});
	});

	it('gives every cell its hexyl category', () => {
		const [row] = hexRows(bytesOf(0x00, 'A', 0x20, 0x1b, 0xef), {baseOffset: 0});
		expect(row!.cells.map((cell) => cell.category)).toEqual([
			'null',
			'ascii-printable',
			'ascii-whitespace',
			'ascii-other',
			'non-ascii',
		]);
		expect(row!.gutter).toBe('␀A ␛×');
	});

	it('highlights by stream offset, across rows', () => {
		const rows = hexRows(FRAME_40, {
			baseOffset: 100,
			highlight: [
				{offset: 114, length: 4},
				{offset: 138, length: 2},
			],
		});
		const marked = rows.flatMap((row) => row.cells.filter((cell) => cell.isHighlighted).map((cell) => cell.offset));
		expect(marked).toEqual([114, 115, 116, 117, 138, 139]);
	});

	it('ignores zero-length highlights', () => {
		const rows = hexRows(FRAME_40, {baseOffset: 0, highlight: [{offset: 5, length: 0}]});
		expect(rows.some((row) => row.cells.some((cell) => cell.isHighlighted))).toBe(false);
	});

	it('squeezes a run of two or more repeated rows', () => {
		const bytes = bytesOf('A'.repeat(16), new Uint8Array(64), 'B');
		const rows = hexRows(bytes, {baseOffset: 0, squeeze: true});
		expect(
			rows.map((row) => [row.offset, row.isSqueezed, row.squeezedRows, row.squeezedBytes, row.cells.length]),
		).toEqual([
			[0, false, 0, 0, 16],
			[16, false, 0, 0, 16],
			[32, true, 3, 48, 0],
			[80, false, 0, 0, 1],
		]);
	});

	it('does not squeeze a single repeated row, nor rows with highlighted bytes', () => {
		const single = hexRows(new Uint8Array(32), {baseOffset: 0, squeeze: true});
		expect(single.map((row) => row.isSqueezed)).toEqual([false, false]);
		const highlighted = hexRows(new Uint8Array(64), {
			baseOffset: 0,
			squeeze: true,
			highlight: [{offset: 40, length: 1}],
		});
		expect(highlighted.map((row) => [row.offset, row.isSqueezed])).toEqual([
			[0, false],
			[16, false],
			[32, false],
			[48, false],
		]);
	});

	it('returns no rows for no bytes and rejects bad options', () => {
		expect(hexRows(new Uint8Array(), {baseOffset: 0})).toEqual([]);
		expect(() => hexRows(FRAME_40, {baseOffset: 0, bytesPerRow: 0})).toThrow(RangeError);
		expect(() => hexRows(FRAME_40, {baseOffset: -1})).toThrow(RangeError);
	});

	it('supports other row widths', () => {
		const rows = hexRows(FRAME_40, {baseOffset: 0, bytesPerRow: 8});
		expect(rows.map((row) => row.offset)).toEqual([0, 8, 16, 24, 32]);
	});
});

describe('hexWindow', () => {
	const stream = new Uint8Array(300).map((_, k) => k & 0xff);
	const provider = (offset: number, length: number): Uint8Array =>
		stream.slice(offset, Math.min(stream.length, offset + length));

	it('aligns to rows with one row of context', () => {
		const window = hexWindow(provider, {offset: 40, length: 3});
		expect(window.offset).toBe(16);
		expect(window.bytes.length).toBe(48);
		expect(window.bytes[0]).toBe(16);
		expect(window.cutBytes).toBe(0);
	});

	it('clamps at the stream start and end', () => {
		expect(hexWindow(provider, {offset: 2, length: 1}).offset).toBe(0);
		const atEnd = hexWindow(provider, {offset: 300, length: 0});
		expect([atEnd.offset, atEnd.bytes.length]).toEqual([272, 28]);
	});

	it('caps the rows and reports the evidence it cut', () => {
		const window = hexWindow(provider, {offset: 16, length: 200, context: 1, maxRows: 4});
		expect([window.offset, window.bytes.length, window.cutBytes]).toEqual([0, 64, 152]);
	});

	it('takes no context when asked', () => {
		const window = hexWindow(provider, {offset: 33, length: 1, context: 0});
		expect([window.offset, window.bytes.length]).toEqual([32, 16]);
	});
});
