import {describe, expect, it} from 'vitest';
import {Session} from '../../../../src/core/session/session.js';
import {evidence, evidenceMark, proc} from '../../../helpers/evidence.js';
import {enc, INIT, INIT_OK, line, meta} from '../harness.js';

const CALL = line({jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'convert', arguments: {}}});

/** The server (pid 100) answered initialize at 10 ms; a tools/call went out at 1000 ms; then `marks`. */
function calling(...marks: Parameters<Session['mark']>[0][]): Session {
	const session = new Session(meta(['python3', 'server.py']));
	session.pushChunk('stdin', 0, enc(INIT));
	session.pushChunk('stdout', 10, enc(INIT_OK));
	session.pushChunk('stdin', 1000, enc(CALL));
	for (const mark of marks) session.mark(mark);
	session.finish(9000);
	return session;
}

const server = proc(100, 'waiting-child', {syscall: {name: 'wait4'}});
const helper = (more: Parameters<typeof proc>[2] = {}) =>
	proc(101, 'reading-stdin', {
		ppid: 100,
		command: ['soffice', '--headless'],
		comm: 'soffice',
		startTMs: 1010,
		holds: {stdin: [0], stderr: [2]},
		syscall: {name: 'read', fd: 0},
		...more,
	});
const inherited = (session: Session) => session.getSnapshot().findings.filter((f) => f.code === 'stdin-inherited');

describe('stdin-inherited (O1, F40)', () => {
	it("invalid: a helper started for the call reads the server's stdin: one finding at the call's frame", () => {
		const look = (tMs: number) => evidenceMark(tMs, evidence('stall', [server, helper()], {rootPid: 100}));
		const found = inherited(calling(look(3000), look(4000)));
		expect(found).toHaveLength(1);
		expect(found[0]).toMatchObject({
			severity: 'error',
			stream: 'stdin',
			offset: enc(INIT).length,
			byteLength: enc(CALL).length,
			tMs: 3000,
			detail: {pid: 101, parentPid: 100, activity: 'reading-stdin', method: 'tools/call', id: 2},
		});
		expect(found[0]!.message).toMatch(
			/holds the server's stdin \(the protocol pipe\) as its fd 0 and is blocked reading it/,
		);
	});

	it('valid: a helper with stdin from elsewhere, one started before the call, or the server itself reading', () => {
		const look = (...processes: ReturnType<typeof proc>[]) =>
			evidenceMark(3000, evidence('stall', processes, {rootPid: 100}));
		expect(inherited(calling(look(server, helper({holds: {stderr: [2]}}))))).toEqual([]);
		expect(inherited(calling(look(server, helper({startTMs: 5}))))).toEqual([]);
		expect(inherited(calling(look(proc(100, 'reading-stdin', {syscall: {name: 'read', fd: 0}}))))).toEqual([]);
	});

	it('valid: no request outstanding (the look came before the call)', () => {
		expect(inherited(calling(evidenceMark(500, evidence('stall', [server, helper()], {rootPid: 100}))))).toEqual([]);
	});
});
