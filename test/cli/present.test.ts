import {Writable} from 'node:stream';
import {describe, expect, it} from 'vitest';
import {createPresenter} from '../../src/cli/present.js';
import {Session} from '../../src/core/session/session.js';
import {formatFinding, formatSummary} from '../../src/render/text/plain-log.js';
import {makeMeta} from '../helpers/factories.js';

/** A stdout stand-in that keeps everything written to it. */
function collector(): {readonly out: Writable; text(): string} {
	const parts: Buffer[] = [];
	const out = new Writable({
		write(chunk: Buffer, _encoding, callback) {
			parts.push(chunk);
			callback();
		},
	});
	return {out, text: () => Buffer.concat(parts).toString('utf8')};
}

describe('createPresenter (plain) finish', () => {
	it('prints 150,001 findings of one code and one of another without a RangeError: the error code first, five "also" lines, then a count', async () => {
		const count = 150_001;
		const session = new Session(makeMeta());
		for (let i = 0; i < count; i++) session.addFinding({code: 'crlf', stream: 'stdout', offset: 2 * i, byteLength: 2, tMs: 0, severity: 'warning'});
		session.addFinding({code: 'invalid-jsonrpc', stream: 'stdin', offset: 7, byteLength: 3, tMs: 1, severity: 'error'});
		session.finish(2);
		const snapshot = session.getSnapshot();
		expect(snapshot.findings).toHaveLength(count + 1);

		const {out, text} = collector();
		const presenter = createPresenter({mode: 'plain', isColor: false, hex: false, redact: false, redactPayloads: false, out});
		await presenter.finish(session);
		await new Promise((resolve) => setImmediate(resolve));

		const textOptions = {color: false, hex: 'plain' as const};
		const [firstCrlf, secondCrlf] = snapshot.findings;
		const invalid = snapshot.findings.at(-1)!;
		expect([firstCrlf!.code, secondCrlf!.code, invalid.code]).toEqual(['crlf', 'crlf', 'invalid-jsonrpc']);
		const expected = [
			'',
			...formatFinding(invalid, snapshot, textOptions),
			'',
			...formatFinding(firstCrlf!, snapshot, textOptions),
			'  also crlf at stdout offset 2',
			'  also crlf at stdout offset 4',
			'  also crlf at stdout offset 6',
			'  also crlf at stdout offset 8',
			'  also crlf at stdout offset 10',
			`  … and ${count - 6} more crlf`,
			'',
			...formatSummary(snapshot.summary, {color: false}),
		];
		expect(text()).toBe(`${expected.join('\n')}\n`);
		expect(snapshot.summary.findings).toEqual([
			{code: 'invalid-jsonrpc', severity: 'error', count: 1},
			{code: 'crlf', severity: 'warning', count},
		]);
	});
});
