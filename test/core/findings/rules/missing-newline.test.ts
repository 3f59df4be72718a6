import {describe, expect, it} from 'vitest';
import {ruleTester} from '../rule-tester.js';
import {factTester} from '../fact-tester.js';
import {findingsOf, run, type Step} from '../exchange.js';
const NOTE = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

ruleTester('missing-newline', {
	valid: [
		{
			name: 'the last message ends with LF',
			steps: [
				['stdout', 0, NOTE + '\n'],
				['close', 5],
				['exit', 6],
			],
		},
	],
	invalid: [
		{
			name: 'the process exits with the last message unterminated',
			steps: [
				['stdout', 0, NOTE + '\n' + NOTE],
				['close', 5],
				['exit', 6],
			],
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: NOTE.length + 1,
					byteLength: NOTE.length,
					detail: {bytes: NOTE.length},
				},
			],
		},
	],
});

factTester('missing-newline', {
	valid: [
		{name: 'a line ended by LF', frame: {terminator: 'lf'}},
		{
			name: 'a Content-Length body cut at the end (its own missingBytes)',
			frame: {framing: 'content-length', terminator: 'none'},
		},
	],
	invalid: [
		{
			name: 'a line without terminator at the end',
			frame: {terminator: 'none', byteLength: 17, bodyLength: 17},
			drafts: [{severity: 'error', offset: 100, byteLength: 17, detail: {bytes: 17, cutAt64KiB: false}}],
		},
		{
			name: 'a small cut JSON value (no kernel buffer filled): reported at once, without waiting for the exit',
			frame: {terminator: 'none', offset: 100, byteLength: 36, isJson: false},
			facts: {content: {kind: 'cut-json'}},
			drafts: [
				{
					severity: 'error',
					offset: 100,
					byteLength: 36,
					detail: {bytes: 36, cutAt64KiB: false, isTruncatedJson: true},
				},
			],
		},
	],
});

/** The start of a 780 KB tools/list line: `{"jsonrpc":"2.0","id":1,"result":{"tools":[` and `length` bytes in all. */
function cutToolsList(length: number): string {
	const head = '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","description":"';
	return head + 'x'.repeat(length - head.length);
}

/**
 * A Node server's exit before drain as the probe sees it on a socket pair: a 155-byte initialize reply, then
 * 219,264 bytes of a tools/list line in three chunks (64 KiB, 64 KiB, the rest), stdout's EOF, then `exit`.
 */
function exitBeforeDrain(exit: Extract<Step, readonly ['exit', ...unknown[]]>): Step[] {
	const cut = cutToolsList(219_264);
	return [
		['stdout', 10, 'x'.repeat(154) + '\n'],
		['stdout', 40, cut.slice(0, 65_536)],
		['stdout', 41, cut.slice(65_536, 131_072)],
		['stdout', 43, cut.slice(131_072)],
		['mark', 44, {type: 'eof', stream: 'stdout', tMs: 44}],
		exit,
	];
}

