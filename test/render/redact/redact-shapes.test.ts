import {describe, expect, it} from 'vitest';
import {Redactor} from '../../../src/render/redact/index.js';

const SENDGRID = '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';
const TELEGRAM = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1';
const GHP = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
const YA29 = 'ya29.a0AfB_byC1wlgiqOfSeGy1S3l1K5FBpGBS6JlrJmqVyTB2NkL9DhTrqcj7OMhMj';
const GOCSPX = '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';
const DOP = 'dop_v1_1596fb0ac8f3e9c79ad7204fbf792836061bce1dffaf689e44e45f1673347fdf';
const NTN = 'ntn_9Wzx4g2734bP4t0i5h3JXDKKidDir4lsdLxZa94IXNqZU5';
const LIN = 'lin_api_0123456789abcdefABCDEF0123456789ab';
const DISCORD = 'https://discord.com/api/webhooks/987650000011112222';
const DISCORD_TOKEN = 'AWDUebcTINxHpQ4xelkXPpAIIDmrngEXlbhphI';
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

describe('redaction shapes (docs/cli.md#report)', () => {
	const redactor = new Redactor({home: String.raw`C:\Users\carol`, user: 'carol', secrets: ['s3cr3t-literal-77']});
	it.each([
		['redis://:hunter2pass@cache:6379/0', 'redis://:<redacted>@cache:6379/0'],
		['amqp://guest:guestpw9@mq/', 'amqp://guest:<redacted>@mq/'],
		[`key ${SENDGRID} end`, 'key SG.<redacted> end'],
		[`bot ${TELEGRAM} end`, 'bot <redacted> end'],
		['"private_key_id": "3f2a9c0e1b7d4a6f8e5c2b1a0d9e8f7a6b5c4d3e"', '"private_key_id": "<redacted>"'],
		[`blob ${b64(`{"token":"${GHP}"}`)} end`, 'blob <redacted> end'],
		[`auth ${b64('user:s3cr3t-literal-77')} end`, 'auth <redacted> end'],
		[`plain ${b64('just some harmless words here')} end`, `plain ${b64('just some harmless words here')} end`],
		[String.raw`{"path":"C:\\\\Users\\\\dave\\\\x"}`, String.raw`{"path":"C:\\\\Users\\\\<user>\\\\x"}`],
		[String.raw`C:\\\\Users\\\\carol\\\\x`, String.raw`~\\\\x`],
		[`at ${YA29} end`, 'at ya29.<redacted> end'],
		[`id ${GOCSPX} end`, 'id GOCSPX-<redacted> end'],
		[`do ${DOP} end`, 'do dop_v1_<redacted> end'],
		[`notion ${NTN} end`, 'notion ntn_<redacted> end'],
		[`linear ${LIN} end`, 'linear lin_api_<redacted> end'],
		[`hook ${DISCORD}/${DISCORD_TOKEN} end`, `hook ${DISCORD}/<redacted> end`],
		[
			'https://b.s3.amazonaws.com/o?X-Amz-Date=20260101T000000Z&X-Amz-Signature=9f8e7d6c5b4a3928170f',
			'https://b.s3.amazonaws.com/o?X-Amz-Date=20260101T000000Z&X-Amz-Signature=<redacted>',
		],
		[
			'https://a.blob.core.windows.net/c/b?sv=2022-11-02&sig=L3V6IyYeuggXEr2ZRg5y%3D',
			'https://a.blob.core.windows.net/c/b?sv=2022-11-02&sig=<redacted>',
		],
	])('%s', (input, expected) => {
		expect(redactor.text(input)).toBe(expected);
	});

	it('masks the shapes in bytes too, same length', () => {
		const input = `a ${TELEGRAM} b ${SENDGRID} c redis://:hunter2pass@h\n`;
		const out = Buffer.from(redactor.bytes(Buffer.from(input), false)).toString('latin1');
		expect(out).toBe(
			`a ${'*'.repeat(TELEGRAM.length)} b SG.${'*'.repeat(SENDGRID.length - 3)} c redis://:${'*'.repeat(11)}@h\n`,
		);
	});
});
