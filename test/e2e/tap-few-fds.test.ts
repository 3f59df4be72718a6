/**
 * The tap under a low `ulimit -n` (docs/cli.md#too-few-file-descriptors), real processes: where the full
 * tap cannot even load its modules, the server still starts and every byte is forwarded unchanged, with one
 * stderr line naming the missing descriptors.
 */
import {createHash} from 'node:crypto';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {execa} from 'execa';
import {afterAll, describe, expect, it} from 'vitest';
import {BIN} from './tap-helpers.js';

/** Echoes every line it reads on stdin back on stdout, byte for byte; exits 7 at EOF. */
const ECHO = `process.stdin.on('data', (d) => process.stdout.write(d)); process.stdin.on('end', () => { process.exitCode = 7; });`;

const dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-few-fds-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));
const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe.skipIf(process.platform !== 'linux')('tap with ulimit -n 24 (real processes)', () => {
	it(
		'forwards 300 kB byte-exact, mirrors the exit code, and says once what it gave up',
		async () => {
			const server = path.join(dir, 'echo.mjs');
			writeFileSync(server, ECHO);
			// Lines of every byte value but LF, ~300 kB.
			const input = Buffer.alloc(300_000);
			for (let i = 0; i < input.length; i++)
				input[i] = i % 97 === 96 ? 0x0a : (i * 31) % 256 === 0x0a ? 0x0b : (i * 31) % 256;
			const tap = await execa('bash', ['-c', 'ulimit -n 24 && exec node "$0" tap -- node "$1"', BIN, server], {
				input,
				encoding: 'buffer',
				reject: false,
				stripFinalNewline: false,
			});
			expect(sha(tap.stdout)).toBe(sha(input));
			expect(tap.exitCode).toBe(7);
			const lines = Buffer.from(tap.stderr)
				.toString('utf8')
				.split('\n')
				.filter((line) => line !== '');
			expect(lines).toHaveLength(1);
			expect(lines[0]).toMatch(
				/^mcp-wire: warning: too few file descriptors \(EMFILE: ulimit -n 24 with \d+ in use leaves \d+; the tap needs 26\): the server runs on the client's stdio directly, with no capture, live socket or process watch$/,
			);
		},
		{timeout: 60_000},
	);
});
