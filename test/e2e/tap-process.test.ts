import {spawn} from 'node:child_process';
import {
	existsSync,
	lstatSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	statSync,
	truncateSync,
	writeFileSync,
} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {decodeCapture} from '../../src/core/capture/binary-codec.js';
import {HANG_MS, BIN, pseudoRandomBytes, readCapture, scratch, sha256, waitFor, type Scratch} from './tap-helpers.js';

describe('tap process behaviour (real processes)', () => {
	let box: Scratch;
	beforeAll(() => {
		box = scratch();
	});
	afterAll(() => box.remove());

	let n = 0;
	const capturePath = (): string => path.join(box.dir, `p-${++n}.ndjson`);

	/** Start a tap on a fixture server; resolves once the server said `ready` on stderr. */
	async function startTap(
		server: keyof typeof import('./tap-helpers.js').SERVERS,
		args: string[] = [],
		capture = capturePath(),
	) {
		const child = execa('node', [BIN, 'tap', '--capture', capture, '--', 'node', box.server(server), ...args], {
			env: box.env,
			extendEnv: false,
			reject: false,
			buffer: false,
		});
		let stderr = '';
		let stdout = '';
		child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
		child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
		return {child, capture, stderr: () => stderr, stdout: () => stdout};
	}

	it.each([0, 3, 77])('mirrors exit code %i', async (code) => {
		const capture = capturePath();
		const result = await execa(
			'node',
			[BIN, 'tap', '--capture', capture, '--', 'node', box.server('exit'), String(code), 'now'],
			{env: box.env, extendEnv: false, reject: false, stdin: 'pipe'},
		);
		expect(result.exitCode).toBe(code);
		expect(result.stdout).toBe('');
		expect(result.stderr).toBe('');
		expect(readCapture(capture).events.at(-1)).toMatchObject({type: 'exit', exit: {code, signal: null}});
	});

	it.each([
		['unset', undefined, '$HOME is not set'],
		['empty', '', '$HOME is empty'],
	] as const)('with $HOME %s records nothing, warns once and creates no directory', async (_, home, problem) => {
		const cwd = path.join(box.dir, `no-home-${_}`);
		mkdirSync(cwd);
		const env: Record<string, string> = {...box.env};
		delete env['HOME'];
		delete env['XDG_STATE_HOME'];
		if (home !== undefined) env['HOME'] = home;
		const result = await execa('node', [BIN, 'tap', '--', 'sh', '-c', 'echo hi; echo err >&2'], {
			cwd,
			env,
			extendEnv: false,
			reject: false,
			stdin: 'pipe',
		});
		expect([result.exitCode, result.stdout]).toEqual([0, 'hi']);
		expect(result.stderr).toBe(
			`mcp-wire: warning: capture disabled: ${problem} (set HOME or XDG_STATE_HOME, or pass --capture FILE); forwarding goes on\nerr`,
		);
		expect(readdirSync(cwd)).toEqual([]);
	});

	it('reports a command that cannot start in one line, exits 127 and records spawn-failed', async () => {
		const capture = capturePath();
		const result = await execa('node', [BIN, 'tap', '--capture', capture, '--', 'no-such-server-xyz', '--flag'], {
			env: box.env,
			extendEnv: false,
			reject: false,
		});
		expect(result.exitCode).toBe(127);
		expect(result.stdout).toBe('');
		expect(result.stderr).toBe('mcp-wire: cannot start "no-such-server-xyz": command not found (ENOENT)');
		const recorded = readCapture(capture);
		// An observed mark, as the probe records it; replay derives the finding from it.
		expect(
			recorded.events.map((e) => (e.type === 'mark' && e.mark.type === 'observed' ? e.mark.what : e.type)),
		).toEqual(['spawn-failed']);
		const view = await execa('node', [BIN, 'view', '--json', capture], {env: box.env, extendEnv: false, reject: false});
		const findings = view.stdout
			.split('\n')
			.map((line) => JSON.parse(line) as {type: string; code?: string; origin?: string; detail?: unknown})
			.filter((record) => record.type === 'finding');
		expect(findings.map((f) => [f.code, f.origin, f.detail])).toEqual([
			[
				'spawn-failed',
				'probe',
				{
					file: 'no-such-server-xyz',
					errno: 'ENOENT',
					reason: 'command not found (ENOENT)',
					command: ['no-such-server-xyz', '--flag'],
				},
			],
		]);
	});

	it('names a directory given as the command "a directory", as the probe does (not "not executable?")', async () => {
		const result = await execa('node', [BIN, 'tap', '--capture', capturePath(), '--', box.dir], {
			env: box.env,
			extendEnv: false,
			reject: false,
		});
		expect(result.stdout).toBe('');
		expect(result.stderr).toBe(
			`mcp-wire: cannot start ${JSON.stringify(box.dir)}: is a directory, not a program (EISDIR)`,
		);
		expect(result.exitCode).toBe(126);
	});

	it(
		'survives a file-size limit (SIGXFSZ): the capture stops, forwarding and the exit code do not (docs/cli.md#tap)',
		{timeout: 120_000},
		async () => {
			const capture = capturePath();
			const server = 'process.stdout.write(Buffer.alloc(200000, 0x61), () => process.exit(5));';
			// ulimit -f counts 1024-byte blocks on Linux shells (dash, bash): the capture may not pass 8 KiB.
			const result = await execa(
				'sh',
				['-c', 'ulimit -f 8 && exec "$@"', 'sh', 'node', BIN, 'tap', '--capture', capture, '--', 'node', '-e', server],
				{
					env: box.env,
					extendEnv: false,
					reject: false,
					stdin: 'pipe',
					encoding: 'buffer',
				},
			);
			expect(result.signal).toBeUndefined();
			expect(result.exitCode).toBe(5);
			expect(Buffer.from(result.stdout as Uint8Array).length).toBe(200_000);
			expect(Buffer.from(result.stderr as Uint8Array).toString()).toMatch(
				/capture stopped: cannot write .* \(EFBIG: .*\); forwarding goes on/,
			);
			expect(statSync(capture).size).toBeLessThanOrEqual(8192);
		},
	);

	it.each([
		[
			'writes stderr 0.3 s after it exited (a child holds stderr)',
			['sh', '-c', '(sleep 0.3; echo "ModuleNotFoundError: late" >&2) & exit 1'],
			'ModuleNotFoundError: late',
		],
		[
			'closes stdout, then writes stderr 0.3 s later and exits',
			[
				'node',
				'-e',
				'require("fs").closeSync(1); setTimeout(() => { process.stderr.write("Error: late line\\n"); process.exit(1); }, 300)',
			],
			'Error: late line',
		],
	])(
		'a server that %s: the capture has the exit after stderr, and early-exit on replay quotes the last line',
		{timeout: 120_000},
		async (_, command, lastLine) => {
			// The client keeps stdin open (it has not closed first: the exit is early). The process's exit and its
			// pipes' EOF are separate events: the tap records the exit once stderr has ended (after the child's close).
			const capture = capturePath();
			const tap = execa('node', [BIN, 'tap', '--capture', capture, '--', ...command], {
				env: box.env,
				extendEnv: false,
				reject: false,
				stdin: 'pipe',
			});
			const result = await tap;
			expect([result.exitCode, result.stdout, result.stderr]).toEqual([1, '', lastLine]);
			const order = readCapture(capture).events.flatMap((e) =>
				e.type === 'chunk'
					? [e.chunk.stream]
					: e.type === 'mark' && e.mark.type === 'eof'
						? [`eof:${e.mark.stream}`]
						: e.type === 'exit'
							? ['exit']
							: [],
			);
			expect(order.at(-1)).toBe('exit');
			expect(order.lastIndexOf('stderr')).toBeLessThan(order.indexOf('eof:stderr'));
			const view = await execa('node', [BIN, 'view', '--json', capture], {
				env: box.env,
				extendEnv: false,
				reject: false,
			});
			const findings = view.stdout
				.split('\n')
				.map(
					(line) =>
						JSON.parse(line) as {type: string; code?: string; message?: string; detail?: {stderrTail?: string[]}},
				)
				.filter((record) => record.type === 'finding');
			expect(findings.map((f) => f.code)).toEqual(['early-exit']);
			expect(findings[0]!.message).toBe(
				`the process exited (code 1) before the handshake completed; stderr ends: ${lastLine}`,
			);
			expect(findings[0]!.detail?.stderrTail).toEqual([lastLine]);
			expect(view.exitCode).toBe(1);
		},
	);

	it('forwards SIGTERM to the server and exits with the code it chose', async () => {
		const tap = await startTap('signals');
		await waitFor(() => (tap.stderr().includes('ready') ? true : undefined), HANG_MS, 'ready');
		tap.child.kill('SIGTERM');
		const result = await tap.child;
		expect(tap.stderr()).toBe('ready\ngot SIGTERM\n');
		expect(result.exitCode).toBe(42);
		expect(result.signal).toBeUndefined();
		const marks = readCapture(tap.capture).events.flatMap((e) =>
			e.type === 'mark' && e.mark.type === 'phase' ? [e.mark.name] : [],
		);
		expect(marks).toEqual(['signal-forwarded:SIGTERM']);
	});

	it.each(['SIGINT', 'SIGHUP'] as const)('forwards %s and dies of it when the server does', async (signal) => {
		const tap = await startTap('signals');
		await waitFor(() => (tap.stderr().includes('ready') ? true : undefined), HANG_MS, 'ready');
		tap.child.kill(signal);
		const result = await tap.child;
		expect(tap.stderr()).toBe(`ready\ngot ${signal}\n`);
		expect(result.signal).toBe(signal);
		expect(readCapture(tap.capture).events.at(-1)).toMatchObject({type: 'exit', exit: {code: null, signal}});
	});

	it.each(['SIGUSR1', 'SIGPIPE'] as const)(
		'dies of %s when the server does (Node uses SIGUSR1 and ignores SIGPIPE; docs/cli.md#tap)',
		async (signal) => {
			const capture = capturePath();
			const result = await execa(
				'node',
				[BIN, 'tap', '--capture', capture, '--', 'sh', '-c', `kill -${signal.slice(3)} $$`],
				{env: box.env, extendEnv: false, reject: false, stdin: 'pipe'},
			);
			expect([result.signal, result.exitCode]).toEqual([signal, undefined]);
			expect(result.stdout).toBe('');
			expect(result.stderr).toBe('');
			expect(readCapture(capture).events.at(-1)).toMatchObject({type: 'exit', exit: {code: null, signal}});
		},
	);

	it('forwards stdin EOF (stdin-closed mark) and relays both ways until then', async () => {
		const tap = await startTap('signals');
		await waitFor(() => (tap.stderr().includes('ready') ? true : undefined), HANG_MS, 'ready');
		tap.child.stdin.write('{"jsonrpc":"2.0","method":"x"}\n');
		await waitFor(() => (tap.stdout() === '{"jsonrpc":"2.0","method":"x"}\n' ? true : undefined), HANG_MS, 'echo');
		tap.child.stdin.end();
		const result = await tap.child;
		expect(result.exitCode).toBe(0);
		expect(tap.stderr()).toBe('ready\nstdin closed\n');
		const recorded = readCapture(tap.capture);
		const order = recorded.events.flatMap((e) =>
			e.type === 'mark'
				? [e.mark.type === 'eof' ? `eof:${e.mark.stream}` : e.mark.type]
				: e.type === 'chunk'
					? [e.chunk.stream]
					: [],
		);
		expect(order.indexOf('stdin-closed')).toBeGreaterThan(order.indexOf('stdin'));
		expect(order.filter((o) => o.startsWith('eof:')).sort()).toEqual(['eof:stderr', 'eof:stdout']);
	});

	it('closes its stdout when the server closes its stdout, while both still run', async () => {
		const tap = await startTap('closeStdout');
		let isEnded = false;
		tap.child.stdout.on('end', () => (isEnded = true));
		tap.child.stdin.write('hello\n');
		await waitFor(() => (isEnded ? true : undefined), HANG_MS, 'our stdout to end');
		expect(tap.stdout()).toBe('hello\n');
		expect(tap.child.exitCode).toBeNull();
		tap.child.stdin.end();
		const result = await tap.child;
		expect(result.exitCode).toBe(0);
		expect(tap.stderr()).toBe('stdout closed\n');
	});

	it(
		'leaves a capture that opens after SIGKILL mid-transfer; a cut last line is reported by view',
		{timeout: 120_000},
		async () => {
			const tap = await startTap('flood');
			tap.child.stdout.resume();
			await waitFor(
				() => {
					try {
						return statSync(tap.capture).size > 4 * 1024 * 1024 ? true : undefined;
					} catch {
						return undefined;
					}
				},
				20_000,
				'a 4 MiB capture',
			);
			tap.child.kill('SIGKILL');
			const result = await tap.child;
			expect(result.signal).toBe('SIGKILL');

			// The file as the kill left it decodes: the magic line, the header and whole records, at worst a
			// cut last record, and no end record: cut short.
			const bytes = readFileSync(tap.capture);
			const decoded = decodeCapture(bytes);
			expect(decoded.format).toBe(2);
			expect(decoded.header?.mode).toBe('tap');
			expect(decoded.isTruncated).toBe(true);
			expect(decoded.end).toBeUndefined();
			expect(decoded.problems.filter((p) => !p.message.startsWith('the capture ends inside a record'))).toEqual([]);
			expect(decoded.events.filter((e) => e.type === 'chunk').length).toBeGreaterThan(10);
			const viewed = await execa('node', [BIN, 'view', '--no-tui', tap.capture], {
				env: box.env,
				extendEnv: false,
				reject: false,
			});
			expect(viewed.exitCode).not.toBe(2);
			expect(viewed.stdout.split('\n')[0]).toMatch(/^mcp-wire \S+ \(tap\)/);
			expect(viewed.stderr.split('\n')[0]).toBe(
				`mcp-wire: ${tap.capture}: the capture is incomplete: it was cut short (no end record: the tap was killed or the file was cut); everything before the cut is shown`,
			);

			// Cut the file inside its last record, as a kill during a write would.
			truncateSync(tap.capture, bytes.length - 10);
			const cut = await execa('node', [BIN, 'view', '--no-tui', tap.capture], {
				env: box.env,
				extendEnv: false,
				reject: false,
			});
			expect(cut.exitCode).not.toBe(2);
			expect(cut.stderr).toMatch(/the capture ends inside a record \(\d+ bytes of it\); the cut record is skipped/);
			expect(cut.stderr.split('\n')[0]).toContain('the capture is incomplete: it was cut short');
			expect(cut.stdout).toContain('S→C');
		},
	);
});

