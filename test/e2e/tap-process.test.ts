import {readFileSync, statSync, truncateSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {decodeRecords} from '../../src/core/capture/record-codec.js';
import {BIN, readCapture, scratch, waitFor, type Scratch} from './tap-helpers.js';

describe('tap process behaviour (real processes)', () => {
	let box: Scratch;
	beforeAll(() => {
		box = scratch();
	});
	afterAll(() => box.remove());

	let n = 0;
	const capturePath = (): string => path.join(box.dir, `p-${++n}.ndjson`);

	/** Start a tap on a fixture server; resolves once the server said `ready` on stderr. */
	async function startTap(server: keyof typeof import('./tap-helpers.js').SERVERS, args: string[] = [], capture = capturePath()) {
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
		const result = await execa('node', [BIN, 'tap', '--capture', capture, '--', 'node', box.server('exit'), String(code), 'now'], {env: box.env, extendEnv: false, reject: false, stdin: 'pipe'});
		expect(result.exitCode).toBe(code);
		expect(result.stdout).toBe('');
		expect(result.stderr).toBe('');
		expect(readCapture(capture).events.at(-1)).toMatchObject({type: 'exit', exit: {code, signal: null}});
	});

	it('reports a command that cannot start in one line, exits 127 and records spawn-failed', async () => {
		const capture = capturePath();
		const result = await execa('node', [BIN, 'tap', '--capture', capture, '--', 'no-such-server-xyz', '--flag'], {env: box.env, extendEnv: false, reject: false});
		expect(result.exitCode).toBe(127);
		expect(result.stdout).toBe('');
		expect(result.stderr).toBe('mcp-wire: cannot start "no-such-server-xyz": command not found (ENOENT)');
		const recorded = readCapture(capture);
		expect(recorded.events.map((e) => (e.type === 'finding' ? [e.finding.code, e.finding.origin] : e.type))).toEqual([['spawn-failed', 'probe']]);
	});

	it('forwards SIGTERM to the server and exits with the code it chose', async () => {
		const tap = await startTap('signals');
		await waitFor(() => (tap.stderr().includes('ready') ? true : undefined), 10_000, 'ready');
		tap.child.kill('SIGTERM');
		const result = await tap.child;
		expect(tap.stderr()).toBe('ready\ngot SIGTERM\n');
		expect(result.exitCode).toBe(42);
		expect(result.signal).toBeUndefined();
		const marks = readCapture(tap.capture).events.flatMap((e) => (e.type === 'mark' && e.mark.type === 'phase' ? [e.mark.name] : []));
		expect(marks).toEqual(['signal-forwarded:SIGTERM']);
	});

	it.each(['SIGINT', 'SIGHUP'] as const)('forwards %s and dies of it when the server does', async (signal) => {
		const tap = await startTap('signals');
		await waitFor(() => (tap.stderr().includes('ready') ? true : undefined), 10_000, 'ready');
		tap.child.kill(signal);
		const result = await tap.child;
		expect(tap.stderr()).toBe(`ready\ngot ${signal}\n`);
		expect(result.signal).toBe(signal);
		expect(readCapture(tap.capture).events.at(-1)).toMatchObject({type: 'exit', exit: {code: null, signal}});
	});

	it('forwards stdin EOF (stdin-closed mark) and relays both ways until then', async () => {
		const tap = await startTap('signals');
		await waitFor(() => (tap.stderr().includes('ready') ? true : undefined), 10_000, 'ready');
		tap.child.stdin.write('{"jsonrpc":"2.0","method":"x"}\n');
		await waitFor(() => (tap.stdout() === '{"jsonrpc":"2.0","method":"x"}\n' ? true : undefined), 10_000, 'echo');
		tap.child.stdin.end();
		const result = await tap.child;
		expect(result.exitCode).toBe(0);
		expect(tap.stderr()).toBe('ready\nstdin closed\n');
		const recorded = readCapture(tap.capture);
		const order = recorded.events.flatMap((e) => (e.type === 'mark' ? [e.mark.type === 'eof' ? `eof:${e.mark.stream}` : e.mark.type] : e.type === 'chunk' ? [e.chunk.stream] : []));
		expect(order.indexOf('stdin-closed')).toBeGreaterThan(order.indexOf('stdin'));
		expect(order.filter((o) => o.startsWith('eof:')).sort()).toEqual(['eof:stderr', 'eof:stdout']);
	});

	it('closes its stdout when the server closes its stdout, while both still run', async () => {
		const tap = await startTap('closeStdout');
		let isEnded = false;
		tap.child.stdout.on('end', () => (isEnded = true));
		tap.child.stdin.write('hello\n');
		await waitFor(() => (isEnded ? true : undefined), 10_000, 'our stdout to end');
		expect(tap.stdout()).toBe('hello\n');
		expect(tap.child.exitCode).toBeNull();
		tap.child.stdin.end();
		const result = await tap.child;
		expect(result.exitCode).toBe(0);
		expect(tap.stderr()).toBe('stdout closed\n');
	});

	it('leaves a capture that opens after SIGKILL mid-transfer; a cut last line is reported by view', {timeout: 30_000}, async () => {
		const tap = await startTap('flood');
		tap.child.stdout.resume();
		await waitFor(() => {
			try {
				return statSync(tap.capture).size > 4 * 1024 * 1024 ? true : undefined;
			} catch {
				return undefined;
			}
		}, 20_000, 'a 4 MiB capture');
		tap.child.kill('SIGKILL');
		const result = await tap.child;
		expect(result.signal).toBe('SIGKILL');

		// The file as the kill left it decodes: a header and whole records, at worst a cut last line.
		const text = readFileSync(tap.capture, 'utf8');
		const decoded = decodeRecords(text);
		expect(decoded.header?.mode).toBe('tap');
		expect(decoded.problems.filter((p) => !decoded.isTruncated || p.line !== text.split('\n').length)).toEqual([]);
		expect(decoded.events.filter((e) => e.type === 'chunk').length).toBeGreaterThan(10);
		const viewed = await execa('node', [BIN, 'view', '--no-tui', tap.capture], {env: box.env, extendEnv: false, reject: false});
		expect(viewed.exitCode).not.toBe(2);
		expect(viewed.stdout.split('\n')[0]).toMatch(/^mcp-wire \S+ \(tap\)/);

		// Cut the file inside its last record, as a kill during a write would.
		truncateSync(tap.capture, text.lastIndexOf('"base64":"') + 20);
		const lines = readFileSync(tap.capture, 'utf8').split('\n').length;
		const cut = await execa('node', [BIN, 'view', '--no-tui', tap.capture], {env: box.env, extendEnv: false, reject: false});
		expect(cut.exitCode).not.toBe(2);
		expect(cut.stderr).toContain(`${tap.capture}:${lines}: the input ends inside a record`);
		expect(cut.stderr).toContain('the capture was cut short (its last record is incomplete); showing everything before it');
		expect(cut.stdout).toContain('S→C');
	});
});
