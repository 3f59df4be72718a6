import {afterEach, describe, expect, it} from 'vitest';
import stripAnsi from 'strip-ansi';
import {hexRows} from '../../../src/core/bytes/hex-layout.js';
import {ansiHexLines, cellStyle, HEX_THEME} from '../../../src/render/hex/ansi.js';
import {bytesOf} from '../../helpers/factories.js';

const ESC = '\u001B';

describe('ansiHexLines', () => {
	const savedNoColor = process.env['NO_COLOR'];
	afterEach(() => {
		if (savedNoColor === undefined) {
			delete process.env['NO_COLOR'];
		} else {
			process.env['NO_COLOR'] = savedNoColor;
		}
	});

	it('paints each byte by category, CR in its own colour, highlighted bytes inverse red', () => {
		const rows = hexRows(bytesOf('A', 0x0d, 0x00), {baseOffset: 0, highlight: [{offset: 2, length: 1}]});
		const [line, ...rest] = ansiHexLines(rows, {color: true});
		expect(rest).toEqual([]);
		const gray = (s: string): string => `${ESC}[90m${s}${ESC}[39m`;
		const cyan = (s: string): string => `${ESC}[36m${s}${ESC}[39m`;
		const redBright = (s: string): string => `${ESC}[91m${s}${ESC}[39m`;
		const inverseRed = (s: string): string => `${ESC}[7m${ESC}[31m${s}${ESC}[39m${ESC}[27m`;
		expect(line).toBe(
			`${gray('00000000:')} ${cyan('41')}${redBright('0d')} ${inverseRed('00')}${' '.repeat(32)}  ${cyan('A')}${redBright('←')}${inverseRed('␀')}`,
		);
	});

	it('without colour prints the xxd layout with the glyph gutter and ^ markers', () => {
		const rows = hexRows(bytesOf('{}', 0x0d, 0x0a, 0x1b, 0x00, 0xff), {
			baseOffset: 16,
			highlight: [{offset: 18, length: 1}],
		});
		expect(ansiHexLines(rows, {color: false})).toEqual([
			'00000010: 7b7d 0d0a 1b00 ff                        {}←↵␛␀×',
			'               ^^                                    ^',
		]);
	});

	it('honours NO_COLOR when no colour option is given', () => {
		process.env['NO_COLOR'] = '1';
		const lines = ansiHexLines(hexRows(bytesOf('ab'), {baseOffset: 0}));
		expect(lines).toEqual(['00000000: 6162                                     ab']);
	});

	it('colours by default without NO_COLOR, and an explicit color: true wins over NO_COLOR', () => {
		delete process.env['NO_COLOR'];
		const rows = hexRows(bytesOf('ab'), {baseOffset: 0});
		expect(ansiHexLines(rows)[0]).toContain(`${ESC}[36m61${ESC}[39m`);
		process.env['NO_COLOR'] = '1';
		const forced = ansiHexLines(rows, {color: true});
		expect(forced[0]).toContain(`${ESC}[36m61${ESC}[39m`);
		expect(stripAnsi(forced[0]!)).toBe('00000000: 6162                                     ab');
	});

	it('maps cells to theme tokens', () => {
		const [row] = hexRows(bytesOf(0x00, 0x41, 0x20, 0x1b, 0x80, 0x0d), {
			baseOffset: 0,
			highlight: [{offset: 1, length: 1}],
		});
		expect(row!.cells.map((cell) => cellStyle(cell))).toEqual([
			HEX_THEME.byte.null,
			HEX_THEME.highlight,
			HEX_THEME.byte['ascii-whitespace'],
			HEX_THEME.byte['ascii-other'],
			HEX_THEME.byte['non-ascii'],
			HEX_THEME.cr,
		]);
	});

	it('paints a squeeze row', () => {
		const rows = hexRows(new Uint8Array(64), {baseOffset: 0, squeeze: true});
		expect(ansiHexLines(rows, {color: false})).toEqual([
			'00000000: 0000 0000 0000 0000 0000 0000 0000 0000  ␀␀␀␀␀␀␀␀␀␀␀␀␀␀␀␀',
			'*',
		]);
	});
});
