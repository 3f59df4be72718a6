import {describe, expect, it} from 'vitest';
import {mergeInCommand, SAME_PIPE_PHASE} from '../../../../src/core/findings/rules/stderr-merged.js';
import {Session} from '../../../../src/core/session/session.js';
import {enc, INIT, INIT_OK, meta, run} from '../harness.js';
import {evidence, evidenceMark, proc} from '../../../helpers/evidence.js';

const LOG = '2026-11-29 20:29:41,331 INFO stderr-logging: starting\n';

describe('stderr-merged (R5, R7): only on evidence', () => {
	it('log lines on stdout with a silent stderr are stray-output only (F35 kind): no merge is claimed', () => {
		const session = run(
			[
				['stdin', 0, INIT],
				['stdout', 1, LOG],
				['stdout', 2, INIT_OK],
			],
			{command: ['python3', 'server.py']},
		);
		expect(session.getSnapshot().findings.map((f) => `${f.code}@${f.offset}`)).toEqual(['stray-output@0']);
	});

	it("command evidence (`sh -c '… 2>&1'`): reported at the first stray line, before it, and that line's fix names the merge", () => {
		const session = run(
			[
				['stdin', 0, INIT],
				['stdout', 1, LOG + LOG],
				['stdout', 2, INIT_OK],
			],
			{command: ['sh', '-c', 'python3 server.py 2>&1']},
		);
		const findings = session.getSnapshot().findings;
		expect(findings.map((f) => `${f.code}@${f.stream}:${f.offset}`)).toEqual([
			'stderr-merged@stdout:0',
			'stray-output@stdout:0',
			`stray-output@stdout:${LOG.length}`,
		]);
		expect(findings[0]).toMatchObject({
			severity: 'error',
			byteLength: LOG.length - 1,
			detail: {evidence: 'command', what: '`2>&1` in the command'},
		});
		expect(findings[0]!.message).toBe(
			"the command merges stderr into stdout (`2>&1` in the command): the server's stderr output lands on the protocol stream",
		);
		for (const stray of findings.slice(1)) {
			expect(stray.detail?.['merged']).toBe(true);
			expect(stray.hint.startsWith('stderr is merged into stdout upstream')).toBe(true);
			expect(stray.hint).not.toContain('logging.basicConfig');
		}
	});

	it('stderr-only content on stdout (a Python traceback) is evidence, at that line', () => {
		const traceback =
			'Traceback (most recent call last):\n  File "/srv/app.py", line 3, in <module>\nImportError: cannot import name x\n';
		const session = run([
			['stdin', 0, INIT],
			['stdout', 1, LOG],
			['stdout', 2, traceback],
			['stdout', 3, INIT_OK],
		]);
		const findings = session.getSnapshot().findings;
		expect(findings.map((f) => `${f.code}@${f.offset}`)).toEqual([
			'stray-output@0',
			`stderr-merged@${LOG.length}`,
			`stray-output@${LOG.length}`,
			`stray-output@${LOG.length + 35}`,
			`stray-output@${LOG.length + 35 + 42}`,
		]);
		expect(findings[1]!.detail).toEqual({evidence: 'stderr-content', what: 'a Python traceback', earlier: 1});
		expect(findings[1]!.message).toBe(
			'a Python traceback arrives on stdout: a line only stderr carries, so stderr is merged into stdout upstream; the 1 stray-output line reported before this evidence came may be that stderr output too (its fix is the generic one): remove the merge first, then fix what is left',
		);
		expect(findings[0]!.detail?.['merged']).toBeUndefined();
		expect(findings[2]!.detail?.['merged']).toBe(true);
	});

	it("Node's `(node:<pid>) Warning` and the JVM's `Picked up JAVA_TOOL_OPTIONS` are evidence too", () => {
		for (const [text, what] of [
			[
				'(node:4242) [DEP0040] DeprecationWarning: The `punycode` module is deprecated.\n',
				"Node's `(node:<pid>) Warning`",
			],
			[
				"(node:17) Warning: Setting the NODE_TLS_REJECT_UNAUTHORIZED environment variable to '0'\n",
				"Node's `(node:<pid>) Warning`",
			],
			['Picked up JAVA_TOOL_OPTIONS: -Dfile.encoding=UTF-8\n', "the JVM's `Picked up …_OPTIONS` notice"],
		] as const) {
			const session = run([
				['stdin', 0, INIT],
				['stdout', 1, text],
				['stdout', 2, INIT_OK],
			]);
			const findings = session.getSnapshot().findings;
			expect(findings.map((f) => `${f.code}@${f.offset}`)).toEqual(['stderr-merged@0', 'stray-output@0']);
			expect(findings[0]!.detail).toEqual({evidence: 'stderr-content', what});
		}
	});

	it('the same-pipe mark from process evidence is evidence: reported at the first stray line seen', () => {
		const session = new Session(meta());
		session.pushChunk('stdin', 0, enc(INIT));
		session.pushChunk('stdout', 1, enc(LOG));
		session.mark({type: 'phase', name: SAME_PIPE_PHASE, tMs: 2});
		session.pushChunk('stdout', 3, enc(INIT_OK));
		session.finish(4);
		const findings = session.getSnapshot().findings;
		expect(findings.map((f) => `${f.code}@${f.offset}`)).toEqual(['stray-output@0', 'stderr-merged@0']);
		expect(findings[1]!.detail).toEqual({evidence: 'same-pipe', what: 'fd 1 and fd 2 are the same pipe', earlier: 1});
	});

	it('stray lines reported before the evidence keep their generic fix; the merge names them as their likely cause', () => {
		const session = new Session(meta());
		session.pushChunk('stdin', 0, enc(INIT));
		session.pushChunk('stdout', 1, enc(`Server starting...\n${LOG}`));
		session.pushChunk('stdout', 2, enc(INIT_OK));
		// The /proc evidence comes at a stall or at the end, after the lines went out.
		session.mark({type: 'phase', name: SAME_PIPE_PHASE, tMs: 3});
		session.pushChunk('stdout', 4, enc(LOG));
		session.finish(5);
		const findings = session.getSnapshot().findings;
		expect(findings.map((f) => `${f.code}@${f.offset}`)).toEqual([
			'stray-output@0',
			'stray-output@19',
			'stderr-merged@0',
			`stray-output@${19 + LOG.length + INIT_OK.length}`,
		]);
		expect(findings.map((f) => f.detail?.['merged'] === true)).toEqual([false, false, false, true]);
		expect(findings[2]!.detail).toEqual({evidence: 'same-pipe', what: 'fd 1 and fd 2 are the same pipe', earlier: 2});
		expect(findings[2]!.message).toBe(
			"the server's stdout and stderr are the same pipe: stderr is merged into stdout upstream; the 2 stray-output lines reported before this evidence came may be that stderr output too (their fix is the generic one): remove the merge first, then fix what is left",
		);
		// Evidence before any stray line (the command): nothing earlier, nothing said.
		const command = run([['stdout', 1, LOG]], {command: ['sh', '-c', 'python3 server.py 2>&1']});
		expect(command.getSnapshot().findings[0]!.detail).toEqual({evidence: 'command', what: '`2>&1` in the command'});
	});

	it('/proc evidence of fd 1 and fd 2 being the same pipe (sameStdoutStderr) is evidence too; an evidence record without it is not', () => {
		const merged = new Session(meta());
		merged.pushChunk('stdin', 0, enc(INIT));
		merged.pushChunk('stdout', 1, enc(LOG));
		merged.mark(
			evidenceMark(
				2,
				evidence('stall', [proc(100, 'reading-stdin', {holds: {stdin: [0], stdout: [1, 2], stderr: []}})], {
					sameStdoutStderr: true,
				}),
			),
		);
		merged.pushChunk('stdout', 3, enc(INIT_OK));
		merged.finish(4);
		const findings = merged.getSnapshot().findings;
		expect(findings.map((f) => `${f.code}@${f.offset}`)).toEqual(['stray-output@0', 'stderr-merged@0']);
		expect(findings[1]!.detail).toEqual({evidence: 'same-pipe', what: 'fd 1 and fd 2 are the same pipe', earlier: 1});

		const separate = new Session(meta());
		separate.pushChunk('stdin', 0, enc(INIT));
		separate.pushChunk('stdout', 1, enc(LOG));
		separate.mark(evidenceMark(2, evidence('stall', [proc(100, 'reading-stdin')])));
		separate.pushChunk('stdout', 3, enc(INIT_OK));
		separate.finish(4);
		expect(separate.getSnapshot().findings.map((f) => f.code)).toEqual(['stray-output']);
	});

	it('recognises a merge in the command only where it is one', () => {
		expect(mergeInCommand(['sh', '-c', 'exec node server.js 2>&1'])).toBe('`2>&1` in the command');
		expect(mergeInCommand(['bash', '-c', 'node server.js &> /tmp/x'])).toBe('`2>&1` in the command');
		expect(mergeInCommand(['docker', 'run', '--rm', '-it', 'mcp/server'])).toBe(
			'`docker run -t`: a TTY carries stderr on stdout',
		);
		expect(mergeInCommand(['/usr/bin/podman', 'run', '--tty', 'img'])).toBe(
			'`docker run -t`: a TTY carries stderr on stdout',
		);
		expect(mergeInCommand(['script', '-q', '-c', 'node server.js', '/dev/null'])).toBe(
			'`script`: a pseudo-terminal carries stderr on stdout',
		);
		expect(mergeInCommand(['docker', 'run', '-i', '--rm', 'mcp/server'])).toBeUndefined();
		expect(mergeInCommand(['docker', 'run', '-i', 'img', 'server', '-t'])).toBeUndefined();
		expect(mergeInCommand(['node', 'server.js'])).toBeUndefined();
	});
});
