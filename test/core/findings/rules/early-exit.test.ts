import {describe, expect, it} from 'vitest';
import {ruleTester} from '../rule-tester.js';
import {Session} from '../../../../src/core/session/session.js';
import {bytesOf, findingsOf, handshake, INIT, INITIALIZED, initOk, META, request, run} from '../exchange.js';
import {dressFinding} from '../../../../src/core/findings/support/catalog.js';

ruleTester('early-exit', {
	valid: [{name: 'exit after stdin closed', steps: [...handshake(), ['close', 20], ['exit', 21]]}],
	invalid: [
		{
			name: 'exit 1 before the handshake',
			steps: [
				['stdin', 0, INIT],
				['stderr', 40, "KeyError: 'API_KEY'\n"],
				['exit', 41, {code: 1}],
			],
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: 0,
					byteLength: 0,
					detail: {exitCode: 1, phase: 'before-handshake', stderrTail: ["KeyError: 'API_KEY'"]},
				},
			],
		},
	],
});

describe('early-exit: the fix names a cause only when stderr or stdout shows one', () => {
	it('stderr has a line: the message quotes it and the fix points at it', () => {
		const session = run([
			['stdin', 0, INIT],
			['stderr', 40, "KeyError: 'API_KEY'\n"],
			['exit', 41, {code: 1}],
		]);
		expect(findingsOf(session, 'early-exit')[0]).toMatchObject({
			message: "the process exited (code 1) before the handshake completed; stderr ends: KeyError: 'API_KEY'",
			hint: 'Read the stderr tail: the server crashed or printed usage. Check the command, its arguments and the environment the client passes.',
		});
	});

	it('exit 0 with an empty stderr: says stderr is empty and lists the likely causes', () => {
		const session = run([...handshake(), ['exit', 30, {code: 0}]]);
		const [finding] = findingsOf(session, 'early-exit');
		expect(finding!.message).toBe('the process exited (code 0) in the middle of the session; stderr is empty');
		expect(finding!.hint).toMatch(/^It exited on purpose \(code 0\) and said nothing on stderr\. Likely causes: /);
		expect(finding!.hint).not.toMatch(/Read the stderr tail/);
	});

	it('without a stderr tail (explain, the docs): points at stderr, never says it was empty', () => {
		const finding = dressFinding({code: 'early-exit', stream: 'stdout', offset: 0, byteLength: 0, tMs: 0});
		expect(finding.hint).toBe(
			"Read the server's stderr for the reason (the client logs it; `mcp-wire probe -- <command>` shows it too): a crash, usage text or a missing setting. Check the command, its arguments and the environment the client passes.",
		);
	});

	it('exit 1 with an empty stderr: no pointer at an empty stderr', () => {
		const session = run([
			['stdin', 0, INIT],
			['exit', 5, {code: 1}],
		]);
		expect(findingsOf(session, 'early-exit')[0]!.hint).toBe(
			'It said nothing on stderr. Check the command, its arguments and the environment the client passes; run the command by hand to see its output.',
		);
	});
});

