/**
 * `retain: false` (the streaming `view`/`report`, docs/performance.md#replay) derives the same findings as `retain: true`:
 * every field case and every recorded example capture goes through both modes, and the findings (code,
 * stream, offset, byte length, frame, severity, message, in order), the summary and the stderr tail agree.
 */
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {decodeRecords} from '../../../src/core/capture/record-codec.js';
import {createReplay} from '../../../src/core/session/replay.js';
import {Session} from '../../../src/core/session/session.js';
import type {Finding, SessionMeta} from '../../../src/core/types.js';
import {FIELD_CASES, type FieldCase} from '../../fixtures/field-cases/cases.js';

const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.0.0-test'},
	node: 'v20.0.0',
	platform: 'linux',
	command: ['server'],
	envMode: 'sdk-default',
	startedAt: '2026-01-01T00:00:00.000Z',
	mode: 'replay',
};

const CAPTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'captures');

/** A session in either mode, with every finding collected from the events (the only place a streaming session gives them). */
function collecting(retain: boolean, make: (retain: boolean) => Session): {session: Session; findings: Finding[]} {
	const findings: Finding[] = [];
	const session = make(retain);
	session.on((event) => {
		if (event.type === 'finding') findings.push(event.finding);
	});
	return {session, findings};
}

function runCase(fieldCase: FieldCase, retain: boolean): {session: Session; findings: Finding[]} {
	const run = collecting(retain, (keep) => new Session(META, {retain: keep}));
	const {session} = run;
	const steps: Array<{tMs: number; order: number; run: () => void}> = [];
	let order = 0;
	for (const chunk of fieldCase.chunks)
		steps.push({tMs: chunk.tMs, order: order++, run: () => session.pushChunk(chunk.stream, chunk.tMs, chunk.bytes)});
	for (const mark of fieldCase.marks ?? []) steps.push({tMs: mark.tMs, order: order++, run: () => session.mark(mark)});
	const exit = fieldCase.exit;
	if (exit) steps.push({tMs: exit.tMs, order: order++, run: () => session.exit(exit)});
	steps.sort((a, b) => a.tMs - b.tMs || a.order - b.order);
	for (const step of steps) step.run();
	session.finish(Math.max(0, ...steps.map((s) => s.tMs)));
	return run;
}

function runCapture(text: string, retain: boolean): {session: Session; findings: Finding[]} {
	const decoded = decodeRecords(text);
	let findings: Finding[] = [];
	const replay = createReplay(decoded.header!, {
		retain,
		onSession: (session) => {
			findings = collecting(retain, () => session).findings;
		},
	});
	for (const event of decoded.events) replay.feed(event);
	return {session: replay.finish(), findings};
}

const shape = (finding: Finding) => ({
	code: finding.code,
	stream: finding.stream,
	offset: finding.offset,
	byteLength: finding.byteLength,
	frameIndex: finding.frameIndex,
	severity: finding.severity,
	message: finding.message,
	detail: finding.detail,
});

function expectSame(
	kept: {session: Session; findings: Finding[]},
	streamed: {session: Session; findings: Finding[]},
): void {
	expect(streamed.findings.map(shape)).toEqual(kept.findings.map(shape));
	// The kept session lists the same findings it emitted; the streaming one keeps none.
	expect(kept.session.getSnapshot().findings.map(shape)).toEqual(kept.findings.map(shape));
	expect(streamed.session.getSnapshot().findings).toEqual([]);
	expect(streamed.session.getSnapshot().frames).toEqual([]);
	expect(streamed.session.getSnapshot().summary).toEqual(kept.session.getSnapshot().summary);
	expect(streamed.session.stderrTail(10)).toEqual(kept.session.stderrTail(10));
}

