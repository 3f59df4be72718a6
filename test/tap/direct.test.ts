/**
 * The tap with too few file descriptors (docs/cli.md#too-few-file-descriptors): the headroom read from
 * `/proc`, the server command found in a `tap` command line, and the decision to run the server on the
 * client's stdio (one warning line) or to leave it to the full tap.
 */
import {describe, expect, it} from 'vitest';
import {fdHeadroom, TAP_FREE_FDS, tapCommandOf, tapWithFewDescriptors} from '../../src/tap/direct.js';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            24                   24                   files
Max locked memory         8388608              8388608              bytes
`;

describe('fdHeadroom', () => {
	it('reads the soft limit and counts the descriptors below it, less the listing’s own', () => {
		const fds = ['0', '1', '2', '3', '4', '5', '19', '251'];
		expect(fdHeadroom({limits: () => LIMITS, fds: () => fds})).toEqual({limit: 24, inUse: 6});
	});

	it('is undefined for an unlimited or unreadable limit (then the full tap runs)', () => {
		const unlimited = LIMITS.replace(
			/Max open files\s+24\s+24/,
			'Max open files            unlimited            unlimited',
		);
		expect(fdHeadroom({limits: () => unlimited, fds: () => []})).toBeUndefined();
		expect(
			fdHeadroom({
				limits: () => {
					throw new Error('ENOENT');
				},
				fds: () => [],
			}),
		).toBeUndefined();
	});
});

describe('tapCommandOf', () => {
	it('takes what follows -- or the options', () => {
		expect(tapCommandOf(['--', 'node', 's.js', '--x'])).toEqual(['node', 's.js', '--x']);
		expect(tapCommandOf(['--name', 'fs', '--capture-wait', '0', '--no-capture', 'node', 's.js'])).toEqual([
			'node',
			's.js',
		]);
		expect(tapCommandOf(['--capture', 'out.ndjson', '--', 'python3', '-u', 's.py'])).toEqual(['python3', '-u', 's.py']);
	});

	it('is undefined without a command or for --help (the full CLI answers)', () => {
		expect(tapCommandOf([])).toBeUndefined();
		expect(tapCommandOf(['--'])).toBeUndefined();
		expect(tapCommandOf(['--help'])).toBeUndefined();
		expect(tapCommandOf(['--name', 'fs'])).toBeUndefined();
	});
});

describe('tapWithFewDescriptors', () => {
	it('leaves the tap to the full CLI with enough descriptors, or with none known', async () => {
		const lines: string[] = [];
		const io = {stderr: {write: (text: string) => lines.push(text)}, env: {}};
		expect(await tapWithFewDescriptors(['--', 'true'], io, {limit: 18 + TAP_FREE_FDS, inUse: 18})).toBeUndefined();
		expect(await tapWithFewDescriptors(['--', 'true'], io, undefined)).toBeUndefined();
		expect(lines).toEqual([]);
	});

	it.skipIf(process.platform === 'win32')(
		'below the headroom: one warning, the server run, its exit code mirrored',
		async () => {
			const lines: string[] = [];
			const io = {stderr: {write: (text: string) => lines.push(text)}, env: process.env};
			const ended = await tapWithFewDescriptors(['--', 'sh', '-c', 'exit 3'], io, {limit: 24, inUse: 18});
			expect(ended).toEqual({exitCode: 3});
			expect(lines).toEqual([
				"mcp-wire: warning: too few file descriptors (EMFILE: ulimit -n 24 with 18 in use leaves 6; the tap needs 26): the server runs on the client's stdio directly, with no capture, live socket or process watch\n",
			]);
		},
		30_000,
	);

	it.skipIf(process.platform === 'win32')(
		'a server killed by a signal: its signal and 128 + n',
		async () => {
			const io = {stderr: {write: () => true}, env: process.env};
			const ended = await tapWithFewDescriptors(['--', 'sh', '-c', 'kill -TERM $$'], io, {limit: 24, inUse: 18});
			expect(ended).toEqual({exitCode: 143, signal: 'SIGTERM'});
		},
		30_000,
	);

	it('a command that cannot start: one line, 127 for not found', async () => {
		const lines: string[] = [];
		const io = {stderr: {write: (text: string) => lines.push(text)}, env: process.env};
		const ended = await tapWithFewDescriptors(['--', 'mcp-wire-no-such-command'], io, {limit: 24, inUse: 18});
		expect(ended).toEqual({exitCode: 127});
		expect(lines[1]).toBe(
			'mcp-wire: cannot start "mcp-wire-no-such-command": spawn mcp-wire-no-such-command ENOENT (ENOENT)\n',
		);
	});
});
