import {describe, expect, it} from 'vitest';
import {ruleTester} from '../rule-tester.js';
import {Session} from '../../../../src/core/session/session.js';
import {bytesOf, codesAt, findingsOf, handshake, INIT, META, run, type Step} from '../exchange.js';

// Only a live probe sees the silence; it records an `observed` mark, and the rule derives the finding from
// it, so a replay of the dump without its finding records says the same (docs/findings.md#no-response).
const silent: Step[] = [
	['stdin', 0, INIT],
	['mark', 30_000, {type: 'observed', what: 'no-reply', offset: 0, detail: {timeoutMs: 30_000}, tMs: 30_000}],
	['close', 30_001],
	['exit', 30_002],
];

ruleTester('no-response', {
	valid: [{name: 'an answered initialize', steps: [...handshake(), ['close', 20], ['exit', 21]]}],
	invalid: [
		{
			name: 'the probe observed no reply',
			steps: silent,
			findings: [{severity: 'error', stream: 'stdout', offset: 0, byteLength: 0, detail: {timeoutMs: 30_000}}],
		},
		{
			name: "the wait was mcp-wire's own --timeout",
			steps: [
				['stdin', 0, INIT],
				[
					'mark',
					5000,
					{type: 'observed', what: 'no-reply', offset: 0, detail: {timeoutMs: 5000, ownLimit: true}, tMs: 5000},
				],
			],
			findings: [{severity: 'warning', stream: 'stdout', offset: 0, byteLength: 0, detail: {ownLimit: true}}],
		},
	],
});

it('no-response from the mark explains the unanswered initialize (no unanswered-request)', () => {
	expect(codesAt(run(silent))).toEqual(['no-response@stdout:0']);
});

it('a replayed probe finding that the mark already derived is kept once', () => {
	const session = run(silent, {finish: false});
	session.addFinding({
		code: 'no-response',
		stream: 'stdout',
		offset: 0,
		byteLength: 0,
		tMs: 30_000,
		detail: {timeoutMs: 30_000},
	});
	session.finish(30_002);
	expect(codesAt(session)).toEqual(['no-response@stdout:0']);
});

describe("no-response under mcp-wire's own --timeout with variables stripped (C3)", () => {
	const stall = (envStripped?: readonly string[]) => {
		const session = new Session({...META, ...(envStripped ? {envStripped} : {})});
		session.pushChunk('stdin', 0, bytesOf(INIT));
		session.mark({
			type: 'observed',
			what: 'no-reply',
			offset: 0,
			tMs: 3000,
			detail: {timeoutMs: 3000, ownLimit: true},
		});
		session.finish(5000);
		return findingsOf(session, 'no-response')[0]!;
	};

	it('without evidence of the network, the --timeout advice first, then the stripped variable', () => {
		const finding = stall(['NODE_EXTRA_CA_CERTS']);
		expect(finding.severity).toBe('warning');
		expect(finding.hint).toBe(
			"Probe again with `--timeout 30000` (or more) to see whether it answers within the clients' startup limits. Also: your shell sets `NODE_EXTRA_CA_CERTS`, which the server did not get (a client passes only a few variables, C3); a server that needs a CA certificate, a proxy or a package registry stalls or exits without it. Probe again with `--inherit-env` (or `--env NODE_EXTRA_CA_CERTS`); if it then works, add it to the server's `env` in the client config.",
		);
	});

	it('a stderr line about a certificate, or a process still connecting, puts the variable first', () => {
		const stalled = (detail: Record<string, unknown>) => {
			const session = new Session({...META, envStripped: ['NODE_EXTRA_CA_CERTS']});
			session.pushChunk('stdin', 0, bytesOf(INIT));
			const mark = {timeoutMs: 3000, ownLimit: true, ...detail};
			session.mark({type: 'observed', what: 'no-reply', offset: 0, tMs: 3000, detail: mark});
			session.finish(5000);
			return findingsOf(session, 'no-response')[0]!.hint;
		};
		const first =
			"Your shell sets `NODE_EXTRA_CA_CERTS`, which the server did not get (a client passes only a few variables, C3); a server that needs a CA certificate, a proxy or a package registry stalls or exits without it. Probe again with `--inherit-env` (or `--env NODE_EXTRA_CA_CERTS`); if it then works, add it to the server's `env` in the client config. Otherwise: probe again with `--timeout 30000` (or more) to see whether it answers within the clients' startup limits.";
		expect(stalled({stderrTail: ['npm error code UNABLE_TO_GET_ISSUER_CERT_LOCALLY']})).toBe(first);
		const connecting = {processes: [{pid: 7, connecting: [{remote: '104.16.0.35:443'}]}]};
		expect(stalled({stderrTail: [], procInfo: connecting})).toBe(first);
		// Sleeping on a timer with a quiet stderr is no evidence of the network: the variable comes after.
		const sleeping = {processes: [{pid: 7, connecting: [], waitingOn: 'sleeping on a timer'}]};
		expect(stalled({stderrTail: ['starting...'], procInfo: sleeping})).toMatch(
			/^Probe again with `--timeout 30000`.* Also: your shell sets/,
		);
	});

	it('without stripped variables, only the --timeout advice', () => {
		expect(stall().hint).toBe(
			"Probe again with `--timeout 30000` (or more) to see whether it answers within the clients' startup limits.",
		);
	});
});
