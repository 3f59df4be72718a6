import {describe, expect, it} from 'vitest';
import {detectWrap, isLauncherToken, unifiedDiff} from '../../src/configs/index.js';
import {firstInvalidUtf8} from '../../src/configs/parse.js';

describe('unifiedDiff', () => {
	it('is empty for equal texts', () => {
		expect(unifiedDiff('a\nb\n', 'a\nb\n', 'f')).toBe('');
	});

	it('shows removed lines before added ones, with 3 lines of context', () => {
		const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9'].join('\n') + '\n';
		const after = before.replace('5\n', 'five\n');
		expect(unifiedDiff(before, after, 'f')).toBe(
			['--- f', '+++ f', '@@ -2,7 +2,7 @@', ' 2', ' 3', ' 4', '-5', '+five', ' 6', ' 7', ' 8', ''].join('\n'),
		);
	});

	it('splits distant changes into hunks and merges close ones', () => {
		const lines = Array.from({length: 20}, (_, index) => `l${index + 1}`);
		const before = lines.join('\n') + '\n';
		const after = before.replace('l2\n', 'L2\n').replace('l18\n', 'L18\n');
		expect(unifiedDiff(before, after, 'f')).toBe(
			[
				'--- f',
				'+++ f',
				'@@ -1,5 +1,5 @@',
				' l1',
				'-l2',
				'+L2',
				' l3',
				' l4',
				' l5',
				'@@ -15,6 +15,6 @@',
				' l15',
				' l16',
				' l17',
				'-l18',
				'+L18',
				' l19',
				' l20',
				'',
			].join('\n'),
		);
		const close = before.replace('l2\n', 'L2\n').replace('l7\n', 'L7\n');
		expect(
			unifiedDiff(before, close, 'f')
				.split('\n')
				.filter((line) => line.startsWith('@@')),
		).toEqual(['@@ -1,10 +1,10 @@']);
	});

	it('counts an insertion into an empty file and CR LF lines', () => {
		expect(unifiedDiff('', 'a\n', 'f')).toBe('--- f\n+++ f\n@@ -0,0 +1,1 @@\n+a\n');
		expect(unifiedDiff('x\r\ny\r\n', 'x\r\nz\r\n', 'f')).toBe('--- f\n+++ f\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n');
	});
});

describe('wrap marker', () => {
	it.each([
		['mcp-wire', true],
		['mcp-wire@0.1.0', true],
		['mcp-wire@latest', true],
		['/usr/local/bin/mcp-wire', true],
		['C:\\npm\\mcp-wire.cmd', true],
		['/repo/bin/mcp-wire.js', true],
		['mcp-wire-extra', false],
		['not-mcp-wire', false],
	])('isLauncherToken(%s) = %s', (token, expected) => {
		expect(isLauncherToken(token)).toBe(expected);
	});

	it('finds `<launcher> tap ... --` and the original command after it', () => {
		expect(detectWrap(['npx', '-y', 'mcp-wire', 'tap', '--name', 'fs', '--', 'node', 's.js'])).toEqual({
			tapIndex: 3,
			separatorIndex: 6,
			originalIndex: 7,
		});
		expect(detectWrap(['mcp-wire', 'tap', '--', 'uvx', 'x'])).toEqual({
			tapIndex: 1,
			separatorIndex: 2,
			originalIndex: 3,
		});
		expect(detectWrap(['npx', '-y', 'mcp-wire', 'tap', '--'])).toBeUndefined();
		expect(detectWrap(['npx', 'other', 'tap', '--', 'node'])).toBeUndefined();
		expect(detectWrap(['node', 'server.js', 'tap', '--', 'x'])).toBeUndefined();
	});
});

describe('firstInvalidUtf8', () => {
	it.each([
		[[0x61, 0xc3, 0xa9], -1],
		[[0xf0, 0x9f, 0x98, 0x80], -1],
		[[0x61, 0xc3, 0x28], 1],
		[[0xc0, 0x80], 0],
		[[0xe0, 0x80, 0x80], 0],
		[[0xed, 0xa0, 0x80], 0],
		[[0xf4, 0x90, 0x80, 0x80], 0],
		[[0x61, 0x62, 0xe2, 0x82], 2],
		[[0xff], 0],
	])('%j → %i', (bytes, expected) => {
		expect(firstInvalidUtf8(Uint8Array.from(bytes))).toBe(expected);
	});
});
