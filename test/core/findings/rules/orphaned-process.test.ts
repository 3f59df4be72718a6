import {describe, expect, it} from 'vitest';
import {Session} from '../../../../src/core/session/session.js';
import {evidence, evidenceMark, proc} from '../../../helpers/evidence.js';
import {enc, INIT, INIT_OK, meta} from '../harness.js';

/** A session that answered initialize, then got `marks` after its stdin closed at 100 ms and its exit at 105 ms. */
function ended(...marks: Parameters<Session['mark']>[0][]): Session {
	const session = new Session(meta(['sh', '-c', 'node server.js']));
	session.pushChunk('stdin', 0, enc(INIT));
	session.pushChunk('stdout', 10, enc(INIT_OK));
	session.mark({type: 'stdin-closed', tMs: 100});
	session.exit({code: 0, signal: null, tMs: 105});
	for (const mark of marks) session.mark(mark);
	session.finish(200);
	return session;
}

const orphans = (session: Session) => session.getSnapshot().findings.filter((f) => f.code === 'orphaned-process');

describe('orphaned-process (R14, F41)', () => {
	it('invalid: a descendant alive after the exit, holding stdout and stderr, at the byte count of stdout', () => {
		const node = proc(201, 'timer', {
			ppid: 1,
			command: ['node', 'server.js'],
			comm: 'node',
			holds: {stdout: [1], stderr: [2]},
		});
		const session = ended(evidenceMark(150, evidence('exit', [proc(200, 'zombie'), node], {rootPid: 200})));
		const [finding, ...rest] = orphans(session);
		expect(rest).toEqual([]);
		expect(finding).toMatchObject({
			severity: 'error',
			stream: 'stdout',
			offset: enc(INIT_OK).length,
			byteLength: 0,
			tMs: 150,
			detail: {count: 1, processes: [{pid: 201, holds: ['stdout', 'stderr']}]},
		});
		expect(finding!.message).toMatch(/^after the server process exited, .*holding stdout and stderr, is still alive/);
	});

	it('invalid without /proc: stdout still open after the exit names the pipe, not a process', () => {
		const unobserved = evidence('exit', [], {observed: false, openPipes: ['stdout']});
		const [finding] = orphans(ended(evidenceMark(150, unobserved)));
		expect(finding?.detail).toEqual({openPipes: ['stdout'], observed: false});
		expect(finding?.message).toBe(
			'after the server process exited, stdout stayed open: a child process still holds it (which one was not observed)',
		);
	});

	it('valid: only the root (exited) or zombies left, a stall look, or the root still alive', () => {
		const root = proc(200, 'idle');
		expect(orphans(ended(evidenceMark(150, evidence('exit', [root], {rootPid: 200}))))).toEqual([]);
		expect(orphans(ended(evidenceMark(150, evidence('exit', [root, proc(201, 'zombie')], {rootPid: 200}))))).toEqual(
			[],
		);
		expect(orphans(ended(evidenceMark(150, evidence('stall', [root, proc(201, 'timer')], {rootPid: 200}))))).toEqual(
			[],
		);
		const alive = evidence('exit', [root, proc(201, 'timer')], {rootPid: 200, rootAlive: true});
		expect(orphans(ended(evidenceMark(150, alive)))).toEqual([]);
	});

	it('one finding per session, though later looks still see the survivor', () => {
		const look = (tMs: number) =>
			evidenceMark(tMs, evidence('exit', [proc(200, 'zombie'), proc(201, 'timer')], {rootPid: 200}));
		expect(orphans(ended(look(150), look(160))).map((f) => f.tMs)).toEqual([150]);
	});
});
