// `probe --verbose` logs the process's life on a healthy run too: fed a synthetic session.
import {describe, expect, it} from 'vitest';
import {followVerbose} from '../../src/cli/verbose-log.js';
import {Session} from '../../src/core/session/session.js';
import {makeMeta} from '../helpers/factories.js';

const INIT = Buffer.from(
	'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp-wire","version":"0.1.0"}}}\n',
);
const REPLY = Buffer.from(
	'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}\n',
);

describe('followVerbose', () => {
	it('a healthy run: spawn, stdin closed, EOFs and the exit, with times', () => {
		const session = new Session(makeMeta({command: ['node', 'server.mjs'], pid: 4242}));
		const lines: string[] = [];
		followVerbose(session, {pid: 4242, purpose: 'probe'}, (line) => lines.push(line));
		session.pushChunk('stdin', 10, INIT);
		session.pushChunk('stdout', 55.25, REPLY);
		session.mark({type: 'phase', name: 'shutdown', tMs: 60});
		session.mark({type: 'stdin-closed', tMs: 60});
		session.mark({type: 'eof', stream: 'stdout', tMs: 71});
		session.exit({code: 0, signal: null, tMs: 72.5});
		expect(lines).toEqual([
			'spawned pid 4242: node server.mjs',
			'phase shutdown at 60.0 ms',
			"closed the server's stdin at 60.0 ms",
			"the server's stdout reached EOF at 71.0 ms",
			'the server exited with code 0 at 72.5 ms',
		]);
	});

	it('a stuck run: the timeout, the signals and the re-probe are named', () => {
		const session = new Session(makeMeta({command: ['python3', 'server.py']}));
		const lines: string[] = [];
		followVerbose(session, {pid: 7, purpose: 'reprobe-content-length'}, (line) => lines.push(line));
		session.mark({type: 'timeout', id: 0, method: 'initialize', timeoutMs: 5000, tMs: 5001});
		session.mark({type: 'signal-sent', signal: 'SIGTERM', tMs: 7002});
		session.exit({code: null, signal: 'SIGTERM', tMs: 7010});
		expect(lines).toEqual([
			're-probe spawned pid 7: python3 server.py',
			're-probe timeout: no reply to initialize (id 0) within 5000 ms, at 5001.0 ms',
			're-probe sent SIGTERM at 7002.0 ms',
			're-probe the server was ended by SIGTERM at 7010.0 ms',
		]);
	});
});
