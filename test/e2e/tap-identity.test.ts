import path from 'node:path';
import {execa} from 'execa';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {BIN, readCapture, scratch, type Scratch} from './tap-helpers.js';

/**
 * The capturing user's home and name travel in the capture header, so a report made by someone else
 * redacts the capturing user's paths, not the viewer's (issue 13 item 8).
 */
describe('tap: the capture records who captured it; report redacts with that (real processes)', () => {
	let box: Scratch;
	beforeAll(() => {
		box = scratch();
	});
	afterAll(() => box.remove());

	it('a capture made with HOME=/home/alice USER=alice, reported with HOME=/home/bob USER=bob, hides alice', {timeout: 120_000}, async () => {
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
	});
});
