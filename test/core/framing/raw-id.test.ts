import {describe, expect, it} from 'vitest';
import {nonCanonicalRawId, rawIdToken} from '../../../src/core/framing/raw-id.js';
import {fieldCase as fieldCaseById, runFieldCase} from '../findings/harness.js';

describe('rawIdToken: the top-level "id" token as written (F38)', () => {
	it('reads the token of the depth-1 id member', () => {
		expect(rawIdToken('{"jsonrpc":"2.0","id":0.0,"result":{}}')).toBe('0.0');
		expect(rawIdToken('{ "id" : 1e0 , "result":{}}')).toBe('1e0');
		expect(rawIdToken('{"result":{},"id":7}')).toBe('7');
		expect(rawIdToken('{"id":"a,b","result":{}}')).toBeUndefined();
	});
	it('skips nested ids, ids inside strings and escaped quotes', () => {
		expect(rawIdToken('{"result":{"id":2.0},"x":"\\"id\\":3.0","id":4}')).toBe('4');
		expect(rawIdToken('{"result":{"id":2.0}}')).toBeUndefined();
		expect(rawIdToken('{"a":["id",{"id":1}],"b":"id"}')).toBeUndefined();
		expect(rawIdToken('[{"id":1.0}]')).toBeUndefined();
	});
	it('keeps a token only when it is not the integer JavaScript prints', () => {
		expect(nonCanonicalRawId({id: 0}, '{"id":0.0}')).toBe('0.0');
		expect(nonCanonicalRawId({id: 0}, '{"id":0}')).toBeUndefined();
		expect(nonCanonicalRawId({id: 'x'}, '{"id":"x"}')).toBeUndefined();
		expect(nonCanonicalRawId({id: 1.5}, '{"id":1.5}')).toBeUndefined();
	});
});

describe('F38: ids written 0.0 / 1.0', () => {
	const fieldCase = fieldCaseById('F38');
	it('is invalid-jsonrpc id-not-integer with the raw token, correlated, Python SDK hangs', () => {
		const snapshot = runFieldCase(fieldCase).getSnapshot();
		const findings = snapshot.findings.filter((f) => f.code === 'invalid-jsonrpc');
		expect(findings.map((f) => [f.offset, f.detail?.['reason'], f.detail?.['rawId']])).toEqual([
			[0, 'id-not-integer', '0.0'],
			[fieldCase.chunks[1]!.bytes.length, 'id-not-integer', '1.0'],
		]);
		const impact = findings[0]!.impact!;
		expect(impact.find((i) => i.client === 'ts-sdk-v1')?.reaction).toBe('ok');
		expect(impact.find((i) => i.client === 'python-sdk')?.reaction).toBe('hang');
		// Codex 0.171 (rmcp) matches a reply whose id is written 0.0 (docs/clients.md#codex).
		expect(impact.find((i) => i.client === 'rmcp')?.reaction).toBe('ok');
		const replies = snapshot.frames.filter((f) => f.stream === 'stdout');
		expect(replies.map((f) => [f.id, f.rawId, f.answers?.method])).toEqual([
			[0, '0.0', 'initialize'],
			[1, '1.0', 'tools/list'],
		]);
	});
});