describe('missing-newline: an exit before stdout drained (O4)', () => {
	const NODE_FIX =
		'Do not call `process.exit()` right after writing: set `process.exitCode` and return, or exit in the callback of the last write (`stdout.write(line, () => process.exit(0))`).';

	it('a large cut JSON value, then exit 0 with no signal: names the exit before drain, with the Node fix, ahead of early-exit', () => {
		const session = run(exitBeforeDrain(['exit', 60, {code: 0}]), {command: ['node', 'server.mjs']});
		const [finding] = findingsOf(session, 'missing-newline');
		expect(finding).toMatchObject({
			offset: 155,
			byteLength: 219_264,
			message:
				'the last 219,264 bytes on stdout are a JSON value cut short, and the process then exited with code 0: it exited before stdout drained',
			hint: NODE_FIX,
			detail: {bytes: 219_264, cutAt64KiB: false, isTruncatedJson: true, exitBeforeDrain: true, runtime: 'node'},
		});
		const codes = session.getSnapshot().findings.map((f) => f.code);
		expect(codes.indexOf('missing-newline')).toBeLessThan(codes.indexOf('early-exit'));
		expect(findingsOf(session, 'early-exit')[0]).toMatchObject({
			offset: 219_419,
			message:
				'the process exited (code 0) before the handshake completed, with a message still being written: stdout ends in a JSON value cut after 219,264 bytes, so it exited before stdout drained',
			hint: NODE_FIX,
			detail: {cutWriteBytes: 219_264},
		});
	});

	it('the Python fix for a Python server: flush before os._exit', () => {
		const session = run(exitBeforeDrain(['exit', 60, {code: 0}]), {command: ['python3', 'server.py']});
		expect(findingsOf(session, 'missing-newline')[0]!.hint).toBe(
			'Flush before exiting: `sys.stdout.flush()` before `os._exit()`, or return from `main` and let Python exit.',
		);
	});

	it('the same cut killed by a signal: what was seen and the likely causes, no named cause', () => {
		const session = run(exitBeforeDrain(['exit', 60, {code: null, signal: 'SIGKILL'}]), {
			command: ['node', 'server.mjs'],
		});
		const [finding] = findingsOf(session, 'missing-newline');
		expect(finding!.message).toBe('the last 219,264 bytes on stdout are a JSON value cut short, with no newline');
		expect(finding!.hint).toMatch(/^The message was cut short, not merely left without its newline\. Likely causes: /);
		expect(finding!.detail).not.toHaveProperty('exitBeforeDrain');
		expect(findingsOf(session, 'early-exit')[0]!.detail).not.toHaveProperty('cutWriteBytes');
	});

	it('the same cut with exit code 1: no named cause', () => {
		const session = run(exitBeforeDrain(['exit', 60, {code: 1}]));
		expect(findingsOf(session, 'missing-newline')[0]!.detail).not.toHaveProperty('exitBeforeDrain');
	});

	it('a capture that ends without the exit: the cut is reported once, at the end, with the likely causes', () => {
		const steps = exitBeforeDrain(['exit', 60]).slice(0, -1);
		const session = run(steps, {isComplete: false});
		const found = findingsOf(session, 'missing-newline');
		expect(found).toHaveLength(1);
		expect(found[0]!.detail).toEqual({bytes: 219_264, cutAt64KiB: false, isTruncatedJson: true});
	});

	it('a whole message without its LF keeps the newline fix, even with exit 0', () => {
		const session = run([
			['stdout', 0, NOTE],
			['mark', 1, {type: 'eof', stream: 'stdout', tMs: 1}],
			['exit', 2],
		]);
		expect(findingsOf(session, 'missing-newline')[0]).toMatchObject({
			message: `the last ${NOTE.length} bytes on stdout have no terminating newline`,
			hint: 'End every message with "\\n" and flush it.',
		});
	});

	it('a message ended by a lone CR (no LF) says so, and the fix asks for LF, not CR', () => {
		const session = run([
			['stdout', 0, `${NOTE}\r`],
			['mark', 1, {type: 'eof', stream: 'stdout', tMs: 1}],
			['exit', 2],
		]);
		expect(findingsOf(session, 'missing-newline')[0]).toMatchObject({
			offset: 0,
			byteLength: NOTE.length + 1,
			detail: {bytes: NOTE.length + 1, loneCr: true},
			message: `the last ${NOTE.length + 1} bytes on stdout end in a lone CR ("\\r"), with no LF: clients split lines on LF only and never see this one end`,
			hint: 'End every message with "\\n" (LF, 0x0A), not a lone "\\r" (CR, 0x0D), and flush it.',
		});
	});

	it('a cut JSON value under 64 KiB whose stream does not end on a 64 KiB multiple is no drain evidence', () => {
		const session = run([
			['stdout', 0, cutToolsList(40_000)],
			['mark', 1, {type: 'eof', stream: 'stdout', tMs: 1}],
			['exit', 2],
		]);
		expect(findingsOf(session, 'missing-newline')[0]!.detail).toEqual({
			bytes: 40_000,
			cutAt64KiB: false,
			isTruncatedJson: true,
		});
	});

	it('the stream cut at exactly 64 KiB (a pipe), exit recorded before the flush: names the exit before drain', () => {
		const session = run([
			['stdout', 0, 'x'.repeat(180) + '\n'],
			['stdout', 5, cutToolsList(65_355)],
			['exit', 6],
		]);
		expect(findingsOf(session, 'missing-newline')[0]!.detail).toEqual({
			bytes: 65_355,
			cutAt64KiB: true,
			isTruncatedJson: true,
			exitBeforeDrain: true,
		});
	});
});
