import {execFileSync} from 'node:child_process';
import {describe, expect, it} from 'vitest';
import {hexRows} from '../../../src/core/bytes/hex-layout.js';
import {formatHexOffset, markerLine, plainHexLines} from '../../../src/render/hex/plain.js';
import {bytesOf, utf8} from '../../helpers/factories.js';

/** A 40-byte response frame terminated by CR LF. */
const FRAME_40 = utf8('{"jsonrpc":"2.0","id":123,"result":{}}\r\n');

/** `printf '{"jsonrpc":"2.0","id":123,"result":{}}\r\n' | xxd` (xxd 2022-01-14). */
const XXD_40 = [
	'00000000: 7b22 6a73 6f6e 7270 6322 3a22 322e 3022  {"jsonrpc":"2.0"',
	'00000010: 2c22 6964 223a 3132 332c 2272 6573 756c  ,"id":123,"resul',
	'00000020: 7422 3a7b 7d7d 0d0a                      t":{}}..',
];

function realXxd(bytes: Uint8Array, args: readonly string[] = []): string[] | undefined {
	try {
		return execFileSync('xxd', [...args], {input: bytes, encoding: 'utf8'})
			.trimEnd()
			.split('\n');
	} catch {
		return undefined; // xxd not installed: the inline expectation still holds the real output.
	}
}

describe('plainHexLines (xxd layout)', () => {
	it('prints a 40-byte CRLF frame exactly as xxd does', () => {
		const lines = plainHexLines(hexRows(FRAME_40, {baseOffset: 0}));
		expect(lines).toEqual(XXD_40);
		const live = realXxd(FRAME_40);
		if (live !== undefined) {
			expect(lines).toEqual(live);
		}
	});

	it('prints stream offsets as xxd -o does', () => {
		const lines = plainHexLines(hexRows(FRAME_40, {baseOffset: 0x1f3}));
		expect(lines.map((line) => line.slice(0, 9))).toEqual(['000001f3:', '00000203:', '00000213:']);
		expect(lines.map((line) => line.slice(9))).toEqual(XXD_40.map((line) => line.slice(9)));
		const live = realXxd(FRAME_40, ['-o', '0x1f3']);
		if (live !== undefined) {
			expect(lines).toEqual(live);
		}
	});

	it('matches xxd on every byte value, including the gutter', () => {
		const all = new Uint8Array(256).map((_, k) => k);
		const lines = plainHexLines(hexRows(all, {baseOffset: 0}));
		expect(lines[2]).toBe('00000020: 2021 2223 2425 2627 2829 2a2b 2c2d 2e2f   !"#$%&\'()*+,-./');
		expect(lines[7]).toBe('00000070: 7071 7273 7475 7677 7879 7a7b 7c7d 7e7f  pqrstuvwxyz{|}~.');
		expect(lines[15]).toBe('000000f0: f0f1 f2f3 f4f5 f6f7 f8f9 fafb fcfd feff  ................');
		const live = realXxd(all);
		if (live !== undefined) {
			expect(lines).toEqual(live);
		}
	});

	it('puts ^ markers under highlighted hex pairs and gutter characters', () => {
		const rows = hexRows(FRAME_40, {baseOffset: 0, highlight: [{offset: 38, length: 2}]});
		expect(plainHexLines(rows)).toEqual([
			XXD_40[0],
			XXD_40[1],
			XXD_40[2],
			'                         ^^^^                            ^^',
		]);
	});

	it('marks a highlight that spans a group gap and a row break', () => {
		const rows = hexRows(FRAME_40, {baseOffset: 0, highlight: [{offset: 13, length: 5}]});
		expect(plainHexLines(rows, {indent: '  '})).toEqual([
			`  ${XXD_40[0]}`,
			'                                            ^^ ^^^^               ^^^',
			`  ${XXD_40[1]}`,
			'            ^^^^                                     ^^',
			`  ${XXD_40[2]}`,
		]);
	});

	it('can leave markers out and use the glyph gutter', () => {
		const rows = hexRows(bytesOf('{}', 0x0d, 0x0a, 0x1b, 0x00), {baseOffset: 0, highlight: [{offset: 0, length: 1}]});
		expect(plainHexLines(rows, {markers: false, gutter: 'glyph'})).toEqual([
			'00000000: 7b7d 0d0a 1b00                           {}←↵␛␀',
		]);
	});

	it('prints a squeeze row as *', () => {
		const rows = hexRows(bytesOf(new Uint8Array(64), 'x'), {baseOffset: 0, squeeze: true});
		expect(plainHexLines(rows)).toEqual([
			'00000000: 0000 0000 0000 0000 0000 0000 0000 0000  ................',
			'*',
			'00000040: 78                                       x',
		]);
	});

	it('formats offsets with at least 8 hex digits', () => {
		expect(formatHexOffset(0)).toBe('00000000');
		expect(formatHexOffset(0x1_0000_0000)).toBe('100000000');
	});

	it('has no marker line for a row without highlights', () => {
		expect(markerLine(hexRows(FRAME_40, {baseOffset: 0})[0]!)).toBeUndefined();
	});
});
