import {describe, expect, it} from 'vitest';
import {
	isInsideJsonString,
	newJsonScanState,
	parseContentLengthValue,
	parseHeaderLine,
	scanJsonValueEnd,
} from '../../../src/core/framing/index.js';
import {bytes} from './framer-harness.js';

describe('scanJsonValueEnd (string-aware bracket depth)', () => {
	it('ignores brackets and escaped quotes inside strings', () => {
		const b = bytes('{"a":"}]\\"{[","b":[1,{"c":"\\\\"}]} tail');
		expect(scanJsonValueEnd(b, 0, b.length, newJsonScanState())).toBe(33);
	});

	it('carries state across calls (lines, chunks)', () => {
		const state = newJsonScanState();
		const first = bytes('{"a": "x\\');
		expect(scanJsonValueEnd(first, 0, first.length, state)).toBe(-1);
		expect(state).toEqual({depth: 1, inString: true, escape: true});
		const second = bytes('"", "b": [1]}');
		expect(scanJsonValueEnd(second, 0, second.length, state)).toBe(13);
		expect(state).toEqual({depth: 0, inString: false, escape: false});
	});

	it('stops at the end bound', () => {
		const b = bytes('[[1]]');
		expect(scanJsonValueEnd(b, 0, 4, newJsonScanState())).toBe(-1);
	});

	it('isInsideJsonString', () => {
		const b = bytes('{"k":"v\\"x",1}');
		expect(isInsideJsonString(b, 0, 7)).toBe(true);
		expect(isInsideJsonString(b, 0, 9)).toBe(true);
		expect(isInsideJsonString(b, 0, 12)).toBe(false);
	});
});

describe('header lines (L2, L6)', () => {
	it('parses a header, skipping a BOM and complete escape sequences', () => {
		const b = bytes([0xef, 0xbb, 0xbf], '\u001B[2JContent-Length:  578 ');
		expect(parseHeaderLine(b, 0, b.length)).toEqual({
			nameStart: 7,
			name: 'Content-Length',
			value: '578',
			firstEsc: 3,
			hasBom: true,
		});
	});

	it('rejects lines that are not `Name: value`', () => {
		for (const text of [
			'no colon here',
			': value',
			'Name : value',
			'Na me: v',
			'Name: caf\u00E9',
			'\u001B[2',
			'{"a":1}',
		]) {
			const b = bytes(text);
			expect(parseHeaderLine(b, 0, b.length)).toBeUndefined();
		}
	});

	it('parses Content-Length values', () => {
		expect(parseContentLengthValue('157')).toBe(157);
		expect(parseContentLengthValue('0')).toBe(0);
		expect(parseContentLengthValue('12a')).toBeNull();
		expect(parseContentLengthValue('-1')).toBeNull();
		expect(parseContentLengthValue('')).toBeNull();
	});
});
