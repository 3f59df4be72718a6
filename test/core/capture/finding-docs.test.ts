import {describe, expect, it} from 'vitest';
import {decodeRecord, encodeEvent} from '../../../src/core/capture/record-codec.js';
import {findingDocsRef} from '../../../src/core/findings/support/docs-ref.js';
import {FINDING_CODES} from '../../../src/core/types.js';
import {makeFinding} from '../../helpers/factories.js';

describe('finding records carry a docs pointer', () => {
	it('writes `docs` as the code section of docs/findings.md', () => {
		const finding = makeFinding({code: 'bom', offset: 0, byteLength: 3});
		const record = JSON.parse(encodeEvent({type: 'finding', finding})) as Record<string, unknown>;
		expect(record['docs']).toBe('docs/findings.md#bom');
	});

	it('is a new field only: every other field is unchanged and the record decodes to the same finding', () => {
		const finding = makeFinding({code: 'crlf', offset: 87, byteLength: 1, frameIndex: 1, detail: {a: 1}});
		const line = encodeEvent({type: 'finding', finding});
		const {docs, ...rest} = JSON.parse(line) as Record<string, unknown>;
		expect(docs).toBe('docs/findings.md#crlf');
		expect(Object.keys(rest)).toEqual([
			'type',
			'code',
			'severity',
			'stream',
			'offset',
			'byteLength',
			'frameIndex',
			'tMs',
			'message',
			'hint',
			'rules',
			'impact',
			'detail',
		]);
		const decoded = decodeRecord(line);
		expect(decoded).toEqual(decodeRecord(JSON.stringify(rest)));
		expect(decoded).toMatchObject({kind: 'event', event: {type: 'finding', finding}});
	});

	it('reads records written before the field existed (no `docs`)', () => {
		const finding = makeFinding({code: 'blank-line', offset: 5, byteLength: 1});
		const old = JSON.parse(encodeEvent({type: 'finding', finding})) as Record<string, unknown>;
		delete old['docs'];
		expect(decodeRecord(JSON.stringify(old))).toMatchObject({kind: 'event', event: {type: 'finding', finding}});
	});

	it('points every code at an anchor equal to the code', () => {
		for (const code of FINDING_CODES) expect(findingDocsRef(code)).toBe(`docs/findings.md#${code}`);
	});
});
