import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {closeSync, openSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {BIN, pseudoRandomBytes, readCapture, scratch, sha256, type Scratch} from './tap-helpers.js';

/**
 * The tap's two read paths with the real CLI: the client's stdin and the server's stdout read in place
 * into the capture ring (pipes and sockets), everything else copied (a file, /dev/null); a slow client;
 * a capture that falls behind (MCP_WIRE_CAPTURE_LAG_MB); and what the server sees as its stdout.
 */

const MIB = 1024 * 1024;
const isLinux = process.platform === 'linux';
const hasPython = spawnSync('python3', ['--version']).status === 0;

/** What one run of a child produced. */
interface Run {
	readonly code: number | null;
	readonly signal: NodeJS.Signals | null;
	readonly stdout: Buffer;
	readonly stderr: string;
	/** Largest resident set size seen while it ran (bytes; 0 where /proc is missing). */
	readonly maxRss: number;
}

/** VmRSS of `pid` in bytes (0 when it cannot be read). */
function rssOf(pid: number | undefined): number {
	if (!isLinux || pid === undefined) return 0;
	try {
		const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match ? Number(match[1]) * 1024 : 0;
	} catch {
		return 0;
	}
}

/**
 * Run `command` with node:child_process (so stdin may be any fd), collect its output, and sample its
 * RSS. `read` lets the caller consume stdout its own way (default: as fast as it comes).
 */
async function run(
	command: readonly string[],
	options: {
		stdin: 'pipe' | 'ignore' | number;
		env: Record<string, string>;
		read?: (child: ChildProcess, parts: Buffer[]) => void;
		onSpawn?: (child: ChildProcess) => void;
	},
): Promise<Run> {
	const child = spawn(command[0]!, command.slice(1), {stdio: [options.stdin, 'pipe', 'pipe'], env: options.env});
	const out: Buffer[] = [];
	const err: Buffer[] = [];
	child.stderr!.on('data', (d: Buffer) => err.push(d));
	if (options.read) options.read(child, out);
	else child.stdout!.on('data', (d: Buffer) => out.push(d));
	options.onSpawn?.(child);
	let maxRss = 0;
	const sampler = setInterval(() => {
		maxRss = Math.max(maxRss, rssOf(child.pid));
	}, 50);
	const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
		child.on('error', reject);
		child.on('close', (c, s) => resolve([c, s]));
	});
	clearInterval(sampler);
	return {code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), maxRss};
}