describe('early-exit and no-response: variables that matter the server did not get (C3)', () => {
	const meta = {...META, envStripped: ['NODE_EXTRA_CA_CERTS']};

	it('early-exit after a certificate error names NODE_EXTRA_CA_CERTS and --inherit-env before the stderr advice', () => {
		const session = new Session(meta);
		session.pushChunk('stdin', 0, bytesOf(INIT));
		session.pushChunk('stderr', 30, bytesOf('npm error code UNABLE_TO_GET_ISSUER_CERT_LOCALLY\n'));
		session.exit({code: 1, signal: null, tMs: 31});
		session.finish(31);
		const [finding] = findingsOf(session, 'early-exit');
		expect(finding!.detail).toMatchObject({envStripped: ['NODE_EXTRA_CA_CERTS']});
		expect(finding!.hint).toBe(
			"Your shell sets `NODE_EXTRA_CA_CERTS`, which the server did not get (a client passes only a few variables, C3); a server that needs a CA certificate, a proxy or a package registry stalls or exits without it. Probe again with `--inherit-env` (or `--env NODE_EXTRA_CA_CERTS`); if it then works, add it to the server's `env` in the client config. Otherwise: read the stderr tail: the server crashed or printed usage. Check the command, its arguments and the environment the client passes.",
		);
	});

	it('early-exit with code 3 and an empty stderr gives its own advice first, the stripped variable after', () => {
		const session = new Session(meta);
		session.pushChunk('stdin', 0, bytesOf(INIT));
		session.exit({code: 3, signal: null, tMs: 31});
		session.finish(31);
		expect(findingsOf(session, 'early-exit')[0]!.hint).toBe(
			"It said nothing on stderr. Check the command, its arguments and the environment the client passes; run the command by hand to see its output. Also: your shell sets `NODE_EXTRA_CA_CERTS`, which the server did not get (a client passes only a few variables, C3); a server that needs a CA certificate, a proxy or a package registry stalls or exits without it. Probe again with `--inherit-env` (or `--env NODE_EXTRA_CA_CERTS`); if it then works, add it to the server's `env` in the client config.",
		);
	});

	it('no-response without evidence of the network: "move slow start-up work" first, then the variable', () => {
		const stall = (sessionMeta: typeof META) => {
			const session = new Session(sessionMeta);
			session.pushChunk('stdin', 0, bytesOf(INIT));
			session.mark({type: 'observed', what: 'no-reply', offset: 0, tMs: 30_000, detail: {timeoutMs: 30_000}});
			session.finish(34_000);
			return findingsOf(session, 'no-response')[0]!;
		};
		expect(stall(meta).hint).toMatch(
			/^The server blocks before its read loop: move slow start-up work.* Also: your shell sets `NODE_EXTRA_CA_CERTS`, which the server did not get /,
		);
		expect(stall(META).hint).toMatch(/^The server blocks before its read loop: move slow start-up work/);
		expect(stall({...meta, envMode: 'inherit'}).detail).not.toHaveProperty('envStripped');
	});
});

describe('early-exit: a server that parses each read of stdin as one message', () => {
	// `initialized` and `tools/list` written back to back land in one read; the parser finds the second
	// message after the first: Python `Extra data … (char 55)`, Node `… after JSON at position 55` (55: the
	// first message's bytes with its LF).
	const opening = (stderr: string) =>
		[
			['stdin', 0, INIT],
			['stdout', 10, initOk()],
			['stdin', 11, `${JSON.stringify(INITIALIZED)}\n${JSON.stringify(request(1, 'tools/list'))}\n`],
			['stderr', 12, stderr],
			['exit', 13, {code: 1}],
		] as const;
	const at = bytesOf(INIT).length + bytesOf(INITIALIZED).length;

	it('Python and Node: names the read, the second message at its stdin offset, and the line-reading fix', () => {
		for (const stderr of [
			'json.decoder.JSONDecodeError: Extra data: line 2 column 1 (char 55)\n',
			'SyntaxError: Unexpected non-whitespace character after JSON at position 55 (line 2 column 1)\n',
		]) {
			const [finding] = findingsOf(run([...opening(stderr)]), 'early-exit');
			expect(bytesOf(INITIALIZED).length).toBe(55);
			expect(finding!.detail).toMatchObject({readTogether: {offset: at, position: 55}});
			expect(finding!.hint).toBe(
				`The server parses each read of stdin as one message, but a pipe carries bytes, not messages: two messages written back to back came in one read, and its JSON parser stopped at the second (position 55, stdin offset ${at}). Any client can write that way. Read stdin line by line and parse each line: Python \`for line in sys.stdin\`, Node \`readline\`, Rust \`BufRead::lines\`, Go \`bufio.Scanner\`.`,
			);
		}
	});

	it('the same parse error at a position no message ends at is no evidence of it', () => {
		const [finding] = findingsOf(
			run([...opening('json.decoder.JSONDecodeError: Extra data: line 1 column 9 (char 8)\n')]),
			'early-exit',
		);
		expect(finding!.detail?.['readTogether']).toBeUndefined();
		expect(finding!.hint).toMatch(/^Read the stderr tail/);
	});
});
