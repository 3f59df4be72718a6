import {describe, expect, it} from 'vitest';
import {paint, resolveColor, severityToken, streamToken, TEXT_THEME} from '../../../src/render/text/theme.js';

describe('text theme', () => {
	it('maps streams and severities to tokens', () => {
		expect(['stdin', 'stdout', 'stderr'].map((stream) => streamToken(stream as 'stdin'))).toEqual([
			'stream.stdin',
			'stream.stdout',
			'stream.stderr',
		]);
		expect(severityToken('warning')).toBe('severity.warning');
	});

	it('has a format for every token', () => {
		expect(Object.keys(TEXT_THEME).sort()).toEqual([
			'severity.error',
			'severity.info',
			'severity.warning',
			'stream.stderr',
			'stream.stdin',
			'stream.stdout',
			'ui.accent',
			'ui.dim',
		]);
	});

	it('paints with styleText when colour is on, and not at all when off', () => {
		expect(paint('severity.error', 'ERROR', false)).toBe('ERROR');
		expect(paint('severity.error', 'ERROR', true)).toBe('\u001B[31m\u001B[1mERROR\u001B[22m\u001B[39m');
		expect(paint('stream.stdout', 'S→C', true)).toBe('\u001B[32mS→C\u001B[39m');
		expect(paint('ui.dim', '', true)).toBe('');
	});
});

describe('resolveColor (one rule for the plain log, the TUI and doctor)', () => {
	it('honours --color, NO_COLOR (non-empty), FORCE_COLOR=0 and the terminal check', () => {
		expect(resolveColor('always', {NO_COLOR: '1'}, false)).toBe(true);
		expect(resolveColor('never', {}, true)).toBe(false);
		expect(resolveColor('auto', {}, true)).toBe(true);
		expect(resolveColor('auto', {}, false)).toBe(false);
		expect(resolveColor('auto', {NO_COLOR: '1'}, true)).toBe(false);
		expect(resolveColor('auto', {NO_COLOR: ''}, true)).toBe(true);
		expect(resolveColor('auto', {FORCE_COLOR: '0'}, true)).toBe(false);
	});
});
