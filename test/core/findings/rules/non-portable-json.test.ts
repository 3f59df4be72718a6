import {describe, expect, it} from 'vitest';
import {factTester} from '../fact-tester.js';
import {portabilityProblems} from '../../../../src/core/framing/portability.js';
import {enc, INIT, INIT_OK, INITIALIZED, LIST, run} from '../harness.js';

const PREFIX = INIT_OK.length; // ASCII: bytes = chars

function reply(text: string): string {
	return `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${text}"}]}}\n`;
}

function stdoutFindings(body: string) {
	const session = run([
		['stdin', 0, INIT],
		['stdout', 5, INIT_OK],
		['stdin', 6, INITIALIZED + LIST(1)],
		['stdout', 10, body],
	]);
	return session.getSnapshot().findings.filter((f) => f.code === 'non-portable-json');
}

describe('non-portable-json (R3, J1): JSON.parse accepts it, strict parsers do not', () => {
	it('lone-surrogate: a high escape without its low half, at the escape byte, error, Python drops the line', () => {
		const body = reply('cut \\ud83d');
		const [finding, ...rest] = stdoutFindings(body);
		expect(rest).toEqual([]);
		expect(finding).toMatchObject({
			code: 'non-portable-json',
			severity: 'error',
			stream: 'stdout',
			offset: PREFIX + body.indexOf('\\ud83d'),
			byteLength: 6,
			detail: {reason: 'lone-surrogate', token: '\\ud83d'},
		});
		expect(finding!.impact.find((i) => i.client === 'python-sdk')?.reaction).toBe('drop-log');
		expect(finding!.impact.find((i) => i.client === 'ts-sdk-v1')?.reaction).toBe('ok');
	});

	it('a lone low escape is reported; a whole pair is not; multi-byte text before it counts in bytes', () => {
		const body = reply('é \\udc00 and \\ud83d\\ude00');
		const [finding, ...rest] = stdoutFindings(body);
		expect(rest).toEqual([]);
		const at = enc(body.slice(0, body.indexOf('\\udc00'))).length;
		expect(finding).toMatchObject({offset: PREFIX + at, detail: {reason: 'lone-surrogate', token: '\\udc00'}});
		expect(stdoutFindings(reply('ok \\ud83d\\ude00 \\u00e9'))).toEqual([]);
	});

	it('unsafe-integer: an integer beyond 2^53 is a warning at the number; 2^53-1 and long decimals are not', () => {
		const body =
			'{"jsonrpc":"2.0","id":1,"result":{"content":[],"n":12345678901234567890,"ok":9007199254740991,"f":1234567890123456789.5}}\n';
		const [finding, ...rest] = stdoutFindings(body);
		expect(rest).toEqual([]);
		expect(finding).toMatchObject({
			severity: 'warning',
			offset: PREFIX + body.indexOf('12345678901234567890'),
			byteLength: 20,
			detail: {reason: 'unsafe-integer', token: '12345678901234567890'},
		});
		expect(finding!.impact.find((i) => i.client === 'ts-sdk-v1')?.reaction).toBe('corrupt');
	});

	it('escapes and digits inside strings are not numbers; -2^53-1 is unsafe', () => {
		expect(portabilityProblems('{"a":"12345678901234567890","b":"\\\\ud83d"}')).toEqual([]);
		expect(portabilityProblems('{"a":-9007199254740993}')).toEqual([
			{reason: 'unsafe-integer', index: 5, length: 17, token: '-9007199254740993'},
		]);
	});
});

factTester('non-portable-json', {
	valid: [{name: 'a body with no non-portable token'}, {name: 'an empty token list', facts: {nonPortable: []}}],
	invalid: [
		{
			name: 'each token at its own byte: a lone surrogate (error) and an unsafe integer (warning)',
			facts: {
				nonPortable: [
					{reason: 'lone-surrogate', at: 140, length: 6, token: '\\ud83d'},
					{reason: 'unsafe-integer', at: 160, length: 17, token: '12345678901234567'},
				],
			},
			drafts: [
				{severity: 'error', offset: 140, byteLength: 6, detail: {reason: 'lone-surrogate', token: '\\ud83d'}},
				{
					severity: 'warning',
					offset: 160,
					byteLength: 17,
					detail: {reason: 'unsafe-integer', token: '12345678901234567'},
				},
			],
		},
	],
});