describe('retain: false gives the findings of retain: true', () => {
	it.each(FIELD_CASES.map((c) => [c.id, c] as const))('field case %s', (_id, fieldCase) => {
		const kept = runCase(fieldCase, true);
		expect(kept.findings.length).toBe(fieldCase.expect.length);
		expectSame(kept, runCase(fieldCase, false));
	});

	const captures = readdirSync(CAPTURES).filter((name) => name.endsWith('.ndjson'));
	it('has the recorded example captures', () => {
		expect(captures.length).toBeGreaterThan(20);
	});

	it.each(captures)('capture %s', (name) => {
		const text = readFileSync(join(CAPTURES, name), 'utf8');
		expectSame(runCapture(text, true), runCapture(text, false));
	});
});

describe('retain: false on the paths that read kept bytes or frames', () => {
	const enc = new TextEncoder();
	const line = (value: unknown): Uint8Array => enc.encode(`${JSON.stringify(value)}\n`);
	type Step = readonly ['stdin' | 'stdout' | 'stderr', number, Uint8Array];
	const run = (steps: readonly Step[], retain: boolean) => {
		const result = collecting(retain, (keep) => new Session({...META, mode: 'tap'}, {retain: keep}));
		for (const [stream, tMs, bytes] of steps) result.session.pushChunk(stream, tMs, bytes);
		result.session.finish(100);
		return result;
	};
	const big = 'x'.repeat(600);

	it('duplicate request ids (J3): reused after the answer and in flight, legacy era', () => {
		const steps: Step[] = [
			[
				'stdin',
				0,
				line({
					jsonrpc: '2.0',
					id: 0,
					method: 'initialize',
					params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'c', version: '1'}},
				}),
			],
			[
				'stdout',
				1,
				line({
					jsonrpc: '2.0',
					id: 0,
					result: {protocolVersion: '2025-06-18', capabilities: {}, serverInfo: {name: 's', version: '1'}},
				}),
			],
			['stdin', 2, line({jsonrpc: '2.0', id: 1, method: 'tools/list'})],
			['stdout', 3, line({jsonrpc: '2.0', id: 1, result: {tools: []}})],
			['stdin', 4, line({jsonrpc: '2.0', id: 1, method: 'tools/list'})],
			['stdin', 5, line({jsonrpc: '2.0', id: 1, method: 'tools/list'})],
		];
		const kept = run(steps, true);
		const reuses = kept.findings
			.filter((f) => f.detail?.['reason'] === 'duplicate-request-id')
			.map((f) => [f.offset, f.detail?.['isInFlight'], f.detail?.['firstIndex']]);
		expect(reuses).toEqual([
			[steps[0]![2].length + steps[2]![2].length, false, 2],
			[steps[0]![2].length + 2 * steps[2]![2].length, true, 4],
		]);
		expectSame(kept, run(steps, false));
	});

	it('an answer re-sent byte for byte in a later read is a duplicate-response; a different one with a newer request waiting is unknown-id (bodies over 256 bytes)', () => {
		const answer = line({jsonrpc: '2.0', id: 1, result: {pad: big}});
		const steps: Step[] = [
			['stdin', 0, line({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {}})],
			['stdout', 1, answer],
			['stdin', 2, line({jsonrpc: '2.0', id: 2, method: 'tools/call', params: {}})],
			['stdout', 3, answer],
			['stdout', 4, line({jsonrpc: '2.0', id: 1, result: {pad: `${big}y`}})],
		];
		const kept = run(steps, true);
		expect(kept.findings.map((f) => [f.code, f.offset])).toEqual([
			['duplicate-response', answer.length],
			['unknown-id', 2 * answer.length],
			['unanswered-request', steps[0]![2].length],
		]);
		expectSame(kept, run(steps, false));
	});

	it('keeps the last stderr lines without keeping frames', () => {
		const steps: Step[] = Array.from({length: 300}, (_, i) => ['stderr', i, enc.encode(`line ${i}\n`)] as const);
		const kept = run(steps, true);
		const streamed = run(steps, false);
		expect(streamed.session.stderrTail(3)).toEqual(['line 297', 'line 298', 'line 299']);
		expect(streamed.session.getSnapshot().stderrTail(200)).toEqual(kept.session.stderrTail(200));
		expectSame(kept, streamed);
	});
});
