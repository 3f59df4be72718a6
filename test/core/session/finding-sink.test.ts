// The finding sink counts a session's findings by code and severity and tells a live-only finding
// already recorded (a dump replayed with its observed marks derives it again).
import {describe, expect, it} from 'vitest';
import {FindingSink} from '../../../src/core/session/finding-sink.js';
import type {Finding, FindingCode, Severity} from '../../../src/core/types.js';

const finding = (code: FindingCode, severity: Severity, offset: number, origin?: 'probe'): Finding => ({
	code,
	stream: 'stdout',
	offset,
	byteLength: 4,
	tMs: 1,
	severity,
	message: code,
	hint: '',
	impact: [],
	rules: [],
	...(origin ? {origin} : {}),
});

describe('FindingSink', () => {
	it('counts by severity and by code: errors first, then warnings, then infos, each in the order first found', () => {
		const sink = new FindingSink();
		sink.record(finding('blank-line', 'info', 0));
		sink.record(finding('crlf', 'warning', 10));
		sink.record(finding('stray-output', 'error', 20));
		sink.record(finding('crlf', 'warning', 30));
		sink.record(finding('invalid-json', 'error', 40));
		expect(sink.tally()).toEqual({
			findings: [
				{code: 'stray-output', severity: 'error', count: 1},
				{code: 'invalid-json', severity: 'error', count: 1},
				{code: 'crlf', severity: 'warning', count: 2},
				{code: 'blank-line', severity: 'info', count: 1},
			],
			errors: 2,
			warnings: 2,
			infos: 1,
		});
	});

	it("a code's row takes the highest severity it was reported with (oversize-frame > 10 MiB is an error)", () => {
		const sink = new FindingSink();
		sink.record(finding('oversize-frame', 'warning', 0));
		sink.record(finding('oversize-frame', 'error', 100));
		sink.record(finding('oversize-frame', 'warning', 200));
		expect(sink.tally()).toEqual({
			findings: [{code: 'oversize-frame', severity: 'error', count: 3}],
			errors: 1,
			warnings: 2,
			infos: 0,
		});
	});

	it('knows a live-only finding by code, stream and offset; a derived one is not remembered', () => {
		const sink = new FindingSink();
		const draft = {code: 'no-response', stream: 'stdout', offset: 0, byteLength: 0, tMs: 5} as const;
		expect(sink.hasProbe(draft)).toBe(false);
		sink.record(finding('no-response', 'error', 0, 'probe'));
		expect(sink.hasProbe(draft)).toBe(true);
		expect(sink.hasProbe({...draft, offset: 1})).toBe(false);
		expect(sink.hasProbe({...draft, stream: 'stdin'})).toBe(false);
		sink.record(finding('crlf', 'warning', 7));
		expect(sink.hasProbe({...draft, code: 'crlf', offset: 7})).toBe(false);
	});

	it('an empty tally is all zeros, and each call gives a new object', () => {
		const sink = new FindingSink();
		const first = sink.tally();
		expect(first).toEqual({findings: [], errors: 0, warnings: 0, infos: 0});
		expect(sink.tally()).not.toBe(first);
	});
});