describe('tap read paths (real processes)', () => {
	let box: Scratch;
	let hashServer: string;
	beforeAll(() => {
		box = scratch();
		hashServer = box.server('hash');
	});
	afterAll(() => box.remove());

	let n = 0;
	const capturePath = (): string => path.join(box.dir, `in-place-${++n}.ndjson`);

	/** Marks of a capture as short strings, in order (process evidence, recorded at stalls and the exit, left out). */
	const marksOf = (events: ReturnType<typeof readCapture>['events']): string[] =>
		events.flatMap((e) =>
			e.type === 'mark' && e.mark.type !== 'evidence'
				? [
						e.mark.type === 'eof'
							? `eof:${e.mark.stream}`
							: e.mark.type === 'phase'
								? `phase:${e.mark.name}`
								: e.mark.type,
					]
				: [],
		);

	it(
		'copies stdin from a regular file: the server gets every byte, the capture has them',
		{timeout: 60_000},
		async () => {
			const data = pseudoRandomBytes(3 * MIB + 12_345, 11, 50);
			const input = path.join(box.dir, 'stdin.bin');
			writeFileSync(input, data);
			const capture = capturePath();
			const fd = openSync(input, 'r');
			let result: Run;
			try {
				result = await run(['node', BIN, 'tap', '--capture', capture, '--', 'node', hashServer], {
					stdin: fd,
					env: box.env,
				});
			} finally {
				closeSync(fd);
			}

			expect(result.code).toBe(0);
			expect(result.stdout.length).toBe(0);
			expect(result.stderr).toBe(`sha256 ${sha256(data)} ${data.length}\n`);
			const recorded = readCapture(capture);
			expect(recorded.problems).toEqual([]);
			expect(recorded.streams.stdin.length).toBe(data.length);
			expect(sha256(recorded.streams.stdin)).toBe(sha256(data));
			expect(recorded.streams.stderr.toString('utf8')).toBe(result.stderr);
			expect(marksOf(recorded.events).sort()).toEqual(['eof:stderr', 'eof:stdout', 'stdin-closed']);
			expect(recorded.events.at(-1)).toMatchObject({type: 'exit', exit: {code: 0, signal: null}});
		},
	);

	it(
		'copies stdin from /dev/null: the server sees EOF at once, the capture records no stdin bytes',
		{timeout: 120_000},
		async () => {
			const capture = capturePath();
			const fd = openSync('/dev/null', 'r');
			let result: Run;
			try {
				result = await run(['node', BIN, 'tap', '--capture', capture, '--', 'node', hashServer], {
					stdin: fd,
					env: box.env,
				});
			} finally {
				closeSync(fd);
			}

			expect(result.code).toBe(0);
			expect(result.stdout.length).toBe(0);
			expect(result.stderr).toBe(`sha256 ${sha256(Buffer.alloc(0))} 0\n`);
			const recorded = readCapture(capture);
			expect(recorded.problems).toEqual([]);
			expect(recorded.events.filter((e) => e.type === 'chunk' && e.chunk.stream === 'stdin')).toEqual([]);
			expect(marksOf(recorded.events).sort()).toEqual(['eof:stderr', 'eof:stdout', 'stdin-closed']);
		},
	);

	it.each([
		{mode: 'capturing', args: ['--capture']},
		{mode: 'with --no-capture', args: ['--no-capture']},
	])(
		'gives a slow client every byte of 8 MiB (backpressure, writes in flight kept), $mode, memory bounded',
		{timeout: 120_000},
		async ({args}) => {
			const data = pseudoRandomBytes(8 * MIB, 23, 5000);
			const sendFile = path.join(box.dir, 'slow.bin');
			writeFileSync(sendFile, data);
			const capture = capturePath();
			let pauses = 0;
			const result = await run(
				['node', BIN, 'tap', ...(args[0] === '--capture' ? ['--capture', capture] : args), '--', 'node', hashServer],
				{
					stdin: 'pipe',
					env: {...box.env, SEND_FILE: sendFile, PIECE_SEED: '5', PIECE_MAX: '100000'},
					onSpawn: (child) => child.stdin!.end(),
					read: (child, parts) => {
						// Read a piece, then stop reading for a while: the pipe fills and the tap must hold the server.
						child.stdout!.on('data', (d: Buffer) => {
							parts.push(d);
							child.stdout!.pause();
							pauses++;
							setTimeout(() => child.stdout!.resume(), pauses % 8 === 0 ? 40 : 2);
						});
					},
				},
			);
			expect(result.code).toBe(0);
			expect(result.stdout.length).toBe(data.length);
			expect(sha256(result.stdout)).toBe(sha256(data));
			expect(result.stderr).toBe(`sha256 ${sha256(Buffer.alloc(0))} 0\n`);
			expect(pauses).toBeGreaterThan(16);
			if (args[0] === '--capture') {
				const recorded = readCapture(capture);
				expect(recorded.problems).toEqual([]);
				expect(sha256(recorded.streams.stdout)).toBe(sha256(data));
			}

			// Generous (about 80 MiB seen): Node, the worker and the ring's touched pages. A copy per read
			// kept alive, or the payload buffered, would show.
			if (isLinux) expect(result.maxRss).toBeLessThan(256 * MIB);
		},
	);

	it.each([
		{mode: 'capturing', args: ['--capture']},
		{mode: 'with --no-capture', args: ['--no-capture']},
	])(
		'gives a slow server every byte of 8 MiB from a piped stdin (read in place), $mode',
		{timeout: 120_000},
		async ({args}) => {
			const data = pseudoRandomBytes(8 * MIB, 29, 50);
			const slowServer = path.join(box.dir, 'slow-reader.mjs');
			writeFileSync(
				slowServer,
				[
					"import {createHash} from 'node:crypto';",
					"const hash = createHash('sha256');",
					'let received = 0, reads = 0;',
					"process.stdin.on('data', (d) => {",
					'  hash.update(d); received += d.length; reads++;',
					'  process.stdin.pause();',
					'  setTimeout(() => process.stdin.resume(), reads % 8 === 0 ? 40 : 2);',
					'});',
					"process.stdin.on('end', () => process.stderr.write('sha256 ' + hash.digest('hex') + ' ' + received + ' ' + (reads > 16) + '\\n'));",
					'',
				].join('\n'),
			);
			const capture = capturePath();
			const result = await run(
				['node', BIN, 'tap', ...(args[0] === '--capture' ? ['--capture', capture] : args), '--', 'node', slowServer],
				{
					stdin: 'pipe',
					env: box.env,
					onSpawn: (child) => {
						child.stdin!.end(data);
					},
				},
			);
			expect(result.code).toBe(0);
			expect(result.stdout.length).toBe(0);
			expect(result.stderr).toBe(`sha256 ${sha256(data)} ${data.length} true\n`);
			if (args[0] === '--capture') {
				const recorded = readCapture(capture);
				expect(recorded.problems).toEqual([]);
				expect(sha256(recorded.streams.stdin)).toBe(sha256(data));
			}
		},
	);

	it(
		'with MCP_WIRE_CAPTURE_LAG_MB=1 and --capture-wait 60000 forwards 16 MiB exactly and captures all of it: reading waits for the capture (docs/performance.md#tap-forwarding-and-capture)',
		{timeout: 180_000},
		async () => {
			const data = pseudoRandomBytes(16 * MIB, 37, 5000);
			const sendFile = path.join(box.dir, 'waited.bin');
			writeFileSync(sendFile, data);
			const capture = capturePath();
			const result = await run(
				['node', BIN, 'tap', '--capture', capture, '--capture-wait', '60000', '--', 'node', hashServer],
				{
					stdin: 'pipe',
					env: {...box.env, SEND_FILE: sendFile, PIECE_SEED: '3', PIECE_MAX: '262144', MCP_WIRE_CAPTURE_LAG_MB: '1'},
					onSpawn: (child) => child.stdin!.end(),
				},
			);
			expect(result.code).toBe(0);
			expect(result.stdout.length).toBe(data.length);
			expect(sha256(result.stdout)).toBe(sha256(data));
			const lines = result.stderr.split('\n').filter((line) => line !== '');
			expect(lines.filter((line) => !line.startsWith('mcp-wire: '))).toEqual([`sha256 ${sha256(Buffer.alloc(0))} 0`]);
			const recorded = readCapture(capture);
			expect(recorded.problems).toEqual([]);
			expect(recorded.streams.stdout.length).toBe(data.length);
			expect(sha256(recorded.streams.stdout)).toBe(sha256(data));
			expect(recorded.events.filter((e) => e.type === 'mark' && e.mark.type === 'gap')).toEqual([]);
			// Whether the 1 MiB capture buffer filled depends on the machine (the held-writer test in
			// test/tap/capture-wait.test.ts makes it fill); when it did, the end record counts the waits and
			// stderr has the one line that says so, with the limit given on the command line.
			const end = recorded.end;
			expect(end).toMatchObject({complete: true, gaps: 0, missing: {stdin: 0, stdout: 0, stderr: 0}});
			const stalls = end?.stalls;
			expect(stalls?.timedOut ?? 0).toBe(0);
			expect(lines.filter((line) => line.startsWith('mcp-wire: '))).toEqual(
				stalls === undefined
					? []
					: [
							`mcp-wire: warning: reading paused ${stalls.count} time${stalls.count === 1 ? '' : 's'} for the capture to catch up (${stalls.totalMs} ms in all, longest ${stalls.longestMs} ms; --capture-wait 60000 ms each at most) (${capture})`,
						],
			);
		},
	);

	it(
		'with MCP_WIRE_CAPTURE_LAG_MB=1 and --capture-wait 0 forwards 64 MiB exactly; what the capture could not hold is in gap records of exact length (docs/capture-format.md#gaps-and-incomplete-captures)',
		{timeout: 180_000},
		async () => {
			const data = pseudoRandomBytes(64 * MIB, 31, 5000);
			const sendFile = path.join(box.dir, 'fast.bin');
			writeFileSync(sendFile, data);
			const capture = capturePath();
			const result = await run(
				['node', BIN, 'tap', '--capture', capture, '--capture-wait', '0', '--', 'node', hashServer],
				{
					stdin: 'pipe',
					env: {...box.env, SEND_FILE: sendFile, PIECE_SEED: '9', PIECE_MAX: '262144', MCP_WIRE_CAPTURE_LAG_MB: '1'},
					onSpawn: (child) => child.stdin!.end(),
				},
			);
			expect(result.code).toBe(0);
			expect(result.stdout.length).toBe(data.length);
			expect(sha256(result.stdout)).toBe(sha256(data));
			const lines = result.stderr.split('\n');
			expect(lines.at(-1)).toBe('');
			const warnings = lines.filter((line) => line.startsWith('mcp-wire: '));
			expect(lines.filter((line) => line !== '' && !line.startsWith('mcp-wire: '))).toEqual([
				`sha256 ${sha256(Buffer.alloc(0))} 0`,
			]);

			const recorded = readCapture(capture);
			expect(recorded.problems).toEqual([]);
			expect(recorded.header?.mode).toBe('tap');
			// Chunks and gaps tile stdout from 0 to its end; every recorded chunk holds the bytes at its offset.
			let offset = 0;
			let missing = 0;
			let gaps = 0;
			for (const event of recorded.events) {
				if (event.type === 'chunk' && event.chunk.stream === 'stdout') {
					expect(event.chunk.offset).toBe(offset);
					expect(Buffer.from(event.chunk.bytes).equals(data.subarray(offset, offset + event.chunk.bytes.length))).toBe(
						true,
					);
					offset += event.chunk.bytes.length;
				} else if (event.type === 'mark' && event.mark.type === 'gap' && event.mark.stream === 'stdout') {
					expect(event.mark.offset).toBe(offset);
					expect(event.mark.reason).toBe('lag');
					offset += event.mark.length;
					missing += event.mark.length;
					gaps++;
				}
			}

			expect(offset).toBe(data.length);
			expect(recorded.end).toEqual({
				complete: gaps === 0,
				recorded: {stdin: 0, stdout: data.length - missing, stderr: recorded.streams.stderr.length},
				missing: {stdin: 0, stdout: missing, stderr: 0},
				gaps,
			});
			if (gaps === 0) {
				expect(warnings).toEqual([]);
			} else {
				expect(warnings).toHaveLength(2);
				expect(warnings[0]).toMatch(
					/^mcp-wire: warning: the capture fell \d+ bytes behind forwarding \(MCP_WIRE_CAPTURE_LAG_MB\); reads it has no room for are not recorded \(a gap record marks them\) until it catches up; forwarding goes on \(.*\.ndjson\)$/,
				);
				expect(warnings[1]).toBe(
					`mcp-wire: warning: the capture is incomplete: ${missing} bytes of stdout not recorded (gap records mark them) (${capture})`,
				);
			}

			// Marks and the exit are recorded whatever was dropped.
			const marks = marksOf(recorded.events).filter((m) => !m.startsWith('gap'));
			expect(marks.sort()).toEqual(['eof:stderr', 'eof:stdout', 'stdin-closed']);
			expect(recorded.events.at(-1)).toMatchObject({type: 'exit', exit: {code: 0, signal: null}});
		},
	);

	it.skipIf(!isLinux || !hasPython)(
		'gives the server the same kind of stdio fds as a plain Node pipe: AF_UNIX stream sockets, blocking',
		{timeout: 120_000},
		async () => {
			const script = path.join(box.dir, 'fd-kinds.py');
			writeFileSync(
				script,
				[
					'import os, socket, sys',
					'kinds = []',
					'for fd in (0, 1, 2):',
					'    link = os.readlink("/proc/self/fd/%d" % fd).split(":")[0]',
					'    try:',
					'        s = socket.socket(fileno=fd)',
					'        kind = "%s/%s" % (s.family.name, s.type.name)',
					'        s.detach()',
					'    except OSError as e:',
					'        kind = "not-a-socket"',
					'    kinds.append("%d=%s:%s:%s" % (fd, link, kind, "blocking" if os.get_blocking(fd) else "nonblocking"))',
					'sys.stderr.write(" ".join(kinds) + "\\n")',
					'sys.stdout.write("hello\\n")',
					'',
				].join('\n'),
			);
			const plain = await run(['python3', script], {
				stdin: 'pipe',
				env: box.env,
				onSpawn: (child) => child.stdin!.end(),
			});
			const capture = capturePath();
			const tapped = await run(['node', BIN, 'tap', '--capture', capture, '--', 'python3', script], {
				stdin: 'pipe',
				env: box.env,
				onSpawn: (child) => child.stdin!.end(),
			});
			const expected =
				'0=socket:AF_UNIX/SOCK_STREAM:blocking 1=socket:AF_UNIX/SOCK_STREAM:blocking 2=socket:AF_UNIX/SOCK_STREAM:blocking\n';
			expect(plain.stderr).toBe(expected);
			expect(tapped.stderr).toBe(expected);
			expect([tapped.code, tapped.stdout.toString('utf8')]).toEqual([0, 'hello\n']);
			expect(readCapture(capture).streams.stdout.toString('utf8')).toBe('hello\n');
		},
	);
});
