import {execFileSync} from 'node:child_process';
import {describe, expect, it} from 'vitest';
import {shellWord} from '../../../src/cli/commands/wrap.js';

describe('shellWord', () => {
	it.each([
		['fs', 'fs'],
		['my-server_2.0', 'my-server_2.0'],
		['@scope/pkg:1%+=,', '@scope/pkg:1%+=,'],
		['py healthy', "'py healthy'"],
		["it's", "'it'\\''s'"],
		['', "''"],
		['$HOME', "'$HOME'"],
		['a*b', "'a*b'"],
		['tab\there', "'tab\there'"],
	])('%j → %s', (word, expected) => {
		expect(shellWord(word)).toBe(expected);
	});

	it.skipIf(process.platform === 'win32')('is read back by sh as the same single word', () => {
		const words = [
			'fs',
			'py healthy',
			"it's",
			'',
			'$HOME',
			'a*b',
			'"quoted"',
			"''",
			'back\\slash',
			'semi;colon',
			'line\nbreak',
			'`tick`',
			'ünïcode name',
		];
		// printf prints each argument between brackets, so a word split in two or dropped would show.
		const script = `printf '[%s]' ${words.map(shellWord).join(' ')}`;
		expect(execFileSync('sh', ['-c', script], {encoding: 'utf8'})).toBe(words.map((word) => `[${word}]`).join(''));
	});
});
