import {describe, expect, it} from 'vitest';
import {Session} from '../../../src/core/session/session.js';
import type {SessionMeta} from '../../../src/core/types.js';
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

/** Feed a field case's bytes, marks and exit to a fresh Session in time order. */
export function runCase(fieldCase: FieldCase): Session {
	const session = new Session(META);
	type Step = {tMs: number; order: number; run: () => void};
	const steps: Step[] = [];
	let order = 0;
	for (const chunk of fieldCase.chunks)
		steps.push({tMs: chunk.tMs, order: order++, run: () => session.pushChunk(chunk.stream, chunk.tMs, chunk.bytes)});
	for (const mark of fieldCase.marks ?? []) steps.push({tMs: mark.tMs, order: order++, run: () => session.mark(mark)});
	const exit = fieldCase.exit;
	if (exit) steps.push({tMs: exit.tMs, order: order++, run: () => session.exit(exit)});
	steps.sort((a, b) => a.tMs - b.tMs || a.order - b.order);
	for (const step of steps) step.run();
	const end = Math.max(0, ...steps.map((s) => s.tMs));
	session.finish(end);
	return session;
}

const key = (f: {code: string; stream: string; offset: number}) => `${f.code}@${f.stream}:${f.offset}`;

describe('field cases (docs/field-cases.md): exact codes at exact offsets', () => {
	it.each(FIELD_CASES.map((c) => [c.id, c] as const))('%s', (_id, fieldCase) => {
		const snapshot = runCase(fieldCase).getSnapshot();
		const found = snapshot.findings.map(key).sort();
		const expected = fieldCase.expect.map(key).sort();
		expect(found).toEqual(expected);
		expect(snapshot.summary.verdict).toBe(fieldCase.verdict);
	});
});