describe('tap: a client that stops reading, a server that outlives a forwarded signal, socket paths too long (real processes)', () => {
	let box: Scratch;
	beforeAll(() => {
		box = scratch();
	});
	afterAll(() => box.remove());

	let n = 0;
	const capturePath = (): string => path.join(box.dir, `q-${++n}.ndjson`);

	/** A capture's phase marks in order, then its stream EOFs sorted (`eof:<stream>`; the streams end in either order). */
	const marksOf = (file: string): string[] => {
		const marks = readCapture(file).events.flatMap((e) => (e.type === 'mark' ? [e.mark] : []));
		return [
			...marks.flatMap((m) => (m.type === 'phase' ? [m.name] : [])),
			...marks.flatMap((m) => (m.type === 'eof' ? [`eof:${m.stream}`] : [])).sort(),
		];
	};

	/** True while `pid` runs (a zombie counts as gone). */
	function isAlive(pid: number): boolean {
		try {
			process.kill(pid, 0);
		} catch {
			return false;
		}
		if (process.platform !== 'linux') return true;
		try {
			return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
		} catch {
			return false;
		}
	}

	/** Start `mcp-wire tap --capture FILE -- <command>` with node:child_process, collecting stderr. */
	function spawnTap(command: readonly string[], env: Record<string, string>, capture = capturePath()) {
		const child = spawn('node', [BIN, 'tap', '--capture', capture, '--', ...command], {
			stdio: ['pipe', 'pipe', 'pipe'],
			env,
		});
		let stderr = '';
		child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
		const closed = new Promise<{code: number | null; signal: NodeJS.Signals | null; at: number}>((resolve, reject) => {
			child.on('error', reject);
			child.on('close', (code, signal) => resolve({code, signal, at: Date.now()}));
		});
		return {child, capture, closed, stderr: () => stderr};
	}

	/** The server's pid from a capture's header, once the header is written. */
	function headerPid(file: string): number | undefined {
		try {
			return readCapture(file).header?.pid;
		} catch {
			return undefined;
		}
	}

	/** A shell server that ignores SIGTERM, says `ready` on stderr, then sleeps 30 s. */
	const STUBBORN = ['sh', '-c', 'trap "" TERM; echo ready >&2; exec sleep 30'];

	/** SIGTERM a tap running {@link STUBBORN} once it is ready; returns how it ended and after how long. */
	async function termStubborn(env: Record<string, string>) {
		const tap = spawnTap(STUBBORN, env);
		const pid = await waitFor(
			() => (tap.stderr().includes('ready\n') ? headerPid(tap.capture) : undefined),
			HANG_MS,
			'the server to be ready',
		);
		// Should the tap never kill it, the test does after 10 s (the tap then ends too, too late to pass).
		const guard = setTimeout(() => isAlive(pid) && process.kill(pid, 'SIGKILL'), HANG_MS);
		try {
			const sentAt = Date.now();
			tap.child.kill('SIGTERM');
			const end = await tap.closed;
			return {...end, afterMs: end.at - sentAt, tap, pid};
		} finally {
			clearTimeout(guard);
			if (isAlive(pid)) process.kill(pid, 'SIGKILL');
		}
	}

	it(
		"closes the server's stdout when the client closes its end: the server's next write fails, the tap exits",
		{timeout: 120_000},
		async () => {
			const server = path.join(box.dir, 'yes.mjs');
			writeFileSync(
				server,
				[
					"const block = Buffer.from('y\\n'.repeat(512));",
					"process.stdout.on('error', (e) => { process.stderr.write('server: ' + e.code + '\\n'); process.exit(3); });",
					"const pump = () => { while (process.stdout.write(block)) {} process.stdout.once('drain', pump); };",
					'pump();',
					'',
				].join('\n'),
			);
			const tap = spawnTap(['node', server], box.env);
			const startedAt = Date.now();
			const received = await new Promise<Buffer>((resolve) => {
				const readTen = (): void => {
					const bytes = tap.child.stdout.read(10) as Buffer | null;
					if (bytes === null) return;
					tap.child.stdout.off('readable', readTen);
					tap.child.stdout.destroy();
					resolve(bytes);
				};
				tap.child.stdout.on('readable', readTen);
			});
			const timer = setTimeout(() => tap.child.kill('SIGKILL'), HANG_MS);
			const end = await tap.closed;
			clearTimeout(timer);

			expect(end.at - startedAt).toBeLessThan(HANG_MS);
			expect(received.toString('latin1')).toBe('y\ny\ny\ny\ny\n');
			// Node ignores SIGPIPE, so the server sees the failed write (EPIPE on a pipe, ECONNRESET on a socket).
			expect(tap.stderr()).toMatch(/^server: (EPIPE|ECONNRESET)\n$/);
			expect([end.code, end.signal]).toEqual([3, null]);
			const recorded = readCapture(tap.capture);
			expect(recorded.problems).toEqual([]);
			const stdout = recorded.streams.stdout;
			expect(stdout.length).toBeGreaterThanOrEqual(10);
			expect(stdout.equals(Buffer.from('y\n'.repeat(Math.ceil(stdout.length / 2))).subarray(0, stdout.length))).toBe(
				true,
			);
			expect(marksOf(tap.capture)).toEqual(['client-closed-stdout', 'eof:stderr']);
			expect(recorded.events.at(-1)).toMatchObject({type: 'exit', exit: {code: 3, signal: null}});
		},
	);

	it(
		'SIGKILLs a server still running MCP_WIRE_KILL_AFTER_MS after a forwarded SIGTERM, and dies of SIGKILL',
		{timeout: 120_000},
		async () => {
			const end = await termStubborn({...box.env, MCP_WIRE_KILL_AFTER_MS: '300'});
			expect(end.signal).toBe('SIGKILL');
			expect(end.code).toBeNull();
			expect(end.afterMs).toBeGreaterThanOrEqual(250);
			expect(end.afterMs).toBeLessThan(HANG_MS);
			expect(end.tap.stderr()).toBe('ready\n');
			expect(marksOf(end.tap.capture)).toEqual([
				'signal-forwarded:SIGTERM',
				'sigkill-after-grace',
				'eof:stderr',
				'eof:stdout',
			]);
			expect(readCapture(end.tap.capture).events.at(-1)).toMatchObject({
				type: 'exit',
				exit: {code: null, signal: 'SIGKILL'},
			});
			expect(isAlive(end.pid)).toBe(false);
		},
	);

	it.each(['SIGINT', 'SIGHUP'] as const)(
		'ends a server that ignores %s, SIGTERM and stdin EOF: forwarded, then SIGKILL after the grace (docs/cli.md#tap)',
		{timeout: 120_000},
		async (signal) => {
			const tap = spawnTap(['sh', '-c', 'trap "" TERM INT HUP; echo ready >&2; exec sleep 30'], {
				...box.env,
				MCP_WIRE_KILL_AFTER_MS: '300',
			});
			const pid = await waitFor(
				() => (tap.stderr().includes('ready\n') ? headerPid(tap.capture) : undefined),
				HANG_MS,
				'the server to be ready',
			);
			const guard = setTimeout(() => isAlive(pid) && process.kill(pid, 'SIGKILL'), HANG_MS);
			try {
				// The client closes its end of stdin first (the server ignores that), then signals.
				tap.child.stdin.end();
				await waitFor(
					() =>
						readCapture(tap.capture).events.some((e) => e.type === 'mark' && e.mark.type === 'stdin-closed')
							? true
							: undefined,
					HANG_MS,
					'stdin-closed',
				);
				expect(isAlive(pid)).toBe(true);
				tap.child.kill(signal);
				const end = await tap.closed;
				expect([end.code, end.signal]).toEqual([null, 'SIGKILL']);
				expect(marksOf(tap.capture)).toEqual([
					`signal-forwarded:${signal}`,
					'sigkill-after-grace',
					'eof:stderr',
					'eof:stdout',
				]);
				expect(isAlive(pid)).toBe(false);
			} finally {
				clearTimeout(guard);
				if (isAlive(pid)) process.kill(pid, 'SIGKILL');
			}
		},
	);

	it(
		'a SIGKILLed tap cannot end a server that ignores stdin EOF and never writes (the documented limit): the server sees EOF, then dies of SIGPIPE at its next write',
		{timeout: 120_000},
		async () => {
			const eofFile = path.join(box.dir, 'eof-seen');
			// Reads stdin to EOF, notes it, stays 5 s, then writes to stdout in a subshell and notes its status
			// (written beside and renamed into place, so the test never reads the file between its creation and the write).
			const server = `echo ready >&2; cat >/dev/null; echo eof > '${eofFile}'; sleep 5; (echo late); echo $? > '${eofFile}.tmp' && mv '${eofFile}.tmp' '${eofFile}.write'`;
			const tap = spawnTap(['sh', '-c', server], box.env);
			const pid = await waitFor(
				() => (tap.stderr().includes('ready\n') ? headerPid(tap.capture) : undefined),
				HANG_MS,
				'the server to be ready',
			);
			const guard = setTimeout(() => isAlive(pid) && process.kill(pid, 'SIGKILL'), HANG_MS);
			try {
				tap.child.kill('SIGKILL');
				expect((await tap.closed).signal).toBe('SIGKILL');
				await waitFor(() => (existsSync(eofFile) ? true : undefined), HANG_MS, 'the server to see stdin EOF');
				expect(isAlive(pid)).toBe(true);
				// Its next write to stdout finds no reader: the writer dies of SIGPIPE (status 128 + 13).
				const status = await waitFor(
					() => (existsSync(`${eofFile}.write`) ? readFileSync(`${eofFile}.write`, 'utf8') : undefined),
					HANG_MS,
					'the server to write',
				);
				expect(status).toBe('141\n');
			} finally {
				clearTimeout(guard);
				if (isAlive(pid)) process.kill(pid, 'SIGKILL');
			}
		},
	);

	it(
		'with MCP_WIRE_KILL_AFTER_MS=0 never sends SIGKILL: the server still runs 1 s after SIGTERM',
		{timeout: 120_000},
		async () => {
			const tap = spawnTap(STUBBORN, {...box.env, MCP_WIRE_KILL_AFTER_MS: '0'});
			const pid = await waitFor(
				() => (tap.stderr().includes('ready\n') ? headerPid(tap.capture) : undefined),
				HANG_MS,
				'the server to be ready',
			);
			try {
				tap.child.kill('SIGTERM');
				await new Promise((resolve) => setTimeout(resolve, 1000));
				expect(isAlive(pid)).toBe(true);
				expect(tap.child.exitCode).toBeNull();
				expect(tap.child.signalCode).toBeNull();
			} finally {
				if (isAlive(pid)) process.kill(pid, 'SIGKILL');
			}
			const end = await tap.closed;
			expect([end.code, end.signal]).toEqual([null, 'SIGKILL']);
			expect(tap.stderr()).toBe('ready\n');
			expect(marksOf(tap.capture)).toEqual(['signal-forwarded:SIGTERM', 'eof:stderr', 'eof:stdout']);
			await waitFor(() => (isAlive(pid) ? undefined : true), HANG_MS, 'the server to be gone');
		},
	);

	it(
		'ends with a server that exits 3 while a background child still holds its stdout and stderr (docs/cli.md#tap)',
		{timeout: 120_000},
		async () => {
			const server = path.join(box.dir, 'leaves-helper.mjs');
			writeFileSync(
				server,
				[
					"import {spawn} from 'node:child_process';",
					"const helper = spawn('sleep', ['120'], {stdio: ['ignore', 'inherit', 'inherit']});",
					"process.stderr.write('helper ' + helper.pid + '\\n');",
					"process.stdout.write('hello\\n', () => process.exit(3));",
					'',
				].join('\n'),
			);
			const tap = spawnTap(['node', server], box.env);
			let stdout = '';
			const hello = new Promise<number>((resolve) => {
				tap.child.stdout.on('data', (d: Buffer) => {
					stdout += d.toString('latin1');
					if (stdout.includes('\n')) resolve(Date.now());
				});
			});
			const helper = await waitFor(() => /^helper (\d+)\n/.exec(tap.stderr())?.[1], HANG_MS, 'the helper');
			try {
				const helloAt = await hello;
				const end = await tap.closed;
				// The helper sleeps 120 s: the tap ends with the server, not with it.
				expect(end.at - helloAt).toBeLessThan(30_000);
				expect([end.code, end.signal]).toEqual([3, null]);
				expect(stdout).toBe('hello\n');
				expect(tap.stderr()).toBe(
					`helper ${helper}\nmcp-wire: warning: the server exited, but a process it started still holds its stdout and stderr: stopped reading them (what that process writes from now on is not forwarded)\n`,
				);
				expect(isAlive(Number(helper))).toBe(true);
				const recorded = readCapture(tap.capture);
				expect(recorded.problems).toEqual([]);
				expect(recorded.end).toBeDefined();
				expect(marksOf(tap.capture)).toEqual(['output-given-up']);
				expect(recorded.events.at(-1)).toMatchObject({type: 'exit', exit: {code: 3, signal: null}});
				expect(recorded.streams.stdout.toString('latin1')).toBe('hello\n');
			} finally {
				if (isAlive(Number(helper))) process.kill(Number(helper), 'SIGKILL');
			}
		},
	);

	it(
		'warns once about an invalid MCP_WIRE_KILL_AFTER_MS and uses the default (1500 ms)',
		{timeout: 120_000},
		async () => {
			const end = await termStubborn({...box.env, MCP_WIRE_KILL_AFTER_MS: 'abc'});
			expect(end.tap.stderr()).toBe(
				'mcp-wire: warning: MCP_WIRE_KILL_AFTER_MS=abc is not a number of ms (0 or more); using the default (1500)\nready\n',
			);
			expect(end.signal).toBe('SIGKILL');
			expect(end.afterMs).toBeGreaterThanOrEqual(1400);
			expect(end.afterMs).toBeLessThan(HANG_MS);
			expect(marksOf(end.tap.capture)).toEqual([
				'signal-forwarded:SIGTERM',
				'sigkill-after-grace',
				'eof:stderr',
				'eof:stdout',
			]);
		},
	);

	/** A directory of exactly `length` bytes (ASCII), at least 20 more than `top`, under `top` (which it creates). */
	function deepDir(top: string, length: number): string {
		let dir = top;
		while (length - dir.length > 41) dir = path.join(dir, 'd'.repeat(20));
		dir = path.join(dir, 'e'.repeat(length - dir.length - 1));
		mkdirSync(dir, {recursive: true, mode: 0o700});
		expect(Buffer.byteLength(dir)).toBe(length);
		return dir;
	}

	/** Every Unix socket file under `dir`, recursively. */
	function socketsUnder(dir: string): string[] {
		return readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
			const file = path.join(dir, entry.name);
			if (entry.isDirectory()) return socketsUnder(file);
			return lstatSync(file).isSocket() ? [file] : [];
		});
	}

	/** Run the hash server through the tap with `env`: 200 KiB each way; returns the run and the data. */
	async function hashRun(env: Record<string, string>) {
		const sent = pseudoRandomBytes(200 * 1024, 41, 80);
		const served = pseudoRandomBytes(200 * 1024, 43, 80);
		const sendFile = path.join(box.dir, `served-${n}.bin`);
		writeFileSync(sendFile, served);
		const tap = spawnTap(['node', box.server('hash')], {
			...env,
			SEND_FILE: sendFile,
			PIECE_SEED: '3',
			PIECE_MAX: '9000',
		});
		const out: Buffer[] = [];
		tap.child.stdout.on('data', (d: Buffer) => out.push(d));
		tap.child.stdin.end(sent);
		const end = await tap.closed;
		return {end, tap, sent, served, stdout: Buffer.concat(out)};
	}

	it.skipIf(process.platform === 'win32')(
		'with a TMPDIR too long for a socket path, forwards exactly through a pipe and leaves no socket or temp dir behind',
		{timeout: 120_000},
		async () => {
			const top = path.join(box.dir, 'long-tmp');
			const longTmp = deepDir(top, Math.max(100, top.length + 20));
			expect(Buffer.byteLength(path.join(longTmp, 'mcp-wire-XXXXXX', 'pair.sock'))).toBeGreaterThan(107);
			const run = await hashRun({...box.env, TMPDIR: longTmp});
			expect([run.end.code, run.end.signal]).toEqual([0, null]);
			expect(run.stdout.length).toBe(run.served.length);
			expect(sha256(run.stdout)).toBe(sha256(run.served));
			expect(run.tap.stderr()).toBe(`sha256 ${sha256(run.sent)} ${run.sent.length}\n`);
			const recorded = readCapture(run.tap.capture);
			expect(sha256(recorded.streams.stdin)).toBe(sha256(run.sent));
			expect(sha256(recorded.streams.stdout)).toBe(sha256(run.served));
			expect(socketsUnder(top)).toEqual([]);
			expect(readdirSync(longTmp)).toEqual([]);
		},
	);

	it.skipIf(process.platform === 'win32')(
		'with XDG_RUNTIME_DIR too long for a socket path, warns once that live attach is unavailable and still forwards exactly',
		{timeout: 120_000},
		async () => {
			const top = path.join(box.dir, 'long-run');
			const longRun = deepDir(top, Math.max(120, top.length + 20));
			const run = await hashRun({...box.env, XDG_RUNTIME_DIR: longRun});
			expect([run.end.code, run.end.signal]).toEqual([0, null]);
			expect(sha256(run.stdout)).toBe(sha256(run.served));
			const lines = run.tap.stderr().split('\n');
			const warnings = lines.filter((line) => line.startsWith('mcp-wire: '));
			expect(warnings).toHaveLength(1);
			expect(warnings[0]!.startsWith('mcp-wire: warning: live attach unavailable:')).toBe(true);
			expect(warnings[0]).toContain('longer than a Unix socket path');
			expect(warnings[0]).toBe(
				`mcp-wire: warning: live attach unavailable: ${path.join(longRun, 'mcp-wire', `hash-${run.tap.child.pid}.sock`)} is longer than a Unix socket path may be (${process.platform === 'linux' ? 107 : 103} bytes); set XDG_RUNTIME_DIR to a shorter directory`,
			);
			expect(lines.filter((line) => !line.startsWith('mcp-wire: '))).toEqual([
				`sha256 ${sha256(run.sent)} ${run.sent.length}`,
				'',
			]);
			expect(socketsUnder(top)).toEqual([]);
		},
	);
});
