import path from 'node:path';
import {execa} from 'execa';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {notUtf8Warnings} from '../../src/cli/commands/tap.js';
import {BIN, readCapture, scratch, type Scratch} from './tap-helpers.js';

/**
 * The capturing user's home and name travel in the capture header, so a report made by someone else
 * redacts the capturing user's paths, not the viewer's (docs/cli.md#report).
 */
describe('tap: the capture records who captured it; report redacts with that (real processes)', () => {
	let box: Scratch;
	beforeAll(() => {
		box = scratch();
	});
	afterAll(() => box.remove());

	it(
		'a capture made with HOME=/home/alice USER=alice, reported with HOME=/home/bob USER=bob, hides alice',
		{timeout: 120_000},
		async () => {
			const capture = path.join(box.dir, 'alice.ndjson');
			const server = 'echo "cannot open /home/alice/project/config.json (owner alice)" >&2; exit 3';
			const tapped = await execa('node', [BIN, 'tap', '--capture', capture, '--', 'sh', '-c', server], {
				env: {...box.env, HOME: '/home/alice', USER: 'alice', LOGNAME: 'alice'},
				extendEnv: false,
				reject: false,
				stdin: 'pipe',
			});
			expect(tapped.exitCode).toBe(3);
			expect(readCapture(capture).header).toMatchObject({home: '/home/alice', user: 'alice', capturePath: capture});

			const reported = await execa('node', [BIN, 'report', capture, '--max-lines', '400'], {
				env: {...box.env, HOME: '/home/bob', USER: 'bob', LOGNAME: 'bob'},
				extendEnv: false,
				reject: false,
			});
			expect(reported.stderr).toBe('');
			expect(reported.stdout).toContain('cannot open ~/project/config.json (owner <user>)');
			expect(reported.stdout).not.toMatch(/alice/);
		},
	);
});

describe('tap: arguments that are not UTF-8', () => {
	it('unit: names each argument whose raw bytes are not UTF-8, from the raw argv', () => {
		const raw = Buffer.concat([
			Buffer.from('node\0/x/mcp-wire.js\0tap\0--\0srv\0ok\uFFFD\0'),
			Buffer.from([0x61, 0xff, 0x62, 0]),
		]);
		// "ok\uFFFD" is valid UTF-8 as written (EF BF BD); only the last argument was not.
		expect(notUtf8Warnings(['srv', 'ok\uFFFD', 'a\uFFFDb'], () => raw)).toEqual([
			'argument 2 of the server command is not valid UTF-8; Node can pass arguments on only as UTF-8 text, so the server gets EF BF BD (U+FFFD) in place of each bad byte',
		]);
		expect(notUtf8Warnings(['srv', 'plain'], () => raw)).toEqual([]);
		// Without the raw argv (not Linux): an argument holding U+FFFD may have been changed.
		expect(notUtf8Warnings(['srv', 'a\uFFFDb'], () => undefined)).toEqual([
			'argument 1 of the server command holds U+FFFD: if it was not valid UTF-8, the server gets EF BF BD in place of each bad byte (Node can pass arguments on only as UTF-8 text)',
		]);
	});

	it.runIf(process.platform === 'linux')(
		'warns once on stderr, and the server gets EF BF BD for the bad byte (the documented limit)',
		{timeout: 120_000},
		async () => {
			// Only a launcher that takes bytes can pass a non-UTF-8 argument: Python's subprocess does.
			const script = [
				'import subprocess, sys',
				"r = subprocess.run([b'node', sys.argv[1].encode(), b'tap', b'--no-capture', b'--', b'sh', b'-c', b'printf %s \"$1\" | od -An -tx1 >&2', b'sh', b'a\\xffb'], capture_output=True, stdin=subprocess.DEVNULL)",
				'sys.stdout.write(repr((r.returncode, r.stdout, r.stderr)))',
			].join('\n');
			const result = await execa('python3', ['-c', script, BIN], {reject: false});
			expect(result.stdout).toBe(
				"(0, b'', b'mcp-wire: warning: argument 4 of the server command is not valid UTF-8; Node can pass arguments on only as UTF-8 text, so the server gets EF BF BD (U+FFFD) in place of each bad byte\\n 61 ef bf bd 62\\n')",
			);
		},
	);
});
